/**
 * A list filter keeps exactly the objects it matches: asked with a value taken from an object the
 * server listed, every object it answers matches, and every object of the unfiltered list that
 * matches is among them (when that list could be walked to its end). Both sides: a filter that
 * keeps too much and one that drops matches are caught alike.
 */
import type { FilterPlan } from "./plan.js";
import { getAt } from "./request.js";

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => v !== null && typeof v === "object" && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : undefined);

/** The value(s) of an item's member (a pointer-free member name; `""` is the item itself). */
function memberValue(item: unknown, member: string): unknown {
  if (member === "") return item;
  if (member.startsWith("/")) return getAt(item, member);
  return isRec(item) ? item[member] : undefined;
}

/** Whether `item` is one the filter with `value` keeps. */
export function matchesFilter(f: FilterPlan, item: unknown, value: unknown): boolean {
  const fold = (s: string): string => (f.caseInsensitive ? s.toLowerCase() : s);
  const wanted = Array.isArray(value) ? value.map(text).filter((x): x is string => x !== undefined) : typeof value === "string" && f.match === "in" ? value.split(",") : [text(value) ?? ""];
  return f.members.some((member) => {
    const raw = memberValue(item, member);
    const values = (Array.isArray(raw) ? raw : [raw]).map(text).filter((x): x is string => x !== undefined).map(fold);
    return values.some((v) =>
      wanted.some((w0) => {
        const w = fold(w0);
        switch (f.match) {
          case "equals":
          case "in":
            return v === w;
          case "prefix":
            return v.startsWith(w);
          case "contains":
          case "term":
            return v.includes(w);
        }
      }),
    );
  });
}

/** Flips the case of a text: a case-insensitive filter must find `ABC` by `abc`. */
function flipCase(s: string): string {
  const up = s.toUpperCase();
  return up !== s ? up : s.toLowerCase();
}

/**
 * Filter values to try, made from listed objects, best first: those that keep some objects but not
 * all (so the filter has something to leave out), then any. For `in`, one value alone.
 */
export function filterValues(f: FilterPlan, items: readonly unknown[], asArray: boolean): unknown[] {
  const seen = new Set<string>();
  const values: string[] = [];
  for (const item of items) {
    for (const member of f.members) {
      const raw = memberValue(item, member);
      for (const v of (Array.isArray(raw) ? raw : [raw]).map(text)) {
        if (v === undefined || v === "") continue;
        let candidate = v;
        if (f.match === "prefix") candidate = v.slice(0, Math.min(v.length, 3));
        else if (f.match === "contains" || f.match === "term") candidate = v.length <= 4 ? v : v.slice(1, 4);
        if (f.caseInsensitive) candidate = flipCase(candidate);
        if (candidate.trim() === "" || seen.has(candidate)) continue;
        seen.add(candidate);
        values.push(candidate);
      }
    }
  }
  const keeps = (v: string): number => items.filter((it) => matchesFilter(f, it, v)).length;
  const discriminating = values.filter((v) => keeps(v) > 0 && keeps(v) < items.length);
  const rest = values.filter((v) => !discriminating.includes(v));
  return [...discriminating, ...rest].slice(0, 6).map((v) => (asArray ? [v] : v));
}

/** Keys of `items` (their `key` member, else their JSON), for comparing two answers. */
export function keysOf(items: readonly unknown[], key: string | undefined): string[] {
  return items.map((it) => (key !== undefined && isRec(it) && text(it[key]) !== undefined ? (text(it[key]) as string) : JSON.stringify(it)));
}
