import { describe, expect, it } from "vitest";
import { applyBump, bumpOf, diffSpecs, listChangeKinds, sortChanges, summarizeBySubject, summarizeChanges, type Change } from "../../generators/src/diff/index.js";
import { api, json, op, query } from "./helpers.js";
import { OPERATION_CASES } from "./operation-cases.js";
import { SCHEMA_CASES } from "./schema-cases.js";

const change = (c: Partial<Change> & Pick<Change, "kind" | "severity">): Change => ({ pointer: "#", side: "new", message: "m", ...c });

describe("the semver bump", () => {
  it.each([
    { severities: [], bump: "none" },
    { severities: ["documentation"], bump: "patch" },
    { severities: ["documentation", "non-breaking"], bump: "minor" },
    { severities: ["non-breaking", "breaking", "documentation"], bump: "major" },
  ] as const)("$severities → $bump", ({ severities, bump }) => {
    expect(bumpOf(severities.map((severity) => change({ kind: "description-changed", severity })))).toBe(bump);
  });

  it("identical specs → none", () => {
    const doc = api({ "/a": { get: op("getA", { parameters: [query("q")] }) } });
    expect(diffSpecs(doc, structuredClone(doc))).toEqual({ changes: [], bump: "none" });
  });
});

describe("ordering", () => {
  it("groups with a breaking change come first, then by operation; document-level changes last at their gravity", () => {
    const sorted = sortChanges([
      change({ kind: "schema-added", severity: "non-breaking", pointer: "#/components/schemas/Z" }),
      change({ kind: "description-changed", severity: "documentation", operation: "b", method: "GET", path: "/b" }),
      change({ kind: "parameter-added", severity: "non-breaking", operation: "c", method: "GET", path: "/c" }),
      change({ kind: "description-changed", severity: "documentation", operation: "a", method: "GET", path: "/a" }),
      change({ kind: "parameter-removed", severity: "breaking", operation: "d", method: "GET", path: "/d" }),
      change({ kind: "parameter-added", severity: "non-breaking", operation: "a", method: "GET", path: "/a" }),
    ]);
    expect(sorted.map((c) => `${c.operation ?? "-"} ${c.kind}`)).toEqual([
      "d parameter-removed",
      "a parameter-added",
      "a description-changed",
      "c parameter-added",
      "- schema-added",
      "b description-changed",
    ]);
  });

  it("the result does not depend on the order things are written in", () => {
    const paths = (order: string[]) => Object.fromEntries(order.map((p) => [p, { get: op(`get${p.slice(1)}`) }]));
    const before = api(paths(["/a", "/b", "/c"]));
    const after = api(paths(["/z", "/y", "/x"]));
    const reversed = api(paths(["/x", "/y", "/z"]));
    expect(diffSpecs(before, after)).toEqual(diffSpecs(api(paths(["/c", "/b", "/a"])), reversed));
  });
});

describe("the changelog summary", () => {
  const before = api(
    {
      "/a": { get: op("getA") },
      "/b": { get: op("getB", { responses: { "200": { description: "ok", content: json({ $ref: "#/components/schemas/Thing" }) } } }) },
      "/c": { get: op("getC") },
    },
    { components: { schemas: { Thing: { type: "object", properties: { id: { type: "string" } } }, Old: { type: "string" }, Kept: { type: "string" } } } },
  );
  const after = api(
    {
      "/a": { get: op("getA", { deprecated: true }) },
      "/b": { get: op("getB", { responses: { "200": { description: "ok", content: json({ $ref: "#/components/schemas/Thing" }) } } }) },
      "/d": { get: op("getD") },
    },
    {
      components: {
        schemas: {
          Thing: { type: "object", properties: { id: { type: "string" }, name: { type: "string" } } },
          New: { type: "integer" },
          Kept: { type: "string", deprecated: true },
        },
      },
    },
  );

  it("lists operations and schemas by what happened to them", () => {
    expect(summarizeBySubject(diffSpecs(before, after))).toEqual({
      operations: { added: ["getD"], changed: ["getB"], deprecated: ["getA"], removed: ["getC"] },
      schemas: { added: ["New"], changed: ["Thing"], deprecated: ["Kept"], removed: ["Old"] },
    });
  });

  it("merged, sorted by code unit", () => {
    expect(summarizeChanges(diffSpecs(before, after))).toEqual({
      added: ["New", "getD"],
      changed: ["Thing", "getB"],
      deprecated: ["Kept", "getA"],
      removed: ["Old", "getC"],
    });
  });
});

describe("every kind has a case", () => {
  // A kind nobody can trigger in a test is a kind nobody knows works.
  const covered = new Set<string>([
    ...OPERATION_CASES.flatMap((c) => c.changes.map((x) => x.kind)),
    ...SCHEMA_CASES.flatMap((c) => [`request-${c.change}`, `response-${c.change}`, `schema-${c.change}`]),
  ]);
  it.each(listChangeKinds().map((k) => k.kind))("%s", (kind) => {
    expect(covered).toContain(kind);
  });
});

describe("the next version", () => {
  it.each([
    { version: "2.166.3", bump: "major", next: "3.0.0" },
    { version: "2.166.3", bump: "minor", next: "2.167.0" },
    { version: "2.166.3", bump: "patch", next: "2.166.4" },
    { version: "2.166.3", bump: "none", next: "2.166.3" },
    { version: "2.166", bump: "minor", next: "2.167.0" },
    { version: "2.166", bump: "none", next: "2.166.0" },
    { version: "label", bump: "none", next: "label" },
  ] as const)("$version + $bump → $next", ({ version, bump, next }) => {
    expect(applyBump(version, bump)).toBe(next);
  });

  it.each(["label", "1.2.3-beta.1"])("refuses to guess the next version after %s", (version) => {
    expect(() => applyBump(version, "minor")).toThrow(`cannot bump '${version}': expected MAJOR.MINOR or MAJOR.MINOR.PATCH`);
  });
});
