/**
 * What every generated client does per call, written once: build the request from an operation's
 * description and the caller's arguments, send it, hand back the success body or throw the error
 * class the contract names. Generated clients are typed tables over this.
 */
import type { OAuth1RequestOptions } from "./auth.js";
import { percentEncode } from "./encoding.js";
import { RateLimiter, runBatches, type BatchOutcome } from "./batch.js";
import { applyHashing, type HashedField } from "./hashing-plan.js";
import { paginate } from "./pagination.js";
import type { SecurityAlternatives } from "../shared/security.js";
import { readResponse } from "./body.js";
import { readNdjson } from "./ndjson.js";
import { streamWithReconnect, type ReconnectBackoff } from "./stream.js";
import type { HttpMethod, RawResponse, RequestSpec, Transport } from "./transport.js";
import type { QueryParam } from "./url.js";
import { own, setOwn } from "../shared/own.js";

/** One parameter as the contract declares it. */
export interface ParameterSpec {
  readonly name: string;
  /** Key of the value in the method's arguments when it differs from `name` (a clash with `body`). */
  readonly arg?: string;
  readonly in: "path" | "query" | "header" | "cookie";
  readonly style?: string;
  readonly explode?: boolean;
}

/** One operation as the generated client describes it. */
export interface OperationSpec {
  readonly id: string;
  readonly method: HttpMethod;
  readonly path: string;
  /** Server URL template when the operation names its own (`{ads_sandbox_url}`). */
  readonly server?: string;
  readonly parameters: readonly ParameterSpec[];
  /** Media type of the request body, when the operation takes one. */
  readonly bodyMediaType?: string;
  readonly security?: SecurityAlternatives;
  /** OAuth 1.0a parameters the contract lists as request parameters; sent in the header instead. */
  readonly oauth1Params?: readonly string[];
  readonly pagination?: { readonly request: string; readonly response: string; readonly items: string };
  readonly batch?: {
    /** JSON pointer of the item array in the body (`""` for a body that is the array). */
    readonly pointer: string;
    readonly maxItems?: number;
    readonly maxBytes?: number;
    readonly rate?: { readonly requests: number; readonly windowMs: number };
  };
  /** Request body fields to normalize and hash before sending (`x-hashed`). */
  readonly hashed?: readonly HashedField[];
}

/** Per-call options every generated method accepts beside its parameters. */
export interface CallOptions {
  /** Aborts the call, retries included. @default undefined */
  readonly signal?: AbortSignal | undefined;
  /** Limit for this call, retries included, in milliseconds. @default the client's timeoutMs */
  readonly timeoutMs?: number | undefined;
  /** Extra headers for this call. @default undefined */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** OAuth 1.0a parameters of a 3-legged flow step (callback, verifier, request token and secret). @default undefined */
  readonly oauth1?: OAuth1RequestOptions | undefined;
}

/**
 * `T` with the members `K` optional: a request body without its readOnly or defaulted members, a
 * response without writeOnly ones. Names that are not keys of `T` (a body typed as a union, where
 * `keyof` is only the shared keys) are ignored, and `T` stays as it is when none are.
 */
export type Relaxed<T, K extends PropertyKey> = [Extract<K, keyof T>] extends [never] ? T : Omit<T, Extract<K, keyof T>> & Partial<Pick<T, Extract<K, keyof T>>>;

/** A file (or any bytes) sent as a multipart part or a raw body. */
export type BinaryValue = Blob | Uint8Array | ArrayBuffer;

/**
 * A `multipart/form-data` body: `FormData`, or the schema's fields where any field may also be a file
 * (the schema types binary fields as strings).
 */
export type MultipartBody<T> = FormData | (T extends object ? { [K in keyof T]: T[K] | BinaryValue | readonly (BinaryValue | string | number | boolean)[] } : never);

/** A body of a non-JSON, non-form media type, sent as given: text or bytes. */
export type RawBody = string | BinaryValue;

