import { createRequire } from "node:module";
import type { ErrorObject, ValidateFunction } from "ajv";
import { PRECOMPILED, VALIDATORS, newAjv, schemaOf, structureKey, type ValidatorName } from "./structure-schemas.js";

const require = createRequire(import.meta.url);

const compiled = new Map<ValidatorName, ValidateFunction>();

/**
 * A structure validator: the build's standalone code when it was built from the same schemas and
 * versions (structureKey), else compiled here once per process.
 */
function validator(name: ValidatorName, precompiled = true): ValidateFunction {
  const known = compiled.get(name);
  if (known && precompiled) return known;
  const dialect = VALIDATORS[name];
  let fn: ValidateFunction | undefined;
  if (precompiled) {
    try {
      const mod = require(`./${PRECOMPILED[dialect]}`) as Record<string, unknown>;
      if (mod["key"] === structureKey()) fn = mod[name] as ValidateFunction;
    } catch {
      // Not built (tsc alone): compile below.
    }
  }
  if (!fn) {
    const ajv = newAjv(dialect);
    const { schema, id } = schemaOf(name);
    if (schema) ajv.addSchema(schema);
    fn = ajv.getSchema(id) as ValidateFunction;
  }
  if (precompiled) compiled.set(name, fn);
  return fn;
}

/** Options for tests. */
export interface StructureOptions {
  /** Use the build's standalone validators when they match. @default true */
  readonly precompiled?: boolean;
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
export function validateStructure(doc: unknown, version: "3.0" | "3.1", options: StructureOptions = {}): StructureIssue[] {
  const precompiled = options.precompiled ?? true;
  const validate = validator(version === "3.0" ? "v30" : "v31", precompiled);
  const issues: StructureIssue[] = validate(doc) ? [] : mostSpecific(validate.errors ?? []).map((e) => ({ ...describe(e), severity: tolerated(e) ? "warning" : "error" }));
  // The 3.0 schema checks Schema Objects itself; the 3.1 one cannot (see structure-schemas.ts).
  if (version === "3.1") issues.push(...schemaKeywordIssues(doc, validator("meta", precompiled)));
  return issues;
}

/**
 * Keywords whose value the validators' compiler (ajv) must understand: a value of the wrong type
 * (`type: {…}`, `required: true`, `items: [ … ]`) stops compilation. Annotations (`examples`,
 * `default`, …) and the 3.0 leftovers the generators rewrite (`exclusiveMinimum: true`, `nullable`)
 * are not listed.
 */
const COMPILED_KEYWORDS = new Set([
  "type",
  "enum",
  "required",
  "properties",
  "patternProperties",
  "additionalProperties",
  "items",
  "prefixItems",
  "contains",
  "minContains",
  "maxContains",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "dependentRequired",
  "dependentSchemas",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "minimum",
  "maximum",
  "multipleOf",
  "pattern",
  "format",
  "$ref",
  "$defs",
  "definitions",
]);

/** Every Schema Object of a 3.1 document checked against JSON Schema 2020-12, for the keywords above. */
function schemaKeywordIssues(doc: unknown, validate: ValidateFunction): StructureIssue[] {
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
  for (let i = 0; i < segments.length;) {
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
  const deep = errors.filter((e) => !paths.some((p) => p !== e.instancePath && p.startsWith(e.instancePath + "/")));
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
  // `properties: { $ref: … }` (the whole map by reference, which some bundlers expand) reads as a
  // property named `$ref` whose schema is a string.
  if (/\/(?:properties|patternProperties)\/\$ref$/.test(e.instancePath)) {
    return {
      path: e.instancePath,
      message: "`$ref` stands in for the whole properties map here; OpenAPI reads it as a property named '$ref' whose schema is a string",
      fix: "reference a schema with these properties instead (allOf: [{ $ref: … }]), or $ref each property's schema under its own name",
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
      return {
        path: e.instancePath,
        message: `must have at least ${String(params["limit"])} entr${params["limit"] === 1 ? "y" : "ies"}`,
        fix: "add an entry (an operation needs at least one response)",
      };
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
        fix: e.instancePath.startsWith("/paths") && e.instancePath.split("/").length === 2 ? "path keys start with '/'" : `change the value so it matches ${String(params["pattern"])}`,
      };
    default:
      return { path: e.instancePath, message: e.message ?? e.keyword, fix: "correct this value as the OpenAPI specification requires" };
  }
}
