/**
 * What a delete must leave behind, checked the same way after a lifecycle's delete and a deletion
 * scenario's: a hard-deleted object reads 404 and is no longer listed; a soft-deleted one is marked
 * (the plan's `SoftDelete.field`), hidden from lists and reads unless their flag asks for it, and a
 * second delete neither brings it back nor answers other than the contract states.
 */
import type { OperationCase, Scenario, SoftDelete } from "./plan.js";
import { where, type RunContext } from "./context.js";
import { itemKey } from "./invariants.js";
import { describeResponse, getAt, ok2xx } from "./request.js";
import { firstPageKeys, listContains, subject, type ListShape } from "./lists.js";
import { changedImmutables, pastStamps } from "./read-back.js";
import { lookUp, lookupsByKey } from "./views.js";
import type { RawResponse } from "../client/transport.js";

type Rec = Record<string, unknown>;

/** One delete just answered, and where its object can be looked for afterwards. */
export interface AfterDelete {
  readonly del: OperationCase;
  /** The delete's request values (sent again for the repeated delete). */
  readonly values: Rec;
  readonly id: unknown;
  /** The member keying the object in answers, where it is not found by the usual names. */
  readonly key?: string | undefined;
  /** The delete's answer. */
  readonly first: RawResponse;
  readonly soft?: SoftDelete | undefined;
  /** Whether a soft delete must answer the object itself (a state table says it is returned). */
  readonly answerShowsObject: boolean;
  readonly read?: { readonly op: OperationCase; readonly values: () => Promise<Rec> } | undefined;
  readonly list?: { readonly op: OperationCase; readonly fixed: Rec; readonly shape?: ListShape } | undefined;
  /** The status a repeated delete must answer, when the contract states one. */
  readonly repeatStatus?: number | undefined;
  /** Keys of other objects the list showed just before the delete (`firstPageKeys`): each must still be there. */
  readonly siblings?: readonly string[] | undefined;
  /** The object as read just before the delete, and its members that never change: a soft delete marks it and changes none of them. */
  readonly before?: { readonly object: Rec; readonly immutable: readonly string[] } | undefined;
}

/** A soft-deleted object, as answered or read afterwards, keeps the members that never change. */
function keepsImmutables(ctx: RunContext, a: AfterDelete, after: Rec | undefined, seen: string): void {
  if (!a.before || !after) return;
  const shown = a.before.immutable.filter((m) => Object.prototype.hasOwnProperty.call(after, m));
  const moved = changedImmutables(a.before.object, after, shown);
  ctx.check(moved.length === 0, `${where(a.del)}: deleting ${String(a.id)} changed what never changes (${seen}): ${moved.join("; ")}`);
}

const marked = (obj: Rec | undefined, soft: SoftDelete): unknown => obj?.[soft.field];

/** Items not marked deleted (all, where deletes are hard): the siblings a delete must leave as they were. */
export const notMarked =
  (soft: SoftDelete | undefined) =>
  (item: Rec): boolean =>
    soft === undefined || marked(item, soft) !== true;

/** Every check of what a delete leaves, in the order a client would see it. */
export async function afterDelete(ctx: RunContext, a: AfterDelete): Promise<void> {
  const { check } = ctx;
  const { del, id, soft } = a;
  if (soft) {
    const gone = ok2xx(a.first) ? subject(a.first.body, id, a.key) : undefined;
    if (a.answerShowsObject) check(marked(gone, soft) === true, `${where(del)}: a soft delete must answer the object with ${soft.field}=true, answered ${describeResponse(a.first)}`);
    else if (gone && soft.field in gone) check(gone[soft.field] === true, `${where(del)}: the deleted object answers ${soft.field}=${JSON.stringify(gone[soft.field])}, expected true`);
    keepsImmutables(ctx, a, gone, "its answer");
  }
  if (a.read) await readAfterDelete(ctx, a.read.op, del, await a.read.values(), id, a.key, soft);
  if (a.list) await listAfterDelete(ctx, a.list.op, del, a.list.fixed, id, a.list.shape ?? {}, soft);
  if (a.list) for (const other of a.siblings ?? []) await stillThere(ctx, a.list, del, id, other, soft);
  await lookupsAfterDelete(ctx, a);
  if (a.repeatStatus === undefined && !soft) return;
  const again = await ctx.send(del, a.values, undefined);
  if (a.repeatStatus !== undefined)
    check(again.status === a.repeatStatus, `${where(del)}: a repeated delete must answer ${a.repeatStatus}, answered ${describeResponse(again)} deleting ${String(id)} again`);
  if (soft) await staysDeleted(ctx, a, soft, again);
}

