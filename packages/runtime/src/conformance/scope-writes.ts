/**
 * A write through another parent does not change the object of the parent its path should name.
 *
 * A PUT or PATCH may create what its path names (RFC 9110 §9.3.4, RFC 5789 §2): PowerDNS's
 * `PUT …/zones/{zone_id}/metadata/{kind}` sets that kind on whichever zone the path gives. So where
 * the client may choose the key, a 2xx through another parent is no failure; what is, is the write
 * reaching the object under its own parent. The case reads the object through its own parent, writes
 * through another (where it is not already reachable: an object shared by both would rightly
 * change), and reads it again through its own: a member the write set to a new value must not have
 * taken it.
 */
import type { RawResponse } from "../client/transport.js";
import { where, type RunContext } from "./context.js";
import { subject } from "./lists.js";
import type { OperationCase } from "./plan.js";
import { holds, sentMembers } from "./read-back.js";
import { describeResponse, ok2xx } from "./request.js";

type Rec = Record<string, unknown>;

/** The members a write set to a value the object did not hold, and still did not after it (by name: one sent under its own name). */
export function changedThrough(sent: readonly { member: string; value: unknown }[], before: Rec, after: Rec): string[] {
  const out: string[] = [];
  for (const { member, value } of sent) {
    if (!Object.prototype.hasOwnProperty.call(before, member) || value === null) continue;
    if (holds(value, before[member])) continue;
    if (Object.prototype.hasOwnProperty.call(after, member) && holds(value, after[member])) out.push(`${member} became ${JSON.stringify(value)}`);
  }
  return out;
}

/**
 * Writes `op` (PUT/PATCH on `…/{parent}/…/{child}`) through `other`, another parent, and judges the
 * object under its own parent by what `read` (the GET of the same path) answers before and after.
 * Where the contract gives no read, the object is seen in the answers to one request sent twice
 * through its own parent, before and after: sent alike, it answers alike unless something else
 * changed it. `done` puts the object back where the write changed it. Returns a reason to skip, or
 * undefined once judged.
 */
export async function writeThroughAnother(
  ctx: RunContext,
  op: OperationCase,
  read: OperationCase | undefined,
  own: Readonly<Rec>,
  parent: string,
  child: string,
  other: string,
  done: (res: RawResponse, sentBody: unknown, sentQuery: Readonly<Rec>) => Promise<void>,
): Promise<string | undefined> {
  const readValues = async (r: OperationCase, values: Readonly<Rec>): Promise<Rec> => ({ ...(await ctx.positive(r, 0, values)).values, ...values });
  const pathOf = (values: Readonly<Rec>): Rec => Object.fromEntries(op.parameters.filter((p) => p.in === "path").map((p) => [p.name, values[p.name]]));
  const ownPath = pathOf(own);
  const otherPath = { ...ownPath, [parent]: other };
  const again = read ? undefined : await ctx.positive(op, 0, own);
  const look = async (): Promise<RawResponse> => (read ? ctx.send(read, await readValues(read, ownPath), undefined) : ctx.send(op, { ...(again as { values: Rec }).values, ...ownPath }, again?.body));
  const first = await look();
  if (!ok2xx(first)) return `${(read ?? op).id} did not answer ${child} ${String(own[child])} through its own ${parent}: ${describeResponse(first)}`;
  const before = subject(first.body, own[child]);
  if (!before) return `${(read ?? op).id} answered no object for ${child} ${String(own[child])}`;
  if (read) {
    const shared = await ctx.send(read, await readValues(read, otherPath), undefined);
    if (ok2xx(shared)) return `${child} ${String(own[child])} is reached through ${parent} ${other} too: an object both share may change through either`;
  }
  // The first of a few drawn requests that sets some member to a value the object does not hold.
  const path = new Set(op.parameters.filter((p) => p.in === "path").map((p) => p.name));
  let req: { values: Rec; body: unknown } | undefined;
  let sent: { member: string; value: unknown }[] = [];
  for (let i = read ? 0 : 1; i < 4 && sent.length === 0; i++) {
    req = await ctx.positive(op, i, own);
    sent = sentMembers(op, req.values, req.body, undefined).filter((m) => !path.has(m.member) && !holds(m.value, before[m.member]));
  }
  if (!req || sent.length === 0) return `no request drawn for ${op.id} changes a member ${child} ${String(own[child])} holds`;
  const res = await ctx.send(op, { ...req.values, ...otherPath }, req.body);
  ctx.check(res.status < 500, `${where(op)} answered ${describeResponse(res)} writing ${child} ${String(own[child])} through ${parent} ${other}: a server error`);
  const seen = await look();
  const after = ok2xx(seen) ? subject(seen.body, own[child]) : undefined;
  // Whatever the write did to the object, it is put back for the cases after this one.
  await done(res, req.body, req.values);
  if (!after) return undefined;
  const changed = changedThrough(sent, before, after);
  ctx.check(
    changed.length === 0,
    `${where(op)} changed ${child} ${String(own[child])} of ${parent} ${String(own[parent])} through ${parent} ${other} (answered ${describeResponse(res)}): ${changed.join("; ")}`,
  );
  return undefined;
}
