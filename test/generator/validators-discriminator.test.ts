/**
 * Discriminators in the standalone validators: schemas go through the emitter's own steps
 * (`toJsonSchema`, `applyDiscriminators`, `compileStandalone`), the module is written and imported,
 * and its validators are run. A known discriminator value validates against its mapped schema alone;
 * any other value, or none, gets the union as JSON Schema reads it; hostile mapping keys and property
 * names are compared as data and never become code.
 */
import { describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { compileStandalone } from "../../generators/dist/emit/validators/compile.js";
import { applyDiscriminators, toJsonSchema } from "../../generators/dist/emit/validators/json-schema.js";
import { workspaceTmpDir } from "./helpers.js";

interface CompiledError {
  readonly instancePath: string;
  readonly schemaPath: string;
  readonly keyword: string;
  readonly message?: string;
  readonly params: Record<string, unknown>;
}
type Validator = ((data: unknown) => boolean) & { errors?: readonly CompiledError[] | null };

/** Compiles components as the validators emitter does and returns one validator per component. */
async function compile(schemas: Record<string, unknown>, options: { problemBase?: string } = {}): Promise<Record<string, Validator>> {
  const components = Object.fromEntries(Object.entries(schemas).map(([name, s]) => [name, toJsonSchema(s)])) as Record<string, unknown>;
  applyDiscriminators(components, [], options);
  const names = Object.keys(components);
  const exports = new Map(names.map((n, i) => [`s${i}`, `#/components/schemas/${encodeURIComponent(n.replace(/~/g, "~0").replace(/\//g, "~1"))}`]));
  const code = compileStandalone({ root: { components: { schemas: components } }, exports, coerce: false });
  const file = path.join(workspaceTmpDir("cg-disc-"), "validators.compiled.ts");
  writeFileSync(file, `// @ts-nocheck\n${code}\n`);
  const mod = (await import(pathToFileURL(file).href)) as Record<string, Validator>;
  return Object.fromEntries(names.map((n, i) => [n, mod[`s${i}`] as Validator]));
}

const ref = (name: string): { $ref: string } => ({ $ref: `#/components/schemas/${name}` });

/**
 * Two branches that do not pin `kind`, so plain `oneOf` finds both matching a payload that has
 * `a` and `b`, and the errors say which branch a refusal came from (`a` or `b` missing or mistyped).
 */
const overlapping = {
  A: { type: "object", required: ["kind", "a"], properties: { kind: { type: "string" }, a: { type: "integer" } } },
  B: { type: "object", required: ["kind", "b"], properties: { kind: { type: "string" }, b: { type: "integer" } } },
};

describe("discriminator dispatch in compiled validators", () => {
  it("validates a known value against its mapped schema only", async () => {
    const v = await compile({ ...overlapping, U: { oneOf: [ref("A"), ref("B")], discriminator: { propertyName: "kind", mapping: { a: "#/components/schemas/A", b: "#/components/schemas/B" } } } });
    const U = v["U"]!;
    // Both branches match; the value picks A, so oneOf's "exactly one" does not apply.
    expect(U({ kind: "a", a: 1, b: 2 })).toBe(true);
    // Valid for B, but the value names A: refused, and only A's failure is reported.
    expect(U({ kind: "a", b: 2 })).toBe(false);
    const missing = (U.errors ?? []).filter((e) => e.keyword === "required").map((e) => e.params["missingProperty"]);
    expect(missing).toEqual(["a"]);
    const dispatch = (U.errors ?? []).filter((e) => e.keyword === "x-discriminator-dispatch");
    expect(dispatch).toHaveLength(1);
    expect(dispatch[0]?.message).toContain("A");
    expect(U({ kind: "b", b: 2 })).toBe(true);
    expect(U({ kind: "b", a: 1 })).toBe(false);
  });

  it("reports a mapped branch's failure once, not once per way the schema reads the discriminator", async () => {
    const v = await compile({ ...overlapping, U: { oneOf: [ref("A"), ref("B")], discriminator: { propertyName: "kind", mapping: { a: "#/components/schemas/A" } } } });
    const U = v["U"]!;
    expect(U({ kind: "a", a: "one" })).toBe(false);
    expect((U.errors ?? []).filter((e) => e.keyword === "type" && e.instancePath === "/a")).toHaveLength(1);
  });

  it("gives an unknown value the union as JSON Schema reads it", async () => {
    const v = await compile({
      ...overlapping,
      One: { oneOf: [ref("A"), ref("B")], discriminator: { propertyName: "kind", mapping: { a: "#/components/schemas/A", b: "#/components/schemas/B" } } },
      Any: { anyOf: [ref("A"), ref("B")], discriminator: { propertyName: "kind", mapping: { a: "#/components/schemas/A", b: "#/components/schemas/B" } } },
    });
    expect(v["One"]!({ kind: "c", a: 1 })).toBe(true);
    expect(v["One"]!({ kind: "c", a: 1, b: 2 })).toBe(false); // both match: not exactly one
    expect((v["One"]!.errors ?? []).map((e) => e.keyword)).toContain("oneOf");
    expect(v["One"]!({ kind: "c" })).toBe(false);
    expect(v["Any"]!({ kind: "c", a: 1, b: 2 })).toBe(true);
    // Values that are not strings are not mapping keys either.
    expect(v["One"]!({ kind: 7, a: 1 })).toBe(false); // A and B want a string kind
    expect(v["One"]!({ kind: ["a"], a: 1 })).toBe(false);
  });

  it("gives a payload without the property the union, and refuses what is not an object", async () => {
    const v = await compile({
      ...overlapping,
      Loose: { type: "object", properties: { a: { type: "integer" } } },
      U: { oneOf: [ref("Loose"), ref("B")], discriminator: { propertyName: "kind", mapping: { b: "#/components/schemas/B" } } },
    });
    const U = v["U"]!;
    expect(U({ a: 1 })).toBe(true); // Loose only
    expect(U({ a: "x" })).toBe(false);
    expect(U({})).toBe(true);
    for (const notObject of [null, 1, "kind", [{ kind: "b", b: 1 }]]) expect(U(notObject)).toBe(false);
  });

  it("names branches implicitly by schema name when there is no mapping", async () => {
    const v = await compile({ ...overlapping, U: { oneOf: [ref("A"), ref("B")], discriminator: { propertyName: "kind" } } });
    expect(v["U"]!({ kind: "A", a: 1, b: 2 })).toBe(true);
    expect(v["U"]!({ kind: "B", a: 1 })).toBe(false);
  });

  it("compares hostile mapping keys as data: __proto__, constructor, quotes, template and line separators", async () => {
    const hostile = ["__proto__", "constructor", 'say "hi"', "`${globalThis.pwned = 1}`", "a\u2028b", "</script>", "\\", "toString"];
    const schemas: Record<string, unknown> = {};
    hostile.forEach((_, i) => {
      schemas[`H${i}`] = { type: "object", required: ["kind", `f${i}`], properties: { kind: { type: "string" }, [`f${i}`]: { type: "integer" } } };
    });
    // Own members, as a parsed spec has them (assigning `__proto__` would set the prototype instead).
    const mapping = Object.fromEntries(hostile.map((key, i) => [key, `#/components/schemas/H${i}`]));
    const v = await compile({ ...schemas, U: { oneOf: hostile.map((_, i) => ref(`H${i}`)), discriminator: { propertyName: "kind", mapping } } });
    expect((globalThis as Record<string, unknown>)["pwned"]).toBeUndefined();
    const U = v["U"]!;
    hostile.forEach((key, i) => {
      // Own field of the mapped branch plus another branch's field: oneOf alone would refuse (two match).
      const other = (i + 1) % hostile.length;
      expect(U({ kind: key, [`f${i}`]: 1, [`f${other}`]: 1 }), key).toBe(true);
      expect(U({ kind: key, [`f${other}`]: 1 }), key).toBe(false);
    });
    // A `__proto__` member parsed from JSON is an own member like any other.
    expect(U(JSON.parse('{"kind": "__proto__", "f0": 1, "f1": 1}'))).toBe(true);
    expect((globalThis as Record<string, unknown>)["pwned"]).toBeUndefined();
    expect(({} as Record<string, unknown>)["f0"]).toBeUndefined();
  });

  it("reads a hostile property name the way `required` does: inherited members are not values", async () => {
    const branch = (name: string, extra: string): unknown => ({ type: "object", required: [extra], properties: { [extra]: { type: "integer" } }, "x-name": name });
    const v = await compile({
      C1: branch("C1", "x"),
      C2: branch("C2", "y"),
      ByConstructor: { oneOf: [ref("C1"), ref("C2")], discriminator: { propertyName: "constructor", mapping: { one: "#/components/schemas/C1", two: "#/components/schemas/C2" } } },
      ByProto: { oneOf: [ref("C1"), ref("C2")], discriminator: { propertyName: "__proto__", mapping: { one: "#/components/schemas/C1", two: "#/components/schemas/C2" } } },
    });
    // No own `constructor`: Object's inherited function is not "one" or "two", so the union decides.
    expect(v["ByConstructor"]!({ x: 1 })).toBe(true);
    expect(v["ByConstructor"]!({ x: 1, y: 1 })).toBe(false);
    expect(v["ByConstructor"]!({ constructor: "one", x: 1, y: 1 })).toBe(true);
    expect(v["ByConstructor"]!({ constructor: "two", x: 1 })).toBe(false);
    expect(v["ByProto"]!({ x: 1, y: 1 })).toBe(false);
    expect(v["ByProto"]!(JSON.parse('{"__proto__": "two", "x": 1, "y": 1}'))).toBe(true);
    expect(v["ByProto"]!(JSON.parse('{"__proto__": "two", "x": 1}'))).toBe(false);
  });

  it("fills in {problem_base} with the contract's default and keeps the key as written", async () => {
    const problem = (slug: string): unknown => ({ type: "object", required: ["type", slug], properties: { type: { type: "string", pattern: `/${slug}$` }, [slug]: { type: "string" } } });
    const v = await compile(
      {
        Gone: problem("gone"),
        Busy: problem("busy"),
        AnyProblem: {
          oneOf: [ref("Gone"), ref("Busy")],
          discriminator: { propertyName: "type", mapping: { "{problem_base}/gone": "#/components/schemas/Gone", "{problem_base}/busy": "#/components/schemas/Busy" } },
        },
      },
      { problemBase: "https://api.test/problems" },
    );
    const P = v["AnyProblem"]!;
    expect(P({ type: "https://api.test/problems/gone", gone: "x" })).toBe(true);
    expect(P({ type: "https://api.test/problems/gone", busy: "x" })).toBe(false);
    expect((P.errors ?? []).find((e) => e.keyword === "x-discriminator-dispatch")?.params["schema"]).toBe("Gone");
    expect(P({ type: "{problem_base}/busy", busy: "x" })).toBe(true);
    // Another base is not a mapping key: the union, where the slug's pattern picks the branch.
    expect(P({ type: "https://elsewhere/busy", busy: "x" })).toBe(true);
    expect(P({ type: "https://elsewhere/busy", gone: "x" })).toBe(false);
  });

  it("holds a base schema to the subtype its value names, and leaves other values to the base", async () => {
    const v = await compile({
      Pet: { type: "object", required: ["petType"], properties: { petType: { type: "string" } }, discriminator: { propertyName: "petType", mapping: { cat: "#/components/schemas/Cat" } } },
      Cat: { allOf: [ref("Pet"), { type: "object", required: ["lives"], properties: { lives: { type: "integer", maximum: 9 } } }] },
      Dog: { allOf: [ref("Pet"), { type: "object", properties: { barks: { type: "boolean" } } }] },
    });
    expect(v["Pet"]!({ petType: "cat", lives: 3 })).toBe(true);
    expect(v["Pet"]!({ petType: "cat" })).toBe(false);
    expect(v["Pet"]!({ petType: "Dog", barks: "loud" })).toBe(false); // implicit: Dog names Dog
    expect(v["Pet"]!({ petType: "fish", lives: 99 })).toBe(true);
    expect(v["Cat"]!({ petType: "cat", lives: 10 })).toBe(false);
  });
});
