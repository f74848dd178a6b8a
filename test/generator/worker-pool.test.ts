/**
 * The generator's worker threads run the generator's own exported functions: a task's answer is
 * the function's, its error is the function's, and ended workers are replaced on the next task.
 */
import { describe, expect, it } from "vitest";
import { WorkerPool, sizedBatches } from "../../generators/dist/workers/pool.js";
import { formatItems } from "../../generators/dist/write/format.js";

const FORMAT_MODULE = new URL("../../generators/dist/write/format.js", import.meta.url).href;
const TASKS = new URL("../fixtures/workers/tasks.mjs", import.meta.url).href;

interface Timed {
  readonly value: string;
  readonly concurrent: number;
  readonly startedAt: number;
  readonly endedAt: number;
}

/** Keeps this thread busy, as the generator's synchronous emitters do, for `ms`. */
function busy(ms: number): number {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // spin
  }
  return Date.now();
}
const items = [
  { text: "export const a={b:1}", parser: "babel-ts" },
  { text: "export const = ;", parser: "babel-ts" },
  { text: '{"a":[1,2]}', parser: "json" },
];

describe("the generator's worker pool", () => {
  it("answers what the function answers on the calling thread, one task per worker at a time", async () => {
    const pool = new WorkerPool(2, { maxOldGenerationSizeMb: 128 });
    const here = await formatItems(items);
    expect(here[1]).toBeNull();
    const answers = await Promise.all([1, 2, 3].map(() => pool.run(FORMAT_MODULE, "formatItems", [items])));
    expect(answers).toEqual([here, here, here]);
    pool.release();
  });

  it("rejects with the function's error, and with a clear one for a function the module lacks", async () => {
    const pool = new WorkerPool(1, {});
    await expect(pool.run(FORMAT_MODULE, "formatItems", [null])).rejects.toThrow(/not iterable/);
    await expect(pool.run(FORMAT_MODULE, "missing", [])).rejects.toThrow(`${FORMAT_MODULE} exports no function missing`);
    // The worker is still usable after a task's error.
    expect(await pool.run(FORMAT_MODULE, "formatItems", [items.slice(0, 1)])).toEqual([await formatItems(items.slice(0, 1))].flat());
    pool.release();
  });

  it("starts a new worker for a task after its idle workers were ended", async () => {
    const pool = new WorkerPool(1, {});
    const first = await pool.run(FORMAT_MODULE, "formatItems", [items]);
    pool.release();
    expect(await pool.run(FORMAT_MODULE, "formatItems", [items])).toEqual(first);
    pool.release();
    // A pool that keeps no idle worker ends each one after its task and starts another for the next.
    const oneShot = new WorkerPool(1, {}, false);
    expect(await oneShot.run(FORMAT_MODULE, "formatItems", [items])).toEqual(first);
    expect(await oneShot.run(FORMAT_MODULE, "formatItems", [items])).toEqual(first);
  });
});

describe("a worker's queue of posted tasks (depth)", () => {
  it("starts a worker's next task when its last ends, even while the calling thread is busy", async () => {
    const deep = new WorkerPool(1, {}, true, 2);
    const shallow = new WorkerPool(1, {}, true, 1);
    // Both pools get their worker started and its module loaded first, so only the hand-over is timed.
    await Promise.all([deep.run(TASKS, "timed", [0, "warm"]), shallow.run(TASKS, "timed", [0, "warm"])]);
    const [first, second] = [deep.run<Timed>(TASKS, "timed", [50, "a"]), deep.run<Timed>(TASKS, "timed", [50, "b"])];
    const [third, fourth] = [shallow.run<Timed>(TASKS, "timed", [50, "c"]), shallow.run<Timed>(TASKS, "timed", [50, "d"])];
    const freeAt = busy(600);
    const [a, b, c, d] = await Promise.all([first, second, third, fourth]);
    expect([a.value, b.value, c.value, d.value]).toEqual(["a", "b", "c", "d"]);
    // Posted together: the second ran while this thread was still busy, after the first, not beside it.
    expect(b.startedAt).toBeLessThan(freeAt);
    expect(b.startedAt).toBeGreaterThanOrEqual(a.endedAt);
    expect([a.concurrent, b.concurrent]).toEqual([1, 1]);
    // One at a time: the second waited for this thread to be free to hand it over.
    expect(d.startedAt).toBeGreaterThanOrEqual(freeAt);
    deep.release();
    shallow.release();
  });

  it("matches each answer to its task, an error to the task that threw, and fails every task of a worker that exits", async () => {
    const pool = new WorkerPool(1, {}, true, 3);
    const answers = await Promise.allSettled([pool.run<Timed>(TASKS, "timed", [20, "before"]), pool.run(TASKS, "fails", ["second task failed"]), pool.run<Timed>(TASKS, "timed", [0, "after"])]);
    expect(answers.map((r) => (r.status === "fulfilled" ? (r.value as Timed).value : (r.reason as Error).message))).toEqual(["before", "second task failed", "after"]);
    const lost = await Promise.allSettled([pool.run(TASKS, "exits", [3]), pool.run<Timed>(TASKS, "timed", [0, "lost"])]);
    expect(lost.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect((lost[0] as PromiseRejectedResult).reason).toBeInstanceOf(Error);
    // The next task gets a new worker.
    expect((await pool.run<Timed>(TASKS, "timed", [0, "again"])).value).toBe("again");
    pool.release();
  });
});

describe("sizedBatches", () => {
  it("cuts items, in order and all of them, into contiguous batches of about equal size", () => {
    const sizes = [5, 1, 1, 1, 8, 2, 2, 4, 1, 5];
    const batches = sizedBatches(sizes, (n) => n, 3);
    expect(batches.flat()).toEqual(sizes);
    // Each batch ends with the item that brings it to a third of the total (10).
    expect(batches).toEqual([
      [5, 1, 1, 1, 8],
      [2, 2, 4, 1, 5],
    ]);
    expect(sizedBatches(sizes, (n) => n, 1)).toEqual([sizes]);
    expect(sizedBatches([], (n: number) => n, 4)).toEqual([]);
  });
});
