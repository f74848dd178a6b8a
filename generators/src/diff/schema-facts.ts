/**
 * The effective constraints of one schema, read once: `$ref`s followed, `allOf` members merged, and
 * each value kept with the pointer of the keyword that holds it, so the comparison can name it.
 * Splitting a schema into `allOf` parts (or moving it behind a `$ref`) gives the same facts.
 */
import { isObj, type Loc, type SpecView } from "./view.js";

export interface Held<T> {
  readonly value: T;
  /** Pointer of the keyword holding the value. */
  readonly pointer: string;
}

export interface SchemaFacts {
  /** The schema itself, dereferenced; `allOf` members only add constraints. */
  readonly self: Loc;
  /** The `false` schema: nothing is valid. */
  readonly never: boolean;
  /** Declared types without `null`; undefined when any type is allowed. */
  readonly types?: Held<ReadonlySet<string>>;
  /** Whether `null` is allowed; undefined when nothing says (no type, no null variant). */
  readonly nullable?: Held<boolean>;
  readonly enum?: Held<readonly unknown[]>;
  /** Scalar keywords (bounds, pattern, format, default, …), first definition wins. */
  readonly keywords: ReadonlyMap<string, Held<unknown>>;
  readonly properties: ReadonlyMap<string, Loc>;
  readonly required: ReadonlySet<string>;
  readonly additional?: Loc;
  readonly items?: Loc;
  readonly variants?: { readonly keyword: "oneOf" | "anyOf"; readonly list: readonly Loc[]; readonly pointer: string };
}

/** Keywords compared as a single value each. */
export const SCALAR_KEYWORDS = [
  "maxLength",
  "maxItems",
  "maxProperties",
  "maximum",
  "exclusiveMaximum",
  "maxContains",
  "minLength",
  "minItems",
  "minProperties",
  "minimum",
  "exclusiveMinimum",
  "minContains",
  "multipleOf",
  "uniqueItems",
  "pattern",
  "format",
  "default",
  "discriminator",
  // Validation keywords this comparison does not model in detail: any edit counts as a change.
  "not",
  "if",
  "then",
  "else",
  "dependentRequired",
  "dependentSchemas",
  "patternProperties",
  "propertyNames",
  "contains",
  "prefixItems",
  "unevaluatedProperties",
  "unevaluatedItems",
  "contentMediaType",
  "contentEncoding",
] as const;

const EMPTY: ReadonlySet<string> = new Set();

function typesOf(node: { readonly [k: string]: unknown }): Set<string> | undefined {
  const t = node["type"];
  const list = typeof t === "string" ? [t] : Array.isArray(t) ? t.filter((x): x is string => typeof x === "string") : undefined;
  if (!list) return undefined;
  const set = new Set(list);
  // OpenAPI 3.0 spells "or null" as a sibling flag.
  if (node["nullable"] === true) set.add("null");
  return set;
}

/** Whether a type set accepts values of type `t` (an integer is a number). */
export function accepts(set: ReadonlySet<string>, t: string): boolean {
  return set.has(t) || (t === "integer" && set.has("number"));
}

function intersect(a: ReadonlySet<string>, b: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const t of a) if (accepts(b, t)) out.add(t);
  for (const t of b) if (accepts(a, t)) out.add(t);
  return out;
}

/** `{type: 'null'}` or `{enum: [null]}`: a variant that only says "or null". */
function isNullOnly(node: unknown): boolean {
  if (!isObj(node)) return false;
  const t = typesOf(node);
  if (t && t.size === 1 && t.has("null")) return true;
  return Array.isArray(node["enum"]) && node["enum"].length === 1 && node["enum"][0] === null && node["type"] === undefined;
}

/**
 * Facts already read, per view, by the location a schema resolves to (and the `$ref` it was reached
 * through). A schema that many operations use (GitHub's `simple-user`: hundreds) is compared once
 * per operation after it changed; its facts are the same each time and read once. Facts are never
 * changed once read.
 */
const factsRead = new WeakMap<SpecView, Map<string, SchemaFacts>>();

export function readFacts(view: SpecView, loc: Loc): SchemaFacts {
  const self = view.deref(loc);
  let known = factsRead.get(view);
  if (known === undefined) factsRead.set(view, (known = new Map()));
  const key = `${self.pointer}\u0000${self.via ?? ""}`;
  const read = known.get(key);
  if (read !== undefined) return read;
  const facts = factsOf(view, self);
  known.set(key, facts);
  return facts;
}

