/**
 * Finding an object in what the server answers: the object an answer is about, an item by its key,
 * and an object in a list (every page of it), with only the members the list needs so that a drawn
 * filter cannot hide it.
 */
import type { OperationCase } from "./plan.js";
import type { RunContext } from "./context.js";
import { itemKey } from "./invariants.js";
import { pages } from "./walk.js";
import { getAt, ok2xx } from "./request.js";
import type { RawResponse } from "../client/transport.js";

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => v !== null && typeof v === "object" && !Array.isArray(v);

/** The object an answer is about: `data` (or the item of `data` with the key), else the body itself. */
export function subject(body: unknown, id?: unknown, key?: string): Rec | undefined {
  const data = getAt(body, "/data");
  if (Array.isArray(data)) {
    const found = id === undefined ? data[0] : data.find((x) => keyOf(x, key) === String(id));
    return isRec(found) ? found : undefined;
  }
  if (isRec(data)) return data;
  return isRec(body) ? body : undefined;
}

/** An item's key: its `key` member where the contract names one, else as `itemKey` finds it. */
function keyOf(item: unknown, key: string | undefined): string {
  if (key !== undefined && isRec(item) && scalar(item[key])) return String(item[key]);
  return itemKey(item);
}

export function scalar(v: unknown): v is string | number | boolean {
  return typeof v === "string" || typeof v === "number" || typeof v === "boolean";
}

/** Where a list keeps its items and their key, when the plan knows (`""`: the answer is the array). */
export interface ListShape {
  readonly items?: string | undefined;
  readonly key?: string | undefined;
}

/** A list request with only what the list needs (its required members and the parents): a drawn filter could hide objects. */
export async function listValues(ctx: RunContext, list: OperationCase, fixed: Rec): Promise<Rec> {
  const req = await ctx.positive(list, 0, fixed);
  const values: Rec = { ...fixed };
  for (const p of list.parameters) if (p.required && values[p.name] === undefined && req.values[p.name] !== undefined) values[p.name] = req.values[p.name];
  return values;
}

export async function listContains(ctx: RunContext, list: OperationCase, fixed: Rec, id: unknown, extra: Rec = {}, shape: ListShape = {}): Promise<{ found: Rec | undefined; res: RawResponse }> {
  let last: RawResponse = { status: 0, headers: new Headers(), body: undefined } as unknown as RawResponse;
  const values = await listValues(ctx, list, fixed);
  for await (const { res, items } of pages(ctx, list, { ...values, ...extra }, shape.items)) {
    last = res;
    if (!ok2xx(res)) break;
    ctx.checkShape(list, res);
    const found = items?.find((x) => keyOf(x, shape.key) === String(id));
    if (found !== undefined) return { found: isRec(found) ? found : {}, res };
  }
  return { found: undefined, res: last };
}

/** Up to `max` keys of the list's first page other than `except`'s, of items `live` takes: objects that were there. */
export async function firstPageKeys(ctx: RunContext, list: OperationCase, fixed: Rec, except: unknown, shape: ListShape = {}, live: (item: Rec) => boolean = () => true, max = 3): Promise<string[]> {
  for await (const { res, items } of pages(ctx, list, await listValues(ctx, list, fixed), shape.items)) {
    if (!ok2xx(res)) return [];
    const keys = (items ?? []).filter((x): x is Rec => isRec(x) && live(x)).map((x) => keyOf(x, shape.key));
    return [...new Set(keys.filter((k) => k !== "" && k !== String(except)))].slice(0, max);
  }
  return [];
}

/** Members the list shows set (not null) on some item of its first page: the server shows them when they are set. */
export async function membersShown(ctx: RunContext, list: OperationCase, fixed: Rec, itemsAt: string | undefined): Promise<Set<string>> {
  const out = new Set<string>();
  for await (const { res, items } of pages(ctx, list, await listValues(ctx, list, fixed), itemsAt)) {
    if (ok2xx(res)) for (const item of items ?? []) if (isRec(item)) for (const [k, v] of Object.entries(item)) if (v !== null && v !== undefined) out.add(k);
    break;
  }
  return out;
}
