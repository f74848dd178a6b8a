/**
 * Reading the plan's request schemas (JSON Schema over the package's mock document) at run time:
 * following `$ref`s into the document, a member or an array's items at a JSON pointer.
 */
import { resolvePointer } from "../shared/schema-match.js";

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => v !== null && typeof v === "object" && !Array.isArray(v);

/** `schema` with its `$ref`s followed (bounded). */
export function deref(root: unknown, schema: unknown): unknown {
  let s = schema;
  for (let i = 0; i < 10 && isRec(s) && typeof s["$ref"] === "string"; i++) s = resolvePointer(root, s["$ref"]);
  return s;
}

/** The schema of a top-level member (through `$ref` and `allOf`), if the schema declares one. */
export function memberSchema(root: unknown, schema: unknown, member: string, depth = 0): unknown {
  const s = deref(root, schema);
  if (!isRec(s) || depth > 8) return undefined;
  if (isRec(s["properties"]) && s["properties"][member] !== undefined) return s["properties"][member];
  for (const part of Array.isArray(s["allOf"]) ? s["allOf"] : []) {
    const found = memberSchema(root, part, member, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The names of the top-level members a schema declares (through `$ref` and `allOf`). */
export function memberNames(root: unknown, schema: unknown, depth = 0): string[] {
  const s = deref(root, schema);
  if (!isRec(s) || depth > 8) return [];
  const own = isRec(s["properties"]) ? Object.keys(s["properties"]) : [];
  const parts = (Array.isArray(s["allOf"]) ? s["allOf"] : []).flatMap((part) => memberNames(root, part, depth + 1));
  return [...new Set([...own, ...parts])];
}

/** The item schema of an array schema. */
export function itemsOf(root: unknown, schema: unknown): unknown {
  const s = deref(root, schema);
  return isRec(s) ? s["items"] : undefined;
}

/** The schema at a JSON pointer into values of `schema` (`/products`, `/0/params`; `""` is the schema itself). */
export function schemaAt(root: unknown, schema: unknown, pointer: string): unknown {
  let s: unknown = schema;
  for (const raw of pointer.split("/").slice(1)) {
    const seg = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    s = /^\d+$/.test(seg) || seg === "*" ? itemsOf(root, s) : memberSchema(root, s, seg);
    if (s === undefined) return undefined;
  }
  return s;
}
