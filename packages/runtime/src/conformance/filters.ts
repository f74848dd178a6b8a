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

/** The values of the filter's members over `items`, as listed (an array member as one value). */
export function memberValues(f: FilterPlan, items: readonly unknown[]): unknown[] {
  return items.flatMap((it) => f.members.map((m) => memberValue(it, m))).filter((v) => v !== undefined);
}

/** The same values as text (scalars only). */
function memberTexts(f: FilterPlan, items: readonly unknown[]): string[] {
  return memberValues(f, items)
    .map(text)
    .filter((v): v is string => v !== undefined);
}

/**
 * Whether the filter with `value` must keep `item`: it matches in every reading the contract allows
 * (letter case counts unless the contract states it does not). What "leaves out" checks compare with.
 */
export function mustKeep(f: FilterPlan, item: unknown, value: unknown): boolean {
  return matches(f, item, value, f.caseInsensitive === true);
}

/**
 * Whether the filter with `value` may keep `item`: it matches in some reading the contract allows.
 * Where the contract does not say whether case counts (`caseInsensitive` absent), an object that
 * matches in another case is no failure either way: a server may fold case or not.
 */
export function mayKeep(f: FilterPlan, item: unknown, value: unknown): boolean {
  return matches(f, item, value, f.caseInsensitive !== false);
}

function matches(f: FilterPlan, item: unknown, value: unknown, anyCase: boolean): boolean {
  const fold = (s: string): string => (anyCase ? s.toLowerCase() : s);
  const wanted = Array.isArray(value) ? value.map(text).filter((x): x is string => x !== undefined) : typeof value === "string" && f.match === "in" ? value.split(",") : [text(value) ?? ""];
  return f.members.some((member) => {
    const raw = memberValue(item, member);
    const values = (Array.isArray(raw) ? raw : [raw])
      .map(text)
      .filter((x): x is string => x !== undefined)
      .map(fold);
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
  // Per member in turn, so a term filter over several members is asked with a value from each.
  const perMember: string[][] = f.members.map(() => []);
  for (const item of items) {
    for (const [mi, member] of f.members.entries()) {
      const raw = memberValue(item, member);
      for (const v of (Array.isArray(raw) ? raw : [raw]).map(text)) {
        if (v === undefined || v === "") continue;
        let candidate = v;
        if (f.match === "prefix") candidate = v.slice(0, Math.min(v.length, 3));
        else if (f.match === "contains" || f.match === "term") {
          // Case-insensitive: a window holding a capital, so folding only one side (the query, not
          // the stored text) loses the match; text already in lower case cannot tell.
          const capital = f.caseInsensitive ? v.search(/\p{Lu}/u) : -1;
          const start = capital >= 0 ? Math.min(capital, Math.max(0, v.length - 3)) : 1;
          candidate = v.length <= 4 ? v : v.slice(start, start + 3);
        }
        if (f.caseInsensitive) candidate = flipCase(candidate);
        if (candidate.trim() === "" || seen.has(candidate)) continue;
        seen.add(candidate);
        values.push(candidate);
        perMember[mi]?.push(candidate);
      }
    }
  }
  const keeps = (v: string): number => items.filter((it) => mustKeep(f, it, v)).length;
  const good = (v: string): boolean => keeps(v) > 0 && keeps(v) < items.length;
  const discriminating = values.filter(good);
  const rest = values.filter((v) => !discriminating.includes(v));
  // The first discriminating value of each member, then the others.
  const firsts = perMember.map((vs) => vs.find(good) ?? vs[0]).filter((v): v is string => v !== undefined);
  const ordered = [...new Set([...firsts, ...discriminating, ...rest])];
  const out: unknown[] = ordered.slice(0, 6).map((v) => (asArray ? [v] : v));
  // A list filter asked with two values keeps the objects of both: a server that applies only the
  // first value leaves the second's objects out. Second in line, so it is among the values tried.
  if (f.match === "in") {
    const [a, b] = discriminating.length >= 2 ? discriminating : values;
    if (a !== undefined && b !== undefined && keeps(`${a},${b}`) > Math.max(keeps(a), keeps(b))) out.splice(1, 0, asArray ? [a, b] : `${a},${b}`);
  }
  return out;
}

/**
 * For a prefix filter, text that occurs inside a listed object's member but starts none: such a
 * filter must keep nothing for it (a server that matches anywhere in the text keeps that object).
 */
export function innerProbes(f: FilterPlan, items: readonly unknown[]): string[] {
  if (f.match !== "prefix") return [];
  // A probe must start no member in any case a server may fold to, or keeping it is no failure.
  const fold = (s: string): string => (f.caseInsensitive !== false ? s.toLowerCase() : s);
  const all = memberTexts(f, items);
  for (const v of all) {
    for (let start = 1; start + 3 <= v.length; start++) {
      const probe = v.slice(start, start + 3);
      if (probe.trim().length < 3) continue;
      if (!all.some((w) => fold(w).startsWith(fold(probe)))) return [f.caseInsensitive ? flipCase(probe) : probe];
    }
  }
  return [];
}

/**
 * For a prefix filter, a listed value's first character alone, where some listed object does not
 * start with it: a server that ignores short prefixes (answering the whole list) keeps that object.
 */
export function shortProbes(f: FilterPlan, items: readonly unknown[]): string[] {
  if (f.match !== "prefix") return [];
  for (const v of memberTexts(f, items)) {
    const probe = v.slice(0, 1);
    if (probe.trim() === "") continue;
    const asked = f.caseInsensitive === true ? flipCase(probe) : probe;
    if (items.some((it) => !mayKeep(f, it, asked))) return [asked];
  }
  return [];
}

/**
 * Where the contract states that case counts (`caseInsensitive: false`), a listed value's beginning
 * in the other case, which starts no member as it is: such a filter must keep nothing for it (a
 * server that folds case keeps the object it came from).
 */
export function caseProbes(f: FilterPlan, items: readonly unknown[]): string[] {
  if (f.caseInsensitive !== false || f.match === "in") return [];
  for (const v of memberTexts(f, items)) {
    // An equals filter is asked with the whole value flipped, the others with its beginning.
    const asked = flipCase(f.match === "equals" ? v : v.slice(0, Math.min(v.length, 3)));
    if (asked.trim() === "" || asked === v.slice(0, asked.length)) continue;
    if (!items.some((it) => matches(f, it, asked, false))) return [asked];
  }
  return [];
}

/** Keys of `items` (their `key` member, else their JSON), for comparing two answers. */
export function keysOf(items: readonly unknown[], key: string | undefined): string[] {
  return items.map((it) => (key !== undefined && isRec(it) && text(it[key]) !== undefined ? (text(it[key]) as string) : JSON.stringify(it)));
}
