/**
 * One object seen through two operations at once (its read and its entry in the list, its read now
 * and a moment later) must show the same values wherever both show one. A server that formats,
 * cuts or re-stamps a member in one handler only (a list that rounds a price, a read that cuts a
 * text) is caught here, where read-back of what was sent never looks.
 *
 * Views may legitimately differ in what they carry: a list may leave out members a read has, or
 * show them as null, empty text or an empty array (a summary that leaves out a secret or the
 * records of a zone), and include related objects with fewer members. So only members both views
 * carry with a value are compared, at every depth. Members whose value moves on its own
 * (an activity time, a state that settles) are found by reading the object twice and left out.
 */
import { holds } from "./read-back.js";
import { listContains, subject } from "./lists.js";
import { ok2xx } from "./request.js";
import { where, type RunContext } from "./context.js";
import type { FilterPlan, OperationCase, PlanSource } from "./plan.js";
import type { RawResponse } from "../client/transport.js";
import { pathNames } from "./objects.js";

type Rec = Record<string, unknown>;
type ListSource = Extract<PlanSource, { kind: "list" }>;
const isRec = (v: unknown): v is Rec => v !== null && typeof v === "object" && !Array.isArray(v);

/** No value: what a summary shows for a member it leaves out. */
const blank = (v: unknown): boolean => v === null || v === undefined || v === "" || (Array.isArray(v) && v.length === 0);

/** Whether two values show one thing: scalars alike either way round (`"5"` and 5, one instant in two spellings). */
function alike(a: unknown, b: unknown): boolean {
  return holds(a, b) && holds(b, a);
}

/**
 * Where `a` and `b` disagree, as `member: a shows …, b shows …`, for members both carry with a
 * non-null value; top-level members named in `except` are not compared.
 */
export function disagreements(a: unknown, b: unknown, except: ReadonlySet<string> = new Set(), at = "", depth = 0): string[] {
  if (depth > 16 || blank(a) || blank(b)) return [];
  if (isRec(a) && isRec(b)) {
    const out: string[] = [];
    for (const name of Object.keys(a)) {
      if (depth === 0 && except.has(name)) continue;
      if (!Object.prototype.hasOwnProperty.call(b, name)) continue;
      out.push(...disagreements(a[name], b[name], except, at === "" ? name : `${at}.${name}`, depth + 1));
    }
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return [`${at}: ${a.length} items against ${b.length}`];
    return a.flatMap((x, i) => disagreements(x, b[i], except, `${at}[${i}]`, depth + 1));
  }
  // Scalars, and an array against the comma-separated text it lists (holds knows both).
  return alike(a, b) ? [] : [`${at}: ${short(a)} against ${short(b)}`];
}

/** The top-level members of two reads of one object that differ: values that move on their own. */
export function moving(first: Rec, again: Rec): Set<string> {
  const out = new Set<string>();
  for (const name of new Set([...Object.keys(first), ...Object.keys(again)])) {
    const was = first[name];
    const now = again[name];
    if (blank(was) !== blank(now) || disagreements({ v: was }, { v: now }).length > 0) out.add(name);
  }
  return out;
}

