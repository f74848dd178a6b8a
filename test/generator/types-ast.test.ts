/**
 * The types emitter calls openapi-typescript's transform directly when Redocly's lint and bundle
 * would change nothing it cannot replay (types-ast.ts). Whichever way a document goes, the printed
 * types must be openapiTS's own.
 */
import { describe, expect, it } from "vitest";
import openapiTS, { astToString } from "openapi-typescript";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { hasDiscriminatorWork, passIsNoOp, typesAst } from "../../generators/src/emit/types-ast.js";

type Obj = Record<string, unknown>;

const base = (openapi: string, extra: Obj): Obj => ({
  openapi,
  info: { title: "T", version: "1" },
  paths: {
    "/things/{id}": {
      get: {
        operationId: "getThing",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" }, example: { $ref: "#/components/examples/id/value" } }],
        responses: {
          "200": {
            description: "ok",
            content: {
              "application/json": {
                schema: { $ref: "#/components/schemas/Thing" },
                examples: { one: { $ref: "#/components/examples/thing" } },
              },
            },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: "object",
        description: "A thing.",
        example: { $ref: "#/components/examples/thing/value" },
        properties: { id: { type: "string" }, kind: { $ref: "#/components/schemas/Kind" }, value: { $ref: "#/components/schemas/Kind" } },
        "x-notes": { deep: { deeper: { $ref: "#/components/schemas/Kind" } } },
      },
      Kind: { type: "string", enum: ["a", "b"] },
      Pet: { oneOf: [{ $ref: "#/components/schemas/Thing" }], discriminator: { propertyName: "id", mapping: { t: "#/components/schemas/Thing" } } },
    },
    examples: { id: { value: "x1" }, thing: { summary: "one", value: { id: "x1", kind: "a", value: "b" } } },
  },
  ...extra,
});

const documents: Record<string, Obj> = {
  "3.1 with example references": base("3.1.0", {}),
  "3.0 with example references": base("3.0.3", {}),
  "no components": { openapi: "3.1.0", info: { title: "T", version: "1" }, paths: { "/a": { get: { responses: { "204": { description: "none" } } } } } },
  "a reference in an extension's member": base("3.1.0", { "x-meta": { kind: { $ref: "#/components/schemas/Kind" } } }),
  "a mapping to a nested pointer": base("3.1.0", {}),
  "an operationId used by a webhook too": base("3.1.0", { webhooks: { hook: { post: { operationId: "getThing", responses: { "200": { description: "ok" } } } } } }),
  "no discriminator": (() => {
    const doc = base("3.1.0", {});
    delete (doc["components"] as { schemas: Obj }).schemas["Pet"];
    return doc;
  })(),
  "a discriminator reached through allOf": (() => {
    const doc = base("3.1.0", {});
    const schemas = (doc["components"] as { schemas: Obj }).schemas;
    schemas["Base"] = { type: "object", required: ["kind"], properties: { kind: { type: "string" } }, discriminator: { propertyName: "kind", mapping: { cat: "#/components/schemas/Cat" } } };
    schemas["Cat"] = { allOf: [{ $ref: "#/components/schemas/Base" }, { type: "object", properties: { purrs: { type: "boolean" } } }] };
    delete schemas["Pet"];
    return doc;
  })(),
  "an allOf item that is no object": (() => {
    const doc = base("3.1.0", {});
    (doc["components"] as { schemas: Obj }).schemas["Odd"] = { allOf: [true, { type: "object" }] };
    delete (doc["components"] as { schemas: Obj }).schemas["Pet"];
    return doc;
  })(),
};
(documents["a mapping to a nested pointer"] as { components: { schemas: { Pet: { discriminator: { mapping: Obj } } } } }).components.schemas.Pet.discriminator.mapping["t"] =
  "#/components/schemas/Thing/properties/kind";

describe("openapi-typescript's AST without the Redocly pass", () => {
  it("is taken for documents the pass leaves as they are, and not for the others", () => {
    expect(passIsNoOp(structuredClone(documents["3.1 with example references"] as Obj))).toBeDefined();
    expect(passIsNoOp(structuredClone(documents["3.0 with example references"] as Obj))).toBeDefined();
    expect(passIsNoOp(structuredClone(documents["no components"] as Obj))).toBeDefined();
    expect(passIsNoOp(structuredClone(documents["a reference in an extension's member"] as Obj))).toBeUndefined();
    expect(passIsNoOp(structuredClone(documents["a mapping to a nested pointer"] as Obj))).toBeUndefined();
    expect(passIsNoOp(structuredClone(documents["an operationId used by a webhook too"] as Obj))).toBeUndefined();
  });

  for (const [name, doc] of Object.entries(documents)) {
    it(`prints what openapiTS prints: ${name}`, async () => {
      const ours = await typesAst(structuredClone(doc), true).then(
        (ast) => astToString(ast),
        (err: unknown) => `failed: ${(err as Error).message}`,
      );
      const theirs = await openapiTS(structuredClone(doc) as never, { silent: true, emptyObjectsUnknown: true }).then(
        (ast) => astToString(ast),
        (err: unknown) => `failed: ${(err as Error).message}`,
      );
      expect(ours).toBe(theirs);
    });
  }
});

describe("the discriminator scan is skipped only where it finds nothing", () => {
  const { scanDiscriminators } = createRequire(import.meta.url)("openapi-typescript/dist/lib/utils.cjs") as {
    scanDiscriminators: (doc: unknown, options: object) => { objects: Obj; refsHandled: string[] };
  };
  const given: [string, unknown, boolean][] = [
    ["a discriminator with a property name", { a: { discriminator: { propertyName: "kind" } } }, true],
    ["one inside an array", { a: [{ b: { discriminator: { propertyName: "kind" } } }] }, true],
    ["a discriminator without one", { a: { discriminator: { mapping: {} } } }, false],
    ["a property named discriminator", { properties: { discriminator: { type: "string" } } }, false],
    ["a string discriminator", { discriminator: "kind" }, false],
    ["an allOf of references", { allOf: [{ $ref: "#/components/schemas/A" }, { type: "object" }] }, false],
    ["an allOf with a boolean item", { allOf: [true] }, true],
    ["an allOf with a null item", { allOf: [null] }, true],
    ["an allOf reference naming an object's member", { allOf: [{ $ref: "constructor" }] }, true],
    ["no schemas at all", { openapi: "3.1.0" }, false],
  ];
  for (const [name, doc, want] of given) {
    it(`${name}: ${want ? "scans" : "skips"}`, () => {
      expect(hasDiscriminatorWork(doc)).toBe(want);
    });
  }

  it("finds nothing to do exactly where openapi-typescript's scan records and changes nothing (the repository's specs, GitHub's)", async () => {
    const { loadSpec } = await import("../../generators/dist/index.js");
    const specs = ["spec/core.yaml", "spec/ads-audiences.yaml", "spec/ads-campaigns.yaml", "test/fixtures/v30.json", "node_modules/@octokit/openapi/generated/api.github.com.json"];
    const seen: boolean[] = [];
    for (const spec of specs) {
      const doc = spec.endsWith(".json") ? (JSON.parse(readFileSync(spec, "utf8")) as Obj) : ((await loadSpec(spec)).document as Obj);
      const before = JSON.stringify(doc);
      const found = scanDiscriminators(doc, { silent: true });
      const work = hasDiscriminatorWork(JSON.parse(before));
      seen.push(work);
      if (!work) {
        expect(found).toEqual({ objects: {}, refsHandled: [] });
        expect(JSON.stringify(doc)).toBe(before);
      } else expect(Object.keys(found.objects).length + found.refsHandled.length).toBeGreaterThan(0);
    }
    // Both answers occur among them, so both branches above ran.
    expect(new Set(seen).size).toBe(2);
  });
});
