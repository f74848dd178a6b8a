/**
 * Batch limits as the contracts' `x-limits` state them: items and bytes per request, requests per
 * window. Document 2: 25 products per PUT; 2500 operations and 5,000,000 bytes per membership
 * request; 1500 membership requests per minute; 200 total-count requests per 15 minutes.
 */

import { BatchItemTooLargeError } from "./errors.js";
import { abortReason, sleep } from "./retry.js";
import { raceSignal } from "./signals.js";

export interface ChunkOptions<T> {
  /** Most items per chunk. @default Infinity */
  readonly maxItems?: number | undefined;
  /** Most bytes per chunk, as `size` measures them. @default Infinity */
  readonly maxBytes?: number | undefined;
  /**
   * Size of a would-be chunk. When given it is called on growing candidate chunks; the default
   * computes the same number from per-item sizes, without re-serializing the chunk.
   * @default the UTF-8 byte length of JSON.stringify(chunk), i.e. of a JSON array body
   */
  readonly size?: ((chunk: readonly T[]) => number) | undefined;
}

const utf8Length = (text: string): number => Buffer.byteLength(text, "utf8");

/** Bytes of one array element as JSON.stringify writes it (undefined and functions become null). */
function elementBytes(item: unknown): number {
  const json = JSON.stringify(item) as string | undefined;
  return json === undefined ? 4 : utf8Length(json);
}

/**
 * Splits `items` into consecutive chunks, in order, each within `maxItems` and `maxBytes`. Chunks
 * are filled greedily, so every chunk but the last is as full as the limits allow. Throws
 * `BatchItemTooLargeError` (naming the item's index) when one item alone exceeds `maxBytes`.
 */
export function chunk<T>(items: readonly T[], options: ChunkOptions<T> = {}): T[][] {
  const maxItems = options.maxItems ?? Infinity;
  const maxBytes = options.maxBytes ?? Infinity;
  if (!(maxItems >= 1)) throw new RangeError("maxItems must be at least 1");
  const chunks: T[][] = [];
  let current: T[] = [];
  // Running size of `current` under the default measure: `[` + items joined by `,` + `]`.
  let bytes = 2;
  const custom = options.size;
  const bounded = Number.isFinite(maxBytes);

  items.forEach((item, index) => {
    let itemBytes = 0;
    let fits = current.length < maxItems;
    if (bounded) {
      if (custom) fits &&= custom([...current, item]) <= maxBytes;
      else {
        itemBytes = elementBytes(item);
        fits &&= bytes + itemBytes + (current.length > 0 ? 1 : 0) <= maxBytes;
      }
    }
    if (!fits && current.length > 0) {
      chunks.push(current);
      current = [];
      bytes = 2;
    }
    if (bounded && current.length === 0) {
      const alone = custom ? custom([item]) : 2 + itemBytes;
      if (alone > maxBytes) throw new BatchItemTooLargeError(index, alone, maxBytes);
    }
    bytes += itemBytes + (current.length > 0 ? 1 : 0);
    current.push(item);
  });
  if (current.length > 0) chunks.push(current);
  return chunks;
}

export interface RateLimiterOptions {
  /** Requests allowed per window. */
  readonly requests: number;
  /** Window length in milliseconds. */
  readonly windowMs: number;
  /** @default Date.now */
  readonly now?: () => number;
  /** Must reject with the abort reason when the signal aborts. @default a timer-based sleep */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * A sliding-window limiter: at most `requests` acquisitions within any `windowMs`. A sliding log
 * rather than fixed windows, so a burst at the end of one window and the start of the next cannot
 * double the rate the server enforces. Waiters are served first come, first served.
 */
export class RateLimiter {
  readonly #requests: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly #granted: number[] = [];
  #queue: Promise<void> = Promise.resolve();

  constructor(options: RateLimiterOptions) {
    if (!(options.requests >= 1) || !(options.windowMs > 0)) {
      throw new RangeError("A rate limiter needs requests >= 1 and windowMs > 0");
    }
    this.#requests = options.requests;
    this.#windowMs = options.windowMs;
    this.#now = options.now ?? Date.now;
    this.#sleep = options.sleep ?? sleep;
  }

  /** Resolves when a request may be sent, recording it. An aborted waiter gives up its place. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const turn = this.#queue.then(() => this.#take(signal));
    this.#queue = turn.catch(() => undefined);
    return raceSignal(turn, signal);
  }

  async #take(signal?: AbortSignal): Promise<void> {
    for (;;) {
      if (signal?.aborted) throw abortReason(signal);
      const now = this.#now();
      while (this.#granted.length > 0 && (this.#granted[0] as number) <= now - this.#windowMs) this.#granted.shift();
      if (this.#granted.length < this.#requests) {
        this.#granted.push(now);
        return;
      }
      await this.#sleep((this.#granted[0] as number) + this.#windowMs - now, signal);
    }
  }
}

export type BatchOutcome<T, R> =
  | { readonly ok: true; readonly offset: number; readonly items: readonly T[]; readonly result: R }
  | { readonly ok: false; readonly offset: number; readonly items: readonly T[]; readonly error: unknown };

export interface RunBatchesOptions<T, R> extends ChunkOptions<T> {
  readonly items: readonly T[];
  /** Sends one chunk; `offset` is the input index of its first item. */
  readonly send: (chunk: readonly T[], offset: number, signal?: AbortSignal) => Promise<R>;
  /** Paces the requests (acquired once per chunk). @default undefined */
  readonly limiter?: RateLimiter | undefined;
  /** Chunks in flight at once. @default 1 */
  readonly concurrency?: number | undefined;
  /** Stops sending further chunks; those get the abort reason as their error. @default undefined */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Chunks the items and sends every chunk, resolving with one outcome per chunk in input order.
 * A failed chunk does not stop the others: a batch request succeeds or fails as a whole, so the
 * caller needs to know exactly which chunks went through. Oversized items are reported before
 * anything is sent.
 */
export async function runBatches<T, R>(options: RunBatchesOptions<T, R>): Promise<BatchOutcome<T, R>[]> {
  const chunks = chunk(options.items, options);
  const offsets: number[] = [];
  let offset = 0;
  for (const c of chunks) {
    offsets.push(offset);
    offset += c.length;
  }
  const outcomes = new Array<BatchOutcome<T, R>>(chunks.length);
  let next = 0;
  const { signal } = options;

  const worker = async (): Promise<void> => {
    while (next < chunks.length) {
      const i = next++;
      const items = chunks[i] as T[];
      const at = offsets[i] as number;
      try {
        if (signal?.aborted) throw abortReason(signal);
        await options.limiter?.acquire(signal);
        outcomes[i] = { ok: true, offset: at, items, result: await options.send(items, at, signal) };
      } catch (error) {
        outcomes[i] = { ok: false, offset: at, items, error };
      }
    }
  };
  const concurrency = Math.max(1, Math.min(options.concurrency ?? 1, chunks.length));
  await Promise.all(Array.from({ length: concurrency }, worker));
  return outcomes;
}

/**
 * Maps item-level errors of one chunk back to input indexes: each entry's index field (named by
 * `key`, since document 2 does not show the field's name) plus the chunk's offset. Entries without
 * a numeric index are returned unchanged.
 */
export function offsetIndexes<E extends object>(entries: readonly E[] | undefined, offset: number, key: string = "index"): E[] {
  return (entries ?? []).map((entry) => {
    const value = (entry as Record<string, unknown>)[key];
    return typeof value === "number" ? ({ ...entry, [key]: value + offset } as E) : entry;
  });
}
