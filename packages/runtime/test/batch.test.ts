import { describe, expect, it } from "vitest";
import { chunk, offsetIndexes, RateLimiter, runBatches } from "../src/client/batch.js";
import { BatchItemTooLargeError } from "../src/client/errors.js";

const bytesOf = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), "utf8");
const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

/** A membership operation whose size is set by the length of its partner id. */
const operation = (pad: number) => ({
  operation_type: "Update",
  params: { users: [{ partner_user_id: ["x".repeat(pad)] }] },
});

/** `count` operations whose JSON array body is exactly `total` bytes. */
function operationsTotalling(count: number, total: number) {
  const base = Math.floor(total / count) - 80;
  const ops = range(count).map(() => operation(base));
  const last = ops.length - 1;
  ops[last] = operation(base + (total - bytesOf(ops)));
  expect(bytesOf(ops)).toBe(total);
  return ops;
}

describe("chunk: item limits", () => {
  it.each([
    [25, 25, [25]],
    [26, 25, [25, 1]],
    [2500, 2500, [2500]],
    [2501, 2500, [2500, 1]],
    [0, 25, []],
  ])("%i items, at most %i per chunk → chunk sizes %j", (count, maxItems, sizes) => {
    const chunks = chunk(range(count), { maxItems });
    expect(chunks.map((c) => c.length)).toEqual(sizes);
    expect(chunks.flat()).toEqual(range(count)); // order kept, nothing lost
  });
});

describe("chunk: the 5,000,000-byte membership body", () => {
  const limits = { maxItems: 2500, maxBytes: 5_000_000 };

  it("keeps a body of exactly 5,000,000 bytes in one request", () => {
    const ops = operationsTotalling(1000, 5_000_000);
    const chunks = chunk(ops, limits);
    expect(chunks).toHaveLength(1);
    expect(bytesOf(chunks[0])).toBe(5_000_000);
  });

  it("splits a body one byte over, the last operation going to a second request", () => {
    const ops = operationsTotalling(1000, 5_000_001);
    const chunks = chunk(ops, limits);
    expect(chunks.map((c) => c.length)).toEqual([999, 1]);
    for (const c of chunks) expect(bytesOf(c)).toBeLessThanOrEqual(5_000_000);
  });

  it("applies both limits together: 2501 small operations still make two requests", () => {
    const chunks = chunk(
      range(2501).map(() => operation(10)),
      limits,
    );
    expect(chunks.map((c) => c.length)).toEqual([2500, 1]);
  });

  it("counts UTF-8 bytes, not characters", () => {
    // ["éé","éé"] is 11 characters but 15 bytes.
    expect(chunk(["éé", "éé"], { maxBytes: 14 })).toEqual([["éé"], ["éé"]]);
    expect(chunk(["éé", "éé"], { maxBytes: 15 })).toEqual([["éé", "éé"]]);
  });

  it("names the index of an item too large to send even alone, before chunking anything", () => {
    const items = [operation(10), operation(10), operation(200)];
    const error = (() => {
      try {
        chunk(items, { maxBytes: bytesOf([operation(100)]) });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(BatchItemTooLargeError);
    expect(error).toMatchObject({ name: "BatchItemTooLargeError", index: 2, size: bytesOf([items[2]]) });
  });

  it("uses a custom size function when given (for bodies that wrap the array)", () => {
    const size = (c: readonly number[]): number => bytesOf({ products: c });
    const chunks = chunk(range(10), { maxBytes: bytesOf({ products: [0, 1, 2] }), size });
    expect(chunks).toEqual([[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]);
  });
});

describe("RateLimiter", () => {
  function fakeClock() {
    let t = 0;
    return {
      now: () => t,
      sleep: async (ms: number) => {
        t += ms;
      },
      advance: (ms: number) => {
        t += ms;
      },
    };
  }

  it("lets `requests` through per window, then waits for the oldest to leave it", async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ requests: 3, windowMs: 1000, ...clock });
    const times: number[] = [];
    for (let i = 0; i < 7; i++) {
      await limiter.acquire();
      times.push(clock.now());
    }
    expect(times).toEqual([0, 0, 0, 1000, 1000, 1000, 2000]);
  });

  it("slides: spaced requests free their slots one by one", async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ requests: 2, windowMs: 1000, ...clock });
    await limiter.acquire(); // t=0
    clock.advance(400);
    await limiter.acquire(); // t=400
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      await limiter.acquire();
      times.push(clock.now());
    }
    expect(times).toEqual([1000, 1400, 2000]);
  });

  it("paces the membership limit: 1500 per minute", async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ requests: 1500, windowMs: 60_000, ...clock });
    const times: number[] = [];
    for (let i = 0; i < 3001; i++) {
      await limiter.acquire();
      times.push(clock.now());
    }
    expect(times[1499]).toBe(0);
    expect(times[1500]).toBe(60_000);
    expect(times[3000]).toBe(120_000);
  });

  it("serves concurrent waiters first come, first served", async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ requests: 1, windowMs: 100, ...clock });
    const order: string[] = [];
    await Promise.all(["a", "b", "c"].map((name) => limiter.acquire().then(() => order.push(`${name}@${clock.now()}`))));
    expect(order).toEqual(["a@0", "b@100", "c@200"]);
  });

  it("an aborted waiter rejects with the reason and gives up its place", async () => {
    let t = 0;
    const limiter = new RateLimiter({
      requests: 1,
      windowMs: 1000,
      now: () => t,
      // Never finishes by itself: only an abort ends this wait.
      sleep: (_ms, signal) => new Promise((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason), { once: true })),
    });
    await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    controller.abort(new Error("stop"));
    await expect(waiting).rejects.toThrow("stop");
    t = 1000;
    await expect(limiter.acquire()).resolves.toBeUndefined();
  });
});

