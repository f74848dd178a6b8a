/**
 * `@contractgen/runtime/mcp`: a Model Context Protocol server over a generated package's tool table.
 * The official MCP SDK is loaded here only (an optional peer): a client-only consumer never imports
 * this module. Tools are listed with plain JSON Schema and called through the package's own
 * validators and client (`callTool`), on the SDK's low-level `Server`, so no second schema language
 * (zod) and no second validation sits between the contract and the API.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { AuthConfig } from "../client/auth.js";
import { authFromHeader } from "./auth.js";
import { callTool, toolError, type ToolBackend, type ToolResult } from "./call.js";
import { DISCOVERY_TOOLS, discoveryListing, searchOperations } from "./discovery.js";
import { applyProfile, PROFILES, type McpProfile, type ProfiledTool } from "./profiles.js";
import { selectTools, type McpToolSpec, type ToolFilter } from "./tools.js";
import { own } from "../shared/own.js";

export * from "./tools.js";
export * from "./profiles.js";
export * from "./auth.js";
export { callTool, toolError, DEFAULT_MAX_ANSWER_CHARS, type ToolBackend, type ToolResult, type CallToolOptions } from "./call.js";
export { describeToolError } from "./errors.js";
export { trimAnswer } from "./trim.js";
export { DISCOVERY_TOOLS, discoveryListing, searchOperations } from "./discovery.js";

/** What a generated `./mcp` module describes: the API and its tools, and how to reach it. */
export interface McpApi {
  /** Short name of the API (`core`): the default server name. */
  readonly name: string;
  readonly title: string;
  readonly version: string;
  /** Prefix of the credential variables (`CORE` → `CORE_BEARER_TOKEN`). */
  readonly envPrefix: string;
  readonly tools: readonly McpToolSpec[];
  /** A backend (client, validators, error mapping) for a base URL and credentials. */
  backend(options: { readonly baseUrl?: string; readonly auth?: AuthConfig; readonly fetch?: typeof fetch }): ToolBackend;
}

export interface McpServerOptions extends ToolFilter {
  /** The API address. @default the contract's first server */
  readonly baseUrl?: string;
  /** Credentials; each tool uses the scheme its operation requires. @default {} */
  readonly auth?: AuthConfig;
  /** Shape tools for one client's limits (see `PROFILE_RULES`). @default "standard" */
  readonly profile?: McpProfile;
  /** List three discovery tools (search, describe, invoke) instead of one tool per operation. @default false */
  readonly discovery?: boolean;
  /** Largest answer text in characters before trimming at element boundaries. @default 50_000 */
  readonly maxAnswerChars?: number;
  /** Name the server announces (clients prefix tool names with it). @default the API's short name */
  readonly serverName?: string;
  /** @default globalThis.fetch */
  readonly fetch?: typeof fetch;
}

/** The tools a server offers after filters and profile, or why not (an unknown tool or tag name). */
export function resolveTools(api: McpApi, options: McpServerOptions = {}): ProfiledTool[] {
  const { tools, unknown } = selectTools(api.tools, options);
  if (unknown.length > 0) throw new RangeError(`no such ${unknown.join(", ")} in ${api.title}; the tools are: ${api.tools.map((t) => t.name).join(", ")}`);
  const profile = options.profile ?? "standard";
  if (!PROFILES.includes(profile)) throw new RangeError(`unknown profile ${JSON.stringify(profile)}; use one of ${PROFILES.join(", ")}`);
  return applyProfile(tools, profile, options.serverName ?? api.name);
}

/**
 * A transport the server can be connected to: any of the SDK's (stdio, Streamable HTTP, in-memory)
 * fits. The part of the SDK's `Transport` the server's caller needs to name.
 */
export interface McpTransport {
  start(): Promise<void>;
  send(message: unknown): Promise<void>;
  close(): Promise<void>;
}

/**
 * What createMcpServer and serveStdio return: the SDK's low-level `Server`, declared by what its
 * caller does with it (connect it, close it). Naming the SDK's class in these declarations would
 * put the SDK's declarations and its schema library's (zod, about 120 files) into the type-check
 * of every program that imports a generated package, about half a second each time, MCP used or
 * not. For the rest of its API, cast to the SDK's `Server`: it is one.
 */
export interface McpServer {
  connect(transport: McpTransport): Promise<void>;
  close(): Promise<void>;
}

/** An MCP server (not yet connected) offering `api`'s tools. Throws only for bad options. */
export function createMcpServer(api: McpApi, options: McpServerOptions = {}): McpServer {
  return serverFor(api, options, resolveTools(api, options));
}

