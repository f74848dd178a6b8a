/**
 * Read access to a bundled document that always knows where it is: every value comes with its JSON
 * pointer, and following a `$ref` moves the pointer to the target, so a change is reported where
 * the changed thing is defined rather than at each place that uses it.
 */
import { escapePointerSegment, parsePointer, toPointer } from "../load/errors.js";
import { getAtPointer } from "../load/refs.js";

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** A value in a document and its JSON pointer. */
export interface Loc {
  readonly node: unknown;
  readonly pointer: string;
  /** The `$ref` text this value was reached through, when it was. */
  readonly via?: string;
}

/** Longest `$ref` chain followed; longer ones are cycles of bare references (`A: {$ref: B}, B: {$ref: A}`). */
const MAX_HOPS = 64;

export class SpecView {
  /** Targets by `$ref` text: large specs name the same few hundred targets many thousands of times. */
  private readonly targets = new Map<string, Loc | undefined>();

  constructor(readonly document: Obj) {}

  root(): Loc {
    return { node: this.document, pointer: "#" };
  }

  /** The member `key` of `loc` as written (a `$ref` is not followed). */
  child(loc: Loc, key: string | number): Loc {
    const node = loc.node;
    const value = isObj(node) || Array.isArray(node) ? (Object.prototype.hasOwnProperty.call(node, key) ? (node as Obj)[key] : undefined) : undefined;
    return { node: value, pointer: `${loc.pointer}/${escapePointerSegment(String(key))}` };
  }

  /** Follows `$ref`s from `loc` to the value they name (internal refs only: bundling inlined the rest). */
  deref(loc: Loc): Loc {
    let current = loc;
    for (let hops = 0; hops < MAX_HOPS; hops++) {
      const ref = isObj(current.node) ? str(current.node["$ref"]) : undefined;
      if (ref === undefined || !ref.startsWith("#")) return current;
      const target = this.target(ref);
      if (!target) return current;
      current = { node: target.node, pointer: target.pointer, via: loc.via ?? ref };
    }
    return current;
  }

  private target(ref: string): Loc | undefined {
    if (!this.targets.has(ref)) {
      const hit = getAtPointer(this.document, ref);
      this.targets.set(ref, hit.found ? { node: hit.value, pointer: toPointer(parsePointer(ref)) } : undefined);
    }
    return this.targets.get(ref);
  }

  /** `child` then `deref`. */
  get(loc: Loc, key: string | number): Loc {
    return this.deref(this.child(loc, key));
  }

  /** Members of an object value, in document order. */
  entries(loc: Loc): [string, Loc][] {
    return isObj(loc.node) ? Object.keys(loc.node).map((k) => [k, this.child(loc, k)]) : [];
  }
}

/**
 * JSON text with object keys sorted by code unit, so two values written in different key orders
 * compare equal.
 */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (isObj(value)) {
    const keys = Object.keys(value).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** Structural equality of JSON values, member order aside. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  if (!isObj(a) || !isObj(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]));
}

export const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
