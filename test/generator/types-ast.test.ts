/**
 * The types emitter calls openapi-typescript's transform directly when Redocly's lint and bundle
 * would change nothing it cannot replay (types-ast.ts). Whichever way a document goes, the printed
 * types must be openapiTS's own.
 */
import { describe, expect, it } from "vitest";
import openapiTS, { astToString } from "openapi-typescript";
import { passIsNoOp, typesAst } from "../../generators/src/emit/types-ast.js";

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
};
((documents["a mapping to a nested pointer"] as { components: { schemas: { Pet: { discriminator: { mapping: Obj } } } } }).components.schemas.Pet.discriminator.mapping)["t"] =
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
