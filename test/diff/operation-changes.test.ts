import { describe, expect, it } from "vitest";
import { diffSpecs } from "../../generators/src/diff/index.js";
import { shape } from "./helpers.js";
import { OPERATION_CASES } from "./operation-cases.js";

describe("each edit outside schema bodies is found with its kind, severity and place", () => {
  for (const c of OPERATION_CASES)
    it(c.edit, () => {
      const result = diffSpecs(c.old, c.new);
      expect(result.changes.map(shape)).toEqual(c.changes);
      expect(result.bump).toBe(c.bump);
    });
});

describe("operation changes name the operation", () => {
  it("a removed operation is named as it was; an added one as it is", () => {
    const c = OPERATION_CASES.find((x) => x.edit === "an operation moves to another path under another operationId");
    if (!c) throw new Error("case renamed");
    const result = diffSpecs(c.old, c.new);
    expect(result.changes.map((x) => [x.operation, x.method, x.path, x.side])).toEqual([
      ["getA", "GET", "/a", "old"],
      ["getB", "GET", "/b", "new"],
    ]);
  });
});
