/**
 * The contract tests' judgements, one table each: what reads back as sent, what a filter keeps,
 * what a field selection may answer, what a derived text must be, and which objects the pool hands
 * a case (never an invented one, never one it deleted).
 */
import { describe, expect, it } from "vitest";
import { differences, holds, changedImmutables } from "../src/conformance/read-back.js";
import { caseProbes, filterValues, mayKeep, mustKeep, shortProbes } from "../src/conformance/filters.js";
import { selectionProblems, subsetsToAsk } from "../src/conformance/field-selection.js";
import { brokenRules } from "../src/conformance/invariants.js";
import { fillTemplate } from "../src/shared/derived.js";
import { ObjectPool, type PoolHost } from "../src/conformance/objects.js";
import type { FilterPlan, OperationCase, PlanSource } from "../src/conformance/plan.js";
import type { RawResponse } from "../src/client/transport.js";

describe("holds: a stored value holds what was sent", () => {
  it.each([
    { given: "the same text", sent: "a", got: "a", want: true },
    { given: "a number sent as text", sent: "5", got: 5, want: true },
    { given: "false read back as false", sent: false, got: false, want: true },
    { given: "false read back as true", sent: false, got: true, want: false },
    { given: "0 read back as null", sent: 0, got: null, want: false },
    { given: "an array in its order", sent: ["a", "b"], got: ["a", "b"], want: true },
    { given: "an array reordered", sent: ["a", "b"], got: ["b", "a"], want: false },
    { given: "an array with an item dropped", sent: ["a", "b"], got: ["a"], want: false },
    { given: "comma-separated text stored as its array", sent: "a,b", got: ["a", "b"], want: true },
    { given: "a nested object with members added by the server", sent: { x: 1 }, got: { x: 1, y: 2 }, want: true },
    { given: "a nested object with a member changed", sent: { x: 1, z: "q" }, got: { x: 1, z: "r" }, want: false },
    { given: "one instant written two ways", sent: "2025-01-01T00:00:00Z", got: "2025-01-01T00:00:00.000Z", want: true },
    { given: "two instants", sent: "2025-01-01T00:00:00Z", got: "2025-01-01T00:00:01Z", want: false },
  ])("$given → $want", ({ sent, got, want }) => expect(holds(sent, got)).toBe(want));

  it("a member the read declares and leaves out is a difference; one it does not declare is not", () => {
    expect(differences([{ member: "paid", stored: "paid", value: false, declared: true }], {})).toEqual(["paid: sent false, the object has no paid"]);
    expect(differences([{ member: "paid", stored: "paid", value: false, declared: false }], {})).toEqual([]);
    expect(differences([{ member: "product_keys", stored: "product_ids", value: ["a"], declared: true }], { product_ids: ["b"] })).toEqual([
      'product_keys (read as product_ids): sent ["a"], reads back ["b"]',
    ]);
  });

  it("members that must never change are compared between two reads", () => {
    expect(changedImmutables({ id: "1", created_at: "2025-01-01T00:00:00Z", name: "a" }, { id: "1", created_at: "2025-01-01T00:00:00.000Z", name: "b" }, ["id", "created_at"])).toEqual([]);
    expect(changedImmutables({ id: "1", created_at: "2025-01-01T00:00:00Z" }, { id: "1", created_at: "2026-01-01T00:00:00Z" }, ["id", "created_at"])).toHaveLength(1);
  });
});

