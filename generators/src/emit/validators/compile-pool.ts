/**
 * Standalone validator modules compiled on worker threads. The strict and the coercing module of a
 * package are independent ajv compilations (each its own ajv instance and names), so they run side
 * by side, and beside the other emitters on the main thread. Every input compiles with the same
 * `compileStandalone` wherever it runs: the thread changes the time, never the code.
 */
import { existsSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { compileStandalone, compileUnits, type CompileInput, type UnitsInput } from "./compile.js";
import type { UnitCode } from "./units.js";
import type { CompileRequest, CompileResponse } from "./compile-worker.js";

/**
 * Below this many exported validators an input compiles on the calling thread: starting a worker
 * (a fresh isolate loading ajv) costs more than such a compile takes. The three specs of this
 * repository stay under it; GitHub's REST description is far over it.
 * @default 500
 */
export const INLINE_BELOW_EXPORTS = 500;

/**
 * How many worker threads compile validators when the caller does not say: `CONTRACTGEN_WORKERS`
 * when it is a whole number (0 compiles everything on the calling thread), else two, or one on a
 * single-core machine.
 * @default min(2, os.availableParallelism())
 */
export function defaultWorkerCount(): number {
  const fromEnv = process.env["CONTRACTGEN_WORKERS"];
  if (fromEnv !== undefined && /^\d+$/.test(fromEnv.trim())) return Number(fromEnv.trim());
  return Math.min(2, os.availableParallelism());
}

/**
 * The young generation of a worker, in MiB. Compiling unit by unit allocates in small steps; a
 * large young generation only let garbage pile up (GitHub's spec peaked at 1.14 GB with 64 MiB,
 * 0.98 GB with 16 MiB, at no measurable CPU cost).
 * @default 16
 */
const WORKER_YOUNG_GENERATION_MB = 16;

/**
 * The old generation of a worker, in MiB: a batch of units and ajv's state fit well within it, and
 * a cap makes the worker collect instead of growing. A batch whose worker runs out of it compiles
 * on the calling thread instead (the same code, see compileUnitBatches).
 * @default 256
 */
const WORKER_OLD_GENERATION_MB = 256;

const workerFile = fileURLToPath(new URL("./compile-worker.js", import.meta.url));

interface Job {
  readonly request: CompileRequest;
  readonly resolve: (response: CompileResponse) => void;
  readonly reject: (error: Error) => void;
}

/**
 * A small pool of compile workers, started on first use and kept for the process's later packages.
 * Idle workers are unref'd, so they never keep a finished run alive.
 */
class CompilePool {
  readonly #idle: Worker[] = [];
  readonly #queue: Job[] = [];
  #size = 0;

  constructor(readonly limit: number) {}

  run(input: CompileInput): Promise<string> {
    return this.#post({ input }).then((r) => ("code" in r ? r.code : Promise.reject(new Error("a compile worker answered units for a document"))));
  }

  runUnits(units: UnitsInput): Promise<UnitCode[]> {
    return this.#post({ units }).then((r) => ("units" in r ? [...r.units] : Promise.reject(new Error("a compile worker answered a document for units"))));
  }

  #post(request: CompileRequest): Promise<CompileResponse> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ request, resolve, reject });
      this.#pump();
    });
  }

  #pump(): void {
    while (this.#queue.length > 0) {
      let worker = this.#idle.pop();
      if (!worker) {
        if (this.#size >= this.limit) return;
        worker = new Worker(workerFile, { resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB, maxOldGenerationSizeMb: WORKER_OLD_GENERATION_MB } });
        this.#size++;
      }
      this.#start(worker, this.#queue.shift() as Job);
    }
  }

  #start(worker: Worker, job: Job): void {
    worker.ref();
    const done = (): void => {
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
    };
    // A worker that failed is dropped, not reused: its isolate may be in any state.
    const drop = (error: Error): void => {
      done();
      this.#size--;
      void worker.terminate();
      job.reject(error);
      this.#pump();
    };
    const onMessage = (response: CompileResponse): void => {
      done();
      worker.unref();
      this.#idle.push(worker);
      if (!("error" in response)) job.resolve(response);
      else job.reject(Object.assign(new Error(response.error.message), response.error.stack !== undefined ? { stack: response.error.stack } : {}));
      this.#pump();
    };
    const onError = (error: Error): void => drop(error);
    const onExit = (code: number): void => drop(new Error(`a validator compile worker exited with code ${code}`));
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    worker.postMessage(job.request);
  }
}

const pools = new Map<number, CompilePool>();

export interface CompileAllOptions {
  /** Worker threads to use at most; 0 compiles everything on the calling thread. @default defaultWorkerCount() */
  readonly workers?: number;
  /** Inputs with fewer exports than this compile on the calling thread. @default INLINE_BELOW_EXPORTS */
  readonly inlineBelowExports?: number;
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
  const pending = inputs.map((input) =>
    pool && input.exports.size >= inlineBelow ? orInline(pool.run(input), () => compileStandalone(input)) : undefined,
  );
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
  const inlineBelow = options.inlineBelowExports ?? INLINE_BELOW_EXPORTS;
  const pool = poolOf(workers);
  if (!pool || input.units.length < inlineBelow) return compileUnits(input);
  const sizes = input.units.map((u) => u.size + 200);
  const total = sizes.reduce((a, b) => a + b, 0);
  const target = total / (workers * BATCHES_PER_WORKER);
  const batches: UnitsInput[] = [];
  let start = 0;
  let size = 0;
  sizes.forEach((s, i) => {
    size += s;
    if (size >= target || i === sizes.length - 1) {
      batches.push({ ...input, units: input.units.slice(start, i + 1) });
      start = i + 1;
      size = 0;
    }
  });
  const done = await Promise.all(batches.map((b) => orInline(pool.runUnits(b), () => compileUnits(b))));
  return done.flat();
}

/** The pool for this many workers (started on first use), or none when compiling in place. */
function poolOf(workers: number): CompilePool | undefined {
  if (workers === 0 || !existsSync(workerFile)) return undefined;
  let pool = pools.get(workers);
  if (!pool) pools.set(workers, (pool = new CompilePool(workers)));
  return pool;
}

/**
 * A worker's result, or, when the worker hit its memory cap, the same compile on the calling
 * thread (which has no cap and gives the same code). Any other failure stays a failure.
 */
function orInline<T>(onWorker: Promise<T>, inline: () => T): Promise<T> {
  return onWorker.catch((err: unknown) => {
    if (err instanceof Error && ((err as { code?: unknown }).code === "ERR_WORKER_OUT_OF_MEMORY" || /out of memory/i.test(err.message))) return inline();
    throw err;
  });
}
