/**
 * Document 2 on the mock: every row of its state table, its limits, and the catalog, product,
 * product set, permission and membership behaviour it describes.
 */
import { describe, expect, it } from "vitest";
import { harness, type Harness } from "./support/harness.js";

const products = (h: Harness, id: string) => `/12/product_catalogs/${id}/products`;

function ids(h: Harness) {
  const accounts = [...h.state.accounts.values()];
  const main = accounts[0]?.data.id ?? "";
  const catalog = [...h.state.catalogs.values()][0]?.data.id ?? "";
  const audiences = [...h.state.tailoredAudiences.values()];
  const owned = audiences.find((a) => a.ownerAccountId === main)?.id ?? "";
  const foreign = audiences.find((a) => a.ownerAccountId !== main)?.id ?? "";
  const customAudience = [...h.state.customAudiences.values()][0]?.id ?? "";
  const dnr = h.state.doNotReachLists.list(main)[0]?.data.id ?? "";
  return { main, sibling: accounts[1]?.data.id ?? "", catalog, owned, foreign, customAudience, dnr };
}

function product(id: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    title: `Product ${id}`,
    description: "A plain product.",
    availability: "in stock",
    condition: "new",
    price: "20.00 USD",
    link: `https://shop.example.com/p/${id}`,
    image_link: `https://shop.example.com/i/${id}.jpg`,
    brand: "Acme",
    inventory: 3,
    ...extra,
  };
}

const hashed = (n: number) => ({ email: [n.toString(16).padStart(64, "0")] });
const futureUtc = "2099-01-01T00:00:00Z";

