/**
 * `./mcp`: a Model Context Protocol server for the API. One tool per operation (named from the
 * operationId, described from the contract, annotated from the method), its input the operation's
 * parameters and body, its output schema the success response's; calls go through the generated
 * client and the precompiled validators (`@contractgen/runtime/mcp`). Kept out of the barrel: the MCP
 * SDK is an optional peer a client-only consumer never loads. Every client profile is linted here,
 * so a tool no client could list fails generation instead of failing in an assistant.
 */
import { RESERVED_ARGUMENTS } from "@contractgen/runtime/client";
import { fitName, lintProfiles, PROFILE_RULES, PROFILES } from "@contractgen/runtime/mcp-profiles";
import { attachDefs, type McpArgument, type McpToolRow, type McpToolSpec } from "@contractgen/runtime/mcp-tools";
import { SpecError } from "../load/errors.js";
import type { ApiModel, JsonSchema, Operation } from "../model/ir.js";
import { pascalCase, uniqueNames } from "../model/naming.js";
import { supportedAlternatives } from "../model/security.js";
import { defineEmitter } from "./emitter.js";
import { tsHeader } from "./header.js";
import { isPlainObjectSchema, ToolSchemas } from "./mcp-schema.js";
import { ident, jsdoc, stringLiteral, ts } from "./ts.js";
import { mediaKind } from "./validators/index.js";

/** Tool names leave this much of the 64 characters clients allow for their own server prefixes. */
export const TOOL_NAME_BUDGET = 48;
/** Header parameters the transport owns (OpenAPI says to ignore them). */
const IGNORED_HEADERS = new Set(["accept", "content-type", "authorization"]);
const PROPERTY_NAME = /^[a-zA-Z0-9_.-]{1,64}$/;
const READ_ONLY_METHODS = new Set(["get", "head", "options"]);
/** Operations that end a credential's life: destructive though they are POSTs. */
const INVALIDATES = /invalidat|revok|logout|sign[-_]?out/i;

type ToolRow = McpToolRow;

function toolName(op: Operation): string {
  if (op.mcp?.name !== undefined) return op.mcp.name;
  const cleaned = op.id.replace(/[^a-zA-Z0-9_-]+/g, "_").replace(/^_+|_+$/g, "") || `${op.method}_operation`;
  return fitName(cleaned, TOOL_NAME_BUDGET);
}

function description(byId: ReadonlyMap<string, Operation>, op: Operation): string {
  const parts: string[] = [];
  if (op.mcp?.description !== undefined) parts.push(op.mcp.description);
  else {
    if (op.summary !== undefined) parts.push(op.summary);
    if (op.description !== undefined) parts.push(op.description);
  }
  if (op.deprecated) {
    const replacement = op.deprecation?.replacedBy;
    const dep = [
      "Deprecated",
      op.deprecation?.at ? ` since ${op.deprecation.at}` : "",
      op.deprecation?.sunset ? `, removed after ${op.deprecation.sunset}` : "",
      replacement ? `; use ${byId.get(replacement)?.mcp?.name ?? replacement} instead` : "",
      ".",
    ].join("");
    parts.push(dep);
  }
  if (op.unspecified !== undefined) parts.push(`The contract does not show this operation's shape: ${op.unspecified}`);
  if (op.pagination) parts.push(`Paged: when the answer holds ${op.pagination.response.slice(1)}, call again with ${op.pagination.request} set to it for the next page.`);
  parts.push(`${op.method.toUpperCase()} ${op.path}`);
  return parts.join("\n\n");
}

function annotations(op: Operation, title: string): McpToolSpec["annotations"] {
  const readOnly = READ_ONLY_METHODS.has(op.method);
  const destructive = !readOnly && (op.method === "delete" || INVALIDATES.test(op.id) || INVALIDATES.test(op.path));
  return { title, readOnlyHint: readOnly, destructiveHint: destructive, idempotentHint: readOnly || op.method === "put" || op.method === "delete", openWorldHint: true };
}