/** The server over tools already filtered and shaped (Streamable HTTP shapes them once, not per request). */
function serverFor(api: McpApi, options: McpServerOptions, tools: readonly ProfiledTool[]): Server {
  const backend = api.backend({
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
    ...(options.auth ? { auth: options.auth } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const byName = new Map(tools.map((t) => [t.name, t]));
  const callOptions = { envPrefix: api.envPrefix, ...(options.maxAnswerChars !== undefined ? { maxAnswerChars: options.maxAnswerChars } : {}) };
  const server = new Server(
    { name: options.serverName ?? api.name, title: api.title, version: api.version },
    { capabilities: { tools: {} }, instructions: `Tools for ${api.title} ${api.version}, generated from its OpenAPI contract. Errors come back as tool results that say what to change.` },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: options.discovery
      ? discoveryListing(api.title)
      : tools.map((t) => ({
          name: t.name,
          title: t.spec.title,
          description: t.description,
          inputSchema: t.inputSchema as { type: "object"; [k: string]: unknown },
          ...(t.outputSchema ? { outputSchema: t.outputSchema as { type: "object"; [k: string]: unknown } } : {}),
          annotations: t.spec.annotations,
        })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<ToolResult> => {
    const { name, arguments: args } = request.params;
    const signal = extra.signal;
    if (options.discovery) return discoveryCall(name, args, tools, byName, backend, { ...callOptions, signal });
    const tool = byName.get(name);
    if (!tool) return toolError(`There is no tool ${JSON.stringify(name)}. The tools are: ${tools.map((t) => t.name).join(", ")}.`);
    return callTool(tool.spec, args, backend, { ...callOptions, signal });
  });
  return server;
}

async function discoveryCall(
  name: string,
  args: Readonly<Record<string, unknown>> | undefined,
  tools: readonly ProfiledTool[],
  byName: ReadonlyMap<string, ProfiledTool>,
  backend: ToolBackend,
  options: { maxAnswerChars?: number; envPrefix: string; signal: AbortSignal },
): Promise<ToolResult> {
  const a = args ?? {};
  const text = (value: unknown): ToolResult => ({ content: [{ type: "text", text: JSON.stringify(value) }] });
  const find = (): ProfiledTool | undefined => (typeof a["name"] === "string" ? byName.get(a["name"]) : undefined);
  const missing = (): ToolResult =>
    toolError(
      `No operation ${JSON.stringify(a["name"])}: use ${DISCOVERY_TOOLS.search} to find the names (for example ${tools
        .slice(0, 3)
        .map((t) => t.name)
        .join(", ")}).`,
    );
  switch (name) {
    case DISCOVERY_TOOLS.search:
      return text(searchOperations(tools, a));
    case DISCOVERY_TOOLS.describe: {
      const t = find();
      if (!t) return missing();
      return text({
        name: t.name,
        title: t.spec.title,
        description: t.description,
        method: t.spec.httpMethod,
        path: t.spec.path,
        annotations: t.spec.annotations,
        inputSchema: t.inputSchema,
        ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
      });
    }
    case DISCOVERY_TOOLS.invoke: {
      const t = find();
      if (!t) return missing();
      const result = await callTool(t.spec, own(a, "arguments") ?? {}, backend, options);
      // structuredContent belongs to a tool with an output schema; invoke_operation declares none.
      return { content: result.content, ...(result.isError ? { isError: true } : {}) };
    }
    default:
      return toolError(`There is no tool ${JSON.stringify(name)}: in discovery mode the tools are ${Object.values(DISCOVERY_TOOLS).join(", ")}.`);
  }
}

/** Serves on stdin/stdout until the client disconnects. Logs go to stderr only: stdout is the protocol's. */
export async function serveStdio(api: McpApi, options: McpServerOptions = {}): Promise<McpServer> {
  const server = createMcpServer(api, options);
  await server.connect(new StdioServerTransport());
  return server;
}

export interface HttpServeOptions extends McpServerOptions {
  /** @default 0 (any free port) */
  readonly port?: number;
  /** Loopback by default: exposing an API's credentials beyond this machine is a choice to make explicitly. @default "127.0.0.1" */
  readonly host?: string;
  /** Path the MCP endpoint answers on. @default "/mcp" */
  readonly path?: string;
}

/**
 * Streamable HTTP, stateless: each POST gets its own server and transport, with the credentials of
 * that request (`Authorization: Bearer …` or `Basic …`) laid over the configured ones, so every user
 * calls the API with their own permissions.
 */
export async function serveHttp(api: McpApi, options: HttpServeOptions = {}): Promise<{ url: string; close(): Promise<void> }> {
  const path = options.path ?? "/mcp";
  const tools = resolveTools(api, options); // bad options fail here, before listening
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname !== path) {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: `the MCP endpoint is ${path}` }));
      return;
    }
    if (req.method !== "POST") {
      res.writeHead(405, { allow: "POST", "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "stateless server: POST only" }, id: null }));
      return;
    }
    const auth = authFromHeader(req.headers.authorization, options.auth ?? {});
    const server = serverFor(api, { ...options, auth }, tools);
    // No sessionIdGenerator: stateless mode (no session to keep between requests).
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  };
  const http = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32603, message: err instanceof Error ? err.message : String(err) }, id: null }));
    });
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 0, host, () => resolve());
  });
  const address = http.address();
  const port = typeof address === "object" && address !== null ? address.port : (options.port ?? 0);
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}${path}`,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}