describe("filters: what a filter keeps", () => {
  // `caseInsensitive`: true (case never counts), false (it always does), undefined (the contract does not say).
  const f = (match: FilterPlan["match"], members: string[], caseInsensitive?: boolean): FilterPlan => ({
    param: "q",
    match,
    members,
    items: "/data",
    key: "id",
    ...(caseInsensitive !== undefined ? { caseInsensitive } : {}),
  });
  // must: the filter has to keep the item; may: keeping it is no failure.
  it.each([
    { filter: f("equals", ["media_type"]), item: { media_type: "VIDEO" }, value: "VIDEO", must: true, may: true },
    { filter: f("equals", ["media_type"]), item: { media_type: "IMAGE" }, value: "VIDEO", must: false, may: false },
    { filter: f("in", ["id"]), item: { id: "2" }, value: ["1", "2"], must: true, may: true },
    { filter: f("in", ["id"]), item: { id: "3" }, value: "1,2", must: false, may: false },
    { filter: f("prefix", ["name"], true), item: { name: "Summer sale" }, value: "SUM", must: true, may: true },
    { filter: f("prefix", ["name"]), item: { name: "Summer sale" }, value: "SUM", must: false, may: true },
    { filter: f("prefix", ["name"], false), item: { name: "Summer sale" }, value: "SUM", must: false, may: false },
    { filter: f("prefix", ["name"], true), item: { name: "A summer sale" }, value: "sum", must: false, may: false },
    { filter: f("term", ["name", "title"], true), item: { name: "x", title: "Big Sale" }, value: "sale", must: true, may: true },
    { filter: f("term", ["name"], true), item: { name: "x", title: "Big Sale" }, value: "sale", must: false, may: false },
    { filter: f("in", ["tags"]), item: { tags: ["a", "b"] }, value: ["b"], must: true, may: true },
  ])("$filter.match on $filter.members (case insensitive: $filter.caseInsensitive), $value → must $must, may $may", ({ filter, item, value, must, may }) => {
    expect(mustKeep(filter, item, value)).toBe(must);
    expect(mayKeep(filter, item, value)).toBe(may);
  });

  it("a prefix filter is also asked with one character that some listed object does not start with", () => {
    expect(shortProbes(f("prefix", ["name"]), [{ name: "Alpha" }, { name: "Beta" }])).toEqual(["A"]);
    expect(shortProbes(f("prefix", ["name"], true), [{ name: "Alpha" }, { name: "Beta" }])).toEqual(["a"]);
    // Every object starts with the same letter: one character would leave nothing out.
    expect(shortProbes(f("prefix", ["name"]), [{ name: "Alpha" }, { name: "Alpine" }])).toEqual([]);
    expect(shortProbes(f("term", ["name"]), [{ name: "Alpha" }, { name: "Beta" }])).toEqual([]);
  });

  it("where case is stated to count, a listed beginning in the other case must keep nothing", () => {
    expect(caseProbes(f("prefix", ["name"], false), [{ name: "Milk" }, { name: "bread" }])).toEqual(["MIL"]);
    // "MIL" starts a listed object as it is, so the first probe is the next one that starts none: "mil".
    expect(caseProbes(f("prefix", ["name"], false), [{ name: "Milk" }, { name: "MILK" }, { name: "bread" }])).toEqual(["mil"]);
    expect(caseProbes(f("prefix", ["name"]), [{ name: "Milk" }])).toEqual([]);
  });

  it("values to ask with come from listed objects, the ones that leave something out first", () => {
    const items = [{ name: "Alpha" }, { name: "Alpine" }, { name: "Beta" }];
    // Prefixes of three characters, their case flipped (the filter ignores case), each once.
    expect(filterValues(f("prefix", ["name"], true), items, false)).toEqual(["ALP", "BET"]);
    // A filter of several values is asked with two of them together second: it must keep both.
    expect(filterValues(f("in", ["name"]), items, true)).toEqual([["Alpha"], ["Alpha", "Alpine"], ["Alpine"], ["Beta"]]);
  });

  it("a case-insensitive term is asked with a window holding a capital, its case flipped", () => {
    // "ead" from "Headline" matches on a server that lower-cases only the query; "HEA" (from "Hea") does not.
    const items = [{ name: "Headline" }, { name: "summer" }];
    expect(filterValues(f("term", ["name"], true), items, false)).toEqual(["HEA", "UMM"]);
  });
});

describe("field selection: exactly the defaults plus what was asked", () => {
  const full = [{ id: "1", text: "t", lang: "en", possibly_sensitive: false, public_metrics: { like_count: 0 } }];
  it.each([
    { given: "defaults only", got: [{ id: "1", text: "t" }], asked: [], want: 0 },
    { given: "a field nobody asked for", got: [{ id: "1", text: "t", lang: "en" }], asked: [], want: 1 },
    { given: "a false field asked for and left out", got: [{ id: "1", text: "t" }], asked: ["possibly_sensitive"], want: 1 },
    { given: "a false field asked for and there", got: [{ id: "1", text: "t", possibly_sensitive: false }], asked: ["possibly_sensitive"], want: 0 },
    { given: "a value other than with every field", got: [{ id: "1", text: "t", lang: "fr" }], asked: ["lang"], want: 1 },
    { given: "a default missing", got: [{ id: "1" }], asked: [], want: 1 },
  ])("$given: $want problem(s)", ({ got, asked, want }) => expect(selectionProblems(got, full, asked, ["id", "text"], "id")).toHaveLength(want));

  it("asks first for the fields whose value is falsy", () => {
    const subsets = subsetsToAsk(["lang", "possibly_sensitive", "public_metrics"], full, 1);
    expect(subsets[0]).toContain("possibly_sensitive");
  });
});

