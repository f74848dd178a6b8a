/**
 * Reprinting only what changed in the types. After an edit to a few component schemas, printing the
 * whole contract's types again (GitHub's: two seconds on a worker thread) gives back the same text
 * but for those schemas' members of `components["schemas"]`. When the edit is one whose effect
 * openapi-typescript keeps inside the edited members, the members are printed alone and put in
 * place of the old ones in the last run's text.
 *
 * Conservative by construction: anything openapi-typescript reads across schemas (discriminators,
 * `allOf` resolution, recursion the cycle breaker rewrites, prototype-named keys) around an edited
 * schema means no splice, and the whole text is printed as before. Whatever cannot be parsed back
 * (a member name the printer wrote in an unexpected form) means no splice either.
 */
import { encodePrototypeKeys } from "./prototype-keys.js";
import { sameJson } from "../diff/unchanged.js";
import { isObj } from "../diff/view.js";
import { toPointer } from "../load/errors.js";

type Obj = Record<string, unknown>;

/** What the last print of a contract's types read and gave. */
export interface PrintedTypes {
  /** The document printed (the model's, never changed after). */
  readonly document: Obj;
  /** The rest of the print's input, as JSON (deliveries, type names): a difference means no splice. */
  readonly rest: string;
  readonly body: string;
}

/**
 * At most this many edited schemas are spliced; more are printed with the rest.
 * @default 16
 */
export const SPLICE_AT_MOST = 16;

/**
 * The component schemas that differ between two documents, when nothing else does (same members
 * everywhere else, same schema names in the same order); undefined otherwise.
 */
export function changedSchemasOnly(before: Obj, after: Obj): string[] | undefined {
  const keys = Object.keys(after);
  if (!sameJson(Object.keys(before), keys)) return undefined;
  for (const key of keys) {
    if (key === "components") continue;
    if (!sameJson(before[key], after[key])) return undefined;
  }
  const ca = before["components"];
  const cb = after["components"];
  if (!isObj(ca) || !isObj(cb) || !sameJson(Object.keys(ca), Object.keys(cb))) return undefined;
  for (const key of Object.keys(cb)) if (key !== "schemas" && !sameJson(ca[key], cb[key])) return undefined;
  const sa = ca["schemas"];
  const sb = cb["schemas"];
  if (!isObj(sa) || !isObj(sb) || !sameJson(Object.keys(sa), Object.keys(sb))) return undefined;
  return Object.keys(sb).filter((name) => !sameJson(sa[name], sb[name]));
}

/** Top-level keywords of a schema whose type is one object literal (no union, array, reference). */
const OBJECT_KEYWORDS = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "description",
  "title",
  "example",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "default",
  "externalDocs",
  "minProperties",
  "maxProperties",
  "format",
]);

/** Keywords anywhere inside that make openapi-typescript read other schemas (discriminators, `allOf` targets) or compose. */
const CROSS_SCHEMA = new Set(["discriminator", "allOf", "$defs", "definitions", "$dynamicRef", "$recursiveRef"]);

const WHOLE_SCHEMA_REF = /^#\/components\/schemas\/[^/]+$/;

/**
 * Whether a schema's member is printed the same alone as among all the others: an object literal
 * at its top (so no recursion the cycle breaker would rewrite passes through it), nothing inside
 * that openapi-typescript resolves across schemas, and no prototype-named key.
 */
export function printsAlone(schema: unknown): boolean {
  if (!isObj(schema) || schema["type"] !== "object") return false;
  for (const key of Object.keys(schema)) if (!OBJECT_KEYWORDS.has(key) && !key.startsWith("x-")) return false;
  if (encodePrototypeKeys(schema).changed) return false;
  const inside = (node: unknown): boolean => {
    if (Array.isArray(node)) return node.every(inside);
    if (!isObj(node)) return true;
    for (const [key, value] of Object.entries(node)) {
      if (CROSS_SCHEMA.has(key)) return false;
      // The partial print holds the other schemas empty: a reference must name a whole schema.
      if (key === "$ref" && (typeof value !== "string" || !WHOLE_SCHEMA_REF.test(value))) return false;
      // A union's branches are looked up among the discriminators by reference.
      if ((key === "oneOf" || key === "anyOf") && Array.isArray(value) && value.some((b) => isObj(b) && "$ref" in b)) return false;
      if (!inside(value)) return false;
    }
    return true;
  };
  return inside(schema);
}

/** Where openapi-typescript reads other schemas' contents (readAcross). */
export interface ReadAcross {
  /** Strings inside discriminator objects (their mappings' references or names, their branches' `$ref`s). */
  readonly discriminated: ReadonlySet<string>;
  /**
   * `allOf` items by reference: the `required` names of each object holding one. openapi-typescript
   * resolves such an item and keeps those of the names its target has among its properties.
   */
  readonly allOf: ReadonlyMap<string, readonly (readonly string[])[]>;
}

/**
 * Where openapi-typescript reads a referenced schema's contents: a discriminator's object (its
 * target is printed with an enum the discriminator adds) and an `allOf` item (its target's
 * property names decide the referrer's required members).
 */
export function readAcross(document: Obj): ReadAcross {
  const discriminated = new Set<string>();
  const allOf = new Map<string, string[][]>();
  // Every string there: `$ref`s, and mapping values (references, or plain schema names).
  const strings = (node: unknown): void => {
    if (typeof node === "string") for (const spelling of spellings(node)) discriminated.add(spelling);
    else if (Array.isArray(node)) node.forEach(strings);
    else if (isObj(node)) Object.values(node).forEach(strings);
  };
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (isObj(node)) {
      if (node["discriminator"] !== undefined) strings(node);
      const items = node["allOf"];
      if (Array.isArray(items)) {
        const required = Array.isArray(node["required"]) ? node["required"].filter((r): r is string => typeof r === "string") : [];
        for (const item of items) {
          if (!isObj(item) || typeof item["$ref"] !== "string") continue;
          for (const ref of spellings(item["$ref"])) {
            const list = allOf.get(ref);
            if (list) list.push(required);
            else allOf.set(ref, [required]);
          }
        }
      }
      for (const value of Object.values(node)) walk(value);
    }
  };
  walk(document);
  return { discriminated, allOf };
}

