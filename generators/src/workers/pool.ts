/**
 * Worker threads for the generator's pure, costly steps (compiling validators, formatting, printing
 * types). A task names a function exported by one of the generator's own modules and its arguments
 * (structured-cloneable data); the worker imports that module and runs the very function the calling
 * thread would run, so where a task ran changes the time, never the result.
 */
import { existsSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { Worker, type ResourceLimits } from "node:worker_threads";
import type { TaskRequest, TaskResponse } from "./thread.js";

/**
 * How many worker threads the generator uses when the caller does not say: `CONTRACTGEN_WORKERS`
 * when it is a whole number (0 runs everything on the calling thread), else two, or one on a
 * single-core machine.
 * @default min(2, os.availableParallelism())
 */
export function defaultWorkerCount(): number {
  const fromEnv = process.env["CONTRACTGEN_WORKERS"];
  if (fromEnv !== undefined && /^\d+$/.test(fromEnv.trim())) return Number(fromEnv.trim());
  return Math.min(2, os.availableParallelism());
}

const threadFile = fileURLToPath(new URL("./thread.js", import.meta.url));

/** A module of this generator, as a task names it: its URL, so a worker imports the same file. */
export type TaskModule = string;

interface Job {
  readonly request: TaskRequest;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
}

/**
 * A pool of worker threads, started on first use and kept for the process's later packages. Idle
 * workers are unref'd, so they never keep a finished run alive. A worker runs one task at a time.
 */
export class WorkerPool {
  readonly #idle: Worker[] = [];
  readonly #queue: Job[] = [];
  #size = 0;

  /**
   * @param limit workers at most
   * @param resourceLimits each worker's heap limits
   * @param keepIdle keep a worker with nothing to do for later tasks; when false it ends at once,
   *   freeing its heap (for tasks that leave hundreds of MB behind and come once per package)
   */
  constructor(
    readonly limit: number,
    readonly resourceLimits: ResourceLimits,
    readonly keepIdle = true,
  ) {}

  /** Runs `module`'s export `fn` with `args` on a worker; its (awaited) result, or its error. */
  run<T>(module: TaskModule, fn: string, args: readonly unknown[]): Promise<T> {
    return new Promise<unknown>((resolve, reject) => {
      this.#queue.push({ request: { module, fn, args }, resolve, reject });
      this.#pump();
    }) as Promise<T>;
  }

  /**
   * Ends the idle workers: their heaps, hundreds of MB after a large contract, are freed before the
   * output is written. A later task starts a new worker.
   */
  release(): void {
    for (const worker of this.#idle.splice(0)) {
      this.#size--;
      void worker.terminate();
    }
  }

  #pump(): void {
    while (this.#queue.length > 0) {
      let worker = this.#idle.pop();
      if (!worker) {
        if (this.#size >= this.limit) return;
        worker = new Worker(threadFile, { resourceLimits: this.resourceLimits });
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
    const onMessage = (response: TaskResponse): void => {
      done();
      worker.unref();
      this.#idle.push(worker);
      if (!this.keepIdle && this.#queue.length === 0) this.release();
      if ("error" in response) job.reject(Object.assign(new Error(response.error.message), response.error.stack !== undefined ? { stack: response.error.stack } : {}));
      else job.resolve(response.value);
      this.#pump();
    };
    const onError = (error: Error): void => drop(error);
    const onExit = (code: number): void => drop(new Error(`a generator worker thread exited with code ${code}`));
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    try {
      worker.postMessage(job.request);
    } catch (err) {
      // Arguments that cannot be cloned (a DataCloneError): the task fails, the worker is unharmed.
      done();
      worker.unref();
      this.#idle.push(worker);
      job.reject(err instanceof Error ? err : new Error(String(err)));
      this.#pump();
    }
  }
}

/** Which pool: the small-heap one for many short tasks, or the one for a few memory-hungry ones. */
export type PoolKind = "tasks" | "large" | "large-kept";

/**
 * Heap limits per kind of pool, in MiB. `tasks` (validator units, formatting): work comes in small
 * steps. The young generation is 32 MiB: with 16, scavenges were a fifth of a compile worker's CPU
 * on GitHub's spec, and 32 took 1.2–1.5 s less CPU in all (about 6%) at the same peak RSS
 * (790 MiB; 64 gained nothing more). When the rest of the run was larger, 64 had peaked at
 * 1.14 GB. The old generation is capped so a worker collects instead of growing, and a task that
 * runs out of it is rerun on the calling thread (see `orInline`). `large` (printing a whole
 * contract's types): one task holds a whole document and its syntax tree; it allocates fast, so a
 * larger young generation saves scavenges, and its old generation is left to Node's default.
 */
const KINDS: Readonly<Record<PoolKind, { readonly limits: ResourceLimits; readonly keepIdle: boolean }>> = {
  tasks: { limits: { maxYoungGenerationSizeMb: 32, maxOldGenerationSizeMb: 256 }, keepIdle: true },
  // A large task's worker ends as soon as it is done: its heap held a whole document.
  large: { limits: { maxYoungGenerationSizeMb: 48 }, keepIdle: false },
  // The same, kept between the runs of one process (`--watch`): its code stays loaded and warm.
  "large-kept": { limits: { maxYoungGenerationSizeMb: 48 }, keepIdle: true },
};

const pools = new Map<string, WorkerPool>();

/**
 * The pool of `kind` with this many workers (started on first use), or none when tasks run in
 * place: no workers asked for, or the worker entry is not beside this module (running from sources).
 */
export function poolOf(workers: number, kind: PoolKind = "tasks"): WorkerPool | undefined {
  if (workers <= 0 || !existsSync(threadFile)) return undefined;
  const key = `${kind}/${workers}`;
  let pool = pools.get(key);
  if (!pool) pools.set(key, (pool = new WorkerPool(workers, KINDS[kind].limits, KINDS[kind].keepIdle)));
  return pool;
}

/** Ends every pool's idle workers (see WorkerPool.release). */
export function releaseWorkers(): void {
  for (const pool of pools.values()) pool.release();
}

/**
 * `items` cut, in order, into about `count` contiguous batches of about equal size: a batch ends
 * with the item that brings it to its share of the total.
 */
export function sizedBatches<T>(items: readonly T[], sizeOf: (item: T) => number, count: number): T[][] {
  const sizes = items.map(sizeOf);
  const target = sizes.reduce((a, b) => a + b, 0) / Math.max(1, count);
  const batches: T[][] = [];
  let start = 0;
  let size = 0;
  sizes.forEach((s, i) => {
    size += s;
    if (size >= target || i === sizes.length - 1) {
      batches.push(items.slice(start, i + 1));
      start = i + 1;
      size = 0;
    }
  });
  return batches;
}

/** Whether a worker's error says it ran out of its heap (the same task then runs on the calling thread). */
export function isOutOfMemory(err: unknown): boolean {
  return err instanceof Error && ((err as { code?: unknown }).code === "ERR_WORKER_OUT_OF_MEMORY" || /out of memory/i.test(err.message));
}

/**
 * A worker's result, or, when the worker hit its memory cap, the same task on the calling thread
 * (which has no cap and gives the same result). Any other failure stays a failure.
 */
export function orInline<T>(onWorker: Promise<T>, inline: () => T | Promise<T>): Promise<T> {
  return onWorker.catch((err: unknown) => {
    if (isOutOfMemory(err)) return inline();
    throw err;
  });
}
