/**
 * Field selection (`x-field-selection`): an object carries exactly its default fields plus the ones
 * asked for, whatever their values (a `false`, `0` or `""` asked for is there); `includes` holds
 * only the kinds an expansion asked for, every object referred to, each with its own defaults and
 * the fields its own parameter asks for. What an object holds with every field asked for is the
 * reference each narrower answer is compared with, so no value of the contract's is assumed.
 */
import type { FieldSelectionPlan } from "./plan.js";
import { getAt } from "./request.js";
import { jsonEqual } from "../shared/schema-match.js";
import { createRng } from "../shared/prng.js";

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => v !== null && typeof v === "object" && !Array.isArray(v);

/** The objects at `pointer` of an answer: the array's items, or the one object. */
export function objectsAt(body: unknown, pointer: string): Rec[] {
  const at = getAt(body, pointer);
  if (Array.isArray(at)) return at.filter(isRec);
  return isRec(at) ? [at] : [];
}

export function keyOf(o: Rec, key: string | undefined): string {
  const k = key !== undefined ? o[key] : undefined;
  return typeof k === "string" || typeof k === "number" ? String(k) : JSON.stringify(o);
}

/** A value a lazy server might leave out: false, 0, empty text, an empty array or object. */
function falsy(v: unknown): boolean {
  return v === false || v === 0 || v === "" || (Array.isArray(v) && v.length === 0) || (isRec(v) && Object.keys(v).length === 0);
}

/**
 * Subsets of `names` to ask for: first the fields whose value is falsy in some full object (with
 * one other), then a seeded half. Each at least one name.
 */
export function subsetsToAsk(names: readonly string[], full: readonly Rec[], seed: number): string[][] {
  const present = names.filter((n) => full.some((o) => Object.prototype.hasOwnProperty.call(o, n)));
  if (present.length === 0) return [];
  const falsyOnes = present.filter((n) => full.some((o) => Object.prototype.hasOwnProperty.call(o, n) && falsy(o[n])));
  const other = present.find((n) => !falsyOnes.includes(n));
  const out: string[][] = [];
  if (falsyOnes.length > 0) out.push([...falsyOnes, ...(other !== undefined ? [other] : [])]);
  const rng = createRng(seed);
  const half = present.filter(() => rng.chance(0.5));
  out.push(half.length > 0 ? half : [present[0] as string]);
  return out;
}

/**
 * What is wrong with `got` (an answer's objects) asked for `asked` fields, against `full` (the same
 * objects with every field): each object must carry exactly `defaults` plus the asked fields it has
 * in full, with the same values. With `defaults` unknown, only the asked fields are checked.
 */
export function selectionProblems(got: readonly Rec[], full: readonly Rec[], asked: readonly string[], defaults: readonly string[] | undefined, key: string | undefined): string[] {
  const byKey = new Map(full.map((o) => [keyOf(o, key), o]));
  const out: string[] = [];
  for (const o of got) {
    const k = keyOf(o, key);
    const ref = byKey.get(k);
    if (!ref) continue;
    const expected = new Set([...(defaults ?? []), ...asked].filter((n) => Object.prototype.hasOwnProperty.call(ref, n)));
    const keys = Object.keys(o);
    const missing = [...expected].filter((n) => !Object.prototype.hasOwnProperty.call(o, n));
    const extra = defaults === undefined ? keys.filter((n) => !Object.prototype.hasOwnProperty.call(ref, n)) : keys.filter((n) => !expected.has(n));
    const changed = keys.filter((n) => expected.has(n) && !jsonEqual(o[n], ref[n]));
    if (missing.length > 0) out.push(`${k} lacks ${missing.map((n) => `${n} (${JSON.stringify(ref[n])} with every field)`).join(", ")}`);
    if (extra.length > 0) out.push(`${k} carries ${extra.join(", ")}, not asked for`);
    if (changed.length > 0) out.push(`${k} has other values for ${changed.join(", ")} than with every field asked`);
  }
  return out;
}

/**
 * Where the contract states no defaults for a kind, the members each object carries when nothing is
 * asked (`plain`) are its defaults: a fields parameter adds to them (`x-field-selection`), so an
 * object of `got` that lost one of them replaced its defaults instead.
 */
export function defaultsLost(got: readonly Rec[], plain: readonly Rec[], key: string | undefined): string[] {
  const before = new Map(plain.map((o) => [keyOf(o, key), o]));
  const out: string[] = [];
  for (const o of got) {
    const k = keyOf(o, key);
    const was = before.get(k);
    if (!was) continue;
    const lost = Object.keys(was).filter((n) => !Object.prototype.hasOwnProperty.call(o, n));
    if (lost.length > 0) out.push(`${k} lacks ${lost.join(", ")}, which it carries when no fields are asked (its defaults: a fields parameter adds to them)`);
  }
  return out;
}

/** The values a primary object refers to an included kind by (`/attachments/media_keys`: each key). */
export function referencesOf(objects: readonly Rec[], from: string | undefined): string[] {
  if (from === undefined) return [];
  const out: string[] = [];
  for (const o of objects) for (const v of valuesAt(o, from)) for (const x of Array.isArray(v) ? v : [v]) if (typeof x === "string" || typeof x === "number") out.push(String(x));
  return [...new Set(out)];
}

/** The values at a pointer whose `*` segments stand for every item of an array (the id of each referenced post). */
export function valuesAt(value: unknown, pointer: string): unknown[] {
  const star = pointer.indexOf("/*");
  if (star === -1) {
    const v = getAt(value, pointer);
    return v === undefined ? [] : [v];
  }
  const list = getAt(value, pointer.slice(0, star));
  const rest = pointer.slice(star + 2);
  return Array.isArray(list) ? list.flatMap((item) => valuesAt(item, rest)) : [];
}

/**
 * Whether asking for every field changed anything: some object carries a member beyond the
 * defaults. A server that ignores the fields parameter answers the defaults alone either way, which
 * a comparison of two of its answers cannot see.
 */
export function fieldsHaveEffect(full: readonly Rec[], defaults: readonly string[]): boolean {
  return full.some((o) => Object.keys(o).some((k) => !defaults.includes(k)));
}

/** Asked-for fields the contract says every object carries (`always`), missing from an answer's objects. */
export function missingAlways(objects: readonly Rec[], asked: readonly string[], always: readonly string[], key: string | undefined): string[] {
  const out: string[] = [];
  for (const o of objects) {
    const lacking = always.filter((f) => asked.includes(f) && !Object.prototype.hasOwnProperty.call(o, f));
    if (lacking.length > 0) out.push(`${keyOf(o, key)} lacks ${lacking.join(", ")}, which every object carries when asked for`);
  }
  return out;
}

export type { FieldSelectionPlan };
