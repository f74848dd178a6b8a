/**
 * Standalone validator modules compiled on worker threads. The strict and the coercing module of a
 * package are independent ajv compilations (each its own ajv instance and names), so they run side
 * by side, and beside the other emitters on the main thread. Every input compiles with the same
 * `compileStandalone` wherever it runs: the thread changes the time, never the code.
 */
import { compileStandalone, compileUnits, type CompileInput, type UnitsInput } from "./compile.js";
import type { UnitCode } from "./units.js";
import { defaultWorkerCount, orInline, poolOf, sizedBatches, type WorkerPool } from "../../workers/pool.js";

/**
 * Below this many exported validators an input compiles on the calling thread: starting a worker
 * (a fresh isolate loading ajv) costs more than such a compile takes. The three specs of this
 * repository stay under it; GitHub's REST description is far over it.
 * @default 500
 */
export const INLINE_BELOW_EXPORTS = 500;

/**
 * Units whose schemas come to less than this many bytes of JSON compile on the calling thread: a
 * worker starts cold (a fresh isolate loading ajv, its code not yet optimised) and would take longer
 * than the compile. The repository's specs have at most 31 KB of distinct units per module; GitHub's
 * REST description 2.1 MB (strict) and 164 KB (parameters).
 * @default 65_536
 */
export const INLINE_BELOW_UNIT_BYTES = 65_536;

/** The module whose functions the workers run: the calling thread's own compile functions. */
const COMPILE_MODULE = new URL("./compile.js", import.meta.url).href;

const onWorker = {
  document: (pool: WorkerPool, input: CompileInput): Promise<string> => pool.run<string>(COMPILE_MODULE, "compileStandalone", [input]),
  units: (pool: WorkerPool, input: UnitsInput): Promise<UnitCode[]> => pool.run<UnitCode[]>(COMPILE_MODULE, "compileUnits", [input]),
};

export interface CompileAllOptions {
  /** Worker threads to use at most; 0 compiles everything on the calling thread. @default defaultWorkerCount() */
  readonly workers?: number;
  /** Whole documents with fewer exports than this compile on the calling thread. @default INLINE_BELOW_EXPORTS */
  readonly inlineBelowExports?: number;
  /** Units with less schema JSON than this, together, compile on the calling thread. @default INLINE_BELOW_UNIT_BYTES */
  readonly inlineBelowBytes?: number;
}

/**
 * Compiles each input into its standalone module, in input order. Large inputs go to worker
 * threads; small ones, or all when there are no workers or the worker file is not beside this
 * module (running from sources), compile on the calling thread.
 */
export async function compileAll(inputs: readonly CompileInput[], options: CompileAllOptions = {}): Promise<string[]> {
  const workers = options.workers ?? defaultWorkerCount();
  const inlineBelow = options.inlineBelowExports ?? INLINE_BELOW_EXPORTS;
  const pool = poolOf(workers);
  // Worker jobs are posted first so they run while the calling thread compiles the small ones.
  const pending = inputs.map((input) => (pool && input.exports.size >= inlineBelow ? orInline(onWorker.document(pool, input), () => compileStandalone(input)) : undefined));
  // A throwing inline compile becomes a rejection, so Promise.all also settles the worker jobs.
  const results = inputs.map((input, i) => pending[i] ?? new Promise<string>((resolve) => resolve(compileStandalone(input))));
  return Promise.all(results);
}

/**
 * How many batches the units of a module are cut into per worker: more than one, so a worker that
 * drew cheap units takes another batch while the other finishes a costly one.
 * @default 4
 */
const BATCHES_PER_WORKER = 4;

/**
 * Compiles units, in their order. With workers, they go in contiguous batches of about equal
 * schema size; without (or for few units), on the calling thread. Either way each unit's code is
 * the same (compileUnits starts every unit from a fresh name scope).
 */
export async function compileUnitBatches(input: UnitsInput, options: CompileAllOptions = {}): Promise<UnitCode[]> {
  const workers = options.workers ?? defaultWorkerCount();
  const pool = poolOf(workers);
  const sizeOf = (u: UnitsInput["units"][number]): number => u.size + 200;
  const total = input.units.reduce((n, u) => n + sizeOf(u), 0);
  if (!pool || total < (options.inlineBelowBytes ?? INLINE_BELOW_UNIT_BYTES)) return compileUnits(input);
  const batches = sizedBatches(input.units, sizeOf, workers * BATCHES_PER_WORKER).map((units): UnitsInput => ({ ...input, units }));
  const done = await Promise.all(batches.map((b) => orInline(onWorker.units(pool, b), () => compileUnits(b))));
  return done.flat();
}
