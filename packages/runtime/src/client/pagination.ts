/**
 * Cursor pagination as async iterators. The caller supplies the accessors, so one implementation
 * serves both styles of the contracts: ads (`cursor` → `next_cursor`) and core
 * (`pagination_token` → `meta.next_token`).
 */

import { abortReason } from "./retry.js";

export interface PagesOptions<Page> {
  /** Fetches one page; `cursor` is undefined for the first. */
  readonly fetchPage: (cursor: string | undefined, signal?: AbortSignal) => Promise<Page>;
  /** The cursor of the next page; null, undefined or "" when this is the last page. */
  readonly next: (page: Page) => string | null | undefined;
  /** Stops the iteration (it throws the abort reason) between and during page fetches. @default undefined */
  readonly signal?: AbortSignal | undefined;
  /** Upper bound on pages fetched. @default Infinity */
  readonly maxPages?: number | undefined;
}

export interface PaginateOptions<Page, Item> extends PagesOptions<Page> {
  /** The items of one page. */
  readonly items: (page: Page) => readonly Item[];
}

/**
 * Every page, in order. Stops after a page without a next cursor, and also when a cursor comes back
 * that was already followed: a server that loops would otherwise keep the iterator busy forever.
 */
export async function* pages<Page>(options: PagesOptions<Page>): AsyncGenerator<Page, void, undefined> {
  const { signal } = options;
  const maxPages = options.maxPages ?? Infinity;
  const followed = new Set<string>();
  let cursor: string | undefined;
  for (let count = 0; count < maxPages; count++) {
    if (signal?.aborted) throw abortReason(signal);
    const page = await options.fetchPage(cursor, signal);
    yield page;
    const next = options.next(page);
    if (next === null || next === undefined || next === "" || followed.has(next)) return;
    followed.add(next);
    cursor = next;
  }
}

/** Every item of every page, in order (see `pages` for when it stops). */
export async function* paginate<Page, Item>(options: PaginateOptions<Page, Item>): AsyncGenerator<Item, void, undefined> {
  for await (const page of pages(options)) yield* options.items(page);
}

/** Collects an async iterable into an array; `limit` stops early. */
export async function collect<T>(iterable: AsyncIterable<T>, limit = Infinity): Promise<T[]> {
  const out: T[] = [];
  if (limit <= 0) return out;
  for await (const item of iterable) {
    out.push(item);
    if (out.length >= limit) break;
  }
  return out;
}