/** Maps a non-2xx answer to the error the contract names for it. */
export type ErrorMapper = (operationId: string, response: RawResponse) => Error;

export interface CallerOptions {
  /** The transport for the client's base URL. */
  readonly transport: Transport;
  /** Makes a transport for an operation-level server URL (resolved), e.g. a sandbox. */
  readonly transportFor?: (baseUrl: string) => Transport;
  /** Server variables for operation-level server templates, defaults already applied. */
  readonly serverVariables?: Readonly<Record<string, string>>;
  readonly toError: ErrorMapper;
}

const CALL_OPTION_KEYS = new Set(["signal", "timeoutMs", "headers", "oauth1", "body"]);
const OAUTH1_OPTION: Readonly<Record<string, keyof OAuth1RequestOptions>> = {
  oauth_callback: "callback",
  oauth_verifier: "verifier",
  oauth_token: "token",
};

type Args = Readonly<Record<string, unknown>>;

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function pointerGet(value: unknown, pointer: string): unknown {
  let node = value;
  for (const seg of pointer.split("/").slice(1)) {
    if (!isObject(node)) return undefined;
    node = node[seg.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return node;
}

function pointerSet(value: unknown, pointer: string, replacement: unknown): unknown {
  if (pointer === "") return replacement;
  const segs = pointer
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  const root = isObject(value) ? { ...value } : {};
  let node: Record<string, unknown> = root;
  segs.forEach((seg, i) => {
    if (i === segs.length - 1) node[seg] = replacement;
    else {
      const next = isObject(node[seg]) ? { ...(node[seg] as Record<string, unknown>) } : {};
      node[seg] = next;
      node = next;
    }
  });
  return root;
}

/** Turns `{ads_sandbox_url}`-style templates into URLs with the given variables. */
export function resolveServer(template: string, variables: Readonly<Record<string, string>>): string {
  return template.replace(/\{([^}]+)\}/g, (m, name: string) => variables[name] ?? m);
}

type StyleScalar = string | number | boolean | bigint | Date | null;

function styleScalarText(value: unknown): string {
  const v = value as StyleScalar;
  if (v === null) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") return String(v);
  if (v instanceof Date) return v.toISOString();
  throw new TypeError("A parameter value must be a string, number, boolean, Date, or a list or object of them");
}

/** The members of a list or object value, or the value itself; `undefined` members are left out. */
function styleParts(value: unknown): { kind: "scalar" | "list" | "object"; items: [string, unknown][] } {
  if (Array.isArray(value)) return { kind: "list", items: value.filter((v) => v !== undefined).map((v) => ["", v]) };
  if (isObject(value) && !(value instanceof Date)) return { kind: "object", items: Object.entries(value).filter(([, v]) => v !== undefined) };
  // Dates and everything else are single values (styleScalarText refuses what it cannot write).
  return { kind: "scalar", items: [["", value]] };
}

/**
 * `simple` style (OpenAPI §4.8.12.4): `blue`, `blue,black`, `R,100,G,200` or, exploded, `R=100,G=200`.
 * `encode` percent-encodes each name and value for paths; headers take the text as is.
 */
function styleSimple(value: unknown, explode: boolean, encode: (text: string) => string): string {
  const { kind, items } = styleParts(value);
  if (kind === "object") return items.map(([k, v]) => (explode ? `${encode(k)}=${encode(styleScalarText(v))}` : `${encode(k)},${encode(styleScalarText(v))}`)).join(",");
  return items.map(([, v]) => encode(styleScalarText(v))).join(",");
}

/** A path parameter in the `simple`, `label` or `matrix` style, percent-encoded with literal delimiters. */
export function stylePathValue(name: string, value: unknown, style: string, explode: boolean): string {
  const { kind, items } = styleParts(value);
  const text = (v: unknown): string => percentEncode(styleScalarText(v));
  if (style === "label") {
    if (kind === "scalar") return `.${text(value)}`;
    const parts = kind === "list" ? items.map(([, v]) => text(v)) : items.map(([k, v]) => (explode ? `${percentEncode(k)}=${text(v)}` : `${percentEncode(k)},${text(v)}`));
    return `.${parts.join(explode ? "." : ",")}`;
  }
  if (style === "matrix") {
    const n = percentEncode(name);
    if (kind === "scalar") return `;${n}=${text(value)}`;
    if (kind === "list") return explode ? items.map(([, v]) => `;${n}=${text(v)}`).join("") : `;${n}=${items.map(([, v]) => text(v)).join(",")}`;
    return explode ? items.map(([k, v]) => `;${percentEncode(k)}=${text(v)}`).join("") : `;${n}=${items.map(([k, v]) => `${percentEncode(k)},${text(v)}`).join(",")}`;
  }
  const simple = styleSimple(value, explode, percentEncode);
  if (simple === "" || simple === "." || simple === "..") throw new TypeError(`Path parameter ${name} may not be ${JSON.stringify(simple)}`);
  return simple;
}

/** A cookie parameter in the `form` style: `name=value` pairs of the Cookie header. */
function styleCookie(name: string, value: unknown, explode: boolean): string[] {
  const { kind, items } = styleParts(value);
  const n = percentEncode(name);
  const text = (v: unknown): string => percentEncode(styleScalarText(v));
  if (kind === "scalar") return [`${n}=${text(value)}`];
  if (kind === "list") return explode ? items.map(([, v]) => `${n}=${text(v)}`) : [`${n}=${items.map(([, v]) => text(v)).join(",")}`];
  return explode ? items.map(([k, v]) => `${percentEncode(k)}=${text(v)}`) : [`${n}=${items.map(([k, v]) => `${percentEncode(k)},${text(v)}`).join(",")}`];
}

function isMultipart(mediaType: string): boolean {
  return mediaType.split(";", 1)[0]?.trim().toLowerCase() === "multipart/form-data";
}

/**
 * Multipart fields that are objects (or lists of objects) travel as JSON parts, as OpenAPI's default
 * encoding for them says; files, text and numbers stay as they are.
 */
function multipartParts(body: unknown): unknown {
  if (!isObject(body) || body instanceof FormData) return body;
  const plain = (v: unknown): boolean => isObject(v) && [Object.prototype, null].includes(Object.getPrototypeOf(v) as object | null);
  const json = (v: unknown): unknown => (plain(v) ? new Blob([JSON.stringify(v)], { type: "application/json" }) : v);
  return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, Array.isArray(v) ? v.map(json) : json(v)]));
}

