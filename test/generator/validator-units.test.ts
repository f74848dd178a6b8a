/**
 * Validators compiled unit by unit: a module is the same however its units were obtained (compiled
 * on this thread, on workers, or taken from the content cache), a changed schema recompiles only
 * its own unit, and the assembled module validates like the schema document it came from,
 * references, cycles, coercion and hostile member names included.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import type { CompileInput } from "../../generators/dist/emit/validators/compile.js";
import { compileModule } from "../../generators/dist/emit/validators/module.js";
import { canonicalPointer, splitUnits, splittable, type UnitCopies } from "../../generators/dist/emit/validators/units.js";
import type { ContentCache } from "../../generators/dist/write/content-cache.js";

type Validator = ((data: unknown) => boolean) & { errors?: { instancePath: string; keyword: string }[] | null };

/** A Map-backed cache that counts what was computed. */
function memoryCache(): ContentCache & { sets: number; entries: Map<string, string> } {
  const entries = new Map<string, string>();
  const cache = {
    sets: 0,
    entries,
    get: (k: string) => entries.get(k),
    set: (k: string, v: string) => {
      cache.sets++;
      entries.set(k, v);
    },
  };
  return cache;
}

// Inside the workspace, so the module's ajv/ajv-formats/runtime imports resolve.
const scratch = mkdtempSync(path.join(process.cwd(), "node_modules", ".cache-units-"));
let serial = 0;

