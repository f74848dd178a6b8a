/**
 * The MCP pieces that need no server: answer trimming, name fitting, profile transforms and the
 * linter, credentials from the environment and from a request's Authorization header.
 */
import { describe, expect, it } from "vitest";
import { trimAnswer } from "../src/mcp/trim.js";
import { applyProfile, fitName, geminiSchema, inlineRefs, lintProfile, lintProfiles, PROFILES, type LintIssue } from "../src/mcp/profiles.js";
import { authFromCredentials, authFromHeader, credentialsFromEnv } from "../src/mcp/auth.js";
import type { McpToolSpec } from "../src/mcp/tools.js";

const tool = (name: string, inputSchema: Record<string, unknown> = { type: "object", properties: {} }): McpToolSpec => ({
  name,
  operationId: name,
  method: name,
  httpMethod: "GET",
  path: "/x",
  tags: [],
  title: name,
  description: name,
  inputSchema,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  arguments: [],
  security: [],
  deprecated: false,
});

describe("trimAnswer", () => {
  const page = { data: Array.from({ length: 50 }, (_, i) => ({ id: String(i), text: "x".repeat(20) })), next_cursor: "c2" };

  it("keeps an answer that fits as it is", () => {
    expect(trimAnswer(page, 10_000)).toEqual({ value: page, omitted: 0, path: "" });
  });

  it("drops trailing items of the named array until the JSON fits, keeping the rest of the answer", () => {
    const t = trimAnswer(page, 500, "/data");
    expect(JSON.stringify(t.value).length).toBeLessThanOrEqual(500);
    const kept = (t.value as typeof page).data;
    expect(kept).toEqual(page.data.slice(0, kept.length));
    expect(t.omitted).toBe(50 - kept.length);
    expect((t.value as typeof page).next_cursor).toBe("c2");
    // The most that fits: one more item would not.
    expect(JSON.stringify({ ...page, data: page.data.slice(0, kept.length + 1) }).length).toBeGreaterThan(500);
  });

  it("finds the largest array when no pointer is given, and leaves scalars alone", () => {
    const t = trimAnswer({ meta: { tags: ["a"] }, nested: { rows: page.data } }, 300);
    expect(t.path).toBe("/nested/rows");
    expect(trimAnswer("x".repeat(100), 10)).toEqual({ value: "x".repeat(100), omitted: 0, path: "" });
  });
});

describe("fitName", () => {
  it("keeps names that fit, and cuts longer ones to the budget with a stable, distinguishing suffix", () => {
    expect(fitName("getUser", 48)).toBe("getUser");
    const a = fitName("a".repeat(70) + "One", 48);
    const b = fitName("a".repeat(70) + "Two", 48);
    expect(a).toHaveLength(48);
    expect(a).not.toBe(b);
    expect(fitName("a".repeat(70) + "One", 48)).toBe(a);
  });
});

