/**
 * Parsed YAML files kept in the process, by their text. `generate --watch` reloads every file of a
 * spec after any edit; for the repository's core spec, parsing the files nobody touched was a fifth
 * of a regeneration. A hit is the parse of the very same text, so it is what parsing would return;
 * the data is handed out as a copy, since nothing promises that a loaded spec is never changed.
 *
 * Across processes the data alone is kept as JSON in a content store the caller gives (the
 * pipeline's content caches), when JSON holds it exactly (`isJsonExact`): a fresh `contractgen
 * generate` after a one-file edit then parses that file only (a cold YAML parser took a third of a
 * second over core's files). The YAML document is parsed again only if a position is asked for.
 */
import { createHash } from "node:crypto";
import type { Document, LineCounter } from "yaml";

/** Where parsed data is kept between processes: strings by key (the pipeline's content caches). */
export interface TextStore {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}

/** The store key of a YAML text's data (the store namespaces it by the generator and yaml versions). */
export function parsedKey(text: string): string {
  return createHash("sha256").update("yaml-data\0").update(text).digest("hex");
}

/**
 * Whether `JSON.parse(JSON.stringify(value))` is `value` again: only plain objects and arrays,
 * strings, booleans, null and finite numbers other than -0 (YAML also has `.nan`, `.inf` and
 * `-0`, which JSON would change).
 */
export function isJsonExact(value: unknown): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0);
  if (typeof value !== "object") return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!(i in value) || !isJsonExact(value[i])) return false;
    return true;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const v of Object.values(value)) if (!isJsonExact(v)) return false;
  return true;
}

/**
 * One parse: its data, never handed out itself, and the located YAML document when it was built
 * (the fast path builds it only when a position is asked for: yaml-fast.ts).
 */
export interface ParsedYaml {
  readonly located?: { readonly document: Document; readonly counter: LineCounter };
  readonly data: unknown;
}

/**
 * Text kept at most, over every entry (a parsed document takes many times its text in memory).
 * Files larger than this are never kept.
 * @default 8 MiB
 */
export const PARSE_CACHE_MAX_CHARS = 8 * 1024 * 1024;

/** Most recently used last (a Map keeps insertion order). */
const entries = new Map<string, ParsedYaml>();
let chars = 0;

/** The parse of `text` if this process parsed the same text before and still keeps it. */
export function cachedParse(text: string): ParsedYaml | undefined {
  const hit = entries.get(text);
  if (hit) {
    entries.delete(text);
    entries.set(text, hit);
  }
  return hit;
}

/** Keeps a parse of `text`, dropping the least recently used ones beyond the size limit. */
export function keepParse(text: string, parsed: ParsedYaml): void {
  if (text.length > PARSE_CACHE_MAX_CHARS || entries.has(text)) return;
  entries.set(text, parsed);
  chars += text.length;
  for (const key of entries.keys()) {
    if (chars <= PARSE_CACHE_MAX_CHARS) break;
    entries.delete(key);
    chars -= key.length;
  }
}

/** Forgets every parse (tests; a long-lived process that wants its memory back). */
export function clearParseCache(): void {
  entries.clear();
  chars = 0;
}
