/**
 * A schema as the planners read it: `$ref`s to component schemas followed, and an `allOf`'s parts
 * merged into one object so every property and constraint is seen in one place. Used by the
 * relations inference, the conformance plan and the mock's collections; it never writes to the
 * model's document.
 */
import type { ApiModel, JsonSchema } from "./ir.js";

type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** Resolves a schema (or a `$ref` to a component schema) to an object; `{}` when it leads nowhere. */
export type Resolve = (schema: unknown) => Obj;

function componentName(ref: string): string | undefined {
  const m = /^#\/components\/schemas\/(.+)$/.exec(ref);
  return m
    ? decodeURIComponent(m[1] as string)
        .replace(/~1/g, "/")
        .replace(/~0/g, "~")
    : undefined;
}

export function schemaResolver(model: ApiModel): Resolve {
  const byName = new Map<string, JsonSchema>(model.schemas.map((s) => [s.name, s.schema]));
  const follow = (schema: unknown): unknown => {
    let s: unknown = schema;
    for (let hops = 0; hops < 20 && isObj(s) && typeof s["$ref"] === "string"; hops++) {
      const name = componentName(s["$ref"]);
      s = name === undefined ? undefined : byName.get(name);
    }
    return s;
  };
  return (schema) => {
    const s = follow(schema);
    if (isObj(s) && Array.isArray(s["allOf"])) {
      // Merge allOf parts so negatives and samples see every constraint.
      const merged: Obj = { ...s };
      delete merged["allOf"];
      for (const part of s["allOf"]) {
        const p = follow(part);
        if (!isObj(p)) continue;
        for (const [k, v] of Object.entries(p)) {
          if (k === "properties" && isObj(v)) merged["properties"] = { ...(isObj(merged["properties"]) ? merged["properties"] : {}), ...v };
          else if (k === "required" && Array.isArray(v)) merged["required"] = [...(Array.isArray(merged["required"]) ? merged["required"] : []), ...v];
          else if (merged[k] === undefined) merged[k] = v;
        }
      }
      return merged;
    }
    return isObj(s) ? s : {};
  };
}
