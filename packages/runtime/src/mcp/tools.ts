/**
 * MCP tools as data: what a generated `./mcp` module describes per operation, and the selection of
 * tools a server offers (`--tools`, `--tags`, `--read-only`). Nothing here loads the MCP SDK, so the
 * tables and the selection can be used and tested without it.
 */
import type { SecurityAlternatives } from "../shared/security.js";

/** A JSON Schema object as MCP tool listings carry it (2020-12, self-contained). */
export type JsonSchemaObject = { readonly [key: string]: unknown };

/** Where a tool argument goes in the HTTP request. */
export type McpArgumentLocation = "path" | "query" | "header" | "cookie" | "body";

/** One property of a tool's input: the parameter (or body) it stands for. */
export interface McpArgument {
  /** The property name in the tool's input schema. */
  readonly property: string;
  /** The parameter name as the contract spells it (`body` for the request body). */
  readonly name: string;
  /** Key of the value in the generated client's arguments. */
  readonly arg: string;
  readonly in: McpArgumentLocation;
}

/** MCP tool annotations (hints to the client; the contract's method decides them). */
export interface McpToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

/** One tool: one operation of the contract. */
export interface McpToolSpec {
  /** Tool name: unique, `^[a-zA-Z0-9_-]{1,64}$`, with room for a client's server prefix. */
  readonly name: string;
  readonly operationId: string;
  /** Method name on the generated client (and its `raw` namespace). */
  readonly method: string;
  readonly httpMethod: string;
  readonly path: string;
  readonly tags: readonly string[];
  readonly title: string;
  readonly description: string;
  /** Object schema of the arguments: one property per parameter, `body` for the request body. */
  readonly inputSchema: JsonSchemaObject;
  /** Object schema of `structuredContent`, when the contract gives the success response a schema. */
  readonly outputSchema?: JsonSchemaObject;
  /**
   * The success body is not an object: `structuredContent` is `{ [outputWrap]: body }` because MCP
   * requires an object there.
   * @default undefined (the body itself)
   */
  readonly outputWrap?: string;
  readonly annotations: McpToolAnnotations;
  readonly arguments: readonly McpArgument[];
  readonly security: SecurityAlternatives;
  /** Cursor paging (`x-pagination`): the request parameter, and pointers into the answer. */
  readonly pagination?: { readonly request: string; readonly response: string; readonly items: string; readonly pageSize?: string };
  readonly deprecated: boolean;
}

/** A tool as a generated table stores it: schemas without `$defs`, and the components they need. */
export type McpToolRow = Omit<McpToolSpec, "inputSchema" | "outputSchema"> & {
  readonly inputSchema: JsonSchemaObject;
  readonly outputSchema?: JsonSchemaObject;
  /** Names of the components (in the table's `defs`) the schemas reference as `#/$defs/<name>`. */
  readonly defs: readonly string[];
};

/** A generated package's tools: each component schema is stored once, however many tools use it. */
export interface McpToolTable {
  readonly tools: readonly McpToolRow[];
  readonly defs: Readonly<Record<string, unknown>>;
}

/** The tools with self-contained schemas: each gets the `$defs` it references (shared objects, not copies). */
export function attachDefs(table: McpToolTable): McpToolSpec[] {
  const pick = (names: readonly string[]): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const n of names) if (Object.prototype.hasOwnProperty.call(table.defs, n)) Object.defineProperty(out, n, { value: table.defs[n], enumerable: true, writable: true, configurable: true });
    return out;
  };
  return table.tools.map(({ defs, ...row }) => ({
    ...row,
    inputSchema: defs.length > 0 ? { ...row.inputSchema, $defs: pick(defs) } : row.inputSchema,
    ...(row.outputSchema ? { outputSchema: defs.length > 0 ? { ...row.outputSchema, $defs: pick(defs) } : row.outputSchema } : {}),
  }));
}

/** Which tools a server offers. Every given filter must hold. */
export interface ToolFilter {
  /** Tool names or operationIds to offer. @default every tool */
  readonly tools?: readonly string[];
  /** Offer only operations carrying one of these tags. @default every tag */
  readonly tags?: readonly string[];
  /** Offer only read-only operations (GET, HEAD, OPTIONS). @default false */
  readonly readOnly?: boolean;
}

/**
 * The tools a filter keeps, in contract order. Names in `tools` or `tags` that match nothing are
 * returned as `unknown` so a command line can say which one is misspelled.
 */
export function selectTools(all: readonly McpToolSpec[], filter: ToolFilter = {}): { tools: McpToolSpec[]; unknown: string[] } {
  const unknown: string[] = [];
  if (filter.tools) for (const t of filter.tools) if (!all.some((x) => x.name === t || x.operationId === t)) unknown.push(t);
  if (filter.tags) for (const t of filter.tags) if (!all.some((x) => x.tags.includes(t))) unknown.push(`tag ${t}`);
  const tools = all.filter(
    (t) =>
      (!filter.tools || filter.tools.includes(t.name) || filter.tools.includes(t.operationId)) &&
      (!filter.tags || t.tags.some((tag) => filter.tags?.includes(tag))) &&
      (!filter.readOnly || t.annotations.readOnlyHint),
  );
  return { tools, unknown };
}