describe("document 2 state table", () => {
  it("permission deleted=false: DELETE permission by the account that owns the audience sets deleted=true", async () => {
    const h = await harness();
    const { main, owned } = ids(h);
    const permission = h.state.permissions.list(owned)[1];
    const res = await h.call("DELETE", `/5/accounts/${main}/tailored_audiences/${owned}/permissions/${permission?.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: permission?.id, deleted: true });
    // Gone from the list; asked for by id it shows its final state.
    const list = await h.call("GET", `/5/accounts/${main}/tailored_audiences/${owned}/permissions`);
    expect(list.body.data.map((p: { id: string }) => p.id)).not.toContain(permission?.id);
    const byId = await h.call("GET", `/5/accounts/${main}/tailored_audiences/${owned}/permissions`, { query: { tailored_audience_permission_ids: [permission?.id ?? ""] } });
    expect(byId.body.data).toEqual([expect.objectContaining({ id: permission?.id, deleted: true })]);
  });

  it("permission deletion needs the caller's account to own the audience", async () => {
    const h = await harness();
    const { sibling, owned } = ids(h);
    const permission = h.state.permissions.list(owned)[0];
    const res = await h.call("DELETE", `/5/accounts/${sibling}/tailored_audiences/${owned}/permissions/${permission?.id}`);
    expect(res.status).toBe(403);
    expect(h.state.permissions.get(owned, permission?.id ?? "")?.deleted).toBe(false);
  });

  it("do-not-reach list deleted=false: DELETE list of the account returns the list in its final state, deleted=true", async () => {
    const h = await harness();
    const { main, dnr } = ids(h);
    const res = await h.call("DELETE", `/12/accounts/${main}/do_not_reach_lists/${dnr}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: dnr, deleted: true });
    const again = await h.call("DELETE", `/12/accounts/${main}/do_not_reach_lists/${dnr}`);
    expect(again.body.data).toEqual(res.body.data);
  });

  it("catalog: DELETE removes it permanently with its products, no undo", async () => {
    const h = await harness();
    const { catalog } = ids(h);
    const res = await h.call("DELETE", `/12/product_catalogs/${catalog}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: catalog, name: "Mock spring collection" });
    expect((await h.call("GET", "/12/product_catalogs")).body.data).toEqual([]);
    expect((await h.call("GET", products(h, catalog))).status).toBe(404);
    expect((await h.call("DELETE", `/12/product_catalogs/${catalog}`)).status).toBe(404);
  });

  it("products: DELETE removes them permanently; a second delete reports the key as failed", async () => {
    const h = await harness();
    const { catalog } = ids(h);
    const key = h.state.products.list(catalog)[20]?.product_key ?? "";
    const res = await h.call("DELETE", products(h, catalog), { body: { product_keys: [key, "0"] } });
    expect(res.body.data.delete_products).toEqual([
      { product_key: key, failed_product_key: null, message: null },
      { product_key: "0", failed_product_key: "0", message: "Product not found" },
    ]);
    const again = await h.call("DELETE", products(h, catalog), { body: { product_keys: [key] } });
    expect(again.body.data.delete_products[0].failed_product_key).toBe(key);
  });
});

describe("document 2 catalogs and products", () => {
  it("one catalog per user: a second create answers 409, and after deleting the first a new one can be made", async () => {
    const h = await harness();
    const { catalog } = ids(h);
    const second = await h.call("POST", "/12/product_catalogs", { query: { name: "Another" } });
    expect(second.status).toBe(409);
    await h.call("DELETE", `/12/product_catalogs/${catalog}`);
    const made = await h.call("POST", "/12/product_catalogs", { query: { name: "Fresh" } });
    expect(made.status).toBe(200);
    expect(made.body.data).toEqual({ id: expect.any(String), name: "Fresh" });
    const renamed = await h.call("PUT", `/12/product_catalogs/${made.body.data.id}`, { query: { name: "Renamed" } });
    expect(renamed.body.data.name).toBe("Renamed");
  });

  it("upsert answers CREATE_SUCCESS for an unknown id, UPDATE_SUCCESS for a changed known one and NO_CHANGE for an identical one", async () => {
    const h = await harness();
    const { catalog } = ids(h);
    const created = await h.call("PUT", products(h, catalog), { body: { products: [product("NEW-1")] } });
    expect(created.status).toBe(200);
    expect(created.body.data.products_response).toEqual([{ warnings: [], errors: [], product_key: expect.stringMatching(/^\d+$/), id: "NEW-1", status: "CREATE_SUCCESS" }]);
    const key = created.body.data.products_response[0].product_key;
    const same = await h.call("PUT", products(h, catalog), { body: { products: [product("NEW-1")] } });
    expect(same.body.data.products_response[0]).toMatchObject({ status: "NO_CHANGE", product_key: key });
    const changed = await h.call("PUT", products(h, catalog), { body: { products: [product("NEW-1", { price: "25.00 USD" })] } });
    expect(changed.body.data.products_response[0]).toMatchObject({ status: "UPDATE_SUCCESS", product_key: key });
    expect(h.state.products.get(catalog, "NEW-1")?.price).toBe("25.00 USD");
    expect(h.state.products.get(catalog, "NEW-1")?.gtin).toBeNull();
  });

  it("duplicate ids in one batch are all ignored: each answers ERROR with a message, the others are applied", async () => {
    const h = await harness();
    const { catalog } = ids(h);
    const res = await h.call("PUT", products(h, catalog), { body: { products: [product("DUP"), product("SOLO"), product("DUP", { title: "Other" })] } });
    const results = res.body.data.products_response;
    expect(results.map((r: { id: string; status: string }) => [r.id, r.status])).toEqual([
      ["DUP", "ERROR"],
      ["SOLO", "CREATE_SUCCESS"],
      ["DUP", "ERROR"],
    ]);
    expect(results[0].errors[0].message).toMatch(/occurs 2 times in this batch; all entries with this id are ignored/);
    expect(h.state.products.get(catalog, "DUP")).toBeUndefined();
  });

  it("a product group lists as its first-submitted product, also after a later variant is updated", async () => {
    const h = await harness();
    const { catalog } = ids(h);
    const variants = ["S", "M", "L"].map((size) => product(`TEE-${size}`, { item_group_id: "TEE", size }));
    const made = await h.call("PUT", products(h, catalog), { body: { products: variants } });
    const groupKeys = new Set(made.body.data.products_response.map((r: { id: string }) => h.state.products.get(catalog, r.id)?.item_group_key));
    expect(groupKeys.size).toBe(1);
    await h.call("PUT", products(h, catalog), { body: { products: [product("TEE-L", { item_group_id: "TEE", size: "L", title: "Updated" })] } });
    const [groupKey] = [...groupKeys] as string[];
    const listed = await h.call("GET", products(h, catalog), { query: { item_group_key: groupKey } });
    expect(listed.body.data.map((p: { id: string }) => p.id)).toEqual(["TEE-S"]);
  });

  it("the products list pages with count and cursor over the stored data", async () => {
    const h = await harness();
    const { catalog } = ids(h);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await h.call("GET", products(h, catalog), { query: { count: 7, cursor } });
      expect(page.status).toBe(200);
      expect(page.body.data.length).toBeLessThanOrEqual(7);
      seen.push(...page.body.data.map((p: { id: string }) => p.id));
      cursor = page.body.next_cursor ?? undefined;
    } while (cursor);
    // 30 seeded products; the three 3-variant groups show once each.
    expect(seen).toHaveLength(24);
    expect(new Set(seen).size).toBe(24);
    expect((await h.call("GET", products(h, catalog), { query: { cursor: "not-ours" } })).status).toBe(400);
  });

  it("limit: at most 25 products per PUT", async () => {
    const h = await harness();
    const { catalog } = ids(h);
    const batch = Array.from({ length: 26 }, (_, i) => product(`B-${i}`));
    expect((await h.call("PUT", products(h, catalog), { body: { products: batch } })).status).toBe(400);
    expect((await h.call("PUT", products(h, catalog), { body: { products: batch.slice(0, 25) } })).status).toBe(200);
  });

  it("limit: products GET page size is 1 to 100", async () => {
    const h = await harness();
    const { catalog } = ids(h);
    expect((await h.call("GET", products(h, catalog), { query: { count: 101 } })).status).toBe(400);
    expect((await h.call("GET", products(h, catalog), { query: { count: 0 } })).status).toBe(400);
  });

  it("limit: title at most 150 and description at most 5000 characters", async () => {
    const h = await harness();
    const { catalog } = ids(h);
    expect((await h.call("PUT", products(h, catalog), { body: { products: [product("T", { title: "x".repeat(151) })] } })).status).toBe(400);
    expect((await h.call("PUT", products(h, catalog), { body: { products: [product("T", { description: "x".repeat(5001) })] } })).status).toBe(400);
  });
});

describe("document 2 product sets", () => {
  it("a MANUAL product set is DONE at once with empty filters and the products' item ids", async () => {
    const h = await harness();
    const { catalog } = ids(h);
    const chosen = h.state.products.list(catalog).slice(12, 14);
    const res = await h.call("POST", `/12/product_catalogs/${catalog}/product_sets`, {
      body: { name: "Picks", type: "MANUAL", product_keys: chosen.map((p) => p.product_key), filters: [{ attribute: "price", operator: "LESS_THAN", value: "1" }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: expect.any(String), name: "Picks", description: null, type: "MANUAL", product_ids: chosen.map((p) => p.id), filters: [], processing_status: "DONE" });
  });

  it("a FILTERED set answers PROCESSING and is DONE with its matching products when read", async () => {
    const h = await harness();
    const { catalog } = ids(h);
    const made = await h.call("POST", `/12/product_catalogs/${catalog}/product_sets`, { body: { name: "Summer", type: "FILTERED", filters: [{ attribute: "custom_label_0", operator: "EQUAL_TO", value: "summer" }] } });
    expect(made.body.data.processing_status).toBe("PROCESSING");
    const read = await h.call("GET", `/12/product_catalogs/${catalog}/product_sets/${made.body.data.id}`);
    const expected = h.state.products.list(catalog).filter((p) => p.custom_label_0 === "summer").map((p) => p.id);
    expect(read.body.data).toMatchObject({ processing_status: "DONE", product_ids: expected });
  });
});

describe("document 2 product sets (continued)", () => {
  it("a FILTERED set whose numeric filter has no number to compare ends FAILED", async () => {
    const h = await harness();
    const { catalog } = ids(h);
    const made = await h.call("POST", `/12/product_catalogs/${catalog}/product_sets`, { body: { name: "Odd", type: "FILTERED", filters: [{ attribute: "price", operator: "GREATER_THAN", value: "cheap" }] } });
    const read = await h.call("GET", `/12/product_catalogs/${catalog}/product_sets/${made.body.data.id}`);
    expect(read.body.data).toMatchObject({ processing_status: "FAILED", product_ids: [] });
  });
});

describe("document 2 tailored audience permissions", () => {
  it("total_count with with_total_count=true, and with_total_count excludes cursor", async () => {
    const h = await harness();
    const { main, owned } = ids(h);
    const base = `/5/accounts/${main}/tailored_audiences/${owned}/permissions`;
    const res = await h.call("GET", base, { query: { with_total_count: true, count: 2 } });
    expect(res.body).toMatchObject({ total_count: 5, next_cursor: expect.any(String) });
    expect(res.body.data).toHaveLength(2);
    expect((await h.call("GET", base, { query: { with_total_count: true, cursor: res.body.next_cursor } })).status).toBe(400);
  });

  it("sharing is allowed within one business; outside it only with SHARE_AUDIENCE_OUTSIDE_BUSINESS", async () => {
    const h = await harness();
    const { main, sibling, owned } = ids(h);
    const base = `/5/accounts/${main}/tailored_audiences/${owned}/permissions`;
    const made = await h.call("POST", base, { query: { granted_account_id: sibling, permission_level: "READ_ONLY" } });
    expect(made.status).toBe(200);
    expect(made.body.data).toMatchObject({ granted_account_id: sibling, permission_level: "READ_ONLY", deleted: false });
    h.state.accounts.get(main)?.features.delete("SHARE_AUDIENCE_OUTSIDE_BUSINESS");
    const outside = [...h.state.accounts.values()][2]?.data.id ?? "";
    expect((await h.call("POST", base, { query: { granted_account_id: outside, permission_level: "READ_WRITE" } })).status).toBe(403);
  });

  it("limits: permissions page size 1 to 1000, id filters up to 200", async () => {
    const h = await harness();
    const { main, owned } = ids(h);
    const base = `/5/accounts/${main}/tailored_audiences/${owned}/permissions`;
    expect((await h.call("GET", base, { query: { count: 1001 } })).status).toBe(400);
    const many = Array.from({ length: 201 }, (_, i) => String(i));
    expect((await h.call("GET", base, { query: { granted_account_ids: many } })).status).toBe(400);
    expect((await h.call("GET", base, { query: { granted_account_ids: many.slice(0, 200) } })).status).toBe(200);
  });
});

describe("document 2 targeting report and keyword insights", () => {
  it("the targeting report lists servable line items, and with_active=false adds the others", async () => {
    const h = await harness();
    const { main, customAudience } = ids(h);
    const path = `/12/accounts/${main}/custom_audiences/${customAudience}/targeted`;
    const active = await h.call("GET", path);
    const all = await h.call("GET", path, { query: { with_active: false } });
    const servable = (body: { data: { line_items: { servable: boolean }[] }[] }) => body.data.flatMap((e) => e.line_items.map((l) => l.servable));
    expect(servable(active.body).every(Boolean)).toBe(true);
    expect(servable(all.body)).toContain(false);
  });

  it("keyword insights give 30 related keywords and one post volume per granularity unit", async () => {
    const h = await harness();
    const res = await h.call("GET", "/12/insights/keywords/search", { query: { granularity: "DAY", keywords: ["running shoes", "trail shoes"], start_time: "2025-06-01T00:00:00Z", end_time: "2025-06-04T00:00:00Z" } });
    expect(res.status).toBe(200);
    expect(res.body.data.related_keywords).toHaveLength(30);
    expect(res.body.data.post_volume).toHaveLength(3);
    expect(res.body.request.params).toEqual({ start_time: "2025-06-01T00:00:00Z", end_time: "2025-06-04T00:00:00Z", granularity: "DAY", keywords: ["running shoes", "trail shoes"] });
  });

  it("limit: keyword insights range at most 7 days and at most 10 keywords combined", async () => {
    const h = await harness();
    const over = await h.call("GET", "/12/insights/keywords/search", { query: { granularity: "HOUR", keywords: ["a"], start_time: "2025-06-01T00:00:00Z", end_time: "2025-06-08T00:00:01Z" } });
    expect(over.status).toBe(400);
    const words = await h.call("GET", "/12/insights/keywords/search", {
      query: { granularity: "DAY", keywords: ["a", "b", "c", "d", "e", "f"], negative_keywords: ["g", "h", "i", "j", "k"], start_time: "2025-06-01T00:00:00Z", end_time: "2025-06-02T00:00:00Z" },
    });
    expect(words.status).toBe(400);
  });
});

describe("document 2 membership batches", () => {
  it("a membership batch answers success_count and total_count of the records processed", async () => {
    const h = await harness();
    const { main, customAudience } = ids(h);
    const res = await h.call("POST", `/12/accounts/${main}/custom_audiences/${customAudience}/users`, {
      body: [
        { operation_type: "Update", params: { users: [hashed(1), hashed(2)], effective_at: "2025-06-01T00:00:00Z", expires_at: futureUtc } },
        { operation_type: "Delete", params: { users: [hashed(1)] } },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ success_count: 3, total_count: 3 });
    expect(h.state.customAudiences.get(customAudience)?.members.size).toBe(1);
  });

  it("an operation with no users fails the whole batch, named by its index in operation_errors", async () => {
    const h = await harness();
    const { main, customAudience } = ids(h);
    const res = await h.call("POST", `/12/accounts/${main}/custom_audiences/${customAudience}/users`, {
      body: [
        { operation_type: "Update", params: { users: [hashed(7)] } },
        { operation_type: "Update", params: { users: [] } },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errors: [], operation_errors: [{ index: 1, code: "MISSING_USERS", message: "operation 1 has no users" }] });
    expect(h.state.customAudiences.get(customAudience)?.members.size).toBe(0);
  });

  it("the do-not-reach batch answers counts and the operations as received", async () => {
    const h = await harness();
    const { main, dnr } = ids(h);
    const res = await h.call("POST", `/12/batch/accounts/${main}/do_not_reach_lists/${dnr}/users`, { body: [{ operation_type: "Update", params: { users: [hashed(1), hashed(2)], expires_at: futureUtc } }] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [{ success_count: 2, total_count: 2 }], request: [{ params: { do_not_reach_list_id: dnr, expires_at: futureUtc, account_id: main }, operation_type: "Update" }] });
  });

  it("limit: 1500 membership requests per minute, then 429 with x-rate-limit headers until the window resets", async () => {
    let now = Date.UTC(2026, 0, 1);
    const h = await harness({ now: () => now });
    const { main, customAudience } = ids(h);
    const path = `/12/accounts/${main}/custom_audiences/${customAudience}/users`;
    const body = [{ operation_type: "Update", params: { users: [hashed(1)] } }];
    let last;
    for (let i = 0; i < 1500; i++) last = await h.call("POST", path, { body });
    expect(last?.status).toBe(200);
    expect(last?.headers["x-rate-limit-remaining"]).toBe("0");
    const refused = await h.call("POST", path, { body });
    expect(refused.status).toBe(429);
    expect(refused.headers).toMatchObject({ "x-rate-limit-limit": "1500", "x-rate-limit-remaining": "0", "x-rate-limit-reset": String(Math.ceil((now + 60_000) / 1000)) });
    expect(refused.body.errors[0].code).toBe("TOO_MANY_REQUESTS");
    now += 60_000;
    expect((await h.call("POST", path, { body })).status).toBe(200);
  }, 60_000);

  it("limit: at most 2500 operations and 5,000,000 bytes per batch", async () => {
    const h = await harness();
    const { main, customAudience } = ids(h);
    const path = `/12/accounts/${main}/custom_audiences/${customAudience}/users`;
    const ops = Array.from({ length: 2501 }, (_, i) => ({ operation_type: "Update", params: { users: [hashed(i)] } }));
    expect((await h.call("POST", path, { body: ops })).status).toBe(400);
    const big = [{ operation_type: "Update", params: { users: [{ partner_user_id: ["x".repeat(5_000_001)] }] } }];
    expect((await h.call("POST", path, { body: big })).status).toBe(413);
  });

  it("limit: 200 with_total_count requests per 15 minutes, then 429 with x-rate-limit headers", async () => {
    let now = Date.UTC(2026, 0, 1);
    const h = await harness({ now: () => now });
    const { main, owned } = ids(h);
    const path = `/5/accounts/${main}/tailored_audiences/${owned}/permissions`;
    for (let i = 0; i < 200; i++) expect((await h.call("GET", path, { query: { with_total_count: true } })).status).toBe(200);
    const refused = await h.call("GET", path, { query: { with_total_count: true } });
    expect(refused.status).toBe(429);
    expect(refused.headers).toMatchObject({ "x-rate-limit-limit": "200", "x-rate-limit-remaining": "0" });
    // Requests without total_count are not limited by it.
    expect((await h.call("GET", path)).status).toBe(200);
    now += 15 * 60_000;
    expect((await h.call("GET", path, { query: { with_total_count: true } })).status).toBe(200);
  }, 30_000);
});
