import { afterEach, describe, expect, it } from "vitest";
import { collect, pages, paginate } from "../src/client/pagination.js";
import { createTransport } from "../src/client/transport.js";
import { json, startServer, type TestServer } from "./support/server.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface AdsPage {
  data: { id: string }[];
  next_cursor: string | null;
}
interface CorePage {
  data?: { id: string }[];
  meta: { result_count: number; next_token?: string };
}

describe("paginate over a real server", () => {
  it("ads style: `cursor` in, `next_cursor` out, until next_cursor is null", async () => {
    const all = Array.from({ length: 7 }, (_, i) => ({ id: `p${i}` }));
    server = await startServer((req, res) => {
      const cursor = new URL(req.path, "http://x").searchParams.get("cursor");
      const start = cursor === null ? 0 : Number(cursor);
      const next = start + 3 < all.length ? String(start + 3) : null;
      json(res, 200, { data: all.slice(start, start + 3), next_cursor: next });
    });
    const transport = createTransport({ baseUrl: server.url });
    const items = await collect(
      paginate<AdsPage, { id: string }>({
        fetchPage: async (cursor, signal) =>
          (
            await transport.request({
              method: "GET",
              path: "/12/accounts/{account_id}/product_catalogs",
              pathParams: { account_id: "a1" },
              query: [{ name: "cursor", value: cursor }],
              signal,
            })
          ).body as AdsPage,
        items: (page) => page.data,
        next: (page) => page.next_cursor,
      }),
    );
    expect(items).toEqual(all);
    expect(server.received.map((r) => r.path)).toEqual(["/12/accounts/a1/product_catalogs", "/12/accounts/a1/product_catalogs?cursor=3", "/12/accounts/a1/product_catalogs?cursor=6"]);
  });

  it("core style: `pagination_token` in, `meta.next_token` out, until it is absent", async () => {
    const tokens: Record<string, { data?: { id: string }[]; next?: string }> = {
      "": { data: [{ id: "1" }, { id: "2" }], next: "t2" },
      t2: { data: [{ id: "3" }], next: "t3" },
      t3: {}, // last page: no data, no next_token
    };
    server = await startServer((req, res) => {
      const token = new URL(req.path, "http://x").searchParams.get("pagination_token") ?? "";
      const page = tokens[token] ?? {};
      json(res, 200, {
        ...(page.data ? { data: page.data } : {}),
        meta: { result_count: page.data?.length ?? 0, ...(page.next ? { next_token: page.next } : {}) },
      });
    });
    const transport = createTransport({ baseUrl: server.url });
    const ids: string[] = [];
    for await (const post of paginate<CorePage, { id: string }>({
      fetchPage: async (token) =>
        (await transport.request({ method: "GET", path: "/2/users/{id}/posts", pathParams: { id: "9" }, query: [{ name: "pagination_token", value: token }] })).body as CorePage,
      items: (page) => page.data ?? [],
      next: (page) => page.meta.next_token,
    })) {
      ids.push(post.id);
    }
    expect(ids).toEqual(["1", "2", "3"]);
    expect(server.received).toHaveLength(3);
  });
});

describe("stopping", () => {
  const pager = (nexts: (string | null | undefined)[]) => {
    const requested: (string | undefined)[] = [];
    let n = 0;
    return {
      requested,
      options: {
        fetchPage: async (cursor: string | undefined) => {
          requested.push(cursor);
          return { n: n++, next: nexts[n - 1] };
        },
        next: (page: { next: string | null | undefined }) => page.next,
      },
    };
  };

  it.each([
    ["null", null],
    ["undefined", undefined],
    ["an empty string", ""],
  ])("after a page whose next cursor is %s", async (_, last) => {
    const p = pager(["a", last]);
    expect(await collect(pages(p.options))).toHaveLength(2);
    expect(p.requested).toEqual([undefined, "a"]);
  });

  it("when the server repeats the previous cursor (a loop)", async () => {
    const p = pager(["a", "a", "a"]);
    expect(await collect(pages(p.options))).toHaveLength(2);
    expect(p.requested).toEqual([undefined, "a"]);
  });

  it("when the server cycles back to any cursor already followed", async () => {
    const p = pager(["a", "b", "a", "b"]);
    await collect(pages(p.options));
    expect(p.requested).toEqual([undefined, "a", "b"]);
  });

  it("at maxPages", async () => {
    const p = pager(["a", "b", "c", "d"]);
    expect(await collect(pages({ ...p.options, maxPages: 2 }))).toHaveLength(2);
  });

  it("when the consumer breaks: no further page is fetched", async () => {
    const p = pager(["a", "b", "c"]);
    for await (const page of pages(p.options)) if (page.n === 1) break;
    expect(p.requested).toEqual([undefined, "a"]);
  });

  it("on abort, with the abort reason", async () => {
    const controller = new AbortController();
    const p = pager(["a", "b", "c"]);
    const iterate = async () => {
      for await (const page of pages({ ...p.options, signal: controller.signal })) {
        if (page.n === 0) controller.abort(new Error("enough"));
      }
    };
    await expect(iterate()).rejects.toThrow("enough");
    expect(p.requested).toEqual([undefined]);
  });

  it("passes every item of every page in order, across empty pages", async () => {
    const data = [[1, 2], [], [3]];
    const items = await collect(
      paginate({
        fetchPage: async (cursor) => ({ items: data[Number(cursor ?? 0)] ?? [], next: cursor === "2" ? null : String(Number(cursor ?? 0) + 1) }),
        items: (page) => page.items,
        next: (page) => page.next,
      }),
    );
    expect(items).toEqual([1, 2, 3]);
  });
});
