import { describe, expect, it } from "vitest";
import { diffSpecs } from "../../generators/src/diff/index.js";
import { api, REQUEST_SCHEMA, RESPONSE_SCHEMA, shape, things } from "./helpers.js";
import { NULLABLE_SPELLINGS, SCHEMA_CASES } from "./schema-cases.js";

const bumpFor = { breaking: "major", "non-breaking": "minor", documentation: "patch" } as const;
const PLAIN = { type: "object" };

describe("a schema edit in the request body is judged by what clients may send", () => {
  for (const c of SCHEMA_CASES)
    it(`${c.edit} → request-${c.change} (${c.request})`, () => {
      const result = diffSpecs(things(c.old, PLAIN), things(c.new, PLAIN));
      expect(result.changes.map(shape)).toEqual([{ kind: `request-${c.change}`, severity: c.request, pointer: `${REQUEST_SCHEMA}${c.at}` }]);
      expect(result.bump).toBe(bumpFor[c.request]);
    });
});

describe("a schema edit in the response body is judged by what clients may receive", () => {
  for (const c of SCHEMA_CASES)
    it(`${c.edit} → response-${c.change} (${c.response})`, () => {
      const result = diffSpecs(things(PLAIN, c.old), things(PLAIN, c.new));
      expect(result.changes.map(shape)).toEqual([{ kind: `response-${c.change}`, severity: c.response, pointer: `${RESPONSE_SCHEMA}${c.at}` }]);
      expect(result.bump).toBe(bumpFor[c.response]);
    });
});

describe("a schema edit in a component no operation uses takes the graver reading", () => {
  const unused = (schema: unknown) => api({}, { components: { schemas: { Thing: schema } } });
  for (const c of SCHEMA_CASES)
    it(`${c.edit} → schema-${c.change} (${c.unused})`, () => {
      const result = diffSpecs(unused(c.old), unused(c.new));
      expect(result.changes.map(shape)).toEqual([{ kind: `schema-${c.change}`, severity: c.unused, pointer: `#/components/schemas/Thing${c.at}` }]);
      expect(result.changes[0]?.operation).toBeUndefined();
      expect(result.bump).toBe(bumpFor[c.unused]);
    });
});

describe("every way of saying 'or null' in a response is the same breaking widening", () => {
  for (const c of NULLABLE_SPELLINGS)
    it(c.spelling, () => {
      const doc = (schema: unknown) => ({ ...things(PLAIN, { type: "object", properties: { note: schema } }), openapi: c.openapi });
      const result = diffSpecs(doc(c.old), doc(c.new));
      expect(result.changes.map(shape)).toEqual([{ kind: "response-nullable-added", severity: "breaking", pointer: `${RESPONSE_SCHEMA}/properties/note${c.at}` }]);
      expect(result.bump).toBe("major");
    });
});

describe("schemas compared by meaning, not by spelling", () => {
  const spellings = [
    {
      spelling: "properties split into allOf parts",
      old: { type: "object", required: ["a"], properties: { a: { type: "string" }, b: { type: "integer" } } },
      new: { allOf: [{ type: "object", required: ["a"], properties: { a: { type: "string" } } }, { properties: { b: { type: "integer" } } }] },
    },
    {
      spelling: "required listed in another order",
      old: { type: "object", required: ["a", "b"], properties: { a: {}, b: {} } },
      new: { type: "object", required: ["b", "a"], properties: { b: {}, a: {} } },
    },
    { spelling: "enum values in another order", old: { enum: ["x", "y"] }, new: { enum: ["y", "x"] } },
    {
      spelling: "oneOf variants in another order",
      old: { oneOf: [{ type: "string" }, { type: "integer" }] },
      new: { oneOf: [{ type: "integer" }, { type: "string" }] },
    },
  ];
  for (const c of spellings) {
    it(`${c.spelling}: no change`, () => {
      expect(diffSpecs(things(c.old, c.old), things(c.new, c.new)).changes).toEqual([]);
    });
  }

  it("a readOnly property removed does not concern requests, only responses", () => {
    const old = { type: "object", properties: { id: { type: "string", readOnly: true }, name: { type: "string" } } };
    const next = { type: "object", properties: { name: { type: "string" } } };
    expect(diffSpecs(things(old, old), things(next, next)).changes.map((c) => c.kind)).toEqual(["response-property-removed"]);
  });

  it("a writeOnly property removed does not concern responses, only requests", () => {
    const old = { type: "object", properties: { password: { type: "string", writeOnly: true }, name: { type: "string" } } };
    const next = { type: "object", properties: { name: { type: "string" } } };
    expect(diffSpecs(things(old, old), things(next, next)).changes.map((c) => c.kind)).toEqual(["request-property-removed"]);
  });
});