function toolRow(model: ApiModel, byId: ReadonlyMap<string, Operation>, op: Operation, name: string, schemas: ToolSchemas): ToolRow {
  const needs = new Set<string>();
  const argNames = uniqueNames(op.parameters, (p) => (RESERVED_ARGUMENTS.has(p.name) ? `${p.name}Param` : p.name), RESERVED_ARGUMENTS);
  const params = op.parameters.map((p, i) => ({ p, arg: argNames[i] as string })).filter(({ p }) => !(p.in === "header" && IGNORED_HEADERS.has(p.name.toLowerCase())));
  const taken = new Set<string>(["body"]);
  const args: McpArgument[] = [];
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const { p, arg } of params) {
    let property = PROPERTY_NAME.test(p.name) ? p.name : p.name.replace(/[^a-zA-Z0-9_.-]+/g, "_").slice(0, 60) || "param";
    if (taken.has(property)) property = `${property}_${p.in}`;
    for (let i = 2; taken.has(property); i++) property = `${p.name.replace(/[^a-zA-Z0-9_.-]+/g, "_").slice(0, 56)}_${i}`;
    taken.add(property);
    args.push({ property, name: p.name, arg, in: p.in });
    const schema = schemas.convert(p.schema, needs);
    const doc = [p.description, p.deprecated ? "Deprecated." : undefined, `In ${p.in}${property !== p.name ? ` as ${p.name}` : ""}.`].filter(Boolean).join(" ");
    Object.defineProperty(properties, property, { value: typeof schema === "object" ? { ...schema, description: doc } : schema, enumerable: true, writable: true, configurable: true });
    if (p.required || p.in === "path") required.push(property);
  }
  if (op.requestBody) {
    const media = op.requestBody.contents.find((c) => mediaKind(c.mediaType) === "json") ?? op.requestBody.contents.find((c) => mediaKind(c.mediaType) === "form") ?? op.requestBody.contents[0];
    const schema = media?.schema !== undefined ? schemas.convert(media.schema, needs, "readOnly") : media && mediaKind(media.mediaType) === "none" ? { type: "string" } : {};
    const doc = [op.requestBody.description, media ? `Sent as ${media.mediaType}.` : undefined].filter(Boolean).join(" ");
    properties["body"] = typeof schema === "object" ? { ...schema, ...(doc ? { description: doc } : {}) } : schema;
    args.push({ property: "body", name: "body", arg: "body", in: "body" });
    if (op.requestBody.required) required.push("body");
  }
  const inputSchema = { type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: false };

  const successes = op.responses.filter((r) => /^2/.test(r.status));
  const jsonOf = (r: (typeof successes)[number]): JsonSchema | undefined => r.contents.find((c) => mediaKind(c.mediaType) === "json" && c.schema !== undefined)?.schema;
  const bodies = successes.map(jsonOf);
  let outputSchema: Record<string, unknown> | undefined;
  let outputWrap: string | undefined;
  const streamed = op.streamMedia !== undefined || op.stream !== undefined;
  if (!streamed && successes.length === 1 && bodies[0] !== undefined && isPlainObjectSchema(schemas.resolveTop(bodies[0]))) {
    // The object itself, inlined one level so its top is `type: object` as MCP requires.
    const converted = schemas.convert(schemas.resolveTop(bodies[0]) as Record<string, unknown>, needs, "writeOnly");
    outputSchema = typeof converted === "object" ? { ...converted, type: "object" } : { type: "object" };
  } else if (!streamed && bodies.some((b) => b !== undefined) && successes.every((r, i) => bodies[i] !== undefined || r.contents.length === 0)) {
    // Not an object, or several success answers (one may have no body): \`{ result }\`, absent when
    // the answer has no body, one of the declared schemas otherwise.
    const declared = bodies.filter((b): b is JsonSchema => b !== undefined).map((b) => schemas.convert(b, needs, "writeOnly"));
    const unique = declared.filter((d, i) => declared.findIndex((e) => JSON.stringify(e) === JSON.stringify(d)) === i);
    const bodiless = bodies.some((b) => b === undefined);
    outputWrap = "result";
    outputSchema = { type: "object", properties: { result: unique.length === 1 ? unique[0] : { anyOf: unique } }, ...(bodiless ? {} : { required: ["result"] }) };
  }
  const title = op.summary ?? op.id;
  const pg = op.pagination;
  return {
    name,
    operationId: op.id,
    method: op.methodName,
    httpMethod: op.method.toUpperCase(),
    path: op.path,
    tags: op.tags,
    title,
    description: description(byId, op),
    inputSchema,
    ...(outputSchema ? { outputSchema } : {}),
    ...(outputWrap !== undefined ? { outputWrap } : {}),
    annotations: annotations(op, title),
    arguments: args,
    security: supportedAlternatives(model, op),
    ...(pg ? { pagination: { request: pg.request, response: pg.response, items: pg.items ?? "/data", ...(pg.pageSize !== undefined ? { pageSize: pg.pageSize } : {}) } } : {}),
    deprecated: op.deprecated,
    defs: [...needs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
  };
}