export interface Caller {
  /** Sends the call; resolves with the parsed body of a 2xx answer, rejects with the mapped error. */
  call(op: OperationSpec, args: Args): Promise<unknown>;
  /** Sends the call; resolves with status, headers and body whatever the status. */
  raw(op: OperationSpec, args: Args): Promise<RawResponse>;
  /** Every item of every page, following the operation's cursor until it ends. */
  iterate(op: OperationSpec, args: Args): AsyncGenerator<unknown, void, undefined>;
  /** Splits the body's item array by the operation's limits, paces the requests, one outcome per request. */
  batch(op: OperationSpec, args: Args): Promise<BatchOutcome<unknown, unknown>[]>;
  /** Newline-delimited JSON events, reconnecting with backoff; problem events surface as errors. */
  stream(op: OperationSpec, args: Args, options?: StreamCallOptions): AsyncGenerator<unknown, void, undefined>;
  /**
   * The items of one response as they arrive, without reconnecting: parsed values of a
   * newline-delimited JSON body, or the events of a `text/event-stream` body. A non-2xx answer
   * rejects with the mapped error.
   */
  items(op: OperationSpec, args: Args, framing: "ndjson" | "event-stream"): AsyncGenerator<unknown, void, undefined>;
}

/** One server-sent event (HTML § 9.2): `event` defaults to "message"; `data` lines are joined with "\n". */
export interface ServerSentEvent {
  readonly event: string;
  readonly data: string;
  /** The last event ID the stream set, if any. */
  readonly id?: string;
  /** A reconnection time the server asked for, in milliseconds. */
  readonly retry?: number;
}

