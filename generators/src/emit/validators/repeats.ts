/**
 * Repeated subschemas, shared out of the units that hold them.
 *
 * Large contracts repeat big inline schemas: GitHub's description writes the same 8 KB pull request
 * object inline in 28 webhook payloads, and its 25 largest units (1.3 MB of compiled code each)
 * were most of its validators' compile time. A subschema at least `from` bytes of JSON long that
 * occurs more than once among a module's distinct units becomes a unit of its own, compiled once,
 * and each place that held it calls it as it calls a referenced schema (the unit-ref keyword).
 * Repeats are numbered in the order the units first hold them (`#/x-contractgen-repeat/<n>`).
 *
 * Only the strict module shares repeats (module.ts). A call validates exactly what the inline
 * schema did, with the same errors at the same instance paths; what differs is an error's
 * `schemaPath`, which starts at the shared subschema (as it starts at a referenced schema), and,
 * with `useDefaults`, ajv's rule that no default is applied inside `oneOf`/`anyOf`/`not`, which does
 * not reach into a called function. The coercing module applies defaults, so it shares nothing.
 */
import { isData } from "./json-schema.js";
import { UNIT_REF } from "./keywords.js";
import { refTarget } from "./units.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** The repeats of a module, as found by `findRepeats`. */
export interface SharedRepeats {
  /** The repeat's number when `node` is a shared repeat, else undefined (equal repeats, equal numbers). */
  repeatOf(node: object): number | undefined;
  /** Whether a shared repeat sits inside this unit's schema. */
  holds(schema: unknown): boolean;
}

/** Keywords whose value is one subschema a repeat may be shared from. */
const ONE = new Set(["items", "additionalProperties"]);
/** Keywords whose value is a list of subschemas a repeat may be shared from. */
const LIST = new Set(["prefixItems", "allOf", "anyOf", "oneOf"]);
/** Keywords whose value maps names to subschemas a repeat may be shared from. */
const MAP = new Set(["properties", "patternProperties"]);

/**
 * The subschemas of `units` at least `from` characters of JSON long that occur more than once
 * among the distinct units, or undefined when there are none. A reference counts by its target
 * (two units may call one target by different `cgref_<n>` names), so equal subschemas validate alike.
 */
export function findRepeats(units: readonly { readonly schema: unknown; readonly refs: readonly string[] }[], from: number): SharedRepeats | undefined {
  // Hash-consing: a subschema long enough to be shared gets a number, from its members' numbers or,
  // for members too short to be shared, their text; so equal subschemas get equal numbers and each
  // node is looked at once (serializing every candidate would serialize a deep schema once per
  // level). A value's size is its JSON length, summed up (a reference counts by its target).
  const numbers = new Map<string, number>();
  /** What a value is known by in its parent's key (its text, or `#<number>` when long enough), and its size. */
  type Known = readonly [key: string, size: number];
  const known = (key: string, size: number): Known => {
    if (size < from) return [key, size];
    let n = numbers.get(key);
    if (n === undefined) numbers.set(key, (n = numbers.size));
    return [`#${n}`, size];
  };
  const leaf = (value: unknown): Known => {
    const text = JSON.stringify(value) ?? "null";
    return [text, text.length];
  };
  /** Every candidate's number, by node: the nodes at positions a repeat may be shared from, long enough. */
  const numberOf = new Map<object, number>();
  /** The candidates inside each unit, by its schema. */
  const inside = new Map<unknown, number[]>();
  const counts = new Map<number, number>();
  const roots = new Set<string>();
  for (const { schema, refs } of units) {
    if (inside.has(schema)) continue;
    const found: number[] = [];
    const list = (items: readonly unknown[], candidates: boolean): Known => {
      const parts = items.map((item) => visit(item, candidates));
      return known(`[${parts.map((p) => p[0]).join(",")}]`, 1 + parts.reduce((total, p) => total + p[1] + 1, 0) + (parts.length === 0 ? 1 : 0));
    };
    const members = (entries: readonly [string, unknown][], value: (key: string, v: unknown) => Known): Known => {
      let size = 1;
      const parts: string[] = [];
      for (const [k, v] of entries) {
        const [text, n] = value(k, v);
        const key = JSON.stringify(k);
        parts.push(`${key}:${text}`);
        size += key.length + 1 + n + 1;
      }
      return known(`{${parts.join(",")}}`, entries.length === 0 ? 2 : size);
    };
    const visit = (node: unknown, candidate: boolean): Known => {
      if (Array.isArray(node)) return list(node, false);
      if (!isObj(node)) return leaf(node);
      const result = members(Object.entries(node), (k, v) => {
        if (k === UNIT_REF && typeof v === "string") {
          // By target, with a prefix no JSON text has: `cgref_<n>` means another target in another unit.
          const target = refTarget(v, refs);
          return [`@${JSON.stringify(target)}`, v.length + 2];
        }
        if (isData(k)) return leaf(v);
        if (MAP.has(k) && isObj(v)) return members(Object.entries(v), (_name, sub) => visit(sub, true));
        if (LIST.has(k) && Array.isArray(v)) return list(v, true);
        return visit(v, ONE.has(k));
      });
      if (candidate && result[1] >= from) {
        const n = Number(result[0].slice(1));
        numberOf.set(node, n);
        found.push(n);
      }
      return result;
    };
    const [whole] = visit(schema, false);
    inside.set(schema, found);
    // Alike units compile once anyway (module.ts): a subschema only they repeat is no repeat.
    if (roots.has(whole)) continue;
    roots.add(whole);
    for (const n of found) counts.set(n, (counts.get(n) ?? 0) + 1);
  }
  const repeated = new Set<number>();
  for (const [n, count] of counts) if (count > 1) repeated.add(n);
  if (repeated.size === 0) return undefined;
  return {
    repeatOf: (node) => {
      const n = numberOf.get(node);
      return n !== undefined && repeated.has(n) ? n : undefined;
    },
    holds: (schema) => (inside.get(schema) ?? []).some((n) => repeated.has(n)),
  };
}
