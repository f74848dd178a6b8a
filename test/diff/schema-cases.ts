/**
 * Schema edits, each read three ways: as the request body (what clients send), as the response body
 * (what clients receive) and as a component schema no operation uses (either, so the graver).
 */
type Severity = "breaking" | "non-breaking" | "documentation";

export interface SchemaCase {
  /** The edit, as a sentence. */
  readonly edit: string;
  readonly old: unknown;
  readonly new: unknown;
  /** Kind without its `request-`/`response-`/`schema-` prefix. */
  readonly change: string;
  /** Pointer of the changed keyword relative to the schema. */
  readonly at: string;
  readonly request: Severity;
  readonly response: Severity;
  readonly unused: Severity;
}

const str = { type: "string" };
const obj = (properties: Record<string, unknown>, required: string[] = []): Record<string, unknown> => ({
  type: "object",
  properties,
  ...(required.length > 0 ? { required } : {}),
});

export const SCHEMA_CASES: readonly SchemaCase[] = [
  { edit: "a type is dropped from a type list", old: { type: ["string", "integer"] }, new: str, change: "type-narrowed", at: "/type", request: "breaking", response: "non-breaking", unused: "breaking" },
  { edit: "integer becomes number", old: { type: "integer" }, new: { type: "number" }, change: "type-widened", at: "/type", request: "non-breaking", response: "breaking", unused: "breaking" },
  { edit: "string becomes integer", old: str, new: { type: "integer" }, change: "type-changed", at: "/type", request: "breaking", response: "breaking", unused: "breaking" },
  { edit: "null is added to the type list", old: str, new: { type: ["string", "null"] }, change: "nullable-added", at: "/type", request: "non-breaking", response: "breaking", unused: "breaking" },
  { edit: "null is dropped from the type list", old: { type: ["string", "null"] }, new: str, change: "nullable-removed", at: "/type", request: "breaking", response: "non-breaking", unused: "breaking" },
  { edit: "maxLength is lowered", old: { type: "string", maxLength: 50 }, new: { type: "string", maxLength: 20 }, change: "bound-tightened", at: "/maxLength", request: "breaking", response: "non-breaking", unused: "breaking" },
  { edit: "maxLength is added", old: str, new: { type: "string", maxLength: 20 }, change: "bound-tightened", at: "/maxLength", request: "breaking", response: "non-breaking", unused: "breaking" },
  { edit: "maximum is lowered", old: { type: "integer", maximum: 100 }, new: { type: "integer", maximum: 10 }, change: "bound-tightened", at: "/maximum", request: "breaking", response: "non-breaking", unused: "breaking" },
  { edit: "minLength is raised", old: { type: "string", minLength: 1 }, new: { type: "string", minLength: 3 }, change: "bound-tightened", at: "/minLength", request: "breaking", response: "non-breaking", unused: "breaking" },
  { edit: "minimum is raised", old: { type: "integer", minimum: 0 }, new: { type: "integer", minimum: 1 }, change: "bound-tightened", at: "/minimum", request: "breaking", response: "non-breaking", unused: "breaking" },
  { edit: "maxItems is lowered", old: { type: "array", items: str, maxItems: 10 }, new: { type: "array", items: str, maxItems: 5 }, change: "bound-tightened", at: "/maxItems", request: "breaking", response: "non-breaking", unused: "breaking" },
  { edit: "exclusiveMaximum becomes true (OpenAPI 3.0 flag)", old: { type: "integer", maximum: 9 }, new: { type: "integer", maximum: 9, exclusiveMaximum: true }, change: "bound-tightened", at: "/exclusiveMaximum", request: "breaking", response: "non-breaking", unused: "breaking" },
  { edit: "uniqueItems is added", old: { type: "array", items: str }, new: { type: "array", items: str, uniqueItems: true }, change: "bound-tightened", at: "/uniqueItems", request: "breaking", response: "non-breaking", unused: "breaking" },
  { edit: "multipleOf 2 becomes 4", old: { type: "integer", multipleOf: 2 }, new: { type: "integer", multipleOf: 4 }, change: "bound-tightened", at: "/multipleOf", request: "breaking", response: "non-breaking", unused: "breaking" },
  { edit: "maxLength is raised", old: { type: "string", maxLength: 20 }, new: { type: "string", maxLength: 50 }, change: "bound-relaxed", at: "/maxLength", request: "non-breaking", response: "breaking", unused: "breaking" },
  { edit: "minimum is removed", old: { type: "integer", minimum: 1 }, new: { type: "integer" }, change: "bound-relaxed", at: "/minimum", request: "non-breaking", response: "breaking", unused: "breaking" },
  { edit: "a pattern is added", old: str, new: { type: "string", pattern: "^[a-z]+$" }, change: "pattern-added", at: "/pattern", request: "breaking", response: "non-breaking", unused: "breaking" },
  { edit: "the pattern changes", old: { type: "string", pattern: "^[a-z]+$" }, new: { type: "string", pattern: "^[a-z0-9]+$" }, change: "pattern-changed", at: "/pattern", request: "breaking", response: "breaking", unused: "breaking" },
  { edit: "the pattern is removed", old: { type: "string", pattern: "^[a-z]+$" }, new: str, change: "pattern-removed", at: "/pattern", request: "non-breaking", response: "breaking", unused: "breaking" },
  { edit: "a format is added", old: str, new: { type: "string", format: "date" }, change: "format-added", at: "/format", request: "breaking", response: "non-breaking", unused: "breaking" },
  { edit: "the format changes", old: { type: "string", format: "date" }, new: { type: "string", format: "date-time" }, change: "format-changed", at: "/format", request: "breaking", response: "breaking", unused: "breaking" },
  { edit: "the format is removed", old: { type: "string", format: "date" }, new: str, change: "format-removed", at: "/format", request: "non-breaking", response: "breaking", unused: "breaking" },
  { edit: "an enum is added to a free value", old: str, new: { type: "string", enum: ["a", "b"] }, change: "enum-added", at: "/enum", request: "breaking", response: "non-breaking", unused: "breaking" },
  { edit: "the enum is removed", old: { type: "string", enum: ["a", "b"] }, new: str, change: "enum-removed", at: "/enum", request: "non-breaking", response: "breaking", unused: "breaking" },
  { edit: "an enum value is added", old: { type: "string", enum: ["a"] }, new: { type: "string", enum: ["a", "b"] }, change: "enum-value-added", at: "/enum", request: "non-breaking", response: "breaking", unused: "breaking" },
  { edit: "an enum value is removed", old: { type: "string", enum: ["a", "b"] }, new: { type: "string", enum: ["a"] }, change: "enum-value-removed", at: "/enum", request: "breaking", response: "non-breaking", unused: "breaking" },
  { edit: "const becomes an enum (const is a one-value enum)", old: { const: "v1" }, new: { enum: ["v1", "v2"] }, change: "enum-value-added", at: "/enum", request: "non-breaking", response: "breaking", unused: "breaking" },
  { edit: "an optional property is added", old: obj({ a: str }), new: obj({ a: str, b: str }), change: "property-added", at: "/properties/b", request: "non-breaking", response: "non-breaking", unused: "non-breaking" },
  { edit: "a required property is added", old: obj({ a: str }), new: obj({ a: str, b: str }, ["b"]), change: "required-property-added", at: "/properties/b", request: "breaking", response: "non-breaking", unused: "breaking" },
  { edit: "a property is removed", old: obj({ a: str, b: str }), new: obj({ a: str }), change: "property-removed", at: "/properties/b", request: "breaking", response: "breaking", unused: "breaking" },
  { edit: "a property becomes required", old: obj({ a: str }), new: obj({ a: str }, ["a"]), change: "property-became-required", at: "/properties/a", request: "breaking", response: "non-breaking", unused: "breaking" },
  { edit: "a property becomes optional", old: obj({ a: str }, ["a"]), new: obj({ a: str }), change: "property-became-optional", at: "/properties/a", request: "non-breaking", response: "breaking", unused: "breaking" },
  { edit: "a nested property's maxLength is lowered", old: obj({ a: obj({ b: { type: "string", maxLength: 9 } }) }), new: obj({ a: obj({ b: { type: "string", maxLength: 5 } }) }), change: "bound-tightened", at: "/properties/a/properties/b/maxLength", request: "breaking", response: "non-breaking", unused: "breaking" },
  { edit: "an array item property's type is widened", old: { type: "array", items: obj({ n: { type: "integer" } }) }, new: { type: "array", items: obj({ n: { type: ["integer", "string"] } }) }, change: "type-widened", at: "/items/properties/n/type", request: "non-breaking", response: "breaking", unused: "breaking" },
  { edit: "additional properties are forbidden", old: obj({ a: str }), new: { ...obj({ a: str }), additionalProperties: false }, change: "additional-properties-restricted", at: "/additionalProperties", request: "breaking", response: "non-breaking", unused: "breaking" },
  { edit: "additional properties are allowed again", old: { ...obj({ a: str }), additionalProperties: false }, new: { ...obj({ a: str }), additionalProperties: true }, change: "additional-properties-allowed", at: "/additionalProperties", request: "non-breaking", response: "non-breaking", unused: "non-breaking" },
  { edit: "a oneOf variant is added", old: { oneOf: [str, { type: "integer" }] }, new: { oneOf: [str, { type: "integer" }, { type: "boolean" }] }, change: "variant-added", at: "/oneOf/2", request: "non-breaking", response: "breaking", unused: "breaking" },
  { edit: "an anyOf variant is removed", old: { anyOf: [str, { type: "integer" }, { type: "boolean" }] }, new: { anyOf: [{ type: "boolean" }, str] }, change: "variant-removed", at: "/anyOf/1", request: "breaking", response: "non-breaking", unused: "breaking" },
  { edit: "the discriminator property changes", old: { ...obj({ kind: str, type: str }), discriminator: { propertyName: "kind" } }, new: { ...obj({ kind: str, type: str }), discriminator: { propertyName: "type" } }, change: "discriminator-changed", at: "/discriminator", request: "breaking", response: "breaking", unused: "breaking" },
  { edit: "the default changes", old: { type: "integer", default: 10 }, new: { type: "integer", default: 20 }, change: "default-changed", at: "/default", request: "breaking", response: "documentation", unused: "breaking" },
  { edit: "a `not` constraint changes", old: { type: "string", not: { enum: ["x"] } }, new: { type: "string", not: { enum: ["y"] } }, change: "constraint-changed", at: "/not", request: "breaking", response: "breaking", unused: "breaking" },
];

/** Ways of saying "or null" that must all read as the same nullable-added change. */
export const NULLABLE_SPELLINGS: readonly { readonly spelling: string; readonly openapi: "3.0.3" | "3.1.0"; readonly old: unknown; readonly new: unknown; readonly at: string }[] = [
  { spelling: "type list with null (3.1)", openapi: "3.1.0", old: str, new: { type: ["string", "null"] }, at: "/type" },
  { spelling: "nullable: true (3.0)", openapi: "3.0.3", old: str, new: { type: "string", nullable: true }, at: "/type" },
  { spelling: "anyOf with a null variant", openapi: "3.1.0", old: { anyOf: [{ type: "object" }] }, new: { anyOf: [{ type: "object" }, { type: "null" }] }, at: "/anyOf" },
];
