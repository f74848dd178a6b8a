/**
 * Tool calls through the official SDK's client against the mock server: reads, writes, refused
 * arguments, API problems, paging, trimming, filtering, discovery mode, credentials, transport
 * errors. A failing call must come back as a tool error (`isError`) that says what to change; the
 * SDK's client would throw on a protocol error or on `structuredContent` that does not fit the
 * tool's `outputSchema`, so every `callTool` here that returns also proves those two agree.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpApi as core } from "@devplatform/core/mcp";
import { mcpApi as audiences } from "@devplatform/ads-audiences/mcp";
import { createMcpServer, resolveTools } from "@contractgen/runtime/mcp";
import { connect, countingFetch, mockAuth, startMock, textOf, type RunningMock } from "./helpers.js";

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(async () => {
  await mock.close();
});

type Result = { content: { type: string; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };
const call = async (client: Awaited<ReturnType<typeof connect>>, name: string, args: Record<string, unknown>): Promise<Result> => (await client.callTool({ name, arguments: args })) as Result;

/** The JSON answer of a successful call's text (its first line; notes follow on later lines). */
const answerOf = (r: Result): unknown => JSON.parse(textOf(r).split("\n")[0] as string);

const CATALOG = "9000000200000055";

describe("a read", () => {
  it("returns the answer as text and as structuredContent that fits the output schema", async () => {
    const client = await connect(audiences, { baseUrl: mock.url, auth: mockAuth(mock) });
    const r = await call(client, "listProductCatalogs", {});
    await client.close();
    expect(r.isError).toBeUndefined();
    expect(r.structuredContent?.["data"]).toEqual([expect.objectContaining({ id: CATALOG })]);
    expect(answerOf(r)).toEqual(r.structuredContent);
  });
});

describe("a write", () => {
  it("changes the mock's state, and a later read sees it", async () => {
    const client = await connect(audiences, { baseUrl: mock.url, auth: mockAuth(mock) });
    const before = await call(client, "listProducts", { product_catalog_id: CATALOG });
    const created = await call(client, "upsertProducts", {
      product_catalog_id: CATALOG,
      body: {
        products: [
          {
            id: "mcp-test-1",
            brand: "Contractgen",
            title: "Written through MCP",
            description: "A product",
            availability: "in stock",
            condition: "new",
            price: "10.00 USD",
            link: "https://example.com/p/1",
            image_link: "https://example.com/p/1.png",
          },
        ],
      },
    });
    expect(created.isError, textOf(created)).toBeUndefined();
    const after = await call(client, "listProducts", { product_catalog_id: CATALOG });
    await client.close();
    const count = (r: Result): number => (r.structuredContent?.["data"] as unknown[]).length;
    expect(textOf(after)).toContain("Written through MCP");
    expect(count(after)).toBeGreaterThanOrEqual(count(before));
  });
});

describe("a refused argument", () => {
  it("is a tool error naming the argument, and nothing is sent", async () => {
    const counter = countingFetch();
    const client = await connect(core, { baseUrl: mock.url, auth: mockAuth(mock), fetch: counter.fetch });
    const r = await call(client, "getPostsByIds", { ids: ["not-a-number"] });
    const unknown = await call(client, "getPostsByIds", { ids: ["1"], idz: ["2"] });
    const missing = await call(client, "getPostsByIds", {});
    await client.close();
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/refused; nothing was sent/);
    expect(textOf(r)).toContain("argument ids/0");
    expect(textOf(unknown)).toMatch(/unknown argument idz/);
    expect(textOf(missing)).toMatch(/ids/);
    expect(missing.isError).toBe(true);
    expect(counter.count()).toBe(0);
  });
});

describe("API problems", () => {
  it("a 404 comes back as a tool error with the API's message and what to do", async () => {
    const client = await connect(audiences, { baseUrl: mock.url, auth: mockAuth(mock) });
    const r = await call(client, "getProductSet", { product_catalog_id: "404404", product_set_id: "1" });
    await client.close();
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/HTTP 404/);
    expect(textOf(r)).toMatch(/What to do: nothing exists under the identifiers given/);
  });

  it("an invalid token (ApiError code 89) says to get a new token", async () => {
    const client = await connect(core, { baseUrl: mock.url, auth: { bearer: "expired-token" } });
    const r = await call(client, "getPostsByIds", { ids: ["1"] });
    await client.close();
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/code 89/);
    expect(textOf(r)).toMatch(/invalid or expired: obtain a new token/);
  });

  it("missing credentials name the variables to set", async () => {
    const client = await connect(audiences, { baseUrl: mock.url });
    const r = await call(client, "listProductCatalogs", {});
    await client.close();
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("ADS_AUDIENCES_ACCESS_TOKEN");
  });

  it("an unreachable API is a tool error, not a crash", async () => {
    const client = await connect(audiences, { baseUrl: "http://127.0.0.1:9", auth: mockAuth(mock) });
    const r = await call(client, "listProductCatalogs", {});
    await client.close();
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/could not reach the API|timed out/);
  });
});