function short(v: unknown): string {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * A read of an object (`GET …/{key}`, answered 2xx as `res`) against its entry in the list that gave
 * its key and in every list that looks objects up by that key (`ids=<key>`), asked just after, with
 * a second read to tell what moves on its own. Nothing is judged where a list does not show it
 * (other checks judge that) or the answer is about another object.
 */
export async function readAgreesWithList(ctx: RunContext, read: OperationCase, values: Readonly<Rec>, res: RawResponse): Promise<void> {
  // Only lists of the read's own collection (see lookupsByKey).
  const collection = collectionOf(read);
  if (collection === undefined) return;
  const last = collection.param;
  const source = (read.sources?.[last] ?? []).find((s): s is ListSource => s.kind === "list" && s.field !== "" && ctx.op(s.operationId)?.path === collection.path);
  const key = source?.field ?? "id";
  const id = values[last];
  const before = subject(res.body, id, key);
  if (!before || String(before[key]) !== String(id)) return;
  const parentsOf = (list: OperationCase): Rec | undefined => {
    const out: Rec = {};
    for (const p of list.parameters.filter((q) => q.in === "path")) {
      if (values[p.name] === undefined) return undefined;
      out[p.name] = values[p.name];
    }
    return out;
  };
  const shown: { list: OperationCase; found: Rec }[] = [];
  const list = source ? ctx.op(source.operationId) : undefined;
  const listParents = list ? parentsOf(list) : undefined;
  if (source && list && listParents) {
    const { found } = await listContains(ctx, list, { ...(await ctx.pathValues(list)), ...listParents }, id, {}, { items: source.items, key });
    if (found && String(found[key]) === String(id)) shown.push({ list, found });
  }
  for (const lookup of lookupsByKey(ctx, read, key)) {
    const parents = parentsOf(lookup.op);
    if (!parents) continue;
    const found = await lookUp(ctx, lookup, parents, id, key);
    // Only an entry that holds the key under the same member: a list whose items have another key
    // member (a link's own id beside the category's) may match on it instead.
    if (found && String(found[key]) === String(id)) shown.push({ list: lookup.op, found });
  }
  if (shown.length === 0) return;
  const again = await ctx.send(read, values, undefined);
  const after = ok2xx(again) ? subject(again.body, id, key) : undefined;
  if (!after) return;
  const still = moving(before, after);
  for (const { list: view, found } of shown) {
    const diff = disagreements(before, found, still);
    ctx.check(diff.length === 0, `${where(view)} shows ${String(id)} otherwise than ${where(read)} reads it: ${diff.slice(0, 5).join("; ")}`);
  }
}

/** A list that looks objects up by their key: `ids=<key>` keeps the objects whose key is among those asked. */
export interface Lookup {
  readonly op: OperationCase;
  readonly filter: FilterPlan;
  /** The filter takes an array (`ids=a,b`), not one value. */
  readonly many: boolean;
}

/**
 * The collection path of the object `op` names by its last path parameter (`…/cards/poll` for
 * `…/cards/poll/{card_id}`), with that parameter; undefined where the path does not end in it.
 */
function collectionOf(op: OperationCase): { readonly path: string; readonly param: string } | undefined {
  const last = pathNames(op).at(-1);
  return last !== undefined && op.path.endsWith(`/{${last}}`) ? { path: op.path.slice(0, op.path.length - `/{${last}}`.length), param: last } : undefined;
}

/**
 * The lists of `of`'s own collection (the path above its key) that give its last path parameter
 * and have a filter keeping objects by the member `key`. A list elsewhere that gives the key may
 * hold other objects naming it (links to a category), or another collection's object of the same
 * number.
 */
export function lookupsByKey(ctx: Pick<RunContext, "op">, of: OperationCase, key: string): Lookup[] {
  const collection = collectionOf(of);
  const ids = new Set((collection === undefined ? [] : (of.sources?.[collection.param] ?? [])).filter((s) => s.kind === "list").map((s) => s.operationId));
  const out: Lookup[] = [];
  for (const op of [...ids].map((id) => ctx.op(id))) {
    if (op === undefined || op.method !== "GET" || op === of || op.path !== collection?.path) continue;
    const filter = (op.filters ?? []).find((f) => (f.match === "in" || f.match === "equals") && f.members.includes(key));
    if (filter) out.push({ op, filter, many: op.request?.parameters[filter.param] !== undefined && JSON.stringify(op.request.parameters[filter.param]).includes('"array"') });
  }
  return out;
}

/** The object `lookup` answers for `id` under `parents` (its path values), with `extra` query members; undefined when it shows none. */
export async function lookUp(ctx: RunContext, lookup: Lookup, parents: Readonly<Rec>, id: unknown, key: string, extra: Readonly<Rec> = {}): Promise<Rec | undefined> {
  const { found } = await listContains(ctx, lookup.op, { ...parents }, id, { ...extra, [lookup.filter.param]: lookup.many ? [id] : id }, { items: lookup.filter.items, key });
  return found;
}

/**
 * Where one view of an object read twice differs, member by member through nested objects (an
 * array counts as one value): unlike `disagreements`, a member that came, went or became empty is
 * a change.
 */
export function changes(a: unknown, b: unknown, at = "", depth = 0): string[] {
  if (depth <= 16 && isRec(a) && isRec(b)) {
    const out: string[] = [];
    for (const name of new Set([...Object.keys(a), ...Object.keys(b)])) out.push(...changes(a[name], b[name], at === "" ? name : `${at}.${name}`, depth + 1));
    return out;
  }
  if (blank(a) && blank(b)) return [];
  if (blank(a) !== blank(b) || disagreements({ v: a }, { v: b }).length > 0) return [`${at}: ${short(a)} became ${short(b)}`];
  return [];
}

/**
 * Objects a narrower list (a filter, a flag) shows otherwise than the broad list shows them, by
 * key: `key: disagreement`. `again` is the broad list walked a second time; what differs between
 * the two broad walks moves on its own and is not reported.
 */
export function itemsDisagree(broad: readonly unknown[], narrow: readonly unknown[], again: readonly unknown[], keys: (items: readonly unknown[]) => string[]): string[] {
  const index = (items: readonly unknown[]): Map<string, unknown> => {
    const k = keys(items);
    return new Map(items.map((it, i) => [k[i] as string, it]));
  };
  const first = index(broad);
  const second = index(again);
  const n = keys(narrow);
  const out: string[] = [];
  narrow.forEach((item, i) => {
    const key = n[i] as string;
    const was = first.get(key);
    const still = second.get(key);
    if (!isRec(was) || !isRec(item) || !isRec(still)) return;
    for (const d of disagreements(was, item, moving(was, still))) out.push(`${key}: ${d}`);
  });
  return out;
}
