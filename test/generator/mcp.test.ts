/**
 * The MCP emitter on constructs the three contracts do not have: recursive schemas, a bare array
 * response, a `oneOf` body, a writeOnly required member, parameter names clients refuse, an
 * operationId over the name budget, and `x-mcp` overrides. Generated, compiled with tsc, served, and
 * called with the official SDK's client; and a name no client profile can take fails generation.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { applyProfile, createMcpServer, type McpApi, type McpToolSpec } from "@contractgen/runtime/mcp";
import { buildModel, loadSpec } from "../../generators/dist/index.js";
import { planTools } from "../../generators/dist/emit/mcp.js";
import { OFFLOAD_FROM } from "../../generators/dist/emit/offload.js";
import { FIXTURES, ROOT, TSC, runCli, workspaceTmpDir } from "./helpers.js";

let api: McpApi;
/** The generated package (compiled by beforeAll). */
let out: string;
let tools: readonly McpToolSpec[];
const requests: string[] = [];

/** The fixture's API, answered by a stub: enough to see what the tools send and return. */
const stubFetch: typeof fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  requests.push(`${init?.method ?? "GET"} ${url.pathname}${url.search}`);
  const json = (status: number, body: unknown): Response => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  if (url.pathname.startsWith("/trees/")) return json(200, { name: "root", children: [{ name: "a", children: [{ name: "b" }] }], color: null });
  if (url.pathname === "/leaves" && init?.method === "POST") return json(201, { id: "0b7e6b55-2f38-4c4e-9a53-1d1c6d9a9c11" });
  if (url.pathname === "/leaves") return json(200, [{ shape: "round", size: 2 }, { shape: "round" }]);
  if (url.pathname === "/leaves/same") return new Response(null, { status: 204 });
  if (url.pathname.startsWith("/leaves/")) return json(200, { shape: "round", size: 3 });
  return json(404, { type: "about:blank", title: "Not Found", status: 404 });
};

async function connect(): Promise<Client> {
  const server = createMcpServer(api, { fetch: stubFetch });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "contractgen-test", version: "1.0.0" });
  await client.connect(b);
  return client;
}

beforeAll(async () => {
  out = path.join(workspaceTmpDir(), "mcp");
  const r = await runCli(["generate", path.join(FIXTURES, "mcp/openapi.yaml"), "--out", out, "--name", "@t/mcp"]);
  expect(r.code, r.stderr).toBe(0);
  const build = spawnSync(process.execPath, [TSC, "-p", out], { encoding: "utf8" });
  expect(build.stdout + build.stderr).toBe("");
  const mod = (await import(pathToFileURL(path.join(out, "dist/mcp.js")).href)) as { mcpApi: McpApi; mcpTools: McpToolSpec[] };
  api = mod.mcpApi;
  tools = mod.mcpTools;
});

describe("the generated package's type-check", () => {
  // The SDK's declarations pull in zod's, about 120 files and half a second of every tsc run over a
  // program that imports the package, MCP used or not: the runtime's MCP declarations must not name them.
  it("reads none of the MCP SDK's or zod's declarations, though the package has an MCP server", () => {
    const listed = spawnSync(process.execPath, [TSC, "-p", out, "--listFilesOnly"], { encoding: "utf8" });
    expect(listed.status, listed.stderr).toBe(0);
    const files = listed.stdout.split("\n").filter(Boolean);
    expect(files.some((f) => f.endsWith(path.join("src", "mcp.ts")))).toBe(true);
    expect(files.filter((f) => /[\\/](zod|@modelcontextprotocol)[\\/]/.test(f))).toEqual([]);
  });
});