/** A deleted object reads 404; a soft-deleted one, where the read has a flag, 404 without it and marked with it. */
async function readAfterDelete(ctx: RunContext, read: OperationCase, del: OperationCase, values: Rec, id: unknown, key: string | undefined, soft: SoftDelete | undefined): Promise<void> {
  const { check } = ctx;
  const rv = { ...values };
  if (soft?.readFlag !== undefined) delete rv[soft.readFlag];
  const after = await ctx.send(read, rv, undefined);
  if (!soft) {
    check(after.status === 404, `${where(read)} answered ${describeResponse(after)} for ${String(id)} after ${del.id}: a deleted object must answer 404`);
  } else if (soft.readFlag !== undefined) {
    check(after.status === 404, `${where(read)} answered ${describeResponse(after)} for deleted ${String(id)} without ${soft.readFlag}=true: expected 404`);
    const shown = await ctx.send(read, { ...rv, [soft.readFlag]: true }, undefined);
    const obj = ok2xx(shown) ? subject(shown.body, id, key) : undefined;
    check(marked(obj, soft) === true, `${where(read)} answered ${describeResponse(shown)} for deleted ${String(id)} with ${soft.readFlag}=true: expected the object with ${soft.field}=true`);
  } else {
    const obj = ok2xx(after) ? subject(after.body, id, key) : undefined;
    check(
      after.status === 404 || marked(obj, soft) === true,
      `${where(read)} answered ${describeResponse(after)} for ${String(id)} after ${del.id}: expected 404 or the object with ${soft.field}=true`,
    );
  }
}

/** Gone from the list; a soft-deleted object listed again, marked, with the list's flag, which keeps the live ones too. */
async function listAfterDelete(ctx: RunContext, list: OperationCase, del: OperationCase, fixed: Rec, id: unknown, shape: ListShape, soft: SoftDelete | undefined): Promise<void> {
  const { check } = ctx;
  const flag = soft?.listFlag;
  const hidden = await listContains(ctx, list, fixed, id, {}, shape);
  check(hidden.found === undefined, `${where(list)} still lists ${String(id)} after ${del.id}${flag !== undefined ? ` without ${flag}=true` : ""}`);
  if (!soft || flag === undefined) return;
  const shown = await listContains(ctx, list, fixed, id, { [flag]: true }, shape);
  check(shown.found !== undefined, `${where(list)} does not list deleted ${String(id)} with ${flag}=true`);
  if (shown.found) check(marked(shown.found, soft) === true, `${where(list)} lists deleted ${String(id)} with ${soft.field}=${JSON.stringify(shown.found[soft.field])}, expected true`);
  await keepsLive(ctx, list, fixed, flag);
}

/**
 * Lists that look objects up by key (`ids=<key>`) no longer show a deleted object as a live one:
 * gone, or (a soft delete) marked. Each is asked with the delete's own path values as parents.
 */
async function lookupsAfterDelete(ctx: RunContext, a: AfterDelete): Promise<void> {
  const key = a.key ?? "id";
  for (const lookup of lookupsByKey(ctx, a.del, key)) {
    const parents: Rec = {};
    const names = lookup.op.parameters.filter((p) => p.in === "path").map((p) => p.name);
    if (names.some((n) => a.values[n] === undefined)) continue;
    for (const n of names) parents[n] = a.values[n];
    const found = await lookUp(ctx, lookup, parents, a.id, key);
    if (a.soft === undefined) ctx.check(found === undefined, `${where(lookup.op)} with ${lookup.filter.param}=${String(a.id)} still shows ${String(a.id)} after ${a.del.id}`);
    else
      ctx.check(
        found === undefined || marked(found, a.soft) === true,
        `${where(lookup.op)} with ${lookup.filter.param}=${String(a.id)} shows ${String(a.id)} live after ${a.del.id}: ${a.soft.field}=${JSON.stringify(found?.[a.soft.field])}`,
      );
  }
}

/**
 * A delete takes only the object it names: another object the list showed just before is listed
 * after it, and (a soft delete) not marked deleted. A server that deletes every object of the
 * parent, or every sibling of the same owner, fails here.
 */
async function stillThere(ctx: RunContext, list: NonNullable<AfterDelete["list"]>, del: OperationCase, id: unknown, other: string, soft: SoftDelete | undefined): Promise<void> {
  const { found } = await listContains(ctx, list.op, list.fixed, other, {}, list.shape ?? {});
  ctx.check(found !== undefined, `${where(del)} deleting ${String(id)} also removed ${other}, which ${where(list.op)} listed just before: a delete takes only the object it names`);
  if (found && soft)
    ctx.check(
      marked(found, soft) !== true,
      `${where(del)} deleting ${String(id)} also marked ${other} ${soft.field}=true, which ${where(list.op)} listed live just before: a delete takes only the object it names`,
    );
}

/** The flag adds deleted objects to a list; the live ones stay listed. */
async function keepsLive(ctx: RunContext, list: OperationCase, fixed: Rec, flag: string): Promise<void> {
  const plain = await ctx.send(list, { ...(await ctx.positive(list, 0, fixed)).values }, undefined);
  const items = getAt(plain.body, list.pagination?.items ?? "/data");
  const live = Array.isArray(items) ? items[0] : undefined;
  if (live === undefined) return;
  const key = itemKey(live);
  const shown = await listContains(ctx, list, fixed, key, { [flag]: true });
  ctx.check(shown.found !== undefined, `${where(list)} with ${flag}=true leaves out ${key}, which it lists without it: the flag must add deleted objects, not replace live ones`);
}

