import type { CompileInput } from "./compile.js";
import { compileUnitBatches, type CompileAllOptions } from "./compile-pool.js";
import { assembleModule, splitUnits, type Unit, type UnitCode } from "./units.js";
import { hasPrototypeMemberKeys } from "../prototype-keys.js";
import { cacheKey, type ContentCache } from "../../write/content-cache.js";

/**
 * A module compiled unit by unit (units.ts): units whose code the cache holds are not compiled
 * again, the others compile in batches (on worker threads for large contracts), and the module is
 * assembled in unit order, so it is the same with a cold cache, a warm one, or none.
 */
export async function compileModule(input: CompileInput, cache: ContentCache, options: CompileAllOptions = {}): Promise<string> {
  const units = splitUnits(input.root, input.exports.values());
  const ownProperties = hasPrototypeMemberKeys(input.root);
  const keys = units.map((u) => cacheKey("validator-unit", String(input.coerce), String(ownProperties), u.hash));
  const codes: (UnitCode | undefined)[] = keys.map((k) => {
    const hit = cache.get(k);
    return hit === undefined ? undefined : (JSON.parse(hit) as UnitCode);
  });
  const missing = units.flatMap((u, i) => (codes[i] === undefined ? [i] : []));
  if (missing.length > 0) {
    const compiled = await compileUnitBatches(
      { units: missing.map((i) => units[i] as Unit), coerce: input.coerce, ownProperties },
      options,
    );
    missing.forEach((i, n) => {
      const code = compiled[n] as UnitCode;
      codes[i] = code;
      cache.set(keys[i] as string, JSON.stringify(code));
    });
  }
  return assembleModule(units, codes as UnitCode[], input.exports);
}

