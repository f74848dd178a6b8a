/**
 * The model's document is the loaded document itself whenever normalizing has nothing to rewrite
 * (no copy of a 10 MB contract on every run), so nothing may write to it: not the model builder,
 * not any emitter. A YAML text parsed once is kept between the runs of `--watch`; a write there
 * would change the next run's output. Here every document is frozen before the model is built, and
 * every emitter runs on it: a write throws (modules are strict).
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildModel, EMITTERS, loadSpec } from "../../generators/src/index.js";
import type { EmitContext } from "../../generators/src/emit/emitter.js";
import { normalizeDocument } from "../../generators/src/model/normalize.js";
import { loadPackageTemplates } from "../../generators/src/templates/package.js";
import { FIXTURES, ROOT } from "./helpers.js";

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const member of Object.values(value)) deepFreeze(member);
}

const SPECS = [
  path.join(ROOT, "spec/core.yaml"),
  path.join(ROOT, "spec/ads-campaigns.yaml"),
  path.join(ROOT, "spec/ads-audiences.yaml"),
  path.join(FIXTURES, "constructs/polymorphism.yaml"),
  path.join(FIXTURES, "constructs/recursion.yaml"),
  path.join(FIXTURES, "constructs/refs.yaml"),
  path.join(FIXTURES, "constructs/nullable-30.yaml"),
  path.join(FIXTURES, "constructs/webhooks.yaml"),
  path.join(FIXTURES, "multi-file/openapi.yaml"),
  path.join(FIXTURES, "v30.json"),
];

describe("the loaded document", () => {
  it.each(SPECS.map((s) => [path.relative(ROOT, s), s]))("is never written to: %s", async (_name, file) => {
    const spec = await loadSpec(file);
    deepFreeze(spec.document);
    const model = buildModel(spec, "frozen");
    const ctx = {
      model,
      packageName: "frozen",
      exports: new Map<string, string>(),
      namespaced: new Set<string>(),
      unbarrelled: new Set<string>(),
      dependencies: {},
      optionalPeers: {},
      release: { version: "1.0.0", changelog: "" },
      templates: await loadPackageTemplates(undefined, ROOT),
      workers: 0,
    } as unknown as EmitContext;
    const ran: string[] = [];
    for (const emitter of EMITTERS) {
      if (emitter.applies && !emitter.applies(model)) continue;
      const files = await emitter.emit(ctx);
      expect(files.length, emitter.name).toBeGreaterThan(0);
      ran.push(emitter.name);
    }
    expect(ran).toEqual(expect.arrayContaining(["types", "validators", "client", "server", "mocks", "conformance", "package"]));
  });
});

describe("normalizeDocument", () => {
  it("answers the document itself when nothing needs rewriting", async () => {
    const spec = await loadSpec(path.join(ROOT, "spec/core.yaml"));
    deepFreeze(spec.document);
    expect(normalizeDocument(spec.document as Record<string, unknown>)).toBe(spec.document);
  });

  // Each of the three rewrites alone makes a copy, and leaves the frozen original as it was.
  const given = (schemas: Record<string, unknown>, paths: Record<string, unknown> = {}): Record<string, unknown> => ({
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    paths,
    components: { schemas },
  });
  const cases: [string, Record<string, unknown>, (out: Record<string, unknown>) => unknown, unknown][] = [
    [
      "a discriminator mapping by bare name",
      given({ Pet: { oneOf: [{ $ref: "#/components/schemas/Cat" }], discriminator: { propertyName: "kind", mapping: { cat: "Cat" } } }, Cat: { type: "object" } }),
      (out) => (out["components"] as { schemas: { Pet: { discriminator: { mapping: unknown } } } }).schemas.Pet.discriminator.mapping,
      { cat: "#/components/schemas/Cat" },
    ],
    [
      "null beside oneOf",
      given({ Maybe: { type: "null", oneOf: [{ type: "string" }, { type: "integer" }] } }),
      (out) => (out["components"] as { schemas: Record<string, unknown> }).schemas["Maybe"],
      { anyOf: [{ type: "null" }, { oneOf: [{ type: "string" }, { type: "integer" }] }] },
    ],
    [
      "a reference into another schema",
      given({
        Address: { type: "object", properties: { city: { type: "string" } }, definitions: { zip: { type: "string" } } },
        User: { type: "object", properties: { zip: { $ref: "#/components/schemas/Address/definitions/zip" } } },
      }),
      (out) => (out["components"] as { schemas: { User: { properties: { zip: unknown } } } }).schemas.User.properties.zip,
      { $ref: "#/components/schemas/AddressDefinitionsZip" },
    ],
  ];
  it.each(cases)("copies and rewrites %s", (_name, doc, pick, want) => {
    const before = JSON.stringify(doc);
    deepFreeze(doc);
    const out = normalizeDocument(doc);
    expect(out).not.toBe(doc);
    expect(pick(out)).toEqual(want);
    expect(JSON.stringify(doc)).toBe(before);
  });
});