function factsOf(view: SpecView, self: Loc): SchemaFacts {
  const keywords = new Map<string, Held<unknown>>();
  const properties = new Map<string, Loc>();
  const required = new Set<string>();
  if (self.node === false) return { self, never: true, keywords, properties, required };

  const members: Loc[] = [];
  const seen = new Set<string>();
  const gather = (l: Loc): void => {
    const d = view.deref(l);
    if (seen.has(d.pointer) || !isObj(d.node)) return;
    seen.add(d.pointer);
    members.push(d);
    if (Array.isArray(d.node["allOf"])) d.node["allOf"].forEach((_, i) => gather(view.child(view.child(d, "allOf"), i)));
  };
  gather(self);

  let types: Held<Set<string>> | undefined;
  let enumHeld: Held<readonly unknown[]> | undefined;
  let additional: Loc | undefined;
  let items: Loc | undefined;
  let variants: SchemaFacts["variants"];
  for (const m of members) {
    const node = m.node as { readonly [k: string]: unknown };
    const t = typesOf(node);
    if (t) types = types ? { value: intersect(types.value, t), pointer: types.pointer } : { value: t, pointer: `${m.pointer}/type` };
    if (!enumHeld && Array.isArray(node["enum"])) enumHeld = { value: node["enum"], pointer: `${m.pointer}/enum` };
    if (!enumHeld && "const" in node) enumHeld = { value: [node["const"]], pointer: `${m.pointer}/const` };
    for (const k of SCALAR_KEYWORDS) if (k in node && !keywords.has(k)) keywords.set(k, { value: node[k], pointer: `${m.pointer}/${k}` });
    if (isObj(node["properties"])) {
      const props = view.child(m, "properties");
      for (const name of Object.keys(node["properties"])) if (!properties.has(name)) properties.set(name, view.child(props, name));
    }
    if (Array.isArray(node["required"])) for (const r of node["required"]) if (typeof r === "string") required.add(r);
    // Any member closing the object closes the whole.
    if ("additionalProperties" in node && (additional === undefined || node["additionalProperties"] === false)) additional = view.child(m, "additionalProperties");
    if (!items && "items" in node) items = view.child(m, "items");
    if (!variants) {
      const keyword = Array.isArray(node["oneOf"]) ? "oneOf" : Array.isArray(node["anyOf"]) ? "anyOf" : undefined;
      if (keyword) {
        const holder = view.child(m, keyword);
        variants = { keyword, list: (node[keyword] as unknown[]).map((_, i) => view.child(holder, i)), pointer: holder.pointer };
      }
    }
  }

  const nullVariant = variants?.list.some((v) => isNullOnly(view.deref(v).node)) ?? false;
  if (variants) variants = { ...variants, list: variants.list.filter((v) => !isNullOnly(view.deref(v).node)) };
  // With variants, "or null" is said by a null variant; otherwise by the type list.
  const nullable: Held<boolean> | undefined = variants
    ? { value: nullVariant || types?.value.has("null") === true, pointer: variants.pointer }
    : types
      ? { value: types.value.has("null"), pointer: types.pointer }
      : undefined;
  if (types) {
    const without = new Set(types.value);
    without.delete("null");
    types = { value: without, pointer: types.pointer };
  }
  return {
    self,
    never: false,
    ...(types ? { types } : {}),
    ...(nullable ? { nullable } : {}),
    ...(enumHeld ? { enum: enumHeld } : {}),
    keywords,
    properties,
    required: required.size > 0 ? required : EMPTY,
    ...(additional ? { additional } : {}),
    ...(items ? { items } : {}),
    ...(variants ? { variants } : {}),
  };
}

/** Whether a (dereferenced) property schema is hidden in this direction by readOnly/writeOnly. */
export function hiddenIn(direction: "request" | "response" | "schema", node: unknown): boolean {
  if (!isObj(node)) return false;
  if (direction === "request") return node["readOnly"] === true;
  if (direction === "response") return node["writeOnly"] === true;
  return false;
}

/** A short text for a type set (`string`, `integer | string`, `any`). */
export function formatTypes(set: ReadonlySet<string> | undefined): string {
  if (!set) return "any";
  if (set.size === 0) return "null";
  return [...set].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).join(" | ");
}
