/**
 * After an edit to a few schemas, the types are the last print with those schemas' members printed
 * again (emit/types-splice.ts) only when that gives exactly what printing everything gives; every
 * edit whose effect openapi-typescript carries beyond the edited members is printed whole.
 */
import { describe, expect, it } from "vitest";
import { printTypes, type TypesInput } from "../../generators/dist/emit/types-print.js";
import { splicedTypes, type PrintedTypes } from "../../generators/dist/emit/types-splice.js";

type Obj = Record<string, unknown>;

const BASE: Obj = {
  openapi: "3.1.0",
  info: { title: "t", version: "1.0.0" },
  paths: {
    "/users/{id}": {
      get: {
        operationId: "getUser",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/User" } } } } },
      },
    },
  },
  components: {
    schemas: {
      User: { type: "object", required: ["id"], properties: { id: { type: "string" }, pet: { $ref: "#/components/schemas/Pet" } }, description: "A user." },
      // Reads User's property names: its required `name` is kept only if User has that property.
      Admin: { allOf: [{ $ref: "#/components/schemas/User" }], required: ["name"] },
      Pet: {
        oneOf: [{ $ref: "#/components/schemas/Cat" }, { $ref: "#/components/schemas/Dog" }],
        discriminator: { propertyName: "kind", mapping: { cat: "#/components/schemas/Cat", dog: "#/components/schemas/Dog" } },
      },
      Cat: { type: "object", required: ["kind"], properties: { kind: { type: "string" }, lives: { type: "integer" } } },
      Dog: { type: "object", required: ["kind"], properties: { kind: { type: "string" } } },
      Note: { type: "object", properties: { text: { type: "string", maxLength: 10 } } },
      Tree: { type: "array", items: { $ref: "#/components/schemas/Tree" } },
      "weird name/é": { type: "object", properties: { a: { type: "boolean" } } },
    },
  },
};

const input = (document: Obj): TypesInput => ({
  document,
  owned: false,
  deliveries: [],
  typeNames: Object.keys((document["components"] as Obj)["schemas"] as Obj).map((n) => [n, n.replace(/\W/g, "")] as const),
});
const rest = (document: Obj): string => JSON.stringify([[], input(document).typeNames]);

function edited(change: (schemas: Record<string, Obj>) => void): Obj {
  const doc = structuredClone(BASE);
  change((doc["components"] as Obj)["schemas"] as Record<string, Obj>);
  return doc;
}

async function both(doc: Obj): Promise<{ spliced: string | undefined; whole: string }> {
  const last: PrintedTypes = { document: BASE, rest: rest(BASE), body: await printTypes(input(BASE)) };
  const spliced = await splicedTypes(last, doc, rest(doc), (partial) => printTypes({ ...input(doc), document: partial }));
  return { spliced, whole: await printTypes(input(doc)) };
}

describe("types after an edit to a few schemas", () => {
  it.each([
    { given: "a property added to an object schema", change: (s: Record<string, Obj>) => ((s["Note"]!["properties"] as Obj)["more"] = { type: "integer", description: "*/ `x` \u2028" }) },
    { given: "two object schemas edited at once", change: (s: Record<string, Obj>) => ((s["Note"]!["required"] = ["text"]), ((s["User"]!["properties"] as Obj)["age"] = { type: "integer" })) },
    { given: "a property that an allOf referrer does not require", change: (s: Record<string, Obj>) => ((s["User"]!["properties"] as Obj)["nick"] = { type: "string" }) },
    { given: "a schema whose name needs quoting", change: (s: Record<string, Obj>) => ((s["weird name/é"]!["properties"] as Obj)["b"] = { type: "string" }) },
    { given: "a description only", change: (s: Record<string, Obj>) => (s["User"]!["description"] = "A user of the API.") },
  ])("reprints just the edited members for $given, as printing everything does", async ({ change }) => {
    const { spliced, whole } = await both(edited(change));
    expect(spliced).toBeDefined();
    expect(spliced).toBe(whole);
  });

  it.each([
    { given: "the property an allOf referrer requires", change: (s: Record<string, Obj>) => ((s["User"]!["properties"] as Obj)["name"] = { type: "string" }) },
    { given: "a discriminator's mapping target", change: (s: Record<string, Obj>) => ((s["Cat"]!["properties"] as Obj)["claws"] = { type: "boolean" }) },
    { given: "the discriminated union itself", change: (s: Record<string, Obj>) => (s["Pet"]!["description"] = "a pet") },
    { given: "a recursive array schema", change: (s: Record<string, Obj>) => (s["Tree"]!["maxItems"] = 3) },
    { given: "a key named like a prototype member", change: (s: Record<string, Obj>) => ((s["Note"]!["properties"] as Obj)["constructor"] = { type: "string" }) },
    { given: "a schema that becomes a union", change: (s: Record<string, Obj>) => (s["Note"] = { oneOf: [{ $ref: "#/components/schemas/User" }, { type: "string" }] }) },
    { given: "a schema added", change: (s: Record<string, Obj>) => (s["Extra"] = { type: "object" }) },
    { given: "a reference into another schema's members", change: (s: Record<string, Obj>) => ((s["Note"]!["properties"] as Obj)["id"] = { $ref: "#/components/schemas/User/properties/id" }) },
  ])("prints everything for $given", async ({ change }) => {
    const { spliced, whole } = await both(edited(change));
    expect(spliced).toBeUndefined();
    expect(whole).not.toBe("");
  });

  it("prints everything when anything but component schemas changed", async () => {
    const doc = edited(() => undefined);
    (doc["info"] as Obj)["title"] = "t2";
    expect((await both(doc)).spliced).toBeUndefined();
    const same = await both(structuredClone(BASE));
    // Nothing changed at all: the last print as it was.
    expect(same.spliced).toBe(same.whole);
  });
});
