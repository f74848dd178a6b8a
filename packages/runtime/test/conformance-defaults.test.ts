/**
 * A read without a parameter answers as with the parameter's stated default: what is compared, and
 * what is left out because the server changes it by itself or echoes the parameter.
 */
import { describe, expect, it } from "vitest";
import { defaultDifferences, statedDefaults } from "../src/conformance/defaults.js";
import type { OperationCase } from "../src/conformance/plan.js";

const cases: { name: string; without: unknown; again: unknown; withDefault: unknown; ignore?: string[]; want: RegExp[] }[] = [
  { name: "the same answer", without: { data: [{ id: 1 }] }, again: { data: [{ id: 1 }] }, withDefault: { data: [{ id: 1 }] }, want: [] },
  {
    name: "one item more with the default",
    without: { data: [{ id: 1 }] },
    again: { data: [{ id: 1 }] },
    withDefault: { data: [{ id: 1 }, { id: 2 }] },
    want: [/^\/data holds 1 item\(s\) without it and 2 with it$/],
  },
  { name: "another value", without: { data: { name: "a" } }, again: { data: { name: "a" } }, withDefault: { data: { name: "b" } }, want: [/^\/data\/name is "a" without it and "b" with it$/] },
  { name: "a member only with the default", without: { data: {} }, again: { data: {} }, withDefault: { data: { deleted: true } }, want: [/\/data\/deleted is missing without it and true with it/] },
  { name: "a clock the server moves by itself", without: { at: "10:00", n: 1 }, again: { at: "10:01", n: 1 }, withDefault: { at: "10:02", n: 1 }, want: [] },
  { name: "a member that comes and goes by itself", without: { a: 1, trace: "x" }, again: { a: 1 }, withDefault: { a: 1 }, want: [] },
  { name: "the parameter echoed", without: { request: { params: {} } }, again: { request: { params: {} } }, withDefault: { request: { params: { with_deleted: false } } }, want: [] },
  { name: "a cursor left out", without: { next_cursor: "c1" }, again: { next_cursor: "c1" }, withDefault: { next_cursor: "c2" }, ignore: ["/next_cursor"], want: [] },
  { name: "a key with a slash", without: { "a/b": 1 }, again: { "a/b": 1 }, withDefault: { "a/b": 2 }, want: [/^\/a~1b is 1 without it and 2 with it$/] },
  { name: "at most three differences", without: [1, 2, 3, 4, 5], again: [1, 2, 3, 4, 5], withDefault: [5, 4, 0, 2, 1], want: [/^\/0 /, /^\/1 /, /^\/2 /] },
];

describe("defaultDifferences", () => {
  it.each(cases)("$name", ({ without, again, withDefault, ignore, want }) => {
    const got = defaultDifferences(without, again, withDefault, "with_deleted", ignore ?? []);
    expect(got).toHaveLength(want.length);
    want.forEach((w, i) => expect(got[i]).toMatch(w));
  });
});

describe("statedDefaults", () => {
  const op = (method: string, parameters: OperationCase["parameters"], schemas: Record<string, unknown>): OperationCase =>
    ({ id: "x", method, path: "/x", security: [], parameters, request: { parameters: schemas } }) as unknown as OperationCase;
  it("takes optional query parameters of a read that state a default, not the cursor, required ones or writes", () => {
    const params: OperationCase["parameters"] = [
      { name: "with_deleted", in: "query", required: false },
      { name: "count", in: "query", required: true },
      { name: "cursor", in: "query", required: false },
      { name: "q", in: "query", required: false },
      { name: "id", in: "path", required: true },
    ] as OperationCase["parameters"];
    const schemas = {
      with_deleted: { type: "boolean", default: false },
      count: { type: "integer", default: 200 },
      cursor: { type: "string", default: "x" },
      q: { type: "string" },
      id: { type: "string", default: "a" },
    };
    const read = { ...op("GET", params, schemas), pagination: { cursorParam: "cursor" } } as unknown as OperationCase;
    expect(statedDefaults(read)).toEqual([{ name: "with_deleted", value: false }]);
    expect(statedDefaults(op("POST", params, schemas))).toEqual([]);
  });
});