/** Every tool of the model, with the components their schemas reference, in contract order. */
export function planTools(model: ApiModel): { rows: ToolRow[]; defs: Record<string, unknown> } {
  const schemas = new ToolSchemas(model);
  const ops = model.operations.filter((op) => op.mcp?.include !== false);
  const names: string[] = [];
  const seen = new Set<string>();
  for (const op of ops) {
    let name = toolName(op);
    for (let i = 2; seen.has(name) && op.mcp?.name === undefined; i++) name = fitName(`${toolName(op)}_${i}`, TOOL_NAME_BUDGET);
    seen.add(name);
    names.push(name);
  }
  // Built once: a lookup per tool over every operation was quadratic (GitHub's 1,223).
  const byId = new Map(model.operations.map((o) => [o.id, o]));
  const rows = ops.map((op, i) => toolRow(model, byId, op, names[i] as string, schemas));
  const used = new Set(rows.flatMap((r) => r.defs));
  const defs: Record<string, unknown> = {};
  for (const k of Object.keys(schemas.defs).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
    if (used.has(k)) Object.defineProperty(defs, k, { value: schemas.defs[k], enumerable: true, writable: true, configurable: true });
  return { rows, defs };
}

/** Fails generation when a tool cannot be listed for some client profile, naming the tool and the rule. */
function lint(model: ApiModel, rows: readonly ToolRow[], defs: Record<string, unknown>): void {
  const tools = attachDefs({ tools: rows, defs });
  const issues = lintProfiles(tools, PROFILES, model.name);
  // The first operation of an id, as a search would find it.
  const byId = new Map<string, Operation>();
  for (const o of model.operations) if (!byId.has(o.id)) byId.set(o.id, o);
  // A name the contract gives (x-mcp) is never shortened behind its back: it must fit every budget.
  for (const r of rows) {
    const op = byId.get(r.operationId);
    if (op?.mcp?.name === undefined) continue;
    for (const profile of PROFILES) {
      const rules = PROFILE_RULES[profile];
      const budget = rules.nameBudget(model.name);
      if (r.name.length > budget || !rules.namePattern.test(r.name)) {
        issues.push({
          profile,
          tool: r.name,
          rule: "x-mcp-name",
          message: `the name ${JSON.stringify(r.name)} must match ${rules.namePattern.source} and fit ${budget} characters (the client's prefix for a server named ${model.name} counted)`,
        });
      }
    }
  }
  if (issues.length === 0) return;
  const byTool = new Map(rows.map((r) => [r.name, byId.get(r.operationId)]));
  throw new SpecError(
    issues.map((i) => {
      const op = byTool.get(i.tool);
      return {
        file: model.source.path,
        pointer: op ? `${op.pointer}${op.mcp?.name !== undefined ? "/x-mcp/name" : ""}` : "#",
        message: `MCP tool ${i.tool} cannot be listed for ${i.profile} (${i.rule}): ${i.message}`,
        fix: op?.mcp?.name !== undefined ? "choose a shorter x-mcp name of letters, digits, _ and -" : "set x-mcp.name on the operation, or leave it out with x-mcp.include: false",
      };
    }),
  );
}

export const mcpEmitter = defineEmitter({
  name: "mcp",
  modelOnly: true,
  exports: { "./mcp": "mcp" },
  barrel: "none",
  dependencies: { "@contractgen/runtime": "^0.1.0" },
  optionalPeers: { "@modelcontextprotocol/sdk": "^1.32.2" },
  emit({ model }) {
    const { rows, defs } = planTools(model);
    lint(model, rows, defs);
    const base = pascalCase(model.name, "Api");
    const envPrefix =
      model.name
        .toUpperCase()
        .replace(/[^A-Z0-9]+/g, "_")
        .replace(/^_+|_+$/g, "") || "API";
    // The tool table is data (GitHub's API: 4 MB of JSON), so it ships as JavaScript outside \`src/\`
    // with a one-line declaration, like the compiled validators: TypeScript reads the declaration
    // instead of scanning the string in every program that imports the MCP module.
    const tableJs =
      tsHeader(model) +
      ts`/**
 * One row per tool; component schemas the rows reference are in \`defs\`. One JSON string, as the
 * mocks' data: \`JSON.parse\` loads it faster than a literal.
 */
export function toolTable() {
  return JSON.parse(${stringLiteral(JSON.stringify({ tools: rows, defs }))});
}
`.text;
    const tableDts =
      tsHeader(model) +
      ts`import type { McpToolTable } from "@contractgen/runtime/mcp-tools";

/** One row per tool; component schemas the rows reference are in \`defs\`. */
export declare function toolTable(): McpToolTable;
`.text;
    const code = ts`import { attachDefs, createMcpServer, serveHttp, serveStdio, type McpApi, type McpServerOptions, type HttpServeOptions, type ToolBackend } from "@contractgen/runtime/mcp";
import { ${ident(`create${base}Client`)}, toError } from "./client.js";
import { toolTable } from "../compiled/mcp.tools.js";
import { validateRequest, validateResponse, type OperationId } from "./validators.js";

export type { McpServerOptions, HttpServeOptions, McpProfile } from "@contractgen/runtime/mcp";

${jsdoc(`The tools of ${model.info.title} ${model.info.version}: one per operation, with self-contained input and output schemas.`)}export const mcpTools = attachDefs(toolTable());

${jsdoc(`${model.info.title} as an MCP API: its tools and how to call them (the generated client and validators).`)}export const mcpApi: McpApi = {
  name: ${model.name},
  title: ${model.info.title},
  version: ${model.info.version},
  envPrefix: ${envPrefix},
  tools: mcpTools,
  backend(options): ToolBackend {
    const client = ${ident(`create${base}Client`)}(options);
    return {
      raw: client.raw as unknown as ToolBackend["raw"],
      validateRequest: (id, input) => validateRequest(id as OperationId, input),
      validateResponse: (id, status, contentType, body) => validateResponse(id as OperationId, status, contentType, body),
      toError,
    };
  },
};

/** An MCP server (not yet connected) offering the tools; connect it to any MCP transport. */
export function ${ident(`create${base}McpServer`)}(options: McpServerOptions = {}) {
  return createMcpServer(mcpApi, options);
}

/** Serves the tools on stdin/stdout (what assistants start as a local command). */
export function ${ident(`serve${base}McpStdio`)}(options: McpServerOptions = {}) {
  return serveStdio(mcpApi, options);
}

/** Serves the tools over Streamable HTTP on 127.0.0.1; each request may carry its own credentials. */
export function ${ident(`serve${base}McpHttp`)}(options: HttpServeOptions = {}) {
  return serveHttp(mcpApi, options);
}
`;
    return [
      { path: "src/mcp.ts", contents: tsHeader(model) + code.text },
      { path: "compiled/mcp.tools.js", contents: tableJs, format: false },
      { path: "compiled/mcp.tools.d.ts", contents: tableDts, format: false },
    ];
  },
});
