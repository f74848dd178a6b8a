/**
 * One tool call, start to end: arguments checked by the package's precompiled request validators,
 * the request made through the generated client, the answer checked by the response validators and
 * returned as text plus `structuredContent`. Every failure (refused arguments, API problems,
 * transport errors, answers outside the contract) becomes a tool error (`isError`) whose text says
 * what to change: an assistant can read and act on it, and the MCP session never sees an exception.
 */
import { describeToolError } from "./errors.js";
import type { McpToolSpec } from "./tools.js";
import { trimAnswer } from "./trim.js";
import type { RawResponse } from "../client/body.js";
import type { RequestInput, RequestValidation, ResponseValidation } from "../shared/validation.js";
import { own, setOwn } from "../shared/own.js";

/** The result of a tool call, in the shape of MCP's `CallToolResult`. */
export interface ToolResult {
  readonly content: { readonly type: "text"; readonly text: string }[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
  readonly [key: string]: unknown;
}

/** What a generated package gives the MCP server to call its API with. */
export interface ToolBackend {
  /** The generated client's `raw` namespace: method name → call returning the HTTP answer. */
  readonly raw: Readonly<Record<string, (args: Readonly<Record<string, unknown>>) => Promise<RawResponse>>>;
  readonly validateRequest: (operationId: string, input: RequestInput) => RequestValidation;
  readonly validateResponse: (operationId: string, status: number, contentType: string | undefined, body: unknown) => ResponseValidation;
  /** The generated client's error mapping (problem classes, `ApiError`, error-response classes). */
  readonly toError: (operationId: string, response: RawResponse) => Error;
}

export interface CallToolOptions {
  /**
   * Largest answer, in characters of its JSON text, handed to the assistant; longer answers are
   * trimmed at element boundaries.
   * @default 50_000
   */
  readonly maxAnswerChars?: number;
  readonly signal?: AbortSignal;
  /** Prefix of the credential variables, so a missing credential is named as the variable to set. @default undefined */
  readonly envPrefix?: string;
}

export const DEFAULT_MAX_ANSWER_CHARS = 50_000;

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

export function toolError(text: string): ToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** Calls `tool` with `args` (as the MCP client sent them) and never throws. */
export async function callTool(tool: McpToolSpec, args: unknown, backend: ToolBackend, options: CallToolOptions = {}): Promise<ToolResult> {
  try {
    return await callOnce(tool, args, backend, options);
  } catch (err) {
    return toolError(describeToolError(tool, err, options.envPrefix));
  }
}

async function callOnce(tool: McpToolSpec, args: unknown, backend: ToolBackend, options: CallToolOptions): Promise<ToolResult> {
  const given = args === undefined ? {} : args;
  if (!isRecord(given)) return toolError(`${tool.name}: arguments must be an object with the properties of its input schema.`);
  const known = new Set(tool.arguments.map((a) => a.property));
  const extra = Object.keys(given).filter((k) => !known.has(k));
  if (extra.length > 0) {
    const allowed = [...known].join(", ") || "none";
    return toolError(`${tool.name}: unknown argument${extra.length > 1 ? "s" : ""} ${extra.join(", ")}. Remove ${extra.length > 1 ? "them" : "it"}; the arguments are: ${allowed}.`);
  }

  const input = { path: {}, query: {}, headers: {}, cookies: {} } as Record<"path" | "query" | "headers" | "cookies", Record<string, unknown>>;
  let body: unknown;
  for (const a of tool.arguments) {
    const value = own(given, a.property);
    if (value === undefined) continue;
    if (a.in === "body") body = value;
    else setOwn(input[a.in === "header" ? "headers" : a.in === "cookie" ? "cookies" : a.in], a.name, value);
  }
  const checked = backend.validateRequest(tool.operationId, { ...input, ...(body !== undefined ? { body } : {}) });
  if (!checked.valid) return toolError(refusal(tool, checked.problem.errors));

  // The validated values (coerced, defaults applied) become the client's arguments.
  const clientArgs: Record<string, unknown> = {};
  for (const a of tool.arguments) {
    const v = checked.value;
    const value = a.in === "body" ? v.body : own(a.in === "header" ? v.headers : a.in === "cookie" ? v.cookies : v[a.in], a.in === "header" ? a.name.toLowerCase() : a.name);
    if (value !== undefined) setOwn(clientArgs, a.arg, value);
  }
  if (options.signal) clientArgs["signal"] = options.signal;
  const call = own(backend.raw, tool.method);
  if (typeof call !== "function") return toolError(`${tool.name}: the client has no method ${tool.method}; regenerate the package.`);

  const response = await call(clientArgs);
  if (response.status < 200 || response.status >= 300) return toolError(describeToolError(tool, backend.toError(tool.operationId, response), options.envPrefix));

  const fits = backend.validateResponse(tool.operationId, response.status, response.contentType, response.body);
  if (!fits.valid) {
    const why = fits.errors.map((e) => e.message).join("; ");
    return toolError(`${tool.name}: the API answered ${response.status} outside its contract (${why}). The answer was: ${preview(response.body)}`);
  }
  const maxChars = options.maxAnswerChars ?? DEFAULT_MAX_ANSWER_CHARS;
  const smaller = smallerPage(tool, given, response.body, maxChars);
  if (smaller !== undefined && !repaged.has(options)) {
    // Items trimmed off a page would be skipped by its next cursor: ask again for only the items
    // that fit, so the cursor the answer carries continues right after them. Once only.
    const again = await callOnce(tool, smaller, backend, markRepaged(options));
    if (!again.isError) return again;
  }
  return answer(tool, response.body, maxChars);
}

const repaged = new WeakSet<CallToolOptions>();
function markRepaged(options: CallToolOptions): CallToolOptions {
  const copy = { ...options };
  repaged.add(copy);
  return copy;
}

/**
 * The arguments of the same read with a page size that fits the budget, when trimming would drop
 * items of a paged GET whose contract names its page-size parameter; undefined otherwise.
 */
function smallerPage(tool: McpToolSpec, given: Record<string, unknown>, body: unknown, maxChars: number): Record<string, unknown> | undefined {
  const pg = tool.pagination;
  if (!pg?.pageSize || tool.httpMethod !== "GET" || body === null || typeof body !== "object") return undefined;
  const property = tool.arguments.find((a) => a.in === "query" && a.name === pg.pageSize)?.property;
  if (property === undefined) return undefined;
  const trimmed = trimAnswer(body, maxChars, pg.items);
  const kept = pointerGet(trimmed.value, pg.items);
  if (trimmed.omitted === 0 || !Array.isArray(kept) || kept.length === 0) return undefined;
  const out = { ...given };
  setOwn(out, property, kept.length);
  return out;
}

function refusal(tool: McpToolSpec, errors: readonly { message: string; parameters: Readonly<Record<string, readonly string[]>> }[]): string {
  const byName = new Map(tool.arguments.map((a) => [a.in === "header" ? a.name.toLowerCase() : a.name, a.property]));
  const lines = errors.map((e) => {
    // `ids/0` is item 0 of the parameter `ids`; `body/a/b` a member of the body.
    const names = Object.keys(e.parameters).map((n) => {
      const [head = n, ...rest] = n.split("/");
      return [byName.get(head) ?? head, ...rest].join("/");
    });
    return `- ${e.message}${names.length > 0 ? ` (argument ${names.join(", ")})` : ""}`;
  });
  return `${tool.name}: the arguments were refused; nothing was sent. Change these and call again:\n${lines.join("\n")}`;
}

function preview(body: unknown): string {
  const text = typeof body === "string" ? body : body instanceof Uint8Array ? `${body.byteLength} bytes` : (JSON.stringify(body) ?? "nothing");
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

/** A success answer: the JSON text and, when the tool declares an output schema, the same value as `structuredContent`. */
function answer(tool: McpToolSpec, body: unknown, maxChars: number): ToolResult {
  if (body === undefined) return { content: [{ type: "text", text: `${tool.name}: done (no content).` }], ...(tool.outputSchema ? { structuredContent: {} } : {}) };
  if (typeof body === "string" || body instanceof Uint8Array) {
    const text = typeof body === "string" ? body : `(${body.byteLength} bytes of binary content, not shown)`;
    return { content: [{ type: "text", text: text.length > maxChars ? `${text.slice(0, maxChars)}\n[trimmed: ${text.length - maxChars} more characters]` : text }] };
  }
  const trimmed = trimAnswer(body, maxChars, tool.pagination?.items);
  const notes: string[] = [];
  if (trimmed.omitted > 0) {
    const paged = tool.pagination !== undefined && trimmed.path === tool.pagination.items;
    notes.push(
      `[trimmed: ${trimmed.omitted} trailing element${trimmed.omitted > 1 ? "s" : ""} of ${trimmed.path || "the answer"} left out to stay under ${maxChars} characters${paged ? "; the next cursor does not return them" : ""}${tool.pagination?.pageSize ? `; ask for fewer with ${tool.pagination.pageSize}` : ""}]`,
    );
  }
  const next = tool.pagination ? pointerGet(trimmed.value, tool.pagination.response) : undefined;
  if (typeof next === "string" && tool.pagination) notes.push(`[more results: call ${tool.name} again with ${tool.pagination.request}=${JSON.stringify(next)}]`);
  const structured = tool.outputSchema ? (tool.outputWrap !== undefined ? { [tool.outputWrap]: trimmed.value } : trimmed.value) : undefined;
  const text = JSON.stringify(trimmed.value) + (notes.length > 0 ? `\n${notes.join("\n")}` : "");
  return { content: [{ type: "text", text }], ...(isRecord(structured) ? { structuredContent: structured } : {}) };
}

function pointerGet(value: unknown, pointer: string): unknown {
  let node = value;
  for (const seg of pointer.split("/").slice(1)) {
    if (!isRecord(node)) return undefined;
    node = own(node, seg.replace(/~1/g, "/").replace(/~0/g, "~"));
  }
  return node;
}
