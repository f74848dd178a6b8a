import { describe, expect, it } from "vitest";
import { checkPagination, itemKey, type Page } from "../src/conformance/invariants.js";
import { curlCommand, shellQuote } from "../src/conformance/request.js";
import { itemsDisagree } from "../src/conformance/views.js";
import type { PaginationPlan } from "../src/conformance/plan.js";

const PLAN: PaginationPlan = {
  cursorParam: "cursor",
  nextPointer: "/next_cursor",
  items: "/data",
  pageSize: { name: "count", minimum: 1, maximum: 1000 },
  totalCount: { param: "with_total_count", pointer: "/total_count" },
};

/** A server over `records` that pages with `size`, with one deliberate fault at a time. */
function server(records: readonly string[], fault?: "longPage" | "repeat" | "endless" | "badTotal" | "totalUnasked" | "emptyWithCursor" | "dropNull") {
  return async (cursor: string | undefined, withTotal: boolean, size = 2): Promise<Page> => {
    const start = cursor === undefined ? 0 : Number(cursor);
    let end = Math.min(start + size, records.length);
    if (fault === "longPage" && start === 0) end = Math.min(start + size + 1, records.length);
    let data = records.slice(start, end).map((id) => ({ id }));
    if (fault === "repeat" && start > 0) data = [{ id: records[0] as string }, ...data.slice(1)];
    const more = end < records.length;
    const next = fault === "endless" ? String(start) : more ? String(end) : fault === "emptyWithCursor" ? String(end) : null;
    const body: Record<string, unknown> = { data };
    if (!(fault === "dropNull" && !more)) body["next_cursor"] = fault === "emptyWithCursor" && start >= records.length ? null : next;
    if (withTotal) body["total_count"] = fault === "badTotal" ? records.length + 1 : records.length;
    if (fault === "totalUnasked") body["total_count"] = records.length;
    return { status: 200, body };
  };
}

const RECORDS = ["a", "b", "c", "d", "e"];

describe("the paging walk", () => {
  it("passes a server that keeps the paging contract", async () => {
    expect(await checkPagination(PLAN, 2, server(RECORDS))).toEqual([]);
    expect(await checkPagination(PLAN, 2, server([]))).toEqual([]);
  });

  it.each([
    ["longPage", /holds 3 items, more than the 2 asked for with count/],
    ["repeat", /item a appears on page 1 and again on page 2/],
    ["endless", /gives back the cursor it was asked with/],
    ["badTotal", /total_count is 6, but walking every page found 5 items/],
    ["totalUnasked", /carries \/total_count although with_total_count was not set/],
    ["emptyWithCursor", /page 3 gave a next cursor, but the page it leads to is empty/],
    ["dropNull", /the last page leaves out \/next_cursor instead of null/],
  ] as const)("finds a server that breaks it: %s", async (fault, message) => {
    const problems = await checkPagination(PLAN, 2, server(RECORDS, fault));
    expect(problems.join("\n")).toMatch(message);
  });

  it("stops a walk that never ends, and says so", async () => {
    let n = 0;
    const problems = await checkPagination(PLAN, 2, async () => ({ status: 200, body: { data: [{ id: String(n++) }], next_cursor: `c${n}` } }), 5);
    // The bound is the larger of the one given and what one large page says the list holds (+5).
    expect(problems).toEqual(["still not at the last page after 6 pages of 2"]);
  });

  it("finds a server that shows an object otherwise on a later page than on one large page", async () => {
    const differ = (whole: readonly unknown[], walked: readonly unknown[]): string[] => itemsDisagree(whole, walked, whole, (items) => items.map(itemKey));
    const named =
      (cut: boolean) =>
      async (cursor: string | undefined, withTotal: boolean, size = 2): Promise<Page> => {
        const page = await server(RECORDS)(cursor, withTotal, size);
        const data = ((page.body as { data: { id: string }[] }).data ?? []).map((r) => ({ ...r, name: cut && cursor !== undefined ? "Nam" : `Name of ${r.id}` }));
        return { ...page, body: { ...(page.body as object), data } };
      };
    expect(await checkPagination(PLAN, 2, named(false), 60, differ)).toEqual([]);
    expect((await checkPagination(PLAN, 2, named(true), 60, differ)).join("\n")).toMatch(/walking pages of 2 shows objects otherwise than one page of 1000: c: name: "Name of c" against "Nam"/);
  });

  it("keys items by id, else a *_id or *_key member, else the whole item", () => {
    expect(itemKey({ id: 7, name: "x" })).toBe("7");
    expect(itemKey({ media_key: "3_1", name: "x" })).toBe("3_1");
    expect(itemKey({ name: "x" })).toBe('{"name":"x"}');
  });
});

describe("the curl command a failure prints", () => {
  it.each([
    ["plain", "'plain'"],
    ["it's", `'it'\\''s'`],
    ["$(rm -rf /)`x`", "'$(rm -rf /)`x`'"],
    ["line\nbreak", "'line\nbreak'"],
  ])("quotes %j for a POSIX shell", (given, want) => {
    expect(shellQuote(given)).toBe(want);
  });

  it("repeats method, URL, headers and body, and hides credentials unless told to show them", () => {
    const req = {
      method: "POST",
      url: "http://127.0.0.1:1/a?b=c d",
      headers: [
        ["authorization", "Bearer s3cret"],
        ["content-type", "application/json"],
      ] as const,
      body: '{"x":"y\'z"}',
    };
    const hidden = curlCommand(req, false);
    expect(hidden).toBe(`curl -i -X POST 'http://127.0.0.1:1/a?b=c d' -H 'authorization: <your credentials>' -H 'content-type: application/json' --data-raw '{"x":"y'\\''z"}'`);
    expect(curlCommand(req, true)).toContain("-H 'authorization: Bearer s3cret'");
  });
});
