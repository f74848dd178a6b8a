import type { ApiModel, Operation } from "../model/ir.js";
import { camelCase, pascalCase, uniqueNames } from "../model/naming.js";
import { flaggedRequired, requestOptional } from "../model/directions.js";
import { viewBodyType, viewImports } from "./direction-types.js";
import { supportedAlternatives } from "../model/security.js";
import { defineEmitter } from "./emitter.js";
import { tsHeader } from "./header.js";
import { declaresProtoMember } from "./prototype-keys.js";
import { ident, join, jsdoc, laidOutDeclaration, literal, memberDoc, objectKey, stringLiteral, ts, type Code } from "./ts.js";
import { mediaKind } from "./validators/index.js";

function opType(op: Operation): Code {
  return ts`paths[${op.path}][${op.method}]`;
}

function statusType(status: string): Code {
  if (/^\d{3}$/.test(status)) return ts`${Number(status)}`;
  if (/^[1-5]XX$/.test(status)) return ts`number`;
  return ts`number`;
}

/** `T` with some required members optional (`Relaxed<T, "id">`): a direction may leave them out. */
function relaxed(type: Code, keys: readonly string[]): Code {
  return keys.length === 0
    ? type
    : ts`Relaxed<${type}, ${join(
        keys.map((k) => ts`${k}`),
        " | ",
      )}>`;
}

function replyType(model: ApiModel, op: Operation, name: string): Code {
  const variants = op.responses.map((r) => {
    const media = r.contents.find((c) => mediaKind(c.mediaType) === "json") ?? r.contents[0];
    const key = /^\d{3}$/.test(r.status) ? ts`[${Number(r.status)}]` : ts`[${r.status}]`;
    // A reply may leave out required writeOnly members.
    const view = media && mediaKind(media.mediaType) === "json" ? viewBodyType(model, "response", op, media.mediaType, media.schema, r.status) : undefined;
    const body = media
      ? (view ?? relaxed(ts`${opType(op)}["responses"]${key}["content"][${media.mediaType}]`, mediaKind(media.mediaType) === "json" ? flaggedRequired(model, media.schema, "writeOnly") : []))
      : ts`undefined`;
    const contentTypes = r.contents.map((c) => ts`${c.mediaType}`);
    return media ? ts`ReplyOf<${statusType(r.status)}, ${body}, ${contentTypes.length ? join(contentTypes, " | ") : ts`string`}>` : ts`EmptyReplyOf<${statusType(r.status)}>`;
  });
  return ts`${jsdoc(`The replies ${op.id} may give: the statuses and bodies the contract declares.`)}export type ${ident(name)} =
  | ${variants.length ? join(variants, "\n  | ") : ts`HandlerReply`};
`;
}

function inputType(model: ApiModel, op: Operation, name: string): Code {
  const where = (loc: "path" | "query"): Code => (op.parameters.some((p) => p.in === loc) ? ts`NonNullable<${opType(op)}["parameters"][${loc}]>` : ts`Record<string, never>`);
  const media = op.requestBody ? (op.requestBody.contents.find((c) => mediaKind(c.mediaType) === "json") ?? op.requestBody.contents[0]) : undefined;
  // A request may leave out required readOnly members and defaulted ones; validation lets it.
  const declared = ts`NonNullable<${opType(op)}["requestBody"]>["content"][${media?.mediaType ?? ""}]`;
  const view = media && mediaKind(media.mediaType) === "json" ? viewBodyType(model, "request", op, media.mediaType, media.schema) : undefined;
  const shape = view ?? (media && mediaKind(media.mediaType) !== "none" ? relaxed(declared, requestOptional(model, media.schema)) : declared);
  const body = op.requestBody && media ? ts`${shape}${op.requestBody.required ? ts`` : ts` | undefined`}` : ts`undefined`;
  return ts`export type ${ident(name)} = HandlerInput<${where("path")}, ${where("query")}, ${body}>;
`;
}

/** Names the server module exports, shared with `contractgen scaffold`, which imports them. */
export interface ServerNames {
  /** `CoreHandlers`. */
  readonly handlersName: string;
  /** `<Operation>Input` per operation, in contract order. */
  readonly inputNames: readonly string[];
  /** `<Operation>Reply` per operation, in contract order. */
  readonly replyNames: readonly string[];
  /** The Fastify plugin (`coreServer`). */
  readonly pluginName: string;
}

