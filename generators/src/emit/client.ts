import { RESERVED_ARGUMENTS } from "@contractgen/runtime/client";
import type { ApiModel, MediaContent, Operation, Parameter } from "../model/ir.js";
import { flaggedRequired, requestOptional } from "../model/directions.js";
import { viewBodyType, viewImports } from "./direction-types.js";
import { pascalCase, uniqueNames } from "../model/naming.js";
import { supportedAlternatives } from "../model/security.js";
import { defineEmitter } from "./emitter.js";
import { clientTables } from "./client-tables.js";
import { tsHeader } from "./header.js";
import { ident, join, jsdoc, laidOutDeclaration, literal, memberDoc, objectKey, ts, typeKey, type Code } from "./ts.js";
import { mediaKind } from "./validators/index.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** Argument names a generated method keeps for itself (runtime `CallOptions` and `body`). */
const IDENTIFIER_KINDS = new Set(["email", "device_id", "handle", "platform_id", "phone_number"]);

/** Security for the runtime; undefined leaves it to whatever credentials the client holds. */
function securityOf(model: ApiModel, op: Operation): string[][] | undefined {
  if (op.security.length === 0) return model.securitySchemes.length > 0 ? [] : undefined;
  const alternatives = supportedAlternatives(model, op);
  return alternatives.length > 0 ? alternatives : undefined;
}

function statusKey(status: string): Code {
  return /^\d{3}$/.test(status) ? ts`[${Number(status)}]` : ts`[${status}]`;
}

/** The media type a method sends or reads: JSON first, then forms, then whatever is declared first. */
function pickMedia(contents: readonly MediaContent[]): MediaContent | undefined {
  return contents.find((c) => mediaKind(c.mediaType) === "json") ?? contents.find((c) => mediaKind(c.mediaType) === "form") ?? contents[0];
}

function resolveServer(url: string, variables: readonly { name: string; default: string }[]): string {
  return url.replace(/\{([^}]+)\}/g, (m, name: string) => variables.find((v) => v.name === name)?.default ?? m);
}

function durationMs(iso: string | undefined): number | undefined {
  const m = iso ? /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(iso) : null;
  if (!m) return undefined;
  const [d, h, min, s] = [m[1], m[2], m[3], m[4]].map((x) => Number(x ?? 0)) as [number, number, number, number];
  return (((d * 24 + h) * 60 + min) * 60 + s) * 1000;
}

/** Key of a parameter's argument name: parameters are unique by location and name. */
function argKey(p: Parameter): string {
  return `${p.in} ${p.name}`;
}

interface MethodPlan {
  readonly op: Operation;
  readonly argsType: string;
  readonly resultType: string;
  readonly argsRequired: boolean;
}

function operationSpec(model: ApiModel, op: Operation, argNames: ReadonlyMap<string, string>): Obj {
  const body = op.requestBody ? pickMedia(op.requestBody.contents) : undefined;
  const oauth1Params = model.securitySchemes.flatMap((s) => (s.oauth1 ? s.oauth1.parameters : []));
  const opOauth1 = op.parameters.map((p) => p.name).filter((n) => oauth1Params.includes(n));
  const batchLimit = op.limits.find((l) => l.kind === "batchItems");
  const bytesLimit = op.limits.find((l) => l.kind === "bodyBytes");
  const rateLimit = op.limits.find((l) => l.kind === "rate" && l.when === undefined);
  const windowMs = durationMs(rateLimit?.window);
  const security = securityOf(model, op);
  const server = op.servers?.[0];
  return {
    id: op.id,
    method: op.method.toUpperCase(),
    path: op.path,
    ...(server ? { server: server.url } : {}),
    parameters: op.parameters.map((p) => ({
      name: p.name,
      in: p.in,
      style: p.style,
      explode: p.explode,
      ...(argNames.get(argKey(p)) !== p.name ? { arg: argNames.get(argKey(p)) } : {}),
    })),
    ...(body ? { bodyMediaType: body.mediaType } : {}),
    ...(security ? { security } : {}),
    ...(opOauth1.length > 0 ? { oauth1Params: opOauth1 } : {}),
    ...(op.pagination ? { pagination: { request: op.pagination.request, response: op.pagination.response, items: op.pagination.items ?? "/data" } } : {}),
    ...(batchLimit && batchLimit.pointer !== undefined
      ? {
          batch: {
            pointer: batchLimit.pointer,
            ...(batchLimit.max !== undefined ? { maxItems: batchLimit.max } : {}),
            ...(bytesLimit?.max !== undefined ? { maxBytes: bytesLimit.max } : {}),
            ...(rateLimit?.requests !== undefined && windowMs !== undefined ? { rate: { requests: rateLimit.requests, windowMs } } : {}),
          },
        }
      : {}),
    ...(op.hashed.length > 0 ? { hashed: op.hashed.map((h) => ({ pointer: h.pointer, ...(IDENTIFIER_KINDS.has(h.name) ? { kind: h.name } : {}) })) } : {}),
  };
}

