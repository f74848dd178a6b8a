/**
 * Walking a list's pages: the answers, their items and whether more follow, by the contract's
 * `x-pagination` (bounded, so a cursor that never ends cannot hold a run).
 */
import type { RunContext } from "./context.js";
import type { OperationCase } from "./plan.js";
import { getAt, ok2xx } from "./request.js";
import type { RawResponse } from "../client/transport.js";

type Rec = Record<string, unknown>;

/**
 * The pages of a list, following its cursor (at most 40): each answer, its items (undefined when it
 * holds no list) and whether a further page follows. Stops after an answer that is not a 2xx.
 */
export async function* pages(ctx: Pick<RunContext, "send">, list: OperationCase, start: Rec, itemsAt?: string): AsyncGenerator<{ res: RawResponse; items: unknown[] | undefined; more: boolean }> {
  const paging = list.pagination;
  let values = start;
  for (let page = 0; page < 40; page++) {
    const res = await ctx.send(list, values, undefined);
    const items = getAt(res.body, itemsAt ?? paging?.items ?? "/data");
    const next = paging && ok2xx(res) ? getAt(res.body, paging.nextPointer) : undefined;
    const more = typeof next === "string" && next !== "";
    yield { res, items: Array.isArray(items) ? items : undefined, more };
    if (!more || !paging) return;
    values = { ...values, [paging.cursorParam]: next };
    if (paging.totalCount) delete values[paging.totalCount.param];
  }
}

/** Every item of a walk (at most `MAX_PAGES` pages); `complete` when the last page said no more follow. */
export async function walkAll(ctx: Pick<RunContext, "send">, list: OperationCase, start: Rec, itemsAt?: string): Promise<{ items: unknown[]; complete: boolean; failed?: RawResponse }> {
  const items: unknown[] = [];
  for await (const page of pages(ctx, list, start, itemsAt)) {
    if (!ok2xx(page.res)) return { items, complete: false, failed: page.res };
    items.push(...(page.items ?? []));
    if (!page.more) return { items, complete: true };
  }
  return { items, complete: false };
}
