/**
 * Object keys that are `Object.prototype` members (`constructor`, `toString`, `__proto__` …) are
 * legal schema, property and scheme names, but openapi-typescript's document walker (Redocly's)
 * looks keys up in plain objects and finds the prototype's functions there, then crashes. Before the
 * document is handed over, every such key becomes a placeholder that is a plain identifier, with the
 * places that name keys (`$ref` pointers, `required`, discriminators) rewritten to match; the printed
 * types get the original names back as quoted keys.
 */
const PROTOTYPE_NAMES: readonly string[] = Object.getOwnPropertyNames(Object.prototype).sort();
const INDEX = new Map(PROTOTYPE_NAMES.map((name, i) => [name, i]));
const PLACEHOLDER = /__cgProtoKey(\d+)__/g;
/** Matches any string containing a prototype name: a quick test before splitting pointers. */
const ANY_NAME = new RegExp(PROTOTYPE_NAMES.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"));

const placeholder = (name: string): string => {
  const i = INDEX.get(name);
  return i === undefined ? name : `__cgProtoKey${i}__`;
};

export interface EncodedDocument {
  readonly document: unknown;
  /** Whether any key was replaced (when none, decoding is the identity). */
  readonly changed: boolean;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * Whether `node` holds a prototype name anywhere encoding would look: as a key, or as a string or
 * one `/`-separated segment of a string (required names, `$ref` pointers, discriminators). A
 * superset of what encoding replaces, read without copying: most documents have none.
 */
function mentionsPrototypeNames(node: unknown): boolean {
  if (typeof node === "string") {
    if (!ANY_NAME.test(node)) return false;
    return INDEX.has(node) || node.split("/").some((seg) => INDEX.has(seg.replace(/~1/g, "/").replace(/~0/g, "~")));
  }
  if (Array.isArray(node)) return node.some(mentionsPrototypeNames);
  if (!isObj(node)) return false;
  for (const key of Object.keys(node)) if (INDEX.has(key) || mentionsPrototypeNames(node[key])) return true;
  return false;
}

/** A copy of `document` whose prototype-member keys are placeholders (`document` itself when it has none). */
export function encodePrototypeKeys(document: unknown): EncodedDocument {
  if (!mentionsPrototypeNames(document)) return { document, changed: false };
  let changed = false;
  const pointer = (ref: string): string =>
    ref.replace(/\/([^/]*)/g, (seg: string, raw: string) => {
      const name = raw.replace(/~1/g, "/").replace(/~0/g, "~");
      if (!INDEX.has(name)) return seg;
      changed = true;
      return `/${placeholder(name)}`;
    });
  const names = (list: unknown): unknown => (Array.isArray(list) ? list.map((n) => (typeof n === "string" ? renamed(n) : n)) : list);
  const renamed = (name: string): string => {
    if (!INDEX.has(name)) return name;
    changed = true;
    return placeholder(name);
  };
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!isObj(node)) return node;
    // Object.create(null): a key named __proto__ must stay an own key of the copy.
    const out: Obj = Object.create(null) as Obj;
    for (const key of Object.keys(node)) {
      const value = node[key];
      let next: unknown;
      if (key === "$ref" && typeof value === "string") next = value.includes("#") ? value.slice(0, value.indexOf("#")) + pointer(value.slice(value.indexOf("#"))) : value;
      else if (key === "required" && Array.isArray(value)) next = names(value);
      else if (key === "discriminator" && isObj(value)) next = discriminator(value);
      else next = walk(value);
      Object.defineProperty(out, renamed(key), { value: next, enumerable: true, writable: true, configurable: true });
    }
    return out;
  };
  const discriminator = (d: Obj): Obj => {
    const copy = walk(d) as Obj;
    if (typeof d["propertyName"] === "string") copy["propertyName"] = renamed(d["propertyName"]);
    if (isObj(d["mapping"])) {
      const mapping = Object.create(null) as Obj;
      for (const [k, v] of Object.entries(d["mapping"])) mapping[k] = typeof v === "string" ? (v.startsWith("#") ? pointer(v) : renamed(v)) : v;
      copy["mapping"] = mapping;
    }
    return copy;
  };
  const encoded = walk(document);
  return { document: changed ? encoded : document, changed };
}

/** The original name of a placeholder (any other name unchanged). */
export function decodeName(name: string): string {
  return name.replace(PLACEHOLDER, (_m, i: string) => PROTOTYPE_NAMES[Number(i)] ?? _m);
}

/**
 * Printed TypeScript with the original names back: a placeholder in quotes (an index or a quoted
 * key) becomes the quoted name, a bare one (a property key) the quoted name too, so `__proto__`
 * stays a data key and never sets a prototype.
 */
export function decodePrototypeKeys(text: string): string {
  return text
    .replace(/"__cgProtoKey(\d+)__"/g, (m, i: string) => (PROTOTYPE_NAMES[Number(i)] !== undefined ? JSON.stringify(PROTOTYPE_NAMES[Number(i)]) : m))
    .replace(/(?<![\w$"])__cgProtoKey(\d+)__(?![\w$"])/g, (m, i: string) => (PROTOTYPE_NAMES[Number(i)] !== undefined ? JSON.stringify(PROTOTYPE_NAMES[Number(i)]) : m));
}

/**
 * Whether any object key, or any name in a `required` list, is a prototype member. ajv's generated
 * code tests presence with `data.name !== undefined`, which finds `Object.prototype.constructor`
 * on every object; such documents are compiled with ajv's `ownProperties` instead (slower, so only
 * for them).
 */
export function hasPrototypeMemberKeys(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasPrototypeMemberKeys);
  if (!isObj(node)) return false;
  for (const key of Object.keys(node)) {
    if (INDEX.has(key)) return true;
    const value = node[key];
    if (key === "required" && Array.isArray(value) && value.some((n) => typeof n === "string" && INDEX.has(n))) return true;
    if (hasPrototypeMemberKeys(value)) return true;
  }
  return false;
}

/** Whether some `properties` map (or `required` list) names a member `__proto__`. */
export function declaresProtoMember(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(declaresProtoMember);
  if (!isObj(node)) return false;
  const props = node["properties"];
  if (isObj(props) && Object.prototype.hasOwnProperty.call(props, "__proto__")) return true;
  if (Array.isArray(node["required"]) && node["required"].includes("__proto__")) return true;
  return Object.keys(node).some((k) => declaresProtoMember(node[k]));
}