/**
 * A soft delete is not undone by deleting again: the second delete's answer, where it shows the
 * object, is still marked, and so is a read (or a list) with its flag afterwards. A delete that
 * toggles the mark brings the object back.
 */
async function staysDeleted(ctx: RunContext, a: AfterDelete, soft: SoftDelete, again: RawResponse): Promise<void> {
  const { del, id } = a;
  const answered = ok2xx(again) ? subject(again.body, id, a.key) : undefined;
  if (answered && soft.field in answered)
    ctx.check(answered[soft.field] === true, `${where(del)}: deleting ${String(id)} again answers ${soft.field}=${JSON.stringify(answered[soft.field])}: a soft delete is not undone by another`);
  let now: Rec | undefined;
  if (a.read && soft.readFlag !== undefined) {
    const r = await ctx.send(a.read.op, { ...(await a.read.values()), [soft.readFlag]: true }, undefined);
    now = ok2xx(r) ? subject(r.body, id, a.key) : undefined;
  } else if (a.list && soft.listFlag !== undefined) {
    now = (await listContains(ctx, a.list.op, a.list.fixed, id, { [soft.listFlag]: true }, a.list.shape ?? {})).found;
  }
  if (now && soft.field in now)
    ctx.check(now[soft.field] === true, `${where(del)}: after deleting ${String(id)} again it reads ${soft.field}=${JSON.stringify(now[soft.field])}: a soft delete is not undone by another`);
  keepsImmutables(ctx, a, now, "read afterwards");
}

/** A delete's `x-transitions` rows on an object of its own, where no lifecycle reaches it. */
export async function deletion(ctx: RunContext, sc: Extract<Scenario, { kind: "deletion" }>, skip: (why: string) => void): Promise<void> {
  const del = ctx.op(sc.operationId) as OperationCase;
  // An object of its own: made through the contract's create, else (a throw-away target) a listed one.
  const on = await ctx.pool.forCase(del, "delete");
  if ("why" in on) return skip(on.why);
  const values: Rec = { ...(await ctx.positive(del, 0, on.values)).values, ...on.values };
  const last = del.parameters.filter((p) => p.in === "path").at(-1)?.name;
  const list = sc.listOperationId !== undefined ? (ctx.op(sc.listOperationId) as OperationCase) : undefined;
  const listFixed = list && {
    ...(await ctx.pathValues(list)),
    ...Object.fromEntries(list.parameters.filter((p) => p.in === "path" && values[p.name] !== undefined).map((p) => [p.name, values[p.name]])),
  };
  // Other objects listed just before the delete: they must outlive it.
  const siblings = list && listFixed ? await firstPageKeys(ctx, list, listFixed, last === undefined ? undefined : values[last], {}, notMarked(sc.soft)) : [];
  const read = sc.readOperationId !== undefined ? (ctx.op(sc.readOperationId) as OperationCase) : undefined;
  const readValues = async (): Promise<Rec> => (read ? { ...(await ctx.positive(read, 0, await ctx.pathValues(read))).values, ...values } : {});
  // The object as it was, where a soft delete must leave its unchanging members alone.
  let before: AfterDelete["before"];
  if (sc.soft && (sc.immutable ?? []).length > 0 && last !== undefined) {
    const id = values[last];
    let object: Rec | undefined;
    if (read) {
      const r = await ctx.send(read, await readValues(), undefined);
      object = ok2xx(r) ? subject(r.body, id) : undefined;
    } else if (list && listFixed) object = (await listContains(ctx, list, listFixed, id)).found;
    if (object) {
      // A creation time re-stamped within the same second would read alike: let the clock move on.
      await pastStamps(object, sc.immutable ?? []);
      before = { object, immutable: sc.immutable ?? [] };
    }
  }
  const first = await ctx.send(del, values, undefined);
  await on.done(first, undefined);
  // The contract's own example may name an object this server never had, or an earlier run deleted.
  if (first.status === 404 && last !== undefined && values[last] === del.positive?.values[last])
    return skip(`${String(values[last])}, the contract's example ${last}, does not exist on this server: pass a live one with --values`);
  ctx.check(ok2xx(first), `${where(del)} answered ${describeResponse(first)} to the first delete`);
  ctx.checkShape(del, first);
  await afterDelete(ctx, {
    del,
    values,
    id: last === undefined ? undefined : values[last],
    first,
    soft: sc.soft,
    answerShowsObject: sc.answersObject !== false,
    read: read && { op: read, values: readValues },
    list: list && listFixed && { op: list, fixed: listFixed },
    repeatStatus: sc.repeatStatus,
    siblings,
    before,
  });
}