describe("paging", () => {
  it("returns the next cursor, and accepts it back for the next page", async () => {
    const client = await connect(audiences, { baseUrl: mock.url, auth: mockAuth(mock) });
    const all = await call(client, "listProducts", { product_catalog_id: CATALOG });
    const total = (all.structuredContent?.["data"] as unknown[]).length;
    expect(total).toBeGreaterThan(1);
    const first = await call(client, "listProducts", { product_catalog_id: CATALOG, count: 1 });
    const cursor = first.structuredContent?.["next_cursor"];
    expect(typeof cursor).toBe("string");
    expect(textOf(first)).toContain(`call listProducts again with cursor=${JSON.stringify(cursor)}`);
    const second = await call(client, "listProducts", { product_catalog_id: CATALOG, count: 1, cursor });
    await client.close();
    expect(second.isError).toBeUndefined();
    expect(second.structuredContent?.["data"]).not.toEqual(first.structuredContent?.["data"]);
    expect((all.structuredContent?.["data"] as unknown[]).slice(1, 2)).toEqual(second.structuredContent?.["data"]);
  });
});

describe("answers over the size budget", () => {
  it("of a paged read are asked again with a page that fits, so the next cursor loses nothing", async () => {
    const wide = await connect(audiences, { baseUrl: mock.url, auth: mockAuth(mock) });
    const all = (await call(wide, "listProducts", { product_catalog_id: CATALOG })).structuredContent?.["data"] as unknown[];
    await wide.close();
    const client = await connect(audiences, { baseUrl: mock.url, auth: mockAuth(mock), maxAnswerChars: 2500 });
    const first = await call(client, "listProducts", { product_catalog_id: CATALOG });
    expect(first.isError).toBeUndefined();
    const page = first.structuredContent?.["data"] as unknown[];
    expect(page.length).toBeGreaterThan(0);
    expect(page.length).toBeLessThan(all.length);
    expect(JSON.stringify(answerOf(first)).length).toBeLessThanOrEqual(2500);
    expect(answerOf(first)).toEqual(first.structuredContent);
    expect(textOf(first)).not.toContain("[trimmed");
    const second = await call(client, "listProducts", { product_catalog_id: CATALOG, cursor: first.structuredContent?.["next_cursor"], count: page.length });
    await client.close();
    // The next page starts right after the last item shown.
    expect((second.structuredContent?.["data"] as unknown[])[0]).toEqual(all[page.length]);
  });

  it("are trimmed at element boundaries, text and structuredContent alike, and say so", async () => {
    // Too small for even one item: nothing to ask again for, so the page is trimmed and says so.
    const client = await connect(audiences, { baseUrl: mock.url, auth: mockAuth(mock), maxAnswerChars: 120 });
    const r = await call(client, "listProducts", { product_catalog_id: CATALOG });
    await client.close();
    expect(r.isError).toBeUndefined();
    expect(answerOf(r)).toEqual(r.structuredContent);
    expect(r.structuredContent?.["data"]).toEqual([]);
    expect(textOf(r)).toMatch(/\[trimmed: \d+ trailing elements? of \/data left out to stay under 120 characters; the next cursor does not return them; ask for fewer with count\]/);
  });
});

describe("filtering", () => {
  const names = (api: typeof core, options: Parameters<typeof resolveTools>[1]): string[] => resolveTools(api, options).map((t) => t.name);

  it("by tool name, tag and read-only", async () => {
    expect(names(audiences, { tools: ["listProducts", "getProductSet"] })).toEqual(["listProducts", "getProductSet"]);
    const readOnly = names(core, { readOnly: true });
    expect(readOnly.length).toBeGreaterThan(0);
    expect(readOnly).not.toContain("createPost");
    expect(readOnly.every((n) => core.tools.find((t) => t.name === n)?.httpMethod === "GET")).toBe(true);
    const tag = core.tools[0]?.tags[0] as string;
    expect(names(core, { tags: [tag] }).every((n) => core.tools.find((t) => t.name === n)?.tags.includes(tag))).toBe(true);
    const client = await connect(audiences, { baseUrl: mock.url, tools: ["listProducts"] });
    const { tools } = await client.listTools();
    const r = await call(client, "getProductSet", { product_catalog_id: CATALOG, product_set_id: "1" });
    await client.close();
    expect(tools.map((t) => t.name)).toEqual(["listProducts"]);
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("The tools are: listProducts");
  });

  it("refuses names that match nothing", () => {
    expect(() => createMcpServer(audiences, { tools: ["listProdcts"] })).toThrow(/no such listProdcts/);
    expect(() => createMcpServer(audiences, { tags: ["nope"] })).toThrow(/no such tag nope/);
  });
});

describe("discovery mode", () => {
  it("offers search, describe and invoke over every operation", async () => {
    const client = await connect(audiences, { baseUrl: mock.url, auth: mockAuth(mock), discovery: true });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["search_operations", "describe_operation", "invoke_operation"]);
    const found = JSON.parse(textOf(await call(client, "search_operations", { query: "product catalog", readOnly: true }))) as { name: string }[];
    expect(found.map((f) => f.name)).toContain("listProductCatalogs");
    expect(found.map((f) => f.name)).not.toContain("createProductCatalog");
    const described = JSON.parse(textOf(await call(client, "describe_operation", { name: "listProducts" }))) as { inputSchema: { properties: object } };
    expect(Object.keys(described.inputSchema.properties)).toContain("cursor");
    const invoked = await call(client, "invoke_operation", { name: "listProductCatalogs", arguments: {} });
    const refused = await call(client, "invoke_operation", { name: "listProducts", arguments: { count: 0, product_catalog_id: CATALOG } });
    const unknown = await call(client, "invoke_operation", { name: "nope" });
    await client.close();
    expect(textOf(invoked)).toContain(CATALOG);
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/count/);
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/search_operations/);
  });
});
