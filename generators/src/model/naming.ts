/**
 * The one naming resolver: every identifier generated code uses is made here from spec text, so
 * emitters agree on names and never see an unsafe one.
 */
import { isSafeIdentifier } from "../emit/ts.js";

/** Splits on anything that is not an ASCII letter or digit, and on camelCase boundaries. */
export function words(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x00-\x7f]/g, " ")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== "");
}

const cap = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

function safe(name: string, fallback: string): string {
  let out = name === "" ? fallback : name;
  if (/^[0-9]/.test(out)) out = `_${out}`;
  if (!isSafeIdentifier(out)) out = `${out}_`;
  return out;
}

/** `get-posts by.ids` → `GetPostsByIds`. Preserves inner capitals of already-cased words. */
export function pascalCase(text: string, fallback = "Unnamed"): string {
  return safe(words(text).map(cap).join(""), fallback);
}

/** `Get posts_by ids` → `getPostsByIds`. An identifier that is already camelCase is kept as is. */
export function camelCase(text: string, fallback = "unnamed"): string {
  if (/^[a-z][A-Za-z0-9]*$/.test(text)) return safe(text, fallback);
  const ws = words(text);
  const joined = ws.map((w, i) => (i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : cap(w))).join("");
  return safe(joined, fallback);
}

/** Deterministic operation name when a spec gives no operationId: `get /users/{id}/posts` → `getUsersByIdPosts`. */
export function operationNameFromPath(method: string, path: string): string {
  const parts = path
    .split("/")
    .filter((s) => s !== "")
    .map((s) => {
      const m = /^\{(.+)\}$/.exec(s);
      return m ? `By ${m[1] as string}` : s;
    });
  return camelCase(`${method} ${parts.join(" ")}`, method);
}

/**
 * Gives each input a unique name, in input order: the first keeps the plain name, later clashes get
 * `2`, `3`, … So names depend only on the spec's order, not on hashing or locale.
 */
export function uniqueNames<T>(items: readonly T[], nameOf: (item: T) => string, taken: Iterable<string> = []): string[] {
  const used = new Set(taken);
  return items.map((item) => {
    const base = nameOf(item);
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base}${n}`;
    used.add(name);
    return name;
  });
}

/** npm-safe folder/package segment: `ads-audiences`. */
export function kebabCase(text: string): string {
  return (
    words(text)
      .map((w) => w.toLowerCase())
      .join("-") || "api"
  );
}