describe("profiles", () => {
  const recursive = {
    type: "object",
    properties: { node: { $ref: "#/$defs/Node" } },
    $defs: { Node: { type: "object", properties: { next: { $ref: "#/$defs/Node" }, when: { type: "string", format: "date" } } } },
  };

  it("inline references and cut cycles", () => {
    const out = inlineRefs(recursive);
    expect(JSON.stringify(out)).not.toContain("$ref");
    expect(out).toMatchObject({ properties: { node: { type: "object", properties: { next: { type: "object", description: expect.stringContaining("recursive") } } } } });
  });

  it("reduce schemas to Gemini's subset, unsupported formats moved into the description", () => {
    expect(geminiSchema({ type: ["string", "null"], format: "date", const: "x" })).toEqual({ type: "string", nullable: true, enum: ["x"], description: "(format: date)" });
    expect(geminiSchema({ type: "string", format: "date-time" })).toEqual({ type: "string", format: "date-time" });
    expect(geminiSchema({ allOf: [{ properties: { a: { type: "string" } }, required: ["a"] }, { properties: { b: { type: "integer", format: "int64" } } }], additionalProperties: false })).toEqual({
      type: "object",
      properties: { a: { type: "string" }, b: { type: "integer", format: "int64" } },
      required: ["a"],
    });
  });

  it("fit names to each client's budget for the server's name", () => {
    const long = tool("x".repeat(60));
    expect(applyProfile([long], "claude-code", "myserver")[0]?.name.length).toBe(64 - "mcp__myserver__".length);
    expect(applyProfile([long], "cursor", "myserver")[0]?.name.length).toBe(60 - "myserver".length - 1);
    expect(applyProfile([long], "standard", "myserver")[0]?.name).toBe(long.name);
  });

  it("lint names each tool and rule a profile cannot take", () => {
    expect(lintProfile([tool("ok", recursive)], "claude", "s")).toEqual([]);
    const issues = lintProfile([tool("bad", { anyOf: [{ type: "object" }] }), tool("props", { type: "object", properties: { "a b": {} } })], "openai", "s");
    expect(issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ tool: "bad", rule: "inputSchema-object" }),
        expect.objectContaining({ tool: "bad", rule: "inputSchema-top-level" }),
        expect.objectContaining({ tool: "props", rule: "property-name" }),
      ]),
    );
    expect(lintProfile([tool("x")], "claude-code", "s".repeat(60))).toEqual(expect.arrayContaining([expect.objectContaining({ tool: "*", rule: "server-name-budget" })]));
  });
});

describe("the linter's shared expansions", () => {
  // The linter inlines each definition once for all tools that agree on their $defs. What it finds
  // must be what each tool's own shaping (applyProfile, nothing shared) shows: a `$ref` left over
  // (the siblings of a reference cut short are kept as written), and the top level.
  const raw = { examples: [{ $ref: "#/elsewhere" }] };
  const leaf = { type: "string" };
  const wide = { type: "object", properties: Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`p${i}`, { $ref: "#/$defs/Leaf", ...raw }])) };
  const a = { type: "object", properties: { b: { $ref: "#/$defs/B" } } };
  const b = { type: "object", properties: { a: { $ref: "#/$defs/A", ...raw } } };
  const c = { type: "object", properties: { b: { $ref: "#/$defs/B" } } };
  const chain = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`D${i + 1}`, i === 7 ? leaf : { type: "object", properties: { n: { $ref: `#/$defs/D${i + 2}`, ...raw } } }]));
  const defs = {
    Leaf: leaf,
    Wide: wide,
    A: a,
    B: b,
    C: c,
    ...chain,
    Said: { type: "object", description: 'ends "$ref' },
    Named: { type: "object", properties: { $ref: leaf } },
    Listed: { enum: ["$ref"] },
  };
  const input = (properties: Record<string, unknown>, own: Record<string, unknown> = defs) => ({ type: "object", properties, $defs: own });
  const tools = [
    tool("wide_once", input({ w: { $ref: "#/$defs/Wide" } })),
    // The second expansion of Wide runs into the limit: its leaves are cut, their siblings kept.
    tool("wide_twice", input({ w: { $ref: "#/$defs/Wide" }, v: { $ref: "#/$defs/Wide" } })),
    tool("wide_late", input({ l: { $ref: "#/$defs/Leaf" }, w: { $ref: "#/$defs/Wide" }, v: { $ref: "#/$defs/Wide" } })),
    // B from the top, or below C, expands A (the cycle cut at B); B below A cuts A, whose siblings stay.
    tool("b_top", input({ x: { $ref: "#/$defs/B" } })),
    tool("c_top", input({ y: { $ref: "#/$defs/C" } })),
    tool("a_top", input({ y: { $ref: "#/$defs/A" } })),
    // The chain from D3 fits the depth limit; from D1 it does not (D3 is then deeper).
    tool("from_d3", input({ d: { $ref: "#/$defs/D3" } })),
    tool("from_d1", input({ d: { $ref: "#/$defs/D1" } })),
    tool("said", input({ s: { $ref: "#/$defs/Said" } })),
    tool("said_over", input({ s: { $ref: "#/$defs/Said", description: "replaced" } })),
    tool("named", input({ n: { $ref: "#/$defs/Named" } })),
    tool("listed", input({ e: { $ref: "#/$defs/Listed" } })),
    // Another Leaf (the same name, another target), and $defs that leave out what B references.
    tool("other_leaf", input({ w: { $ref: "#/$defs/Wide" } }, { ...defs, Leaf: { type: "object", properties: { $ref: {} } } })),
    tool("open_b", input({ x: { $ref: "#/$defs/B" } }, { B: b })),
    tool("top_ref", { $ref: "#/$defs/Wide", $defs: defs }),
  ];
  const reference = (profile: (typeof PROFILES)[number]): LintIssue[] => {
    const issues: LintIssue[] = [];
    for (const t of applyProfile(tools, profile, "s")) {
      const schema = t.inputSchema;
      const issue = (rule: string): void => {
        issues.push({ profile, tool: t.spec.name, rule, message: expect.any(String) as unknown as string });
      };
      if (schema["type"] !== "object") issue("inputSchema-object");
      for (const k of ["anyOf", "oneOf", "allOf", "enum", "not", "$ref"]) if (schema[k] !== undefined) issue("inputSchema-top-level");
      if (profile !== "standard" && JSON.stringify(schema).includes('"$ref"')) issue("inputSchema-refs");
      const props = schema["properties"];
      if (props !== null && typeof props === "object") for (const p of Object.keys(props)) if (!/^[a-zA-Z0-9_.-]{1,64}$/.test(p)) issue("property-name");
    }
    return issues;
  };

  it("find in every profile what each tool's own shaping shows, in any order of the tools", () => {
    const expected = PROFILES.flatMap(reference);
    expect(expected.filter((i) => i.rule === "inputSchema-refs").length).toBeGreaterThan(0);
    expect(lintProfiles(tools, PROFILES, "s")).toEqual(expected);
    for (const t of tools) expect(lintProfiles([t], PROFILES, "s")).toEqual(expected.filter((i) => i.tool === t.name));
    const reversed = [...tools].reverse();
    const byTool = (issues: LintIssue[]) => [...issues].sort((x, y) => (x.tool < y.tool ? -1 : x.tool > y.tool ? 1 : 0));
    for (const profile of PROFILES) expect(byTool(lintProfiles(reversed, [profile], "s"))).toEqual(byTool(reference(profile)));
  });
});

