/**
 * JSON Schema vocabulary the loader and the emitters read alike, so a keyword added to one list is
 * added to every walk over schemas.
 */

/** Keywords whose value maps member names to schemas: the next pointer segment is a name, not a keyword. */
export const SCHEMA_MAPS: ReadonlySet<string> = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