describe("derived values and order (response rules)", () => {
  it("fills a template from pointers, per item with each", () => {
    expect(fillTemplate("card://{/id}", { id: "17" })).toBe("card://17");
    expect(fillTemplate("card://{/id}", {})).toBeUndefined();
    const rule = { id: "r", message: "card_uri is card://<id>", status: "2XX", kind: "template", each: "/body/data", field: "/card_uri", template: "card://{/id}" } as const;
    const ex = (data: unknown) => ({ status: 200, request: { path: {}, query: {}, headers: {} }, body: { data } });
    expect(brokenRules([rule], ex([{ id: "1", card_uri: "card://1" }]))).toEqual([]);
    expect(brokenRules([rule], ex([{ id: "1", card_uri: "card://2" }]))).toHaveLength(1);
  });

  it("pairs item i of the answer with item i of the request", () => {
    const rule = { id: "o", message: "order kept", status: "200", kind: "pairs", field: "/body/out", of: "/request/body", pairs: [["/k", "/k"]] } as const;
    const ex = (sent: unknown, out: unknown) => ({ status: 200, request: { path: {}, query: {}, headers: {}, body: sent }, body: { out } });
    expect(brokenRules([rule], ex([{ k: 1 }, { k: 2 }], [{ k: 1 }, { k: 2 }]))).toEqual([]);
    expect(brokenRules([rule], ex([{ k: 1 }, { k: 2 }], [{ k: 2 }, { k: 1 }]))).toHaveLength(1);
    expect(brokenRules([rule], ex([{ k: 1 }, { k: 2 }], [{ k: 1 }]))).toHaveLength(1);
  });
});