/** The type of `paths[path][method]`, the root every per-operation type indexes. */
function opType(op: Operation): Code {
  return ts`paths[${op.path}][${op.method}]`;
}

/** The lower-cased media type without parameters. */
function baseMediaType(mediaType: string): string {
  return (mediaType.split(";")[0] ?? "").trim().toLowerCase();
}

/** `T` with some required members optional: `Relaxed<T, "id">`. */
function relaxed(type: Code, keys: readonly string[]): Code {
  return keys.length === 0
    ? type
    : ts`Relaxed<${type}, ${join(
        keys.map((k) => ts`${k}`),
        " | ",
      )}>`;
}

function argsInterface(model: ApiModel, op: Operation, name: string, argNames: ReadonlyMap<string, string>): { code: Code; required: boolean } {
  const props: Code[] = [];
  let required = false;
  for (const p of op.parameters) {
    const where = p.in === "cookie" ? "cookie" : p.in;
    const type = ts`NonNullable<${opType(op)}["parameters"][${where}]>[${p.name}]`;
    if (p.required) required = true;
    props.push(ts`${memberDoc(p.description, { deprecated: p.deprecated })}${typeKey(argNames.get(argKey(p)) ?? p.name)}${p.required ? ts`` : ts`?`}: ${type};`);
  }
  const body = op.requestBody ? pickMedia(op.requestBody.contents) : undefined;
  if (op.requestBody && body) {
    const declared = ts`NonNullable<${opType(op)}["requestBody"]>["content"][${body.mediaType}]`;
    // What the runtime sends for the media type: JSON and forms from values of the schema's type
    // (readOnly and defaulted members may be left out), multipart from fields that may be files, anything else as is.
    const mt = baseMediaType(body.mediaType);
    // JSON bodies the contract's directions change at some depth have a view of their own
    // (readOnly members absent, defaulted ones optional); others relax their top level.
    const view = mediaKind(body.mediaType) === "json" ? viewBodyType(model, "request", op, body.mediaType, body.schema) : undefined;
    const type =
      view !== undefined
        ? view
        : mediaKind(body.mediaType) === "json"
          ? relaxed(declared, requestOptional(model, body.schema))
          : mt === "application/x-www-form-urlencoded"
            ? ts`${relaxed(declared, requestOptional(model, body.schema))} | URLSearchParams`
            : mt === "multipart/form-data"
              ? ts`MultipartBody<${declared}>`
              : ts`RawBody`;
    if (op.requestBody.required) required = true;
    props.push(ts`${memberDoc(op.requestBody.description ?? `Request body (${body.mediaType}).`)}body${op.requestBody.required ? ts`` : ts`?`}: ${type};`);
  }
  const doc = jsdoc(`Arguments of ${op.id}: its parameters by their contract names, \`body\` for the request body, and per-call options.`);
  const code =
    props.length === 0
      ? ts`${doc}export interface ${ident(name)} extends CallOptions {}
`
      : ts`${doc}export interface ${ident(name)} extends CallOptions {
${join(props)}
}
`;
  return { code, required };
}

/**
 * The type of a response body as the runtime hands it over: parsed JSON of the schema's type
 * (writeOnly members may be absent), a form's fields, a string for text, bytes otherwise.
 */
