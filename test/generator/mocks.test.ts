/**
 * The generated `./mocks` of the three packages, as users import them: every named schema over
 * thousands of seeds passes its precompiled validator, the same seed gives the same JSON (also in a
 * fresh process), values look like the contracts' data (numeric ids, `12.99 USD` prices, `card://`
 * URIs, SHA-256 hashes), and every operation has an example response its validator accepts.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import path from "node:path";
import * as coreMocks from "@devplatform/core/mocks";
import * as audiencesMocks from "@devplatform/ads-audiences/mocks";
import * as campaignsMocks from "@devplatform/ads-campaigns/mocks";
import * as coreValidators from "@devplatform/core/validators";
import * as audiencesValidators from "@devplatform/ads-audiences/validators";
import * as campaignsValidators from "@devplatform/ads-campaigns/validators";
import { buildModel, loadSpec, type ApiModel } from "../../generators/dist/index.js";
import { ROOT } from "./helpers.js";

type Factory = (seed?: number) => unknown;
type Validator = ((data: unknown) => boolean) & { errors?: readonly { instancePath: string; message?: string }[] | null };
interface Package {
  readonly factories: Readonly<Record<string, Factory>>;
  readonly validators: Readonly<Record<string, Validator>>;
  readonly exampleResponse: (operationId: never, status?: number | string, seed?: number) => { status: number; contentType: string | undefined; body: unknown };
  readonly exampleResponses: (seed?: number) => readonly { operationId: string; status: number; contentType: string | undefined; body: unknown }[];
  readonly validateResponse: (operationId: never, status: number, contentType: string | undefined, body: unknown) => { valid: boolean };
}

const asPackage = (m: typeof coreMocks | typeof audiencesMocks | typeof campaignsMocks, v: typeof coreValidators | typeof audiencesValidators | typeof campaignsValidators): Package => ({
  factories: m.mockSchemas as unknown as Record<string, Factory>,
  validators: v.schemaValidators as unknown as Record<string, Validator>,
  exampleResponse: m.exampleResponse as unknown as Package["exampleResponse"],
  exampleResponses: m.exampleResponses as unknown as Package["exampleResponses"],
  validateResponse: v.validateResponse as unknown as Package["validateResponse"],
});

const PACKAGES: Readonly<Record<string, Package>> = {
  core: asPackage(coreMocks, coreValidators),
  "ads-audiences": asPackage(audiencesMocks, audiencesValidators),
  "ads-campaigns": asPackage(campaignsMocks, campaignsValidators),
};

/** Values generated per package, spread evenly over its named schemas. */
const VALUES_PER_PACKAGE = 2500;

/**
 * Schemas that cannot be generated, by package and type name, with the reason the generator must
 * give. Empty: every schema of the three contracts can be generated. A schema that starts failing
 * must be listed here with its reason, never skipped.
 */
const CANNOT_GENERATE: Readonly<Record<string, Readonly<Record<string, RegExp>>>> = { core: {}, "ads-audiences": {}, "ads-campaigns": {} };

const models = new Map<string, ApiModel>();
async function modelOf(name: string): Promise<ApiModel> {
  let model = models.get(name);
  if (!model) {
    model = buildModel(await loadSpec(path.join(ROOT, "spec", `${name}.yaml`), { cwd: ROOT }), name);
    models.set(name, model);
  }
  return model;
}

/** Every (key, value) pair inside a JSON value, depth first, with array items under their array's key. */
function* entries(value: unknown, key = ""): Generator<[string, unknown]> {
  if (Array.isArray(value)) for (const item of value) yield* entries(item, key);
  else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      yield [k, v];
      yield* entries(v, k);
    }
  }
}

interface Generated {
  readonly typeName: string;
  readonly seed: number;
  readonly value: unknown;
}

/** Generates the package's values once; failures are collected with their reason, not thrown. */
function generateAll(name: string): { values: Generated[]; failures: Map<string, string> } {
  const pkg = PACKAGES[name] as Package;
  const typeNames = Object.keys(pkg.factories);
  const perSchema = Math.ceil(VALUES_PER_PACKAGE / typeNames.length);
  const values: Generated[] = [];
  const failures = new Map<string, string>();
  for (const typeName of typeNames) {
    for (let seed = 0; seed < perSchema; seed++) {
      try {
        values.push({ typeName, seed, value: (pkg.factories[typeName] as Factory)(seed) });
      } catch (e) {
        failures.set(typeName, (e as Error).message);
        break;
      }
    }
  }
  return { values, failures };
}

