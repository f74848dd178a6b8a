/**
 * Repeated subschemas, shared out of the units that hold them.
 *
 * Large contracts repeat big inline schemas: GitHub's description writes the same 8 KB pull request
 * object inline in 28 webhook payloads, and its 25 largest units (1.3 MB of compiled code each)
 * were most of its validators' compile time. A subschema at least `from` bytes of JSON long that
 * occurs more than once among a module's distinct units becomes a unit of its own, compiled once,
 * and each place that held it calls it as it calls a referenced schema (the unit-ref keyword).
 *
 * Only the strict module shares repeats (module.ts). A call validates exactly what the inline
 * schema did, with the same errors at the same instance paths; what differs is an error's
 * `schemaPath`, which starts at the shared subschema (as it starts at a referenced schema), and,
 * with `useDefaults`, ajv's rule that no default is applied inside `oneOf`/`anyOf`/`not`, which does
 * not reach into a called function. The coercing module applies defaults, so it shares nothing.
 */
import { createHash } from "node:crypto";
import { isData } from "./json-schema.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** The repeats of a module, as found by `findRepeats`. */
export interface SharedRepeats {
  /** The pointer of the repeat's own unit when `node` is a shared repeat, else undefined. */
  pointerOf(node: object): string | undefined;
  /** Whether a shared repeat sits inside this unit's schema. */
  holds(schema: unknown): boolean;
}

/** Keywords whose value is one subschema a repeat may be shared from. */
const ONE = new Set(["items", "additionalProperties"]);
/** Keywords whose value is a list of subschemas a repeat may be shared from. */
const LIST = new Set(["prefixItems", "allOf", "anyOf", "oneOf"]);
/** Keywords whose value maps names to subschemas a repeat may be shared from. */
const MAP = new Set(["properties", "patternProperties"]);

/** Where shared repeats' units sit: no pointer of the document, so no unit of it can have the same. */
const REPEAT_POINTER = "#/x-contractgen-repeat/";

/**
 * The subschemas of `schemas` (the units' drafts, whose references name their targets) that are at
 * least `from` characters of JSON and occur more than once among the distinct drafts, or undefined
 * when there are none. Deterministic: what is shared and its unit's pointer follow from the JSON
 * alone.
 */
export function findRepeats(schemas: readonly unknown[], from: number): SharedRepeats | undefined {
  // Hash-consing: every distinct value gets a number, an object's from its members' numbers, so
  // equal subschemas get equal numbers and each node is looked at once (serializing every candidate
  // would serialize a deep schema once per level). Sizes are the exact JSON lengths, summed up.
  const numbers = new Map<string, number>();
  const sizes: number[] = [];
  const intern = (key: string, size: number): number => {
    let n = numbers.get(key);
    if (n === undefined) {
      numbers.set(key, (n = sizes.length));
      sizes.push(size);
    }
    return n;
  };
  const leaf = (value: unknown): number => {
    const text = JSON.stringify(value) ?? "null";
    return intern(`v${text}`, text.length);
  };
  /** Every candidate's number, by node: the nodes at positions a repeat may be shared from, long enough. */
  const numberOf = new Map<object, number>();
  /** The candidates inside each draft, by its root. */
  const inside = new Map<unknown, number[]>();
  const counts = new Map<number, number>();
  const roots = new Set<number>();
  for (const schema of schemas) {
    const found: number[] = [];
    const list = (items: readonly unknown[], candidates: boolean): number => {
      const ns = items.map((item) => visit(item, candidates));
      return intern(`a${ns.join(",")}`, 1 + ns.reduce((total, n) => total + (sizes[n] as number) + 1, 0) + (ns.length === 0 ? 1 : 0));
    };
    const members = (entries: readonly [string, unknown][], value: (key: string, v: unknown) => number): number => {
      let size = 1;
      const parts: string[] = [];
      for (const [k, v] of entries) {
        const n = value(k, v);
        const key = JSON.stringify(k);
        parts.push(`${key}:${n}`);
        size += key.length + 1 + (sizes[n] as number) + 1;
      }
      return intern(`o${parts.join(",")}`, entries.length === 0 ? 2 : size);
    };
    const visit = (node: unknown, candidate: boolean): number => {
      if (Array.isArray(node)) return list(node, false);
      if (!isObj(node)) return leaf(node);
      const n = members(Object.entries(node), (k, v) => {
        if (isData(k)) return leaf(v);
        if (MAP.has(k) && isObj(v)) return members(Object.entries(v), (_name, sub) => visit(sub, true));
        if (LIST.has(k) && Array.isArray(v)) return list(v, true);
        return visit(v, ONE.has(k));
      });
      if (candidate && (sizes[n] as number) >= from) {
        numberOf.set(node, n);
        found.push(n);
      }
      return n;
    };
    const whole = visit(schema, false);
    inside.set(schema, found);
    // Alike drafts compile once anyway (module.ts): a subschema only they repeat is no repeat.
    if (roots.has(whole)) continue;
    roots.add(whole);
    for (const n of found) counts.set(n, (counts.get(n) ?? 0) + 1);
  }
  const repeated = new Set<number>();
  for (const [n, count] of counts) if (count > 1) repeated.add(n);
  if (repeated.size === 0) return undefined;
  // A repeat's unit is named by its content, so it keeps its name when other schemas change.
  const pointers = new Map<number, string>();
  const pointerFor = (n: number, node: object): string => {
    let pointer = pointers.get(n);
    if (pointer === undefined) pointers.set(n, (pointer = `${REPEAT_POINTER}${createHash("sha256").update(JSON.stringify(node)).digest("hex").slice(0, 32)}`));
    return pointer;
  };
  return {
    pointerOf: (node) => {
      const n = numberOf.get(node);
      return n !== undefined && repeated.has(n) ? pointerFor(n, node) : undefined;
    },
    holds: (schema) => (inside.get(schema) ?? []).some((n) => repeated.has(n)),
  };
}