function responseBodyType(model: ApiModel, op: Operation, status: string, media: MediaContent): Code {
  const mt = baseMediaType(media.mediaType);
  const declared = ts`${opType(op)}["responses"]${statusKey(status)}["content"][${media.mediaType}]`;
  if (mt === "application/json" || mt.endsWith("+json"))
    return viewBodyType(model, "response", op, media.mediaType, media.schema, status) ?? relaxed(declared, flaggedRequired(model, media.schema, "writeOnly"));
  // Form answers (OAuth token endpoints) keep the schema's type: their members are strings in practice.
  if (mt === "application/x-www-form-urlencoded") return declared;
  if (mt.startsWith("text/")) return ts`string`;
  if (mt.includes("*")) return ts`unknown`;
  return ts`Uint8Array`;
}

function resultType(model: ApiModel, op: Operation, name: string): Code {
  const success = op.responses.filter((r) => /^2/.test(r.status));
  const parts = success.flatMap((r) => {
    const media = pickMedia(r.contents);
    return media ? [responseBodyType(model, op, r.status, media)] : [ts`undefined`];
  });
  return ts`${jsdoc(`What ${op.id} resolves with: the body of its success response.`)}export type ${ident(name)} = ${parts.length > 0 ? join(parts, " | ") : ts`unknown`};
`;
}

/** The doc comment of a client method, laid out for a member `depth` levels deep (see memberDoc). */
function methodDoc(op: Operation, depth: number): Code {
  const lines = [op.summary, op.description].filter((x): x is string => x !== undefined && x.trim() !== "");
  if (op.unspecified !== undefined) lines.push(`The contract does not show this operation's shape: ${op.unspecified}`);
  const deprecated = op.deprecated
    ? [op.deprecation?.at ? `since ${op.deprecation.at}` : "", op.deprecation?.replacedBy ? `use ${op.deprecation.replacedBy} instead` : ""].filter(Boolean).join("; ") || true
    : undefined;
  return memberDoc(lines.join("\n\n"), { deprecated, see: `${op.method.toUpperCase()} ${op.path}` }, depth);
}

/** Error body schemas an operation declares per status, for picking the error class. */
function errorSchemaTable(model: ApiModel): Obj {
  const table: Obj = {};
  for (const op of model.operations) {
    const byStatus: Obj = {};
    for (const r of op.responses) {
      if (!(r.status === "default" || /^[45]/.test(r.status))) continue;
      const media = pickMedia(r.contents);
      const ref = media && isObj(media.schema) && typeof media.schema["$ref"] === "string" ? /^#\/components\/schemas\/(.+)$/.exec(media.schema["$ref"]) : null;
      if (ref)
        byStatus[r.status] = decodeURIComponent(ref[1] as string)
          .replace(/~1/g, "/")
          .replace(/~0/g, "~");
    }
    if (Object.keys(byStatus).length > 0) table[op.id] = byStatus;
  }
  return table;
}

/**
 * `./client`: `create<Name>Client(options)`, one typed method per operation (named by its
 * operationId), `raw` for status and headers, `iterate` for paged operations, `batch` for operations
 * with batch limits, `stream` for streams. Requests and errors go through the runtime caller.
 */
