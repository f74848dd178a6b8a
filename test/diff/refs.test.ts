import { describe, expect, it } from "vitest";
import { diffSpecs, summarizeChanges } from "../../generators/src/diff/index.js";
import { api, fixture, json, op, shape } from "./helpers.js";

describe("schemas are compared through $ref, so moving one is not removing it", () => {
  it("the same schemas moved into another file under the same names: no change", async () => {
    const result = diffSpecs(await fixture("moved-to-file/old.yaml"), await fixture("moved-to-file/new.yaml"));
    expect(result.changes).toEqual([]);
    expect(result.bump).toBe("none");
  });

  it("schemas moved into another file under new names: two renames, documentation only", async () => {
    const result = diffSpecs(await fixture("renamed-to-file/old.yaml"), await fixture("renamed-to-file/new.yaml"));
    expect(result.changes.map(shape)).toEqual([
      { kind: "schema-renamed", severity: "documentation", pointer: "#/components/schemas/Gadget" },
      { kind: "schema-renamed", severity: "documentation", pointer: "#/components/schemas/GadgetPart" },
    ]);
    expect(result.changes.map((c) => c.message)).toEqual(["schema Widget renamed to Gadget", "schema Part renamed to GadgetPart"]);
    expect(result.bump).toBe("patch");
  });

  it("a component renamed in the same file, its recursive part unchanged: documentation only", async () => {
    const result = diffSpecs(await fixture("renamed-component/old.yaml"), await fixture("renamed-component/new.yaml"));
    expect(result.changes.map((c) => [c.kind, c.severity, c.message])).toEqual([["schema-renamed", "documentation", "schema Widget renamed to Gadget"]]);
    expect(result.bump).toBe("patch");
  });

  it("an inline schema moved to a component: only the new component is reported", () => {
    const schema = { type: "object", required: ["id"], properties: { id: { type: "string" } } };
    const inline = api({ "/a": { get: op("getA", { responses: { "200": { description: "ok", content: json(schema) } } }) } });
    const viaRef = api({ "/a": { get: op("getA", { responses: { "200": { description: "ok", content: json({ $ref: "#/components/schemas/A" }) } } }) } }, { components: { schemas: { A: schema } } });
    expect(diffSpecs(inline, viaRef).changes.map((c) => c.kind)).toEqual(["schema-added"]);
  });

  it("a change inside a schema held in another file is reported once per direction, at the component", async () => {
    const result = diffSpecs(await fixture("enum-value-removed-in-file/old/openapi.yaml"), await fixture("enum-value-removed-in-file/new/openapi.yaml"));
    expect(result.changes.map((c) => ({ ...shape(c), operation: c.operation }))).toEqual([
      // replaceWidget sends Part: fewer accepted values breaks its callers.
      { kind: "request-enum-value-removed", severity: "breaking", pointer: "#/components/schemas/Part/properties/kind/enum", operation: "replaceWidget" },
      // getWidget returns Part: answering with fewer values is safe.
      { kind: "response-enum-value-removed", severity: "non-breaking", pointer: "#/components/schemas/Part/properties/kind/enum", operation: "getWidget" },
    ]);
    expect(summarizeChanges(result).changed).toEqual(["Part", "getWidget", "replaceWidget"]);
  });
});

describe("a shared schema", () => {
  const twoReaders = (thing: Record<string, unknown>) =>
    api(
      {
        "/a": { get: op("getA", { responses: { "200": { description: "ok", content: json({ $ref: "#/components/schemas/Thing" }) } } }) },
        "/b": {
          get: op("getB", { responses: { "200": { description: "ok", content: json({ type: "array", items: { $ref: "#/components/schemas/Thing" } }) } } }),
        },
      },
      { components: { schemas: { Thing: thing } } },
    );

  it("changed: reported under every operation that uses it, at the component", () => {
    const result = diffSpecs(twoReaders({ type: "object", properties: { id: {}, name: {} } }), twoReaders({ type: "object", properties: { id: {} } }));
    expect(result.changes.map((c) => [c.operation, c.kind, c.pointer])).toEqual([
      ["getA", "response-property-removed", "#/components/schemas/Thing/properties/name"],
      ["getB", "response-property-removed", "#/components/schemas/Thing/properties/name"],
    ]);
  });
});

describe("reference cycles end", () => {
  const tree = (leaf: Record<string, unknown>) =>
    api(
      { "/nodes": { get: op("getNodes", { responses: { "200": { description: "ok", content: json({ $ref: "#/components/schemas/Node" }) } } }) } },
      {
        components: {
          schemas: {
            Node: {
              type: "object",
              properties: {
                value: leaf,
                next: { $ref: "#/components/schemas/Node" },
                children: { type: "array", items: { $ref: "#/components/schemas/Node" } },
              },
            },
          },
        },
      },
    );

  it("a self-referencing schema against itself: no change", () => {
    expect(diffSpecs(tree({ type: "string" }), tree({ type: "string" })).changes).toEqual([]);
  });

  it("a change inside it is reported once", () => {
    const result = diffSpecs(tree({ type: "string" }), tree({ type: "integer" }));
    expect(result.changes.map(shape)).toEqual([{ kind: "response-type-changed", severity: "breaking", pointer: "#/components/schemas/Node/properties/value/type" }]);
  });

  it("mutually recursive schemas renamed on both sides: renames only", () => {
    const pair = (a: string, b: string) =>
      api(
        { "/x": { get: op("getX", { responses: { "200": { description: "ok", content: json({ $ref: `#/components/schemas/${a}` }) } } }) } },
        {
          components: {
            schemas: {
              [a]: { type: "object", properties: { other: { $ref: `#/components/schemas/${b}` } } },
              [b]: { type: "object", properties: { back: { $ref: `#/components/schemas/${a}` }, n: { type: "integer" } } },
            },
          },
        },
      );
    expect(diffSpecs(pair("Ping", "Pong"), pair("Tick", "Tock")).changes.map((c) => c.message)).toEqual(["schema Ping renamed to Tick", "schema Pong renamed to Tock"]);
  });

  it("a bare $ref loop does not hang", () => {
    const loop = api({}, { components: { schemas: { A: { $ref: "#/components/schemas/B" }, B: { $ref: "#/components/schemas/A" } } } });
    expect(diffSpecs(loop, loop).changes).toEqual([]);
  });
});