async function load(code: string): Promise<Record<string, Validator>> {
  const js = ts.transpileModule(`import * as rules from "@contractgen/runtime/rules";\n${code}`, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  const file = path.join(scratch, `m${serial++}.mjs`);
  writeFileSync(file, js);
  return (await import(pathToFileURL(file).href)) as Record<string, Validator>;
}

const components = {
  Node: {
    type: "object",
    required: ["name"],
    properties: { name: { type: "string", minLength: 1 }, children: { type: "array", items: { $ref: "#/components/schemas/Node" } }, owner: { $ref: "#/components/schemas/Person" } },
  },
  Person: { type: "object", required: ["id"], properties: { id: { type: "integer" }, best: { $ref: "#/components/schemas/Friend" } } },
  // Person → Friend → Person: a cycle through two units.
  Friend: { type: "object", properties: { of: { $ref: "#/components/schemas/Person" } } },
  // Parsed, so `__proto__` is an own member (in a literal it would set the prototype).
  "odd/name ~%": JSON.parse('{"type":"object","required":["__proto__"],"properties":{"__proto__":{"type":"string"},"constructor":{"type":"integer"}}}') as unknown,
  Flag: { type: "boolean" },
};

function input(schemas: Record<string, unknown>, coerce = false): CompileInput {
  const names = Object.keys(schemas);
  return {
    root: { components: { schemas }, $defs: { query: { type: "object", properties: { flag: { $ref: "#/components/schemas/Flag" }, n: { type: "integer", default: 3 } } } } },
    exports: new Map([...names.map((n, i): [string, string] => [`s${i}`, `#/components/schemas/${encodeURIComponent(n.replace(/~/g, "~0").replace(/\//g, "~1"))}`]), ["q", "#/$defs/query"]]),
    coerce,
  };
}

describe("validator units", () => {
  it("follow references, including cycles between units, and report errors at the right path", async () => {
    const m = await load(await compileModule(input(components), memoryCache(), { workers: 0 }));
    const node = m["s0"] as Validator;
    expect(node({ name: "root", children: [{ name: "a", owner: { id: 1, best: { of: { id: 2 } } } }] })).toBe(true);
    expect(node({ name: "root", children: [{ name: "a", owner: { id: 1, best: { of: { id: "two" } } } }] })).toBe(false);
    expect(node.errors?.map((e) => [e.instancePath, e.keyword])).toEqual([["/children/0/owner/best/of/id", "type"]]);
    // allErrors: every failure of every unit is reported, not only the first.
    expect(node({ name: "", children: [{}] })).toBe(false);
    expect(node.errors?.map((e) => e.instancePath).sort()).toEqual(["/children/0", "/name"]);
  });

  it("compile a schema whose examples are an OpenAPI-style map, which ajv's meta-schema refuses (codat.io's)", async () => {
    const schemas = {
      // A property named `examples` is a member like any other, and still checked.
      Status: {
        type: "object",
        properties: { ok: { type: "boolean", example: "yes", examples: { one: { value: true } } }, examples: { type: "integer" } },
        examples: { "Example 1": { value: { ok: true } } },
      },
    };
    const m = await load(await compileModule({ ...input(schemas), exports: new Map([["s0", "#/components/schemas/Status"]]) }, memoryCache(), { workers: 0 }));
    const status = m["s0"] as Validator;
    expect(status({ ok: true })).toBe(true);
    expect(status({ ok: "yes" })).toBe(false);
    expect(status.errors?.map((e) => [e.instancePath, e.keyword])).toEqual([["/ok", "type"]]);
    expect(status({ ok: true, examples: "many" })).toBe(false);
    expect(status.errors?.map((e) => [e.instancePath, e.keyword])).toEqual([["/examples", "type"]]);
  });

  it("treat members named like prototype keys as data, under a component name that needs escaping", async () => {
    const m = await load(await compileModule(input(components), memoryCache(), { workers: 0 }));
    const odd = m["s3"] as Validator;
    expect(odd(JSON.parse('{"__proto__":"x","constructor":1}'))).toBe(true);
    expect(odd({ constructor: 1 })).toBe(false);
  });

  it("coerce through a reference into the parent object, and apply defaults", async () => {
    const m = await load(await compileModule(input(components, true), memoryCache(), { workers: 0 }));
    const query: Record<string, unknown> = { flag: "true" };
    expect((m["q"] as Validator)(query)).toBe(true);
    expect(query).toEqual({ flag: true, n: 3 });
  });

  it("give the same module from a warm cache, a cold one and worker threads", async () => {
    const cache = memoryCache();
    const cold = await compileModule(input(components), cache, { workers: 0 });
    const computed = cache.sets;
    expect(computed).toBeGreaterThan(0);
    expect(await compileModule(input(components), cache, { workers: 0 })).toBe(cold);
    expect(cache.sets).toBe(computed);
    expect(await compileModule(input(components), memoryCache(), { workers: 2, inlineBelowBytes: 0 })).toBe(cold);
  });

  it("recompile only the unit whose schema changed", async () => {
    const cache = memoryCache();
    await compileModule(input(components), cache, { workers: 0 });
    const before = cache.sets;
    const changed = { ...components, Person: { ...components.Person, required: ["id", "name"] } };
    const warm = await compileModule(input(changed), cache, { workers: 0 });
    expect(cache.sets - before).toBe(1);
    expect(warm).toBe(await compileModule(input(changed), memoryCache(), { workers: 0 }));
    // Prose is not validation: a new description compiles nothing.
    const described = { ...components, Flag: { type: "boolean", description: "new words" } };
    const n = cache.sets;
    await compileModule(input(described), cache, { workers: 0 });
    expect(cache.sets).toBe(n);
  });

  it("compile each distinct unit once: units alike share one compile and one cache entry", async () => {
    // Three operations answering with a bare reference to one schema, and two alike inline schemas.
    const alike = { ...components, A: { $ref: "#/components/schemas/Person" }, B: { $ref: "#/components/schemas/Node" }, C: { type: "string", maxLength: 3 }, D: { type: "string", maxLength: 3 } };
    const cache = memoryCache();
    const code = await compileModule(input(alike), cache, { workers: 0 });
    // Node, Person, Friend, odd, Flag, one bare reference (A and B), one string (C and D), the query.
    expect(cache.sets).toBe(8);
    const m = await load(code);
    expect([m["s5"]?.({ id: 1 }), m["s5"]?.({})]).toEqual([true, false]);
    expect([m["s6"]?.({ name: "n" }), m["s6"]?.({ name: "" })]).toEqual([true, false]);
    expect([m["s7"]?.("abc"), m["s8"]?.("abcd")]).toEqual([true, false]);
    expect(await compileModule(input(alike), memoryCache(), { workers: 2, inlineBelowBytes: 0 })).toBe(code);
  });

  it("are split only where keywords do not look across references", () => {
    expect(splittable(input(components).root)).toBe(true);
    expect(splittable({ components: { schemas: { A: { type: "object", unevaluatedProperties: false, allOf: [{ $ref: "#/components/schemas/B" }] } } } })).toBe(false);
    expect(splittable({ components: { schemas: { A: { $ref: "https://example.com/a.json" } } } })).toBe(false);
    // `$ref` as a member name or inside data is not a reference.
    const units = splitUnits({ a: { properties: { $ref: { type: "string" } }, enum: [{ $ref: "#/b" }] } }, ["#/a"]);
    expect(units.map((u) => u.pointer)).toEqual(["#/a"]);
    expect(canonicalPointer("#/components/schemas/a b")).toBe(canonicalPointer("#/components/schemas/a%20b"));
  });

  it("are the same when two modules share the copies of the schemas they share", () => {
    const strict = input(components);
    // A second root over the same component objects, with $defs of its own (as the coerced module's).
    const params = { components: strict.root["components"], $defs: { p: { type: "object", properties: { owner: { $ref: "#/components/schemas/Person" }, n: { type: "integer" } } } } };
    const copies: UnitCopies = new WeakMap();
    const sharedStrict = splitUnits(strict.root, strict.exports.values(), copies);
    const sharedParams = splitUnits(params, ["#/$defs/p"], copies);
    expect(sharedStrict).toEqual(splitUnits(strict.root, strict.exports.values()));
    expect(sharedParams).toEqual(splitUnits(params, ["#/$defs/p"]));
    // The coerced module's Person unit is the strict one's copy, not a second copy of it.
    const person = (units: { pointer: string; schema: unknown }[]): unknown => units.find((u) => u.pointer === "#/components/schemas/Person")?.schema;
    expect(person(sharedParams)).toBe(person(sharedStrict));
  });

  describe("share repeated subschemas", () => {
    // An address long enough to share (over 256 characters of JSON), written inline three times, with
    // a reference inside it and a smaller repeat inside it (the geo point, itself written twice more).
    const geo = {
      type: "object",
      required: ["lat", "lon"],
      properties: {
        lat: { type: "number", minimum: -90, maximum: 90 },
        lon: { type: "number", minimum: -180, maximum: 180 },
        label: { type: "string", maxLength: 40 },
        precision: { type: "integer", minimum: 0, maximum: 12 },
        source: { enum: ["gps", "map", "guess"] },
      },
      additionalProperties: false,
    };
    const address = () => ({
      type: "object",
      required: ["street", "city"],
      properties: {
        street: { type: "string", minLength: 1, maxLength: 80 },
        city: { type: "string", pattern: "^[A-Z]" },
        zip: { type: "string", pattern: "^[0-9]{5}$" },
        at: structuredClone(geo),
        resident: { $ref: "#/components/schemas/Person" },
      },
    });
    const repeated = {
      ...components,
      Shop: { type: "object", required: ["home"], properties: { home: address(), branches: { type: "array", items: address() } } },
      Move: { type: "object", properties: { from: address(), to: { anyOf: [{ type: "null" }, address()] }, via: structuredClone(geo) } },
      Pin: { type: "object", properties: { where: structuredClone(geo), tag: { type: "string" } } },
    };
    const values: unknown[] = [
      { home: { street: "Main", city: "Oslo" } },
      { home: { street: "Main", city: "Oslo", at: { lat: 1, lon: 2 }, resident: { id: 1 } }, branches: [{ street: "", city: "bergen", zip: "12", at: { lat: 91, lon: 0, x: 1 } }] },
      { home: { city: 3 }, branches: [{}, { street: "s", city: "C", resident: { id: "one", best: { of: { id: 2.5 } } } }] },
      { from: { street: "a", city: "B" }, to: null, via: { lat: 0 } },
      { from: {}, to: { street: "a" }, via: { lat: 0, lon: 500 } },
      { where: { lat: "north", lon: 1 } },
      { where: { lat: 1, lon: 1, label: "x".repeat(41) }, tag: 1 },
    ];
    const verdicts = (m: Record<string, Validator>): unknown[] =>
      ["s5", "s6", "s7"].flatMap((name) => values.map((v) => [(m[name] as Validator)(structuredClone(v)), m[name]?.errors?.map((e) => [e.instancePath, e.keyword]) ?? null]));

    it("compile a repeat once and call it from each place, judging every value as the inline schemas do", async () => {
      const units = splitUnits(input(repeated).root, input(repeated).exports.values(), undefined, { shareRepeatsFrom: 256 });
      const repeats = units.filter((u) => u.pointer.startsWith("#/x-contractgen-repeat/"));
      // The address, and the geo point (inside the address and written twice more on its own).
      expect(repeats).toHaveLength(2);
      const cache = memoryCache();
      const shared = await compileModule(input(repeated), cache, { workers: 0 });
      const inline = await compileModule(input(repeated), memoryCache(), { workers: 0, shareRepeatsFrom: 0 });
      expect(shared.length).toBeLessThan(inline.length);
      const [a, b] = [await load(shared), await load(inline)];
      const judged = verdicts(a);
      expect(judged).toEqual(verdicts(b));
      // Not all alike: the values fail in the repeats, through them, and beside them.
      // Not all alike: values fail inside the repeats (the address, the geo point in it), through a
      // reference out of one (the resident), and beside them.
      expect(judged.filter((v) => (v as [boolean])[0] === false)).toHaveLength(10);
      // An error inside a repeat inside a repeat, named at its full path.
      expect(judged[1]).toEqual([
        false,
        [
          ["/branches/0/street", "minLength"],
          ["/branches/0/city", "pattern"],
          ["/branches/0/zip", "pattern"],
          ["/branches/0/at", "additionalProperties"],
          ["/branches/0/at/lat", "maximum"],
        ],
      ]);
      expect(judged[2]).toEqual([
        false,
        [
          ["/home", "required"],
          ["/home/city", "type"],
          ["/branches/0", "required"],
          ["/branches/0", "required"],
          ["/branches/1/resident/id", "type"],
          ["/branches/1/resident/best/of/id", "type"],
        ],
      ]);
      // The same module from worker threads, and again from the cache without compiling anything.
      expect(await compileModule(input(repeated), memoryCache(), { workers: 2, inlineBelowBytes: 0 })).toBe(shared);
      const sets = cache.sets;
      expect(await compileModule(input(repeated), cache, { workers: 0 })).toBe(shared);
      expect(cache.sets).toBe(sets);
    });

    it("share nothing in a coercing module, where ajv applies no default inside anyOf but would in a called repeat", async () => {
      const withDefault = (): object => ({
        type: "object",
        properties: {
          n: { type: "integer", default: 3 },
          note: { type: "string", maxLength: 200, pattern: "^[^<>]*$" },
          tags: { type: "array", items: { type: "string", minLength: 1, maxLength: 30 }, maxItems: 10, uniqueItems: true },
        },
        required: [],
        additionalProperties: false,
      });
      const schemas = {
        A: { type: "object", properties: { r: { anyOf: [withDefault(), { type: "string" }] } } },
        B: { type: "object", properties: { r: { anyOf: [withDefault(), { type: "string" }] }, s: { type: "string" } } },
      };
      expect(JSON.stringify(withDefault()).length).toBeGreaterThan(256);
      const coerced = {
        root: { components: { schemas } },
        exports: new Map([
          ["a", "#/components/schemas/A"],
          ["b", "#/components/schemas/B"],
        ]),
        coerce: true,
      };
      const m = await load(await compileModule(coerced, memoryCache(), { workers: 0 }));
      const data: { r: Record<string, unknown> } = { r: {} };
      expect((m["a"] as Validator)(data)).toBe(true);
      expect(data).toEqual({ r: {} });
    });
  });

  it("ignore a unit-ref keyword written in the spec", async () => {
    const schemas = { A: { type: "object", "x-contractgen-unit-ref": "process", properties: { id: { type: "integer" } } } };
    const m = await load(await compileModule({ ...input(schemas), exports: new Map([["s0", "#/components/schemas/A"]]) }, memoryCache(), { workers: 0 }));
    expect([(m["s0"] as Validator)({ id: 1 }), (m["s0"] as Validator)({ id: "1" })]).toEqual([true, false]);
  });

  it("name the pointer when a reference leads nowhere", async () => {
    const broken = input({ A: { $ref: "#/components/schemas/Missing" } });
    await expect(compileModule(broken, memoryCache(), { workers: 0 })).rejects.toThrow("#/components/schemas/Missing");
  });
});