/** Parses a `text/event-stream` body as the HTML standard's event stream interpretation does. */
export async function* readEventStream(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<ServerSentEvent, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder("utf-8");
  const onAbort = (): void => {
    reader.cancel(signal?.reason).catch(() => undefined);
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  let buffer = "";
  let data: string[] = [];
  let event = "";
  let id: string | undefined;
  let retry: number | undefined;
  let first = true;
  const line = (text: string): ServerSentEvent | undefined => {
    if (text === "") {
      const out = data.length > 0 ? { event: event || "message", data: data.join("\n"), ...(id !== undefined ? { id } : {}), ...(retry !== undefined ? { retry } : {}) } : undefined;
      data = [];
      event = "";
      return out;
    }
    if (text.startsWith(":")) return undefined;
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
    else if (field === "id" && !value.includes("\0")) id = value;
    else if (field === "retry" && /^\d+$/.test(value)) retry = Number(value);
    return undefined;
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (signal?.aborted) throw signal.reason;
      buffer += decoder.decode(value ?? new Uint8Array(), { stream: !done });
      if (first && buffer.length > 0) {
        if (buffer.charCodeAt(0) === 0xfeff) buffer = buffer.slice(1);
        first = false;
      }
      for (let m = /\r\n|\n|\r/.exec(buffer); m !== null; m = /\r\n|\n|\r/.exec(buffer)) {
        // A \r that ends what has arrived may be the first half of \r\n.
        if (m[0] === "\r" && m.index === buffer.length - 1 && !done) break;
        const text = buffer.slice(0, m.index);
        buffer = buffer.slice(m.index + m[0].length);
        const e = line(text);
        if (e) yield e;
      }
      // What is left at the end (a line or an event without its blank line) is discarded, as the standard says.
      if (done) return;
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
    reader.releaseLock();
  }
}

export interface StreamCallOptions {
  readonly backoff?: ReconnectBackoff;
  readonly onReconnect?: (attempt: number, reason: Error) => void;
  /** Maps a parsed event to the error it stands for (problem events); undefined for ordinary events. */
  readonly classify?: (value: unknown) => Error | undefined;
}

export function createCaller(options: CallerOptions): Caller {
  const transports = new Map<string, Transport>();
  const transportOf = (op: OperationSpec): Transport => {
    if (op.server === undefined || !options.transportFor) return options.transport;
    const url = resolveServer(op.server, options.serverVariables ?? {});
    let t = transports.get(url);
    if (!t) {
      t = options.transportFor(url);
      transports.set(url, t);
    }
    return t;
  };
  const limiters = new Map<string, RateLimiter>();

  const requestOf = (op: OperationSpec, args: Args): RequestSpec => {
    const pathParams: Record<string, string | number | boolean> = {};
    const query: QueryParam[] = [];
    const headers: Record<string, string> = { ...((args["headers"] as Record<string, string> | undefined) ?? {}) };
    const oauth1: Record<string, unknown> = { ...((args["oauth1"] as object | undefined) ?? {}) };
    const cookies: string[] = [];
    let path = op.path;
    for (const p of op.parameters) {
      const value = own(args, p.arg ?? p.name);
      if (value === undefined) continue;
      if (op.oauth1Params?.includes(p.name) && OAUTH1_OPTION[p.name]) {
        const key = OAUTH1_OPTION[p.name] as string;
        if (oauth1[key] === undefined) oauth1[key] = value;
        continue;
      }
      if (p.in === "path") {
        // Plain values keep the transport's path handling; styles, lists and objects are expanded here.
        if ((p.style ?? "simple") === "simple" && !Array.isArray(value) && !isObject(value)) setOwn(pathParams, p.name, value as string | number | boolean);
        else path = path.split(`{${p.name}}`).join(stylePathValue(p.name, value, p.style ?? "simple", p.explode ?? false));
      } else if (p.in === "query") {
        query.push({ name: p.name, value, ...(p.style ? { style: p.style as QueryParam["style"] } : {}), ...(p.explode !== undefined ? { explode: p.explode } : {}) });
      } else if (p.in === "header")
        setOwn(
          headers,
          p.name,
          styleSimple(value, p.explode ?? false, (t) => t),
        );
      else if (p.in === "cookie") cookies.push(...styleCookie(p.name, value, p.explode ?? true));
    }
    if (cookies.length > 0) {
      const existing = Object.keys(headers).find((h) => h.toLowerCase() === "cookie");
      const prior = existing !== undefined ? headers[existing] : undefined;
      if (existing !== undefined) delete headers[existing];
      headers["cookie"] = [...(prior ? [prior] : []), ...cookies].join("; ");
    }
    let body = args["body"];
    if (body !== undefined && op.hashed && op.hashed.length > 0) body = applyHashing(body, op.hashed);
    if (body !== undefined && op.bodyMediaType !== undefined && isMultipart(op.bodyMediaType)) body = multipartParts(body);
    return {
      method: op.method,
      path,
      pathParams,
      query,
      headers,
      ...(op.bodyMediaType !== undefined && body !== undefined ? { body, contentType: op.bodyMediaType } : {}),
      ...(op.security ? { security: op.security } : {}),
      ...(Object.keys(oauth1).length > 0 ? { oauth1: oauth1 as OAuth1RequestOptions } : {}),
      signal: args["signal"] as AbortSignal | undefined,
      timeoutMs: args["timeoutMs"] as number | undefined,
    };
  };

  const raw = (op: OperationSpec, args: Args): Promise<RawResponse> => transportOf(op).request(requestOf(op, args));

  const call = async (op: OperationSpec, args: Args): Promise<unknown> => {
    const response = await raw(op, args);
    if (response.status >= 200 && response.status < 300) return response.body;
    throw options.toError(op.id, response);
  };

  return {
    call,
    raw,

    iterate(op, args) {
      const pg = op.pagination;
      if (!pg) throw new TypeError(`${op.id} is not paginated`);
      return paginate({
        fetchPage: (cursor) => call(op, cursor === undefined ? args : { ...args, [pg.request]: cursor }),
        items: (page) => {
          const items = pointerGet(page, pg.items);
          return Array.isArray(items) ? items : [];
        },
        next: (page) => {
          const next = pointerGet(page, pg.response);
          return typeof next === "string" ? next : undefined;
        },
        ...(args["signal"] !== undefined ? { signal: args["signal"] as AbortSignal } : {}),
      });
    },

    batch(op, args) {
      const b = op.batch;
      if (!b) throw new TypeError(`${op.id} has no batch limits`);
      const items = pointerGet(args["body"], b.pointer);
      if (!Array.isArray(items)) throw new TypeError(`${op.id}: the body has no item array at "${b.pointer}"`);
      let limiter = limiters.get(op.id);
      if (!limiter && b.rate) {
        limiter = new RateLimiter({ requests: b.rate.requests, windowMs: b.rate.windowMs });
        limiters.set(op.id, limiter);
      }
      const wrap = (chunk: readonly unknown[]): unknown => pointerSet(args["body"], b.pointer, chunk);
      return runBatches({
        items,
        ...(b.maxItems !== undefined ? { maxItems: b.maxItems } : {}),
        ...(b.maxBytes !== undefined ? { maxBytes: b.maxBytes, size: (chunk: readonly unknown[]) => Buffer.byteLength(JSON.stringify(wrap(chunk))) } : {}),
        ...(limiter ? { limiter } : {}),
        send: (chunk, _offset, signal) => call(op, { ...args, body: wrap(chunk), ...(signal ? { signal } : {}) }),
        ...(args["signal"] !== undefined ? { signal: args["signal"] as AbortSignal } : {}),
      });
    },

    async *items(op, args, framing) {
      const response = await transportOf(op).open(requestOf(op, args));
      if (!response.ok) throw options.toError(op.id, await readResponse(response, op.method));
      if (response.body === null) return;
      const signal = args["signal"] as AbortSignal | undefined;
      if (framing === "event-stream") yield* readEventStream(response.body, signal);
      else yield* readNdjson(response.body, signal);
    },

    stream(op, args, streamOptions = {}) {
      const transport = transportOf(op);
      const spec = requestOf(op, args);
      return streamWithReconnect({
        connect: (signal) => transport.open({ ...spec, signal }),
        ...(streamOptions.classify ? { classify: streamOptions.classify } : {}),
        ...(streamOptions.backoff ? { backoff: streamOptions.backoff } : {}),
        ...(streamOptions.onReconnect ? { onReconnect: streamOptions.onReconnect } : {}),
        ...(args["signal"] !== undefined ? { signal: args["signal"] as AbortSignal } : {}),
      });
    },
  };
}

/**
 * The argument names a generated method reserves beside the operation's parameters (its call
 * options and `body`); the client emitter renames parameters that would clash with them.
 */
export const RESERVED_ARGUMENTS: ReadonlySet<string> = CALL_OPTION_KEYS;

export interface ErrorMapperOptions {
  /** The package's problem parser (its catalogue's classes). */
  readonly parseProblem: (body: unknown, status?: number) => Error;
  /** The legacy `{errors:[{code, message}]}` envelope as an error, or undefined for other bodies. */
  readonly parseLegacyError: (body: unknown, status?: number) => Error | undefined;
  /** Error classes by the schema name of the error body they carry. */
  readonly errorClasses: Readonly<Record<string, new (status: number, body: unknown, contentType?: string) => Error>>;
  /** operationId → declared status (`404`, `4XX`, `default`) → schema name of its error body. */
  readonly errorSchemas: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** The contract has a problem catalogue: a JSON body with a string `type` is read as a problem. */
  readonly problemCatalogue: boolean;
  /** Used when no schema names a class. */
  readonly fallback: new (status: number, body: unknown, contentType?: string) => Error;
}

/**
 * How a generated client turns a non-2xx answer into the error its contract names: the legacy
 * envelope as ApiError, a problem as its class, else the class of the error schema the operation
 * declares for that status; and which stream messages are problems.
 */
export function createErrorMapper(o: ErrorMapperOptions): { toError: ErrorMapper; problemEvent: (value: unknown) => Error | undefined } {
  const looksLikeProblem = (body: unknown): boolean =>
    o.problemCatalogue && body !== null && typeof body === "object" && !Array.isArray(body) && typeof (body as Record<string, unknown>)["type"] === "string";
  const toError: ErrorMapper = (operationId, response) => {
    const { status, body, contentType } = response;
    const legacy = o.parseLegacyError(body, status);
    if (legacy) return legacy;
    if (contentType === "application/problem+json" || looksLikeProblem(body)) return o.parseProblem(body, status);
    const byStatus = Object.prototype.hasOwnProperty.call(o.errorSchemas, operationId) ? (o.errorSchemas[operationId] ?? {}) : {};
    const schema = byStatus[String(status)] ?? byStatus[`${Math.floor(status / 100)}XX`] ?? byStatus["default"];
    const cls = schema !== undefined && Object.prototype.hasOwnProperty.call(o.errorClasses, schema) ? o.errorClasses[schema] : undefined;
    return new (cls ?? o.fallback)(status, body, contentType);
  };
  const problemEvent = (value: unknown): Error | undefined => (looksLikeProblem(value) && typeof (value as Record<string, unknown>)["title"] === "string" ? o.parseProblem(value) : undefined);
  return { toError, problemEvent };
}
