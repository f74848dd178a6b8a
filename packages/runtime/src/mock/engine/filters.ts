/**
 * A list's filters as a server applies them: `x-filter` parameters (equals, in, prefix, contains,
 * term; on one member or several; optionally ignoring case) and id filters named for the
 * collection. An object is kept when every given filter matches it.
 */
import { getAt, isRec } from "./pointer.js";
import type { StoredObject } from "./store.js";
import type { MockFilter } from "./table.js";

const text = (v: unknown): string | undefined => (typeof v === "string" || typeof v === "number" || typeof v === "boolean" ? String(v) : undefined);

/** The values a member holds: itself, or each item of an array. */
function valuesOf(item: Readonly<Record<string, unknown>>, member: string): string[] {
  const v = member.startsWith("/") ? getAt(item, member) : Object.prototype.hasOwnProperty.call(item, member) ? item[member] : undefined;
  if (Array.isArray(v)) return v.map(text).filter((x): x is string => x !== undefined);
  const t = text(v);
  return t === undefined ? [] : [t];
}

/** The values a filter parameter was given: a list for `in`, split at commas when sent as text. */
function wanted(filter: MockFilter, value: unknown): string[] {
  const list = Array.isArray(value) ? value : typeof value === "string" && filter.match === "in" ? value.split(",") : [value];
  return list.map(text).filter((x): x is string => x !== undefined);
}

export function matchesFilter(filter: MockFilter, item: Readonly<Record<string, unknown>>, value: unknown): boolean {
  const fold = (s: string): string => (filter.caseInsensitive ? s.toLowerCase() : s);
  const asked = wanted(filter, value).map(fold);
  if (asked.length === 0) return true;
  const held = filter.members.flatMap((m) => valuesOf(item, m)).map(fold);
  switch (filter.match) {
    case "equals":
    case "in":
      return held.some((h) => asked.includes(h));
    case "prefix":
      return held.some((h) => asked.some((a) => h.startsWith(a)));
    case "contains":
    case "term":
      return held.some((h) => asked.some((a) => h.includes(a)));
  }
}

/** The objects every given filter keeps, each judged as `view` shows it (as stored when none). */
export function keepMatching(
  objects: readonly StoredObject[],
  filters: readonly MockFilter[],
  query: Readonly<Record<string, unknown>>,
  view?: (data: Readonly<Record<string, unknown>>) => Readonly<Record<string, unknown>>,
): StoredObject[] {
  const given = filters.filter((f) => Object.prototype.hasOwnProperty.call(query, f.param) && query[f.param] !== undefined);
  if (given.length === 0) return [...objects];
  return objects.filter((o) => {
    if (!isRec(o.data)) return false;
    const shown = view ? view(o.data) : o.data;
    return given.every((f) => matchesFilter(f, shown, query[f.param]));
  });
}