describe("generated MCP tools", () => {
  it("are named from operationIds within the budget, or as x-mcp says; x-mcp include: false leaves one out", () => {
    const names = tools.map((t) => t.name);
    expect(names).toHaveLength(4);
    expect(names[0]).toBe("getTree");
    // 62 characters of operationId: cut to 48 with a stable suffix.
    expect(names[1]).toMatch(/^listAllTheLeavesOfEveryTreeInTheWholeFore_[0-9a-z]{6}$/);
    expect(names[1]?.length).toBeLessThanOrEqual(48);
    expect(names[2]).toBe("grow_leaf");
    expect(tools.find((t) => t.operationId === "dropEverything")).toBeUndefined();
    expect(tools[2]?.description).toContain("Grows one leaf, of either kind");
    expect(tools[1]?.description).toContain("Deprecated; use getTree instead.");
  });

  it("take parameters whose names clients refuse under a safe name, and send them under the contract's", async () => {
    expect(Object.keys(tools[0]?.inputSchema["properties"] as object)).toEqual(["tree-id", "page_size_"]);
    const client = await connect();
    const r = (await client.callTool({ name: "getTree", arguments: { "tree-id": "oak", page_size_: 5 } })) as { structuredContent?: unknown; isError?: boolean };
    const refused = (await client.callTool({ name: "getTree", arguments: { "tree-id": "oak", page_size_: 0 } })) as { isError?: boolean; content: { text: string }[] };
    await client.close();
    expect(requests).toContain("GET /trees/oak?page%5Bsize%5D=5");
    // The SDK's client checked this against the recursive output schema.
    expect(r.isError).toBeUndefined();
    expect(r.structuredContent).toMatchObject({ name: "root", children: [{ name: "a" }] });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]?.text).toContain("argument page_size_");
  });

  it("wrap a bare array answer as { result } so structuredContent is an object", async () => {
    expect(tools[1]?.outputWrap).toBe("result");
    const client = await connect();
    const r = (await client.callTool({ name: tools[1]?.name as string, arguments: {} })) as { structuredContent?: unknown };
    await client.close();
    expect(r.structuredContent).toEqual({ result: [{ shape: "round", size: 2 }, { shape: "round" }] });
  });

  it("answer { result } for an operation with two success answers, and {} for the one without a body", async () => {
    const replace = tools.find((t) => t.name === "replaceLeaf");
    expect(replace?.outputWrap).toBe("result");
    expect(replace?.outputSchema?.["required"]).toBeUndefined();
    const client = await connect();
    const changed = (await client.callTool({ name: "replaceLeaf", arguments: { "leaf-id": "x", body: { shape: "round", size: 3 } } })) as { structuredContent?: unknown };
    const same = (await client.callTool({ name: "replaceLeaf", arguments: { "leaf-id": "same", body: { shape: "round" } } })) as { structuredContent?: unknown; isError?: boolean };
    await client.close();
    expect(changed.structuredContent).toEqual({ result: { shape: "round", size: 3 } });
    expect(same.isError).toBeUndefined();
    expect(same.structuredContent).toEqual({});
  });

  it("accept a oneOf body and an answer without its required writeOnly member", async () => {
    const client = await connect();
    const r = (await client.callTool({ name: "grow_leaf", arguments: { body: { needle: true } } })) as { structuredContent?: unknown; isError?: boolean };
    const wrong = (await client.callTool({ name: "grow_leaf", arguments: { body: { needle: "yes" } } })) as { isError?: boolean };
    await client.close();
    expect(r.isError, JSON.stringify(r)).toBeUndefined();
    expect(r.structuredContent).toEqual({ id: "0b7e6b55-2f38-4c4e-9a53-1d1c6d9a9c11" });
    expect(wrong.isError).toBe(true);
  });

  it("are inlined with the cycle cut for profiles that take no $ref, and reduced to Gemini's subset", () => {
    const claude = applyProfile(tools, "claude", "mcp")[0];
    const text = JSON.stringify(claude?.outputSchema);
    expect(text).not.toContain("$ref");
    expect(text).toContain("Node (recursive; not expanded here)");
    const gemini = JSON.stringify(applyProfile(tools, "gemini", "mcp").map((t) => [t.inputSchema, t.outputSchema]));
    for (const k of ['"$ref"', '"$defs"', '"const"', '"oneOf"', '"additionalProperties"', '"exclusiveMinimum"']) expect(gemini).not.toContain(k);
    expect(gemini).toContain('"nullable":true');
    expect(gemini).toContain("format: hostname");
  });
});

describe("the tool planner", () => {
  // Conversions are kept per schema object and direction, and what each referenced is added again to
  // every later tool that shares it: each tool must still list exactly what its schemas reach.
  it("lists for each tool the components its schemas reach, and each once in the table", async () => {
    for (const spec of [path.join(FIXTURES, "mcp/openapi.yaml"), ...["core", "ads-audiences", "ads-campaigns"].map((n) => path.join(ROOT, "spec", `${n}.yaml`))]) {
      const { rows, defs } = planTools(buildModel(await loadSpec(spec, { cwd: ROOT }), "t"));
      const reach = (node: unknown, found: Set<string>): void => {
        if (Array.isArray(node)) for (const n of node) reach(n, found);
        else if (node !== null && typeof node === "object") {
          const ref = (node as Record<string, unknown>)["$ref"];
          if (typeof ref === "string" && ref.startsWith("#/$defs/")) {
            const name = ref.slice(8).replace(/~1/g, "/").replace(/~0/g, "~");
            if (!found.has(name)) {
              found.add(name);
              reach(defs[name], found);
            }
          }
          for (const v of Object.values(node)) reach(v, found);
        }
      };
      for (const row of rows) {
        const found = new Set<string>();
        reach([row.inputSchema, row.outputSchema], found);
        expect(row.defs, `${spec} ${row.name}`).toEqual([...found].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      }
      expect(Object.keys(defs).sort()).toEqual([...new Set(rows.flatMap((r) => r.defs))].sort());
    }
  });
});

describe("the profile linter", () => {
  it("fails generation naming the tool, the profile and the rule, located in the spec; nothing is written", async () => {
    const out = path.join(workspaceTmpDir(), "too-long");
    const r = await runCli(["generate", path.join(FIXTURES, "mcp/too-long-name.yaml"), "--out", out, "--name", "@t/too-long"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/too-long-name\.yaml:\d+:\d+ #\/paths\/~1leaves\/post\/x-mcp\/name/);
    expect(r.stderr).toContain("MCP tool grow_a_leaf_with_a_name_that_claude_code_cannot_prefix cannot be listed for claude-code (x-mcp-name)");
    expect(r.stderr).toContain("fix: choose a shorter x-mcp name");
    expect(existsSync(out)).toBe(false);
  });

  it("refuses a large contract alike, where the MCP emitter runs on a worker thread", async () => {
    // OFFLOAD_FROM operations or more: the emitter runs beside the others, and its refusal crosses back.
    const dir = workspaceTmpDir();
    const spec = readFileSync(path.join(FIXTURES, "mcp/too-long-name.yaml"), "utf8");
    const more = Array.from({ length: OFFLOAD_FROM }, (_, i) => `  /extra/n${i}:\n    get:\n      operationId: extra${i}\n      responses:\n        "204": { description: none }\n`).join("");
    writeFileSync(path.join(dir, "large.yaml"), spec.replace("paths:\n", `paths:\n${more}`));
    const out = path.join(dir, "out");
    const r = await runCli(["generate", "large.yaml", "--out", out, "--name", "@t/too-long"], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/large\.yaml:\d+:\d+ #\/paths\/~1leaves\/post\/x-mcp\/name/);
    expect(r.stderr).toContain("MCP tool grow_a_leaf_with_a_name_that_claude_code_cannot_prefix cannot be listed for claude-code (x-mcp-name)");
    expect(existsSync(out)).toBe(false);
  });
});