describe("the object pool: objects from the server, never invented, never reused after a delete", () => {
  const answer = (status: number, body: unknown, headers: Record<string, string> = {}): RawResponse =>
    ({ status, body, headers: new Headers(headers), contentType: "application/json" }) as unknown as RawResponse;
  const op = (id: string, method: string, path: string, sources?: Record<string, PlanSource[]>, example?: Record<string, unknown>): OperationCase => ({
    id,
    method,
    path,
    security: [],
    parameters: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => ({ name: m[1] as string, in: "path" as const, required: true, style: "simple", explode: false })),
    ...(sources ? { sources } : {}),
    ...(example ? { positive: { values: example } } : {}),
  });
  const list: PlanSource = { kind: "list", operationId: "listThings", items: "/data", field: "id" };
  const create: PlanSource = { kind: "create", operationId: "createThing", pointers: ["/data/id"], location: false };

  function host(listed: string[], opts: { disposable?: boolean; given?: Record<string, unknown>; created?: string[] } = {}): PoolHost & { sent: string[] } {
    const created = [...(opts.created ?? [])];
    const ops = new Map([
      ["listThings", op("listThings", "GET", "/things")],
      ["createThing", op("createThing", "POST", "/things")],
    ]);
    const sent: string[] = [];
    return {
      sent,
      op: (id) => ops.get(id),
      ops: () => [...ops.values()],
      readAt: () => undefined,
      cloneRequest: () => undefined,
      send: async (o) => {
        sent.push(o.id);
        if (o.id === "listThings") return answer(200, { data: listed.map((id) => ({ id })) });
        if (o.id === "createThing") {
          const id = created.shift();
          return id === undefined ? answer(409, {}) : answer(201, { data: { id } });
        }
        return answer(200, {});
      },
      request: async () => ({ values: {}, body: undefined }),
      variants: () => [],
      given: () => opts.given ?? {},
      accepts: () => true,
      disposable: () => opts.disposable === true,
    };
  }

  it("reads a listed object; with an empty list, makes one; with neither, skips naming the --values key", async () => {
    const get = op("getThing", "GET", "/things/{thing_id}", { thing_id: [list, create] });
    expect((await new ObjectPool(host(["7"])).pathValues(get)).values).toEqual({ thing_id: "7" });
    expect((await new ObjectPool(host([], { created: ["9"] })).pathValues(get)).values).toEqual({ thing_id: "9" });
    const pool = new ObjectPool(host([]));
    const none = await pool.pathValues(get);
    expect(none.missing).toEqual(["thing_id"]);
    expect(pool.explain(get, none.missing)).toContain(`--values '{"thing_id": "…"}'`);
  });

  it("gives a delete an object made for it, and never hands out what was deleted", async () => {
    const del = op("deleteThing", "DELETE", "/things/{thing_id}", { thing_id: [list, create] });
    const get = op("getThing", "GET", "/things/{thing_id}", { thing_id: [list, create] });
    const h = host(["7"], { created: ["9"] });
    const pool = new ObjectPool(h);
    const on = await pool.forCase(del, "delete");
    expect("values" in on && on.values).toEqual({ thing_id: "9" });
    if ("done" in on) await on.done(answer(200, {}), undefined);
    expect(pool.isConsumed("thing_id", "9")).toBe(true);
    expect((await pool.pathValues(get)).values).toEqual({ thing_id: "7" });
  });

  it("deletes a listed object only when the target is throw-away", async () => {
    const del = op("deleteThing", "DELETE", "/things/{thing_id}", { thing_id: [list] });
    expect("why" in (await new ObjectPool(host(["7"])).forCase(del, "delete"))).toBe(true);
    const on = await new ObjectPool(host(["7"], { disposable: true })).forCase(del, "delete");
    expect("values" in on && on.values).toEqual({ thing_id: "7" });
  });

  it("makes an object with fewer members where every full create is refused, and asks with that request first next time", async () => {
    const del = op("deleteThing", "DELETE", "/things/{thing_id}", { thing_id: [create] });
    const bodies: unknown[] = [];
    const base = host([]);
    const pool = new ObjectPool({
      ...base,
      request: async () => ({ values: {}, body: { kind: "a", extra: "x" } }),
      variants: () => [
        { values: {}, body: {} },
        { values: {}, body: { kind: "b" } },
      ],
      send: async (o, _values, body) => {
        if (o.id !== "createThing") return answer(200, {});
        bodies.push(body);
        // Served only as kind b alone: a server with a default for b and none for a.
        return JSON.stringify(body) === JSON.stringify({ kind: "b" }) ? answer(201, { data: { id: `n${bodies.length}` } }) : answer(422, {});
      },
    });
    // The search (four full requests, then the variants) finds one; the delete's own object is the next, made straight away.
    const first = await pool.forCase(del, "delete");
    expect(bodies.slice(0, 6)).toEqual([...Array(4).fill({ kind: "a", extra: "x" }), {}, { kind: "b" }]);
    expect("values" in first && first.values).toEqual({ thing_id: "n11" });
    bodies.length = 0;
    await pool.forCase(del, "delete");
    // The four full requests again, then the variant that worked, not the whole search.
    expect(bodies.at(-1)).toEqual({ kind: "b" });
    expect(bodies).toHaveLength(5);
  });

  it("knows an object a create answers no key for by the key its request sent (an RPC-style add)", async () => {
    const add: PlanSource = { kind: "create", operationId: "createThing", pointers: [], location: false, request: "/name" };
    const del = op("deleteThing", "DELETE", "/things/{thing_id}", { thing_id: [add] });
    const pool = new ObjectPool({ ...host([]), request: async (_o, index) => ({ values: {}, body: { name: `role-${index}` } }), send: async () => answer(200, {}) });
    const on = await pool.forCase(del, "delete");
    expect("values" in on && on.values).toEqual({ thing_id: "role-0" });
  });

  it("takes a given value over everything, and a contract example only as the last resort", async () => {
    const get = op("getThing", "GET", "/things/{thing_id}", { thing_id: [list] }, { thing_id: "ex" });
    expect((await new ObjectPool(host(["7"], { given: { thing_id: "g" } })).pathValues(get)).values).toEqual({ thing_id: "g" });
    expect((await new ObjectPool(host([])).pathValues(get)).origins).toEqual({ thing_id: "example" });
  });
});