export const clientEmitter = defineEmitter({
  name: "client",
  // Not `modelOnly`, though it reads only the model: it runs on this thread. On a large contract the
  // types' worker has the types, MCP, mocks and conformance (and in --watch the release diff), and
  // beside a cold run's whole types print the client and server there raised GitHub's peak memory
  // by about 110 MB, past 1 GB.
  exports: { "./client": "client" },
  dependencies: { "@contractgen/runtime": "^0.1.0" },
  emit({ model }) {
    const base = pascalCase(model.name, "Api");
    const factory = `create${base}Client`;
    const taken = new Set([...model.schemas.map((s) => s.typeName), `${base}Client`, `${base}ClientOptions`, "OperationKey"]);
    const argNames = uniqueNames(model.operations, (op) => `${op.typeName}Args`, taken);
    const resultNames = uniqueNames(model.operations, (op) => `${op.typeName}Result`, [...taken, ...argNames]);

    const plans: MethodPlan[] = [];
    const argsCode: Code[] = [];
    const laidOut = new Set<string>();
    const specs: Code[] = [];
    model.operations.forEach((op, i) => {
      // Keyed by location and name: a path `token` and a query `token` are two arguments.
      const names = new Map<string, string>();
      const renamed = uniqueNames(op.parameters, (p) => (RESERVED_ARGUMENTS.has(p.name) ? `${p.name}Param` : p.name), RESERVED_ARGUMENTS);
      op.parameters.forEach((p, j) => names.set(argKey(p), renamed[j] as string));
      const args = argsInterface(model, op, argNames[i] as string, names);
      // Laid out here as prettier would when their lines allow (most of the client's bytes),
      // else formatted: see ts-layout.ts layoutTypeDeclaration.
      argsCode.push(laidOutDeclaration(args.code, laidOut), laidOutDeclaration(resultType(model, op, resultNames[i] as string), laidOut));
      specs.push(ts`  ${objectKey(op.id)}: ${literal(operationSpec(model, op, names))},`);
      plans.push({ op, argsType: argNames[i] as string, resultType: resultNames[i] as string, argsRequired: args.required });
    });

    // The client's type is an interface of one signature per method, and its functions are made
    // at run time from the method tables in compiled/client.tables.js: TypeScript reads each
    // signature once instead of checking an arrow function and two casts per method and inferring
    // an object type of thousands of members (GitHub's API: most of the client's check time).
    const optional = (p: MethodPlan): Code => (p.argsRequired ? ts`` : ts`?`);
    const methods = plans.map((p) => ts`${methodDoc(p.op, 1)}${ident(p.op.methodName)}: (args${optional(p)}: ${ident(p.argsType)}) => Promise<${ident(p.resultType)}>;`);
    const raws = plans.map((p) => ts`    ${ident(p.op.methodName)}: (args${optional(p)}: ${ident(p.argsType)}) => Promise<RawResponse>;`);
    const paged = plans.filter((p) => p.op.pagination);
    const iterates = paged.map((p) => {
      const items = (p.op.pagination?.items ?? "/data").split("/").slice(1);
      const itemType = ts`NonNullable<${ident(p.resultType)}${join(
        items.map((s) => ts`[${s}]`),
        "",
      )}>[number]`;
      return ts`${methodDoc(p.op, 2)}${ident(p.op.methodName)}: (args${optional(p)}: Omit<${ident(p.argsType)}, ${p.op.pagination?.request ?? "cursor"}>) => AsyncGenerator<${itemType}, void, undefined>;`;
    });
    const batched = plans.filter((p) => p.op.limits.some((l) => l.kind === "batchItems"));
    const batches = batched.map(
      (p) => ts`${methodDoc(p.op, 2)}${ident(p.op.methodName)}: (args: Omit<${ident(p.argsType)}, "body"> & { readonly body: unknown }) => Promise<BatchOutcome<unknown, ${ident(p.resultType)}>[]>;`,
    );
    const streamed = plans.filter((p) => p.op.stream === "ndjson");
    const streams = streamed.map(
      (p) => ts`${methodDoc(p.op, 2)}${ident(p.op.methodName)}: (args${optional(p)}: ${ident(p.argsType)}, options?: StreamCallOptions) => AsyncGenerator<${ident(p.resultType)}, void, undefined>;`,
    );
    // Responses that are streams by their media type: NDJSON values or server-sent events, read as
    // they arrive (no reconnection: the response ends when the server ends it).
    const itemStreamed = plans.filter((p) => p.op.streamMedia !== undefined && p.op.stream !== "ndjson");
    const itemStreams = itemStreamed.map((p) => {
      const sm = p.op.streamMedia as NonNullable<Operation["streamMedia"]>;
      const item = sm.framing === "ndjson" ? ts`${opType(p.op)}["responses"]${statusKey(sm.status)}["content"][${sm.mediaType}]` : ts`ServerSentEvent`;
      return ts`${methodDoc(p.op, 2)}${ident(p.op.methodName)}: (args${optional(p)}: ${ident(p.argsType)}) => AsyncGenerator<${item}, void, undefined>;`;
    });
    const byMethod = (list: readonly MethodPlan[]): Obj => Object.fromEntries(list.map((p) => [p.op.methodName, p.op.id]));
    const methodTable: Obj = {
      call: byMethod(plans),
      // Methods whose arguments the contract requires get no `{}` default (calling one without them fails as before).
      required: plans.filter((p) => p.argsRequired).map((p) => p.op.methodName),
      iterate: byMethod(paged),
      batch: byMethod(batched),
      stream: byMethod(streamed),
      items: Object.fromEntries(itemStreamed.map((p) => [p.op.methodName, [p.op.id, (p.op.streamMedia as NonNullable<Operation["streamMedia"]>).framing]])),
    };

    const server = model.servers[0];
    const defaultBase = server ? resolveServer(server.url, server.variables) : undefined;
    const variables: Obj = {};
    for (const s of [...model.servers, ...model.operations.flatMap((o) => o.servers ?? [])]) for (const v of s.variables) variables[v.name] ??= v.default;
    const hasProblems = model.problems.length > 0;

    // Type helpers of the runtime that some argument or result types use.
    const used = join([...argsCode, ...itemStreams]).text;
    const helpers = ["MultipartBody", "RawBody", "Relaxed", "ServerSentEvent"].filter((h) => new RegExp(`\\b${h}\\b`).test(used));
    const declarationTypes = ["AuthConfig", "BatchOutcome", "CallOptions", ...helpers, "RawResponse", "RetryOptions", "StreamCallOptions"].sort();
    const codeTypes = ["CallOptions", "ErrorMapperOptions", "OperationSpec", "RawResponse", "StreamCallOptions"];
    const runtimeTypes = join(codeTypes.map((h) => ts`  type ${ident(h)},`));
    const clientName = ident(`${base}Client`);
    const optionsName = ident(`${base}ClientOptions`);
    // The client's interface, laid out here as prettier would when its lines allow (ts-layout.ts).
    const clientCode = ts`${jsdoc(`The client ${factory} makes.`)}export interface ${clientName} {
${join(methods)}
  /** The same calls, resolving with status, headers and body whatever the status. */
  raw: {
${join(raws)}
  };
  /** Paged operations as async iterators over every item of every page. */
  iterate: {
${join(iterates)}
  };
  /** Operations with batch limits: splits the items, paces requests, one outcome per request. */
  batch: {
${join(batches)}
  };
  /**
   * Streaming operations as async iterators: \`x-stream\` operations reconnect with backoff; responses
   * that are NDJSON or server-sent events yield their items until the server ends the response.
   */
  stream: {
${join([...streams, ...itemStreams])}
  };
  /** Drops the cached app-only bearer token and invalidates it on the server. */
  invalidateAppToken: () => Promise<boolean>;
}
`;
    const clientInterface = laidOutDeclaration(clientCode, laidOut);
    // The client's types (options, arguments and results of every operation, the client's
    // interface) are declarations only: they ship as compiled/client.types.d.ts, which this module
    // re-exports. A consumer's build (skipLibCheck) then checks only the code that uses them, not
    // every declaration; contractgen's tests check the declaration file itself.
    const declarations = ts`import type {
${join(declarationTypes.map((h) => ts`  ${ident(h)},`))}
} from "@contractgen/runtime/client";
import type { ${join([ts`paths`, ...viewImports(join(argsCode).text).map((n) => ident(n))], ", ")} } from "./types.js";

export interface ${optionsName} {
${memberDoc(defaultBase !== undefined ? "The API address." : "The API address. The contract gives no server, so it is required.", { default: defaultBase ?? "none" })}readonly baseUrl?: string;
  /**
   * Values of server variables: of the contract's first server (when baseUrl is not given) and of
   * servers that operations name themselves (a sandbox).
   * @default the contract's defaults
   */
  readonly serverVariables?: Readonly<Record<string, string>>;
  /** Credentials; each operation uses the scheme its security requirement names. @default {} */
  readonly auth?: AuthConfig;
  /** Retries of idempotent calls on 429, 503 and network errors, or false. @default {} */
  readonly retry?: RetryOptions | false;
  /** Limit of one call, retries included, in milliseconds. @default 30_000 */
  readonly timeoutMs?: number;
  /** @default globalThis.fetch */
  readonly fetch?: typeof fetch;
  /** Headers sent with every call. @default {} */
  readonly headers?: Readonly<Record<string, string>>;
}

${join(argsCode)}
${clientInterface}`;
    const code = ts`import {
  createCaller,
  createErrorMapper,
  createTransport,${server !== undefined && server.variables.length > 0 ? ts`\n  resolveServer,` : ts``}
${runtimeTypes}
} from "@contractgen/runtime/client";
import { clientMethods, errorSchemas, operationSpecs, type OperationKey } from "../compiled/client.tables.js";
import type { ${clientName}, ${optionsName} } from "../compiled/client.types.js";
import { ResponseError, errorClasses, parseLegacyError, parseProblem } from "./problems.js";

export type { CallOptions };
export type * from "../compiled/client.types.js";

/** How each operation is called: method, path, parameters, body, security, limits. */
export { operationSpecs };

const SERVER_VARIABLES: Readonly<Record<string, string>> = ${literal(variables)};

const mapper = createErrorMapper({
  parseProblem,
  parseLegacyError,
  errorClasses: errorClasses as unknown as ErrorMapperOptions["errorClasses"],
  errorSchemas,
  problemCatalogue: ${hasProblems},
  fallback: ResponseError,
});

/** The error the contract names for a non-2xx answer: problem class, ApiError, or the error schema's class. */
export const toError: (operationId: string, response: RawResponse) => Error = mapper.toError;

/** Stream messages that are problems (a disconnect) become their problem class. */
const problemEvent = mapper.problemEvent;

type Args = Readonly<Record<string, unknown>>;

${jsdoc(`A client for ${model.info.title} ${model.info.version}.`)}export function ${ident(factory)}(options: ${optionsName} = {}): ${clientName} {
  const serverVariables = { ...SERVER_VARIABLES, ...(options.serverVariables ?? {}) };
  const baseUrl = options.baseUrl ?? ${server === undefined ? ts`undefined` : server.variables.length > 0 ? ts`resolveServer(${server.url}, serverVariables)` : ts`${server.url}`};
  if (baseUrl === undefined) throw new TypeError(${`${factory}: baseUrl is required`});
  const make = (url: string) =>
    createTransport({
      baseUrl: url,
      ...(options.auth ? { auth: options.auth } : {}),
      ...(options.retry !== undefined ? { retry: options.retry } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.headers ? { headers: options.headers } : {}),
    });
  const transport = make(baseUrl);
  const caller = createCaller({
    transport,
    transportFor: make,
    serverVariables,
    toError,
  });
  const needsArgs = new Set(clientMethods.required);
  // One function per method of a table, calling \`run\` with its operation's spec. Object.fromEntries
  // defines own properties, whatever the method's name.
  const bind = <R>(table: Readonly<Record<string, OperationKey>>, run: (spec: OperationSpec, args: Args, options?: StreamCallOptions) => R, defaults = true) =>
    Object.fromEntries(
      Object.keys(table).map((name) => {
        const spec = operationSpecs[table[name] as OperationKey];
        return [name, !defaults || needsArgs.has(name) ? (args: Args, options?: StreamCallOptions) => run(spec, args, options) : (args: Args = {}, options?: StreamCallOptions) => run(spec, args, options)];
      }),
    );
  const itemStreams = Object.fromEntries(
    Object.keys(clientMethods.items).map((name) => {
      const [id, framing] = clientMethods.items[name] as readonly [OperationKey, "ndjson" | "event-stream"];
      const spec = operationSpecs[id];
      return [name, needsArgs.has(name) ? (args: Args) => caller.items(spec, args, framing) : (args: Args = {}) => caller.items(spec, args, framing)];
    }),
  );
  const client = {
    ...bind(clientMethods.call, (spec, args) => caller.call(spec, args)),
    raw: bind(clientMethods.call, (spec, args) => caller.raw(spec, args)),
    iterate: bind(clientMethods.iterate, (spec, args) => caller.iterate(spec, args)),
    // Batch methods always take their arguments (the body holds the items).
    batch: bind(clientMethods.batch, (spec, args) => caller.batch(spec, args), false),
    stream: { ...bind(clientMethods.stream, (spec, args, options) => caller.stream(spec, args, { classify: problemEvent, ...options })), ...itemStreams },
    invalidateAppToken: (): Promise<boolean> => transport.auth.invalidate(),
  };
  // The tables hold exactly the interface's methods, each calling the runtime as its signature says.
  return client as unknown as ${clientName};
}
`;
    const tables = clientTables(
      plans.map((p) => p.op.id),
      specs,
      literal(errorSchemaTable(model)),
      literal(methodTable),
    );
    return [
      { path: "src/client.ts", contents: tsHeader(model) + code.text },
      { path: "compiled/client.types.d.ts", contents: tsHeader(model) + declarations.text, laidOut },
      { path: "compiled/client.tables.js", contents: tsHeader(model) + tables.js, format: false },
      { path: "compiled/client.tables.d.ts", contents: tsHeader(model) + tables.dts, format: false },
    ];
  },
});