const generated = new Map<string, ReturnType<typeof generateAll>>();
const generatedFor = (name: string): ReturnType<typeof generateAll> => {
  let g = generated.get(name);
  if (!g) generated.set(name, (g = generateAll(name)));
  return g;
};

describe.each(Object.keys(PACKAGES))("generated mocks of %s", (name) => {
  const pkg = PACKAGES[name] as Package;

  it("generate every named schema, or name the schema and the reason", () => {
    const { values, failures } = generatedFor(name);
    const expected = CANNOT_GENERATE[name] ?? {};
    expect([...failures.keys()].sort()).toEqual(Object.keys(expected).sort());
    for (const [typeName, reason] of Object.entries(expected)) expect(failures.get(typeName)).toMatch(reason);
    expect(values.length).toBeGreaterThanOrEqual(VALUES_PER_PACKAGE - Object.keys(expected).length * 100);
  });

  it("give values that all pass their schema's precompiled validator", () => {
    const invalid: string[] = [];
    for (const { typeName, seed, value } of generatedFor(name).values) {
      const validate = pkg.validators[typeName] as Validator;
      if (!validate(value)) invalid.push(`${typeName} seed ${seed}: ${JSON.stringify(validate.errors?.slice(0, 3))} in ${JSON.stringify(value).slice(0, 300)}`);
    }
    expect(invalid).toEqual([]);
  });

  it("give the same JSON for the same seed, and different JSON for different seeds", () => {
    const byType = new Map<string, Set<string>>();
    for (const { typeName, seed, value } of generatedFor(name).values.filter((v) => v.seed < 5)) {
      expect(JSON.stringify((pkg.factories[typeName] as Factory)(seed)), `${typeName} seed ${seed}`).toBe(JSON.stringify(value));
      byType.set(typeName, (byType.get(typeName) ?? new Set()).add(JSON.stringify(value)));
    }
    // Schemas with room for variety vary; a few (single-value enums, `const`, empty objects) cannot.
    const varied = [...byType.values()].filter((s) => s.size > 1).length;
    expect(varied / byType.size).toBeGreaterThan(0.8);
  });

  it("spread enum values across their whole range", async () => {
    const model = await modelOf(name);
    let checked = 0;
    for (const s of model.schemas) {
      const values = typeof s.schema === "object" && Array.isArray(s.schema["enum"]) ? (s.schema["enum"] as unknown[]) : undefined;
      if (!values) continue;
      const seen = new Set(Array.from({ length: 40 * values.length }, (_, seed) => JSON.stringify((pkg.factories[s.typeName] as Factory)(seed))));
      for (const v of values) expect(seen.has(JSON.stringify(v)), `${s.name}: ${JSON.stringify(v)} never generated`).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });

  it("write identifiers as numeric text, prices like 12.99 USD, card URIs as card://<digits>", () => {
    let ids = 0;
    let prices = 0;
    for (const { typeName, value } of generatedFor(name).values) {
      for (const [key, v] of entries(value)) {
        if (typeof v !== "string") continue;
        if (/(^|_)id$/.test(key) && typeName !== "Request") {
          expect(v, `${typeName}.${key}`).toMatch(/^[0-9]{1,19}$/);
          ids++;
        }
        if (/(^|_)price$/.test(key)) {
          expect(v, `${typeName}.${key}`).toMatch(/^[0-9]+(\.[0-9]{2})? [A-Z]{3}$/);
          prices++;
        }
        if (key === "card_uri") expect(v, `${typeName}.${key}`).toMatch(/^card:\/\/[0-9]+$/);
      }
    }
    expect(ids).toBeGreaterThan(100);
    if (name === "ads-audiences") expect(prices).toBeGreaterThan(50);
  });

  it("match ^[0-9]{1,19}$ wherever a schema declares that pattern or ^[0-9]+$", async () => {
    const model = await modelOf(name);
    const numeric = model.schemas.filter((s) => JSON.stringify(s.schema).includes('"^[0-9]+$"') || JSON.stringify(s.schema).includes('"^[0-9]{1,19}$"'));
    for (const s of numeric) {
      for (let seed = 0; seed < 50; seed++) {
        const value = (pkg.factories[s.typeName] as Factory)(seed);
        const strings = typeof value === "string" ? [["", value] as [string, unknown]] : [...entries(value)];
        for (const [key, v] of strings) if (typeof v === "string" && /(^|_)(id|id_str|identifier)$|^$/.test(key)) expect(v, `${s.name}.${key}`).toMatch(/^[0-9]{1,19}$/);
      }
    }
  });

  it("hash x-hashed values as 64 lower-hex digits", async () => {
    const model = await modelOf(name);
    const hashed = new Set(model.schemas.filter((s) => typeof s.schema === "object" && s.schema["x-hashed"] !== undefined).map((s) => s.name));
    let checked = 0;
    for (const s of model.schemas) {
      const props = typeof s.schema === "object" && typeof s.schema["properties"] === "object" ? (s.schema["properties"] as Record<string, { $ref?: string }>) : {};
      const hashedKeys = Object.entries(props)
        .filter(([, p]) => hashed.has((p.$ref ?? "").replace("#/components/schemas/", "")))
        .map(([k]) => k);
      const direct = hashed.has(s.name);
      if (!direct && hashedKeys.length === 0) continue;
      for (let seed = 0; seed < 50; seed++) {
        const value = (pkg.factories[s.typeName] as Factory)(seed) as Record<string, unknown> | unknown[];
        const lists = direct ? [value as unknown[]] : hashedKeys.map((k) => (value as Record<string, unknown>)[k]).filter((v) => v !== undefined);
        for (const list of lists) {
          for (const item of list as unknown[]) {
            expect(item, `${s.name} seed ${seed}`).toMatch(/^[0-9a-f]{64}$/);
            checked++;
          }
        }
      }
    }
    if (name === "ads-audiences") expect(checked).toBeGreaterThan(100);
  });

  it("answer every operation with an example response its validator accepts", async () => {
    const model = await modelOf(name);
    const list = pkg.exampleResponses();
    expect(list.map((r) => r.operationId)).toEqual(model.operations.map((op) => op.id));
    for (const r of list) {
      const result = pkg.validateResponse(r.operationId as never, r.status, r.contentType, r.body);
      expect(result, `${r.operationId} ${r.status} ${r.contentType}`).toEqual({ valid: true });
    }
    // The contract's own example is the answer when the success response has one.
    for (const op of model.operations) {
      const success = op.responses.find((x) => x.status.startsWith("2"));
      const content = success?.contents.find((c) => c.mediaType.endsWith("json")) ?? success?.contents[0];
      const example = content?.examples[0];
      if (example !== undefined) expect(pkg.exampleResponse(op.id as never).body, op.id).toEqual(example);
    }
    // Error responses too, with the status asked for.
    for (const op of model.operations) {
      const error = op.responses.find((x) => /^4/.test(x.status));
      if (!error) continue;
      const status = /^\d{3}$/.test(error.status) ? Number(error.status) : 400;
      const r = pkg.exampleResponse(op.id as never, status);
      expect(r.status).toBe(status);
      expect(pkg.validateResponse(op.id as never, r.status, r.contentType, r.body), `${op.id} ${status}`).toEqual({ valid: true });
    }
  });
});

describe("mock determinism across processes", () => {
  it("gives byte-identical values in a fresh Node process", () => {
    const script = `
      const out = {};
      for (const name of ["core", "ads-audiences", "ads-campaigns"]) {
        const m = await import("@devplatform/" + name + "/mocks");
        for (const [typeName, f] of Object.entries(m.mockSchemas).slice(0, 40)) out[name + "." + typeName] = [f(0), f(7), f(123456)];
      }
      process.stdout.write(JSON.stringify(out));`;
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    expect(child.stderr).toBe("");
    const there = JSON.parse(child.stdout) as Record<string, unknown>;
    const here: Record<string, unknown> = {};
    for (const name of Object.keys(PACKAGES)) {
      for (const [typeName, f] of Object.entries((PACKAGES[name] as Package).factories).slice(0, 40)) here[`${name}.${typeName}`] = [f(0), f(7), f(123456)];
    }
    expect(Object.keys(there).length).toBeGreaterThan(100);
    expect(JSON.stringify(there)).toBe(JSON.stringify(here));
  });
});
