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

/** A task handed to a worker, by the id its answer carries. */
interface Job {
  readonly request: TaskRequest;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
}

/** A task not yet handed to a worker: it gets its id then. */
type Queued = Omit<Job, "request"> & { readonly request: Omit<TaskRequest, "id"> };

/** A worker and the tasks posted to it that have not answered yet, by id. */
interface Slot {
  readonly worker: Worker;
  readonly pending: Map<number, Job>;
}

/**
 * A pool of worker threads, started on first use and kept for the process's later packages. Idle
 * workers are unref'd, so they never keep a finished run alive. A worker runs one task at a time;
 * with a `depth` above one, its next tasks already wait in its port (see the constructor).
 */
export class WorkerPool {
  readonly #slots: Slot[] = [];
  readonly #queue: Queued[] = [];
  #nextId = 0;

  /**
   * @param limit workers at most
   * @param resourceLimits each worker's heap limits
   * @param keepIdle keep a worker with nothing to do for later tasks; when false it ends at once,
   *   freeing its heap (for tasks that leave hundreds of MB behind and come once per package)
   * @param depth tasks posted to one worker before it answers. Above one, a worker starts its next
   *   task as soon as it ends one, even while the calling thread is busy with synchronous work (which
   *   is when it could not hand the task over). The worker still runs them one at a time. @default 1
   */
  constructor(
    readonly limit: number,
    readonly resourceLimits: ResourceLimits,
    readonly keepIdle = true,
    readonly depth = 1,
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
    for (const slot of [...this.#slots]) if (slot.pending.size === 0) this.#end(slot);
  }

  /** Hands queued tasks to an idle worker, a new one while under the limit, else the least busy one under `depth`. */
  #pump(): void {
    while (this.#queue.length > 0) {
      let slot = this.#slots.find((s) => s.pending.size === 0);
      if (!slot && this.#slots.length < this.limit) slot = this.#spawn();
      slot ??= this.#slots.filter((s) => s.pending.size < this.depth).sort((a, b) => a.pending.size - b.pending.size)[0];
      if (!slot) return;
      const { request, resolve, reject } = this.#queue.shift() as Queued;
      this.#post(slot, { request: { ...request, id: this.#nextId++ }, resolve, reject });
    }
  }

  #spawn(): Slot {
    const slot: Slot = { worker: new Worker(threadFile, { resourceLimits: this.resourceLimits }), pending: new Map() };
    this.#slots.push(slot);
    // A worker that failed is dropped, not reused: its isolate may be in any state. Every task it
    // held fails with the error.
    const drop = (error: Error): void => {
      if (!this.#end(slot)) return;
      for (const job of slot.pending.values()) job.reject(error);
      slot.pending.clear();
      this.#pump();
    };
    slot.worker.on("message", (response: TaskResponse) => {
      const job = slot.pending.get(response.id);
      if (job === undefined) return;
      slot.pending.delete(response.id);
      this.#settled(slot);
      if ("error" in response) job.reject(Object.assign(new Error(response.error.message), response.error.stack !== undefined ? { stack: response.error.stack } : {}));
      else job.resolve(response.value);
    });
    slot.worker.on("error", drop);
    slot.worker.on("exit", (code: number) => drop(new Error(`a generator worker thread exited with code ${code}`)));
    return slot;
  }

  #post(slot: Slot, job: Job): void {
    slot.worker.ref();
    slot.pending.set(job.request.id, job);
    try {
      slot.worker.postMessage(job.request);
    } catch (err) {
      // Arguments that cannot be cloned (a DataCloneError): the task fails, the worker is unharmed.
      slot.pending.delete(job.request.id);
      this.#settled(slot);
      job.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }

  /** After a task of `slot` ended: an idle worker lets the process exit, or ends; queued tasks go on. */
  #settled(slot: Slot): void {
    if (slot.pending.size === 0) {
      slot.worker.unref();
      if (!this.keepIdle && this.#queue.length === 0) this.#end(slot);
    }
    this.#pump();
  }

  /** Takes `slot` out of the pool and ends its worker; false when it was out already (its exit, after we ended it). */
  #end(slot: Slot): boolean {
    const at = this.#slots.indexOf(slot);
    if (at < 0) return false;
    this.#slots.splice(at, 1);
    void slot.worker.terminate();
    return true;
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
const KINDS: Readonly<Record<PoolKind, { readonly limits: ResourceLimits; readonly keepIdle: boolean; readonly depth: number }>> = {
  tasks: { limits: { maxYoungGenerationSizeMb: 32, maxOldGenerationSizeMb: 256 }, keepIdle: true, depth: 1 },
  // A large task's worker ends as soon as it is done: its heap held a whole document. Its tasks (the
  // types, then the model-only emitters: emit/offload.ts) are posted together, so the second starts
  // when the first ends, not when this thread is next free (during its synchronous emitters).
  large: { limits: { maxYoungGenerationSizeMb: 48 }, keepIdle: false, depth: 4 },
  // The same, kept between the runs of one process (`--watch`): its code stays loaded and warm. Its
  // young generation is four times as large: on GitHub's description it receives a clone of the
  // whole model each run and diffs the release and runs three emitters on it, and scavenges took half as long (about
  // 0.13 s less per run); a one-off run keeps 48 MiB for its peak memory.
  "large-kept": { limits: { maxYoungGenerationSizeMb: 192 }, keepIdle: true, depth: 4 },
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
  if (!pool) pools.set(key, (pool = new WorkerPool(workers, KINDS[kind].limits, KINDS[kind].keepIdle, KINDS[kind].depth)));
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