export function serverNames(model: ApiModel): ServerNames {
  const handlersName = `${pascalCase(model.name, "Api")}Handlers`;
  const taken = new Set([...model.schemas.map((s) => s.typeName), handlersName]);
  const inputNames = uniqueNames(model.operations, (op) => `${op.typeName}Input`, taken);
  const replyNames = uniqueNames(model.operations, (op) => `${op.typeName}Reply`, [...taken, ...inputNames]);
  return { handlersName, inputNames, replyNames, pluginName: `${camelCase(model.name, "api")}Server` };
}

/**
 * `./server`: the typed `<Name>Handlers` interface (one method per operationId, receiving the
 * validated and coerced input, replying with a status and body the contract declares) and a Fastify
 * 5 plugin that routes, validates with the precompiled validators, authenticates and answers errors
 * in the contract's shapes.
 */
export const serverEmitter = defineEmitter({
  name: "server",
  // Runs on this thread, like the client (see there).
  exports: { "./server": "server" },
  barrel: "none",
  dependencies: { "@contractgen/runtime": "^0.1.0" },
  optionalPeers: { fastify: "^5.0.0" },
  emit({ model }) {
    const { handlersName, inputNames, replyNames, pluginName } = serverNames(model);
    const byId = new Map(model.operations.map((o) => [o.id, o]));

    const types: Code[] = [];
    const laidOut = new Set<string>();
    const members: Code[] = [];
    const routes = model.operations.map((op, i) => {
      // Laid out here as prettier would when their lines allow, else formatted (ts-layout.ts).
      types.push(laidOutDeclaration(inputType(model, op, inputNames[i] as string), laidOut), laidOutDeclaration(replyType(model, op, replyNames[i] as string), laidOut));
      const doc = [op.summary, op.unspecified !== undefined ? `Not shown by the contract: ${op.unspecified}` : undefined].filter((x): x is string => x !== undefined).join("\n\n");
      members.push(
        ts`${memberDoc(doc, { deprecated: op.deprecated })}${ident(op.methodName)}(input: ${ident(inputNames[i] as string)}): ${ident(replyNames[i] as string)} | Promise<${ident(replyNames[i] as string)}>;`,
      );
      const bodyLimit = op.limits.find((l) => l.kind === "bodyBytes")?.max;
      const oauthNames = model.securitySchemes.flatMap((sc) => sc.oauth1?.parameters ?? []);
      const oauthParams = op.parameters.filter((p) => p.in === "query" && oauthNames.includes(p.name)).map((p) => p.name);
      const replacement = op.deprecation?.replacedBy !== undefined ? byId.get(op.deprecation.replacedBy)?.path : undefined;
      return {
        id: op.id,
        method: op.method.toUpperCase(),
        path: op.path,
        security: supportedAlternatives(model, op),
        ...(bodyLimit !== undefined ? { bodyLimit } : {}),
        ...(op.deprecated
          ? {
              deprecated: {
                ...(op.deprecation?.at ? { at: op.deprecation.at } : {}),
                ...(op.deprecation?.sunset ? { sunset: op.deprecation.sunset } : {}),
                ...(replacement ? { replacedByPath: replacement } : {}),
              },
            }
          : {}),
        ...(op.unspecified !== undefined ? { unspecified: op.unspecified } : {}),
        ...(oauthParams.length > 0 ? { oauthParams } : {}),
      };
    });
    // Handlers are keyed by operationId at run time; the interface uses the same safe method names.
    const handlerKeys = model.operations.map((op) => ts`  ${objectKey(op.id)}: ${stringLiteral(op.methodName)},`);
    const protoKeys = declaresProtoMember(model.document);
    // The plugin names registerRoutes' type argument: inferring it walks every argument, and the
    // FastifyInstance one makes TypeScript measure that type's variance, a structural comparison of
    // Fastify's whole instance type (about 1.4 s and 70k instantiations of every program that
    // checks the package, GitHub's API or not).

    // One reply's shape, written once: per status the replies name it instead of spelling the
    // object type out (a third of the module's syntax for GitHub's API, parsed and checked per status).
    const typesText = join(types).text;
    const replyAliases = join(
      [
        /\bReplyOf</.test(typesText)
          ? ts`\n/** A reply with a body: its status, the body, optional headers and one of the declared media types. */
type ReplyOf<S extends number, B, C extends string> = { readonly status: S; readonly body: B; readonly headers?: Readonly<Record<string, string>>; readonly contentType?: C };`
          : ts``,
        /\bEmptyReplyOf</.test(typesText)
          ? ts`\n/** A reply without a body. */
type EmptyReplyOf<S extends number> = { readonly status: S; readonly body?: undefined; readonly headers?: Readonly<Record<string, string>>; readonly contentType?: string };`
          : ts``,
      ],
      "",
    );
    // The types (each operation's input and replies, the handlers' interface) are declarations
    // only: they ship as compiled/server.types.d.ts, which this module re-exports, so a build with
    // skipLibCheck checks what its handlers use of them rather than all of them (as the client's).
    const declarations = ts`import type { HandlerInput } from "@contractgen/runtime/server";
${typesText.includes("Relaxed<") ? ts`import type { Relaxed } from "@contractgen/runtime";\n` : ts``}import type { ${join([ts`paths`, ...viewImports(typesText).map((n) => ident(n))], ", ")} } from "./types.js";
${replyAliases}

${join(types)}
${jsdoc(`One method per operation of ${model.info.title} ${model.info.version}; a missing one answers 501.`)}export interface ${ident(handlersName)} {
${join(members)}
}
`;
    // The instance type comes through the runtime (ServerApp, Fastify's): this module then compiles
    // without Fastify installed, as a client-only use needs.
    const code = ts`import { pickHandlers, registerRoutes, type Handler, type ServerApp, type ServerOptions } from "@contractgen/runtime/server";
import type { ${ident(handlersName)} } from "../compiled/server.types.js";
import { validateRequest, validateResponse } from "./validators.js";
import { methodNames, routes } from "../compiled/server.tables.js";

export type { AuthContext, HandlerInput, HandlerReply, SecurityVerifiers } from "@contractgen/runtime/server";
export type * from "../compiled/server.types.js";

/** Every route of the contract, in contract order. */
export { routes };

/**
 * The Fastify plugin: \`app.register(${ident(pluginName)}, { handlers, security })\`. Requests are validated
 * with the precompiled validators (nothing compiles at start-up); errors answer in the contract's
 * shapes: 400/415 problem+json naming the parameter, 401 with legacy code 89, 413 for oversize
 * bodies, 501 for missing handlers.
 */
export async function ${ident(pluginName)}(app: ServerApp, options: ServerOptions<${ident(handlersName)}>): Promise<void> {
  registerRoutes<Record<string, Handler>>(app, routes, { validateRequest, validateResponse }, { ...options, handlers: pickHandlers(options.handlers, methodNames) }${protoKeys ? ts`, { protoKeys: true }` : ts``});
}
`;
    // The route table and the handler names are data: they ship as JavaScript with a declaration
    // file (compiled/, like the validators' tables), so TypeScript reads two declarations instead of
    // checking an object literal per operation (GitHub's API: about 0.3 s of tsc).
    const tablesJs = ts`export const routes = ${literal(routes)};

export const methodNames = {
${join(handlerKeys)}
};
`;
    const tablesDts = ts`import type { RouteSpec } from "@contractgen/runtime/server";

/** Every route of the contract, in contract order. */
export declare const routes: readonly RouteSpec[];

/** Handler method name per operationId. */
export declare const methodNames: Readonly<Record<string, string>>;
`;
    return [
      { path: "compiled/server.tables.js", contents: tsHeader(model) + tablesJs.text, format: false },
      { path: "compiled/server.tables.d.ts", contents: tsHeader(model) + tablesDts.text, format: false },
      { path: "src/server.ts", contents: tsHeader(model) + code.text },
      { path: "compiled/server.types.d.ts", contents: tsHeader(model) + declarations.text, laidOut },
    ];
  },
});