/** A reference (or a name) as written and %-decoded; as written alone when it is no valid %-encoding. */
function spellings(text: string): string[] {
  try {
    const decoded = decodeURIComponent(text);
    return decoded === text ? [text] : [text, decoded];
  } catch {
    return [text];
  }
}

/**
 * Whether an edit of schema `name` from `before` to `after` changes what is read of it from
 * elsewhere: anything, when a discriminator names it; for `allOf` referrers, which of their
 * required names it has as properties.
 */
function readsDiffer(across: ReadAcross, name: string, before: Obj, after: Obj): boolean {
  const ref = toPointer(["components", "schemas", name]);
  if (across.discriminated.has(name) || across.discriminated.has(ref)) return true;
  const referrers = across.allOf.get(ref);
  if (referrers === undefined) return false;
  const props = (s: Obj): Obj | undefined => (isObj(s["properties"]) ? s["properties"] : undefined);
  const pb = props(before);
  const pa = props(after);
  if ("properties" in before !== "properties" in after) return true;
  const has = (p: Obj | undefined, k: string): boolean => p !== undefined && p[k] !== undefined && p[k] !== null && p[k] !== false;
  return referrers.some((required) => required.some((k) => has(pb, k) !== has(pa, k)));
}

const MEMBER_KEY = /^(?:"((?:[^"\\]|\\.)*)"|([A-Za-z_$][\w$]*))\??: /;

/**
 * Where each member of `components["schemas"]` is in printed types: its name, and the offsets of
 * its first line (its doc comment's, if any) and of the line after its last. Undefined when the
 * text is not laid out as openapi-typescript lays it out.
 */
export function schemaMembers(body: string): { readonly name: string; readonly start: number; readonly end: number }[] | undefined {
  const head = "\nexport interface components {\n    schemas: {\n";
  const at = body.indexOf(head);
  if (at < 0) return undefined;
  const members: { name: string; start: number; end: number }[] = [];
  let pending: number | undefined;
  let line = at + head.length;
  for (;;) {
    const next = body.indexOf("\n", line);
    if (next < 0) return undefined;
    const text = body.slice(line, next);
    if (text === "    };") {
      const last = members.at(-1);
      if (last) last.end = line;
      return pending === undefined ? members : undefined;
    }
    if (text.startsWith("        ") && text[8] !== " ") {
      const own = text.slice(8);
      if (own.startsWith("/**")) pending ??= line;
      else if (!own.startsWith("}") && !own.startsWith(")")) {
        const m = MEMBER_KEY.exec(own);
        if (!m) return undefined;
        let name: string;
        try {
          name = m[1] !== undefined ? (JSON.parse(`"${m[1]}"`) as string) : (m[2] as string);
        } catch {
          return undefined;
        }
        const start = pending ?? line;
        pending = undefined;
        const last = members.at(-1);
        if (last) last.end = start;
        members.push({ name, start, end: -1 });
      }
    }
    line = next + 1;
  }
}

/**
 * The types of `document` from the last print's, when only component schemas changed and each
 * prints alone: `printAlone` prints a document holding just those schemas. Undefined when it
 * cannot be done so (then print the whole document).
 */
export async function splicedTypes(last: PrintedTypes, document: Obj, rest: string, printAlone: (partial: Obj) => Promise<string>): Promise<string | undefined> {
  if (rest !== last.rest) return undefined;
  const changed = changedSchemasOnly(last.document, document);
  if (changed === undefined || changed.length > SPLICE_AT_MOST) return undefined;
  if (changed.length === 0) return last.body;
  const before = (last.document["components"] as Obj)["schemas"] as Obj;
  const after = (document["components"] as Obj)["schemas"] as Obj;
  for (const name of changed) {
    if (Object.prototype.hasOwnProperty.call(Object.prototype, name) || !printsAlone(before[name]) || !printsAlone(after[name])) return undefined;
  }
  const across = readAcross(document);
  if (changed.some((name) => readsDiffer(across, name, before[name] as Obj, after[name] as Obj))) return undefined;

  const members = schemaMembers(last.body);
  if (
    members === undefined ||
    !sameJson(
      members.map((m) => m.name),
      Object.keys(before),
    )
  )
    return undefined;
  // The other schemas are there, empty, for the edited ones' references to resolve.
  const edited = new Set(changed);
  const partial: Obj = { openapi: document["openapi"], components: { schemas: Object.fromEntries(Object.keys(after).map((name) => [name, edited.has(name) ? after[name] : {}])) } };
  let printed: string;
  try {
    printed = await printAlone(partial);
  } catch {
    // What the partial document cannot print (a reference into another schema's members, now
    // empty) the whole document prints.
    return undefined;
  }
  const alone = schemaMembers(printed);
  if (
    alone === undefined ||
    !sameJson(
      alone.map((m) => m.name),
      Object.keys(after),
    )
  )
    return undefined;

  const replacement = new Map(alone.filter((m) => edited.has(m.name)).map((m) => [m.name, printed.slice(m.start, m.end)]));
  const pieces: string[] = [];
  let from = 0;
  for (const m of members) {
    const text = replacement.get(m.name);
    if (text === undefined) continue;
    pieces.push(last.body.slice(from, m.start), text);
    from = m.end;
  }
  pieces.push(last.body.slice(from));
  return pieces.join("");
}
