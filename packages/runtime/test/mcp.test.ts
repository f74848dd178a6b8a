/**
 * The MCP pieces that need no server: answer trimming, name fitting, profile transforms and the
 * linter, credentials from the environment and from a request's Authorization header.
 */
import { describe, expect, it } from "vitest";
import { trimAnswer } from "../src/mcp-trim.js";
import { applyProfile, fitName, geminiSchema, inlineRefs, lintProfile } from "../src/mcp-profiles.js";
import { authFromCredentials, authFromHeader, credentialsFromEnv } from "../src/mcp-auth.js";
import type { McpToolSpec } from "../src/mcp-tools.js";

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

describe("credentials", () => {
  it("come from <PREFIX>_ variables and become the runtime's auth configuration", () => {
    const c = credentialsFromEnv("CORE", { CORE_BEARER_TOKEN: "t", CORE_API_KEY: "k", CORE_API_SECRET: "s", CORE_ACCESS_TOKEN: "at", CORE_ACCESS_TOKEN_SECRET: "ats", OTHER_BEARER_TOKEN: "no", CORE_USERNAME: "" });
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
