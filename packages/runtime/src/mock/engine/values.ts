/**
 * The path values a mock states it serves, for a contract test to be told with `--values`: a suite
 * never invents an identifier, so a path parameter no operation of the contract lists or makes
 * (`/v1/{name}`, `/{format}/Players/{date}`) leaves every case of it skipped. The engine answers
 * such a parameter for any value its schema takes (stateless operations, and the objects of a
 * collection nothing lists are made on first use), so it can name one honestly; the keys of a
 * collection a list or create gives are left to the suite, which finds them as a client would, and
 * so are the keys under such a collection's objects (an object is its parent's only).
 */
import { deriveSeed } from "../../shared/prng.js";
import type { MockSchema } from "../mock-data.js";
import { put } from "./store.js";
import type { MockTable } from "./table.js";

type Rec = Record<string, unknown>;

/** What stating values needs: drawing a value of a schema, and whether a value fits one. */
export interface ValueTools {
  draw(schema: MockSchema, seed: number): unknown;
  fits(schema: MockSchema, value: unknown): boolean;
}

/** Values drawn per schema before giving up on a name: a few, as a draw that fits one schema and not another is rare. */
const DRAWS = 4;

/**
 * Whether `value` works as a path segment: scalar, not empty, and free of what a path or a
 * template cannot carry as it is (`/` would need a server to decode it back, which not all do).
 * Inner spaces are fine (`East US 2` goes out as `East%20US%202`).
 */
function pathSafe(value: unknown): value is string | number | boolean {
  if (typeof value === "number") return Number.isFinite(value);
  if (typeof value === "boolean") return true;
  return typeof value === "string" && value.trim() !== "" && value.trim() === value && !/[/?#%{}\t\r\n]/.test(value);
}

/** Whether a value sent as text fits a schema: as it is, as text, or as the number it spells. */
function fitsAsSent(tools: ValueTools, schema: MockSchema, value: string | number | boolean): boolean {
  if (tools.fits(schema, value)) return true;
  const text = String(value);
  if (tools.fits(schema, text)) return true;
  return /^-?\d+(\.\d+)?$/.test(text) && tools.fits(schema, Number(text));
}

/**
 * Per path parameter name the engine answers for any value (no list or create of the contract
 * keys a collection by it), one value every operation taking it accepts: the contract's own
 * example where it fits every schema the name has, else a value drawn from them. Names without
 * such a value are left out. The same table and seed give the same values.
 */
export function knownValues(table: MockTable, tools: ValueTools, seed: number): Record<string, string | number | boolean> {
  const found = new Map<string, string | number | boolean>();
  const discovered = new Set(table.collections.filter((c) => c.list !== undefined || c.create !== undefined).map((c) => c.keyParam));
  for (const [name, parameter] of Object.entries(table.pathParameters ?? {})) {
    if (discovered.has(name)) continue;
    const fitsAll = (v: unknown): v is string | number | boolean => pathSafe(v) && parameter.schemas.every((s) => fitsAsSent(tools, s, v));
    // The parent the contract's example objects sit under first: a suite reading an example object
    // (a key the contract's example names) reads it under its own parent, not another's.
    const parentExamples = table.collections.flatMap((c) => (c.exampleParents !== undefined && Object.prototype.hasOwnProperty.call(c.exampleParents, name) ? [c.exampleParents[name]] : []));
    let value = [...parentExamples, ...(parameter.examples ?? [])].find(fitsAll);
    for (let i = 0; value === undefined && i < DRAWS * parameter.schemas.length; i++) {
      const schema = parameter.schemas[i % parameter.schemas.length] as MockSchema;
      const drawn = tools.draw(schema, deriveSeed(seed, `value:${name}:${i}`));
      if (fitsAll(drawn)) value = drawn;
    }
    if (value !== undefined) found.set(name, value);
  }
  // A key under parents names an object of those parents only (another parent's is refused): it is
  // stated only where every parent is stated too, so a suite has no other parent to combine it with.
  for (let changed = true; changed;) {
    changed = false;
    for (const c of table.collections) {
      if (found.has(c.keyParam) && c.parents.some((p) => !found.has(p))) changed = found.delete(c.keyParam) || changed;
    }
  }
  const out: Rec = {};
  for (const [name, value] of [...found].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) put(out, name, value);
  return out as Record<string, string | number | boolean>;
}