describe("runBatches", () => {
  it("sends chunks in order with the input offset of each, so item errors map back to input indexes", async () => {
    const sent: [number, number][] = [];
    const outcomes = await runBatches({
      items: range(60),
      maxItems: 25,
      send: async (items, offset) => {
        sent.push([offset, items.length]);
        // The server reports item errors by index within the request.
        return { operation_errors: [{ index: 3, message: "missing params" }] };
      },
    });
    expect(sent).toEqual([
      [0, 25],
      [25, 25],
      [50, 10],
    ]);
    const inputIndexes = outcomes.flatMap((o) => (o.ok ? offsetIndexes(o.result.operation_errors, o.offset) : []));
    expect(inputIndexes.map((e) => e.index)).toEqual([3, 28, 53]);
    expect(inputIndexes[1]).toEqual({ index: 28, message: "missing params" });
  });

  it("offsetIndexes reads the index from a named field and leaves entries without one alone", () => {
    expect(offsetIndexes([{ item: 1 }, { other: true }], 100, "item")).toEqual([{ item: 101 }, { other: true }]);
    expect(offsetIndexes(undefined, 5)).toEqual([]);
  });

  it("reports a failed chunk without stopping the others", async () => {
    const outcomes = await runBatches({
      items: range(6),
      maxItems: 2,
      send: async (items, offset) => {
        if (offset === 2) throw new Error("503 for this chunk");
        return items.length;
      },
    });
    expect(outcomes.map((o) => [o.offset, o.ok])).toEqual([
      [0, true],
      [2, false],
      [4, true],
    ]);
    const failed = outcomes[1];
    expect(failed?.ok === false && failed.error).toBeInstanceOf(Error);
    expect(failed?.items).toEqual([2, 3]);
  });

  it("runs `concurrency` chunks at once and still returns outcomes in input order", async () => {
    let inFlight = 0;
    let peak = 0;
    const outcomes = await runBatches({
      items: range(8),
      maxItems: 1,
      concurrency: 3,
      send: async (items) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((r) => setTimeout(r, (8 - (items[0] as number)) * 2));
        inFlight--;
        return items[0];
      },
    });
    expect(peak).toBe(3);
    expect(outcomes.map((o) => (o.ok ? o.result : undefined))).toEqual(range(8));
  });

  it("paces chunks through a rate limiter", async () => {
    let t = 0;
    const limiter = new RateLimiter({ requests: 2, windowMs: 1000, now: () => t, sleep: async (ms) => void (t += ms) });
    const sentAt: number[] = [];
    await runBatches({ items: range(5), maxItems: 1, limiter, send: async () => void sentAt.push(t) });
    expect(sentAt).toEqual([0, 0, 1000, 1000, 2000]);
  });

  it("refuses an oversized item before sending anything", async () => {
    let calls = 0;
    const run = runBatches({ items: ["ok", "x".repeat(50)], maxBytes: 20, send: async () => void calls++ });
    await expect(run).rejects.toMatchObject({ name: "BatchItemTooLargeError", index: 1 });
    expect(calls).toBe(0);
  });

  it("after an abort, chunks not yet sent carry the abort reason", async () => {
    const controller = new AbortController();
    const reason = new Error("user cancelled");
    const outcomes = await runBatches({
      items: range(3),
      maxItems: 1,
      signal: controller.signal,
      send: async (items) => {
        controller.abort(reason);
        return items[0];
      },
    });
    expect(outcomes[0]).toMatchObject({ ok: true, result: 0 });
    expect(outcomes.slice(1).map((o) => (o.ok ? undefined : o.error))).toEqual([reason, reason]);
  });
});