describe("credentials", () => {
  it("come from <PREFIX>_ variables and become the runtime's auth configuration", () => {
    const c = credentialsFromEnv("CORE", {
      CORE_BEARER_TOKEN: "t",
      CORE_API_KEY: "k",
      CORE_API_SECRET: "s",
      CORE_ACCESS_TOKEN: "at",
      CORE_ACCESS_TOKEN_SECRET: "ats",
      OTHER_BEARER_TOKEN: "no",
      CORE_USERNAME: "",
    });
    expect(c).toEqual({ bearerToken: "t", apiKey: "k", apiSecret: "s", accessToken: "at", accessTokenSecret: "ats" });
    expect(authFromCredentials(c)).toEqual({
      bearer: "t",
      basic: { username: "k", password: "s" },
      clientCredentials: { apiKey: "k", apiSecret: "s" },
      oauth1: { consumerKey: "k", consumerSecret: "s", token: "at", tokenSecret: "ats" },
    });
    expect(authFromCredentials({ username: "u", password: "p" })).toEqual({ basic: { username: "u", password: "p" } });
  });

  it("of one HTTP request are laid over the server's", () => {
    const base = { bearer: "server" };
    expect(authFromHeader("Bearer user-token", base)).toEqual({ bearer: "user-token" });
    expect(authFromHeader(`Basic ${Buffer.from("u:p:q").toString("base64")}`, base)).toEqual({ bearer: "server", basic: { username: "u", password: "p:q" } });
    expect(authFromHeader(undefined, base)).toBe(base);
    expect(authFromHeader("Digest x", base)).toBe(base);
  });
});
