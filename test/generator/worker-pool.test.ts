/**
 * The generator's worker threads run the generator's own exported functions: a task's answer is
 * the function's, its error is the function's, and ended workers are replaced on the next task.
 */
import { describe, expect, it } from "vitest";
import { WorkerPool, sizedBatches } from "../../generators/dist/workers/pool.js";
import { formatItems } from "../../generators/dist/write/format.js";

const FORMAT_MODULE = new URL("../../generators/dist/write/format.js", import.meta.url).href;
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

describe("sizedBatches", () => {
  it("cuts items, in order and all of them, into contiguous batches of about equal size", () => {
    const sizes = [5, 1, 1, 1, 8, 2, 2, 4, 1, 5];
    const batches = sizedBatches(sizes, (n) => n, 3);
    expect(batches.flat()).toEqual(sizes);
    // Each batch ends with the item that brings it to a third of the total (10).
    expect(batches).toEqual([[5, 1, 1, 1, 8], [2, 2, 4, 1, 5]]);
    expect(sizedBatches(sizes, (n) => n, 1)).toEqual([sizes]);
    expect(sizedBatches([], (n: number) => n, 4)).toEqual([]);
  });
});
