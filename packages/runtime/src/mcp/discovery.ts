/**
 * Discovery mode, for clients with small tool budgets: three tools instead of one per operation.
 * `search_operations` finds operations by words, tag or read-only; `describe_operation` gives one
 * operation's input and output schemas; `invoke_operation` calls it with arguments checked exactly
 * as its own tool would check them.
 */
import type { ProfiledTool } from "./profiles.js";
import type { JsonSchemaObject } from "./tools.js";

export const DISCOVERY_TOOLS = {
  search: "search_operations",
  describe: "describe_operation",
  invoke: "invoke_operation",
} as const;

/** The listing of the three discovery tools. */
export function discoveryListing(apiTitle: string): { name: string; title: string; description: string; inputSchema: JsonSchemaObject; annotations: Record<string, boolean> }[] {
  return [
    {
      name: DISCOVERY_TOOLS.search,
      title: `Search ${apiTitle} operations`,
      description: `Finds operations of ${apiTitle} by words in their name, summary, path or tags. Returns names to pass to ${DISCOVERY_TOOLS.describe} and ${DISCOVERY_TOOLS.invoke}.`,
      inputSchema: {
        type: "object",
        properties: {
          query: { type: "string", description: "Words to look for; every word must match. Empty lists everything." },
          tag: { type: "string", description: "Only operations with this tag." },
          readOnly: { type: "boolean", description: "Only operations that change nothing." },
          limit: { type: "integer", minimum: 1, maximum: 100, default: 20, description: "Most results to return." },
        },
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    {
      name: DISCOVERY_TOOLS.describe,
      title: `Describe a ${apiTitle} operation`,
      description: `The description, input schema and output schema of one operation (a name from ${DISCOVERY_TOOLS.search}).`,
      inputSchema: { type: "object", properties: { name: { type: "string", description: "Operation name." } }, required: ["name"] },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    {
      name: DISCOVERY_TOOLS.invoke,
      title: `Call a ${apiTitle} operation`,
      description: `Calls one operation with arguments that fit its input schema (see ${DISCOVERY_TOOLS.describe}). Operations may change data: check the description first.`,
      inputSchema: {
        type: "object",
        properties: { name: { type: "string", description: "Operation name." }, arguments: { type: "object", description: "The operation's arguments." } },
        required: ["name"],
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
  ];
}

/** Operations matching a search, in contract order. */
export function searchOperations(tools: readonly ProfiledTool[], args: { query?: unknown; tag?: unknown; readOnly?: unknown; limit?: unknown }): Record<string, unknown>[] {
  const words = typeof args.query === "string" ? args.query.toLowerCase().split(/\s+/).filter(Boolean) : [];
  const limit = typeof args.limit === "number" && args.limit >= 1 ? Math.min(100, Math.floor(args.limit)) : 20;
  return tools
    .filter((t) => {
      const hay = [t.name, t.spec.operationId, t.spec.title, t.spec.path, t.spec.httpMethod, ...t.spec.tags].join(" ").toLowerCase();
      return words.every((w) => hay.includes(w)) && (typeof args.tag !== "string" || t.spec.tags.includes(args.tag)) && (args.readOnly !== true || t.spec.annotations.readOnlyHint);
    })
    .slice(0, limit)
    .map((t) => ({ name: t.name, title: t.spec.title, method: t.spec.httpMethod, path: t.spec.path, tags: t.spec.tags, readOnly: t.spec.annotations.readOnlyHint }));
}
