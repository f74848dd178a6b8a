/**
 * The tool lists of the three generated packages, as the official SDK's client receives them, for
 * every client profile: names within each client's limits, schemas each client accepts, annotations
 * from the methods, output schemas where the contract gives a response schema.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { PROFILE_RULES, PROFILES, type McpApi, type McpProfile } from "@contractgen/runtime/mcp";
import { mcpApi as core } from "@devplatform/core/mcp";
import { mcpApi as audiences } from "@devplatform/ads-audiences/mcp";
import { mcpApi as campaigns } from "@devplatform/ads-campaigns/mcp";
import { operationList as coreOperations } from "@devplatform/core/operations";
import { operationList as audienceOperations } from "@devplatform/ads-audiences/operations";
import { operationList as campaignOperations } from "@devplatform/ads-campaigns/operations";
import { connect, mockAuth, startMock, type RunningMock } from "./helpers.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const APIS: readonly [McpApi, readonly { operationId: string; method: string }[]][] = [
  [core, coreOperations],
  [audiences, audienceOperations],
  [campaigns, campaignOperations],
];

type Listed = { name: string; inputSchema: Record<string, unknown>; outputSchema?: Record<string, unknown>; annotations?: Record<string, unknown>; title?: string; description?: string };

/** Every keyword path in a schema (to find `$ref`, combinators, formats wherever they are). */
function keys(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => keys(n, out));
  else if (node !== null && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      out.push(k);
      // Property names are data, not keywords.
      if (k === "properties" && v !== null && typeof v === "object") Object.values(v).forEach((x) => keys(x, out));
      else keys(v, out);
    }
  }
  return out;
}

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(async () => {
  await mock.close();
});

describe.each(APIS.map(([api, ops]) => ({ api, ops, name: api.name })))("$name", ({ api, ops }) => {
  it.each(PROFILES.map((p) => ({ profile: p })))("lists one tool per operation that $profile accepts", async ({ profile }: { profile: McpProfile }) => {
    const client = await connect(api, { baseUrl: mock.url, auth: mockAuth(mock), profile });
    const { tools } = (await client.listTools()) as { tools: Listed[] };
    await client.close();
    expect(tools).toHaveLength(ops.length);
    const rules = PROFILE_RULES[profile];
    const budget = rules.nameBudget(api.name);
    expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
    // A strict 2020-12 compiler: unknown keywords and formats are errors, as in strict clients.
    const ajv = addFormats(
      new Ajv2020({
        strict: true,
        strictTypes: false,
        strictTuples: false,
        strictRequired: false,
        allowUnionTypes: true,
        formats: { int32: true, int64: true, float: true, double: true, byte: true, binary: true, password: true },
      }),
    );
    for (const t of tools) {
      expect(t.name).toMatch(rules.namePattern);
      expect(t.name.length).toBeLessThanOrEqual(budget);
      for (const schema of [t.inputSchema, t.outputSchema]) {
        if (schema === undefined) continue;
        expect(schema["type"]).toBe("object");
        for (const k of ["anyOf", "oneOf", "allOf", "enum", "not", "$ref"]) expect(schema[k], `${t.name} top-level ${k}`).toBeUndefined();
        const found = keys(schema);
        if (rules.inline) expect(found, `${t.name} keeps no $ref`).not.toContain("$ref");
        if (rules.geminiSubset)
          for (const k of ["$ref", "$defs", "const", "oneOf", "allOf", "additionalProperties", "patternProperties"]) expect(found, `${t.name} (gemini) has ${k}`).not.toContain(k);
        if (!rules.geminiSubset) expect(() => ajv.compile(schema), `${t.name} compiles`).not.toThrow();
      }
      for (const p of Object.keys((t.inputSchema["properties"] ?? {}) as object)) expect(p).toMatch(/^[a-zA-Z0-9_.-]{1,64}$/);
    }
  });
});

describe("tool descriptions and annotations", () => {
  it("take title and description from the contract, and hints from the method", async () => {
    const client = await connect(core, { baseUrl: mock.url });
    const { tools } = (await client.listTools()) as { tools: Listed[] };
    await client.close();
    const byName = new Map(tools.map((t) => [t.name, t]));
    const get = byName.get("getPostsByIds");
    expect(get?.title).toBe("Look up posts by identifiers");
    expect(get?.description).toContain("comma-separated post ids");
    expect(get?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    // Token invalidation is destructive although it is a POST.
    expect(byName.get("invalidateBearerToken")?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get("createPost")?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    // The x-unspecified reason reaches the assistant.
    expect(byName.get("createPost")?.description).toContain("The contract does not show this operation's shape");
    const deletes = tools.filter((t) => t.name.startsWith("delete"));
    expect(deletes.length).toBeGreaterThan(0);
    for (const t of deletes) expect(t.annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });
  });

  it("give PUT operations the idempotent hint and paged operations their cursor", async () => {
    const client = await connect(audiences, { baseUrl: mock.url });
    const { tools } = (await client.listTools()) as { tools: Listed[] };
    await client.close();
    const put = tools.find((t) => t.name === "updateProductCatalog");
    expect(put?.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: true, destructiveHint: false });
    const paged = tools.find((t) => t.name === "listProducts");
    expect(paged?.description).toContain("cursor");
    expect(Object.keys(paged?.inputSchema["properties"] as object)).toEqual(expect.arrayContaining(["cursor", "count"]));
    expect(paged?.outputSchema?.["properties"]).toHaveProperty("next_cursor");
  });
});
