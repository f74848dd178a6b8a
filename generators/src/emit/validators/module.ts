import type { CompileInput } from "./compile.js";
import { compileUnitBatches, type CompileAllOptions } from "./compile-pool.js";
import { assembleModule, splitUnits, type Unit, type UnitCode, type UnitCopies } from "./units.js";
import { hasPrototypeMemberKeys } from "../prototype-keys.js";
import { cacheKey, type ContentCache } from "../../write/content-cache.js";

/**
 * Subschemas of the strict module this long (JSON characters) or longer that occur in more than one
 * of its units are compiled once and called from each (repeats.ts): on GitHub's description, 256
 * compiled fastest of 128 to 4096.
 */
export const SHARE_REPEATS_FROM = 256;

export interface ModuleOptions extends CompileAllOptions {
  /**
   * Repeated subschemas of a strict module at least this long (JSON characters) compile once
   * (repeats.ts); 0 shares none. A coercing module never shares.
   * @default SHARE_REPEATS_FROM
   */
  readonly shareRepeatsFrom?: number;
}

/**
 * A module compiled unit by unit (units.ts): units whose code the cache holds are not compiled
 * again, the others compile in batches (on worker threads for large contracts), and the module is
 * assembled in unit order, so it is the same with a cold cache, a warm one, or none.
 */
export async function compileModule(input: CompileInput, cache: ContentCache, options: ModuleOptions = {}, copies?: UnitCopies): Promise<string> {
  // Only the strict module shares repeats: see repeats.ts for why the coercing one does not.
  const units = splitUnits(input.root, input.exports.values(), copies, { shareRepeatsFrom: input.coerce ? 0 : (options.shareRepeatsFrom ?? SHARE_REPEATS_FROM) });
  const ownProperties = input.ownProperties ?? hasPrototypeMemberKeys(input.root);
  const keys = units.map((u) => cacheKey("validator-unit", String(input.coerce), String(ownProperties), u.hash));
  const previous = lastRun.get(input.coerce);
  const current = new Map<string, UnitCode>();
  const codes: (UnitCode | undefined)[] = keys.map((k) => {
    const known = previous?.get(k) ?? current.get(k);
    const hit = cache.get(k);
    if (known !== undefined) {
      // The pack must still see the entry used (or get it back, if it was deleted), else its next
      // save drops what the next process would need.
      if (hit === undefined) cache.set(k, JSON.stringify(known));
      current.set(k, known);
      return known;
    }
    if (hit === undefined) return undefined;
    const code = JSON.parse(hit) as UnitCode;
    current.set(k, code);
    return code;
  });
  // One compile per distinct unit: a unit's code depends on its schema alone, and most units of a
  // large contract are alike (GitHub's strict module: 4,630 units, 1,321 distinct, most of them a
  // bare reference to another unit).
  const missing = new Map<string, number[]>();
  units.forEach((_u, i) => {
    if (codes[i] !== undefined) return;
    const key = keys[i] as string;
    const same = missing.get(key);
    if (same) same.push(i);
    else missing.set(key, [i]);
  });
  if (missing.size > 0) {
    const groups = [...missing.values()];
    const compiled = await compileUnitBatches({ units: groups.map((g) => units[g[0] as number] as Unit), coerce: input.coerce, ownProperties }, options);
    groups.forEach((group, n) => {
      const code = compiled[n] as UnitCode;
      for (const i of group) codes[i] = code;
      cache.set(keys[group[0] as number] as string, JSON.stringify(code));
      current.set(keys[group[0] as number] as string, code);
    });
  }
  lastRun.set(input.coerce, current);
  return assembleModule(units, codes as UnitCode[], input.exports);
}

/**
 * The units of the last module this process compiled, coerced and strict apart, by cache key: a
 * key names the unit's schema and compile options, so its code is the same in every package, and
 * `--watch` reuses the parsed code instead of parsing GitHub's 50 MB of cached JSON every run.
 * Only the last module of each kind is kept, so memory holds one contract's units at most.
 */
const lastRun = new Map<boolean, ReadonlyMap<string, UnitCode>>();
