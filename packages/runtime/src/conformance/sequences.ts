/**
 * State sequences: an object's life inferred from the contract (create → read back → listed →
 * update → delete → afterwards), the contract's `x-transitions` rows (repeated deletes, soft
 * deletion, token lifecycles) and the OAuth 1.0a three-legged flow with its refusals.
 */
import { createSchemaMatcher } from "../shared/schema-match.js";
import type { AuthConfig } from "../client/auth.js";
import type { LifecycleScenario, OperationCase, PlanSource, Scenario } from "./plan.js";
import { where, type RunContext } from "./context.js";
import { sameValue } from "./invariants.js";
import { changedImmutables, differences, pastStamps, sentMembers, type SentMember } from "./read-back.js";
import { createdKey } from "./objects.js";
import { disagreements, moving } from "./views.js";
import { itemAtLengthLimits, maximalItem, maximalRequest, namesAnotherObject, readOnly } from "./maximal.js";
import { pages } from "./walk.js";
import { afterDelete, deletion, notMarked } from "./deletion.js";
import { firstPageKeys, listContains, membersShown, scalar, subject, type ListShape } from "./lists.js";
import { deref, memberSchema } from "./schema-walk.js";
import { describeResponse, getAt, ok2xx } from "./request.js";
import { requestInput, type PositiveRequest } from "./synth.js";
import type { MockSchema } from "../mock/mock-data.js";
import { deriveSeed } from "../shared/prng.js";
import type { RawResponse } from "../client/transport.js";

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => v !== null && typeof v === "object" && !Array.isArray(v);

async function lifecycle(ctx: RunContext, sc: LifecycleScenario, skip: (why: string) => void): Promise<void> {
  const { check } = ctx;
  const op = (id: string | undefined): OperationCase | undefined => (id === undefined ? undefined : ctx.op(id));
  const create = op(sc.create) as OperationCase;
  const key = sc.keyField;
  const shape: ListShape = { items: sc.listItems, key };
  // A schema-valid create may still be refused for what it refers to (a media key never uploaded,
  // one object per user already held): try a few valid requests before giving up, and say why.
  const found = await ctx.pool.pathValues(create);
  if (found.missing.length > 0) return skip(ctx.pool.explain(create, found.missing));
  const fixedCreate = found.values;
  const refusals: string[] = [];
  let made: PositiveRequest | undefined;
  let res: RawResponse | undefined;
  let copied: readonly string[] = [];
  for (let i = 0; i < 4 && made === undefined; i++) {
    const attempt = await ctx.positive(create, i, fixedCreate);
    let answer = await ctx.send(create, { ...attempt.values, ...fixedCreate }, attempt.body);
    // At the contract's cap of objects held at once, a throw-away target makes room, and the same request goes again.
    if (i === 0 && answer.status >= 400 && answer.status < 500 && (await ctx.pool.makeRoom(create, fixedCreate))) answer = await ctx.send(create, { ...attempt.values, ...fixedCreate }, attempt.body);
    check(answer.status < 500 || (create.declaredServerErrors ?? []).includes(answer.status), `${where(create)} answered ${describeResponse(answer)} to a valid create: a server error`);
    if (ok2xx(answer)) {
      made = { ...attempt, values: { ...attempt.values, ...fixedCreate } };
      res = answer;
    } else refusals.push(describeResponse(answer).slice(0, 160));
  }
  if (!made || !res) {
    // Drawn data the server refuses for what it says: a copy of an object it lists, its key changed.
    const cloned = await ctx.pool.clone(create, createSource(create, sc), fixedCreate);
    if (cloned) {
      made = { values: cloned.request.values, body: cloned.request.body, origin: "schema" };
      res = cloned.res;
      copied = cloned.copied;
    }
  }
  if (!made || !res) return skip(`${create.id} refused every valid create it was sent, so there was no object to follow: ${refusals.join(" | ")}`);
  ctx.checkShape(create, res);
  const id = createdKey(res, createSource(create, sc));
  check(id !== undefined, `${where(create)}: the answer carries no id at ${[...sc.idPointers, ...(sc.location ? ["Location"] : [])].join(" or ")}`);
  const created = subject(res.body, id, key);
  // A member sent and missing from the read afterwards fails only where the server shows it: in its
  // answer to the create, or set on objects it lists. A server may take members it never stores
  // (a zone's nameservers), which a read alone cannot tell from a lost one.
  // The new object's key is the server's to give (a POST names no object): one sent is not read back.
  const list = op(sc.list);
  const elsewhere = list ? await membersShown(ctx, list, pathFrom(create, made.values, list), sc.listItems) : new Set<string>();
  // Where the contract marks every member its objects do not show, the read-back map is the word.
  const shows = (object: Rec | undefined, member: string): boolean => ctx.readBackComplete || (object !== undefined && Object.prototype.hasOwnProperty.call(object, member)) || elsewhere.has(member);
  const sent = sentMembers(create, made.values, made.body, sc.readBack)
    .filter((m) => !copied.includes(m.member) && m.stored !== key)
    .map((m) => ({ ...m, declared: shows(created, m.stored) }));
  if (created) {
    // The create's own answer shows what it shows: a member it leaves out is not its failure.
    const diff = differences(
      sent.map((x) => ({ ...x, declared: false })),
      created,
    );
    check(diff.length === 0, `${where(create)} answers with other values than it was sent: ${diff.join("; ")}`);
  }
  const itemValues = async (item: OperationCase): Promise<Rec> => ({ ...(await ctx.pathValues(item)), ...pathFrom(create, made.values, item), [sc.idParam]: id });

  const read = op(sc.read);
  const readNow = async (what: string): Promise<Rec | undefined> => {
    if (!read) return undefined;
    const r = await ctx.send(read, { ...(await ctx.positive(read, 0, await itemValues(read))).values, ...(await itemValues(read)) }, undefined);
    check(ok2xx(r), `${where(read)} answered ${describeResponse(r)} reading ${String(id)} ${what}`);
    ctx.checkShape(read, r);
    const stored = subject(r.body, id, key);
    check(stored !== undefined, `${where(read)}: reading ${String(id)} ${what} gives no object`);
    return stored;
  };
  const readBack = async (what: string, expected: readonly SentMember[]): Promise<Rec | undefined> => {
    const stored = await readNow(what);
    if (!stored) return undefined;
    const diff = differences(expected, stored);
    check(diff.length === 0, `${where(read as OperationCase)}: ${String(id)} ${what} does not hold what was sent: ${diff.join("; ")}`);
    return stored;
  };
  // A member the create did not send reads back as its stated default.
  const unsent = Object.entries(sc.defaults ?? {})
    .filter(([m]) => !sent.some((x) => x.member === m))
    .map(([member, value]) => ({ member, stored: sc.readBack?.[member] ?? member, value, declared: true }));
  const first = await readBack("after it was created", [...sent, ...unsent]);
  if (created && first) {
    // The create's answer and the object stored agree on what never changes (its creation time).
    const moved = changedImmutables(created, first, sc.immutable ?? []);
    check(moved.length === 0, `${where(create)} answered ${String(id)} otherwise than it reads afterwards, in what never changes: ${moved.join("; ")}`);
  }

  // Where the contract has no read, the list shows the object: it is read back there.
  const objectMap = read ? sc.readBack : sc.listReadBack;
  const readOf = read
    ? (v: unknown): Promise<Rec | undefined> => readFor(ctx, read, create, made.values, v, sc)
    : list && sc.listReadBack
      ? async (v: unknown): Promise<Rec | undefined> => (await listContains(ctx, list, pathFrom(create, made.values, list), v, {}, shape)).found
      : undefined;
  await enumSweep(ctx, sc, create, made, id, readOf, objectMap, shows);

  if (list) {
    // Read just before and just after the list: what moves on its own between the reads is not compared.
    const before = read ? await readNow("beside its list entry") : undefined;
    const { found: listed, res: lr } = await listContains(ctx, list, pathFrom(create, made.values, list), id, {}, shape);
    check(listed !== undefined, `${where(list)} does not list ${String(id)} after ${create.id} created it: ${describeResponse(lr)}`);
    const after = before ? await readNow("again, beside its list entry") : undefined;
    if (listed && before && after) {
      const diff = disagreements(before, listed, moving(before, after));
      check(diff.length === 0, `${where(list)} lists ${String(id)} otherwise than ${where(read as OperationCase)} reads it: ${diff.slice(0, 5).join("; ")}`);
    }
    if (listed && !read && sc.listReadBack) {
      const shown = sentMembers(create, made.values, made.body, sc.listReadBack).filter((m) => !copied.includes(m.member) && m.stored !== key);
      const diff = differences(
        shown.map((x) => ({ ...x, declared: false })),
        listed,
      );
      check(diff.length === 0, `${where(list)} lists ${String(id)} with other values than ${create.id} sent: ${diff.join("; ")}`);
    }
  }

  let second: { made: PositiveRequest; id: unknown } | undefined;
  // A second object of the collection gets a key of its own, and the first keeps what it was sent.
  // The same key again is a server's way to keep one object of the kind (a file's one checkpoint):
  // judged only where the second request differs from the first, and then it must have replaced it.
  if (!copied.length) {
    const other = await secondCreate(ctx, create, made);
    const otherId = other ? createdKey(other.res, createSource(create, sc)) : undefined;
    if (other && otherId !== undefined && String(otherId) !== String(id)) {
      if (read) await readBack("after a second object was made", sent);
      // Deleted last: until then it is one more object the first one's delete must leave.
      second = { made: other.made, id: otherId };
    } else if (other && otherId !== undefined && read) {
      const differs = sentMembers(create, other.made.values, other.made.body, sc.readBack).filter((m) => !sent.some((f) => f.member === m.member && sameValue(f.value, m.value)));
      const now = differs.length > 0 ? await readNow("after a second create answered its key") : undefined;
      if (now)
        check(
          differences(differs, now).length === 0,
          `${where(create)} answered a second create with the key of the first, ${String(id)}, and ${where(read)} shows nothing of what the second sent (${differs.map((m) => m.member).join(", ")}): ${describeResponse(other.res)}`,
        );
    }
  }

  const update = op(sc.update);
  if (update) {
    const fixed = await itemValues(update);
    const stored = first ?? created ?? {};
    // Read, change one member, write: each change on its own, so a server that stores some members
    // and drops another is caught on the one it drops, and the members that must not change are
    // compared with the object as it was made.
    const refusals: string[] = [];
    let accepted = 0;
    await pastStamps(first, sc.immutable ?? []);
    for (let i = 0; i < 4 && accepted === 0; i++) {
      const base = await readModifyWrite(ctx, update, stored, fixed, i);
      const r = await updateEach(ctx, update, base, stored, id, i, sc.updateReadBack, sc.immutable ?? [], async (changed) => {
        const now = await readBack("after it was updated", changed);
        if (now && first) {
          const moved = changedImmutables(first, now, sc.immutable ?? []);
          check(moved.length === 0, `${where(update)} changed what must never change of ${String(id)}: ${moved.join("; ")}`);
        }
      });
      accepted += r.accepted;
      refusals.push(...r.refusals);
    }
    check(accepted > 0, `${where(update)} refused every valid update of ${String(id)}: ${refusals.join(" | ")}`);
  }

  // Last, once the first object is gone: where the contract caps how many are held, there is room.
  const maximal = (): Promise<void> => maximalCreate(ctx, sc, create, made, id, readOf, objectMap, shows);
  const del = op(sc.delete);
  if (!del) return maximal();
  const dv = { ...(await ctx.positive(del, 0, await itemValues(del))).values, ...(await itemValues(del)) };
  // Other objects listed just before the delete: they must outlive it.
  const siblings = list ? await firstPageKeys(ctx, list, pathFrom(create, made.values, list), id, shape, notMarked(sc.deletion === "soft" ? sc.soft : undefined)) : [];
  const dr = await ctx.send(del, dv, undefined);
  check(ok2xx(dr), `${where(del)} answered ${describeResponse(dr)} deleting ${String(id)}`);
  ctx.checkShape(del, dr);
  if (ok2xx(dr)) ctx.pool.consume(sc.idParam, id);
  ctx.forget();
  await afterDelete(ctx, {
    del,
    values: dv,
    id,
    key,
    first: dr,
    soft: sc.deletion === "soft" ? sc.soft : undefined,
    answerShowsObject: false,
    read: read && { op: read, values: async () => ({ ...(await ctx.positive(read, 0, await itemValues(read))).values, ...(await itemValues(read)) }) },
    list: list && { op: list, fixed: pathFrom(create, made.values, list), shape },
    repeatStatus: sc.repeatDeleteStatus,
    siblings,
    before: first && sc.deletion === "soft" ? { object: first, immutable: sc.immutable ?? [] } : undefined,
  });
  if (second) await deleteMade(ctx, sc, create, second.made, del, second.id);
  await maximal();
}

/**
 * Another object made by `create`: first with the first object's request, its plain texts changed
 * (not those naming another object), then with the very same request (a server that gives keys
 * makes a second object of it). Undefined where each was refused (a cap of one, a name taken, a
 * text that names something after all): not judged, nor is a server error here.
 */
async function secondCreate(ctx: RunContext, create: OperationCase, first: PositiveRequest): Promise<{ res: RawResponse; made: PositiveRequest } | undefined> {
  const valid = (values: Rec, body: unknown): boolean => ctx.tools.validateRequest?.(create.id, requestInput(create, values, body)).valid !== false;
  const tries: { values: Rec; body: unknown }[] = [];
  if (isRec(first.body)) {
    const body: Rec = { ...first.body };
    for (const [k, v] of Object.entries(body))
      if (typeof v === "string" && v !== "" && !namesAnotherObject(create, k) && !/^\d{4}-\d{2}-\d{2}/.test(v)) body[k] = `${v.slice(0, -1)}${v.endsWith("2") ? "3" : "2"}`;
    if (JSON.stringify(body) !== JSON.stringify(first.body) && valid(first.values, body)) tries.push({ values: first.values, body });
  }
  tries.push({ values: first.values, body: first.body });
  for (const t of tries) {
    const res = await ctx.send(create, t.values, t.body);
    if (ok2xx(res)) return { res, made: { ...first, values: t.values, body: t.body } };
  }
  return undefined;
}

/** Where a lifecycle's create answers the new object's key. */
function createSource(create: OperationCase, sc: LifecycleScenario): Extract<PlanSource, { kind: "create" }> {
  return { kind: "create", operationId: create.id, pointers: sc.idPointers, location: sc.location === true };
}

/** Deletes an extra object a lifecycle made (an enum sweep's, the maximal create's), and consumes its key. */
async function deleteMade(ctx: RunContext, sc: LifecycleScenario, create: OperationCase, made: PositiveRequest, del: OperationCase, id: unknown): Promise<void> {
  const dv = { ...(await ctx.pathValues(del)), ...pathFrom(create, made.values, del), [sc.idParam]: id };
  const gone = await ctx.send(del, { ...(await ctx.positive(del, 0, dv)).values, ...dv }, undefined);
  if (ok2xx(gone)) ctx.pool.consume(sc.idParam, id);
}

/** Reads the object `id` made by `create` through `read`; undefined when the read does not answer it. */
async function readFor(ctx: RunContext, read: OperationCase, create: OperationCase, createValues: Rec, id: unknown, sc: LifecycleScenario): Promise<Rec | undefined> {
  const values = { ...(await ctx.pathValues(read)), ...pathFrom(create, createValues, read), [sc.idParam]: id };
  const r = await ctx.send(read, { ...(await ctx.positive(read, 0, values)).values, ...values }, undefined);
  return ok2xx(r) ? subject(r.body, id, sc.keyField) : undefined;
}

/**
 * Every value of each enum member of the create, each in an object of its own, read back: a server
 * that stores one constant (the value the examples happen to use) is caught on the next value. At
 * most `SWEEP_CREATES` objects, made only where the contract also deletes them (the suite cleans up).
 */
async function enumSweep(
  ctx: RunContext,
  sc: LifecycleScenario,
  create: OperationCase,
  made: PositiveRequest,
  firstId: unknown,
  readOf: ((id: unknown) => Promise<Rec | undefined>) | undefined,
  map: Readonly<Record<string, string>> | undefined,
  shows: (object: Rec | undefined, member: string) => boolean,
): Promise<void> {
  if (!readOf || !map || !ctx.tools.validateRequest) return;
  const del = sc.delete !== undefined ? ctx.op(sc.delete) : undefined;
  if (!del && !ctx.target().disposable) return;
  let budget = SWEEP_CREATES;
  for (const [member, stored] of Object.entries(map)) {
    const inBody = isRec(made.body) && Object.prototype.hasOwnProperty.call(made.body, member);
    const inQuery = create.parameters.some((p) => p.in === "query" && p.name === member);
    const schema = inQuery ? create.request?.parameters[member] : create.request?.body !== undefined ? memberSchema(ctx.root, create.request.body.schema, member) : undefined;
    const values = enumValues(ctx.root, schema);
    const sentValue = inBody ? (made.body as Rec)[member] : made.values[member];
    for (const value of values) {
      if (budget <= 0) return;
      if (sameValue(value, sentValue)) continue;
      const req =
        inBody || (!inQuery && isRec(made.body)) ? { values: made.values, body: { ...(made.body as Rec), [member]: value } } : { values: { ...made.values, [member]: value }, body: made.body };
      if (!ctx.tools.validateRequest(create.id, requestInput(create, req.values, req.body)).valid) continue;
      budget--;
      const res = await ctx.send(create, req.values, req.body);
      if (!ok2xx(res)) continue;
      const id = createdKey(res, createSource(create, sc));
      if (id === undefined || String(id) === String(firstId)) continue;
      const now = await readOf(id);
      if (now) {
        // A constant stored shows as another value; a member missing is judged as everywhere else.
        const diff = differences([{ member, stored, value, declared: shows(subject(res.body, id, sc.keyField), stored) }], now);
        ctx.check(diff.length === 0, `${where(create)}: an object made with ${member}=${JSON.stringify(value)} does not hold it: ${diff.join("; ")}`);
      }
      if (del) {
        await deleteMade(ctx, sc, create, made, del, id);
      }
    }
  }
}

/**
 * One more object made with every optional member the read-back map names (falsy values first;
 * members naming other objects with ones the server lists), read back: what the first create left
 * out is stored too. Then the same for each other value of an enum member where that value admits
 * members the first did not (a video's members on a create that drew an image). A refusal is no
 * failure (members may exclude each other in ways the schema does not say); made only where the
 * contract deletes it again or the target is throw-away, and deleted afterwards.
 */
async function maximalCreate(
  ctx: RunContext,
  sc: LifecycleScenario,
  create: OperationCase,
  made: PositiveRequest,
  firstId: unknown,
  readOf: ((id: unknown) => Promise<Rec | undefined>) | undefined,
  map: Readonly<Record<string, string>> | undefined,
  shows: (object: Rec | undefined, member: string) => boolean,
): Promise<void> {
  if (!readOf || !map) return;
  const del = sc.delete !== undefined ? ctx.op(sc.delete) : undefined;
  if (!del && !ctx.target().disposable) return;
  const named = (await ctx.pool.referenceValues(create, pathFrom(create, made.values, create))).body;
  const req = maximalRequest(ctx, create, made, map, "create", named);
  if (req.added.length > 0) await sendMaximal(ctx, sc, create, made, req, firstId, readOf, map, shows, del);
  const covered = new Set(req.added);
  let budget = KIND_VARIANTS;
  for (const variant of kindVariants(ctx, create, made, map)) {
    if (budget <= 0) break;
    const full = maximalRequest(ctx, create, variant.req, map, `create/${variant.label}`, named);
    const fresh = full.added.filter((m) => !covered.has(m));
    if (fresh.length === 0) continue;
    budget--;
    for (const m of fresh) covered.add(m);
    await sendMaximal(ctx, sc, create, made, { ...full, added: [variant.label, ...full.added] }, firstId, readOf, map, shows, del);
  }
}

/** Kinds of object a maximal create is also made as: the first request with one enum member set to each other value it allows. */
function kindVariants(ctx: RunContext, create: OperationCase, made: PositiveRequest, map: Readonly<Record<string, string>>): { label: string; req: { values: Rec; body: unknown } }[] {
  const out: { label: string; req: { values: Rec; body: unknown } }[] = [];
  const validate = ctx.tools.validateRequest;
  if (!validate || !isRec(made.body) || create.request?.body === undefined) return out;
  for (const member of Object.keys(map).sort()) {
    const values = enumValues(ctx.root, memberSchema(ctx.root, create.request.body.schema, member));
    for (const value of values) {
      if (sameValue(value, (made.body as Rec)[member])) continue;
      const req = { values: { ...made.values }, body: { ...(made.body as Rec), [member]: value } };
      if (validate(create.id, requestInput(create, req.values, req.body)).valid) out.push({ label: `${member}=${JSON.stringify(value)}`, req });
    }
  }
  return out;
}

/** Sends one maximal create, judges its answer and what the object reads back, and deletes it again. */
async function sendMaximal(
  ctx: RunContext,
  sc: LifecycleScenario,
  create: OperationCase,
  made: PositiveRequest,
  req: { values: Rec; body: unknown; added: readonly string[] },
  firstId: unknown,
  readOf: (id: unknown) => Promise<Rec | undefined>,
  map: Readonly<Record<string, string>>,
  shows: (object: Rec | undefined, member: string) => boolean,
  del: OperationCase | undefined,
): Promise<void> {
  let res = await ctx.send(create, req.values, req.body);
  // Objects other cases made may fill the contract's cap: a throw-away target makes room.
  if (res.status >= 400 && res.status < 500 && (await ctx.pool.makeRoom(create, pathFrom(create, made.values, create)))) res = await ctx.send(create, req.values, req.body);
  ctx.check(
    res.status < 500 || (create.declaredServerErrors ?? []).includes(res.status),
    `${where(create)} answered ${describeResponse(res)} to a valid create sending every optional member: a server error`,
  );
  if (!ok2xx(res)) return;
  const id = createdKey(res, createSource(create, sc));
  if (id === undefined || String(id) === String(firstId)) return;
  const answered = subject(res.body, id, sc.keyField);
  const sent = sentMembers(create, req.values, req.body, map)
    .filter((m) => m.stored !== sc.keyField)
    .map((m) => ({ ...m, declared: shows(answered, m.stored) }));
  if (answered) {
    const diff = differences(
      sent.map((x) => ({ ...x, declared: false })),
      answered,
    );
    ctx.check(diff.length === 0, `${where(create)} answers a create sending every optional member (${req.added.join(", ")}) with other values than it was sent: ${diff.join("; ")}`);
  }
  const now = await readOf(id);
  if (now) {
    const diff = differences(sent, now);
    ctx.check(diff.length === 0, `${where(create)}: an object made with every optional member (${req.added.join(", ")}) does not hold what was sent: ${diff.join("; ")}`);
  }
  if (del) await deleteMade(ctx, sc, create, made, del, id);
}

/** Kinds of object (enum values admitting other members) a maximal create is also made as. @default 4 */
const KIND_VARIANTS = 4;

/** One-member changes an update case sends (each read back), every member's first before any second. @default 16 */
const MAX_CHANGES = 16;

/** Objects an enum sweep may make per lifecycle. @default 12 */
const SWEEP_CREATES = 12;

/** The values an enum schema (or an array of one) allows, at most eight. */
function enumValues(root: unknown, schema: unknown): unknown[] {
  const s = deref(root, schema);
  if (!isRec(s)) return [];
  if (Array.isArray(s["enum"])) return s["enum"].filter((v) => v !== null).slice(0, 8);
  if (s["type"] === "boolean") return [true, false];
  return [];
}

/**
 * The update request built from the object as read: each member the update takes that the object
 * holds keeps its stored value (the write changes nothing else), the rest as a valid request has
 * it. Falls back to the valid request alone when the stored values do not make a valid one.
 */
async function readModifyWrite(ctx: RunContext, update: OperationCase, stored: Rec, fixed: Rec, index: number): Promise<{ values: Rec; body: unknown }> {
  const base = await ctx.positive(update, index, fixed);
  const plain = { values: { ...base.values, ...fixed }, body: base.body };
  const validate = ctx.tools.validateRequest;
  if (!validate) return plain;
  // Later attempts, after the object as read was refused back (a server refusing its own
  // representation, e.g. an empty NSEC3 parameter it lists): only what the body requires.
  if (index >= 2 && isRec(plain.body) && update.request?.body !== undefined) {
    const schema = deref(ctx.root, update.request.body.schema);
    const required = isRec(schema) && Array.isArray(schema["required"]) ? schema["required"].filter((r): r is string => typeof r === "string") : [];
    const minimal: Rec = {};
    for (const k of required)
      if (Object.prototype.hasOwnProperty.call(stored, k) && stored[k] !== null) minimal[k] = stored[k];
      else if (Object.prototype.hasOwnProperty.call(plain.body, k)) minimal[k] = plain.body[k];
    if (validate(update.id, requestInput(update, plain.values, minimal)).valid) return { values: plain.values, body: minimal };
  }
  const values: Rec = { ...plain.values };
  for (const p of update.parameters) if (p.in === "query" && Object.prototype.hasOwnProperty.call(stored, p.name) && scalar(stored[p.name])) values[p.name] = stored[p.name];
  let body = plain.body;
  if (isRec(body) && update.request?.body !== undefined) {
    const next: Rec = { ...body };
    for (const k of Object.keys(stored)) if (memberSchema(ctx.root, update.request.body.schema, k) !== undefined && stored[k] !== null) next[k] = stored[k];
    body = next;
  }
  if (validate(update.id, requestInput(update, values, body)).valid) return { values, body };
  // Stored values the request cannot take (a read-only member sent back): keep the query, draw the body.
  if (validate(update.id, requestInput(update, values, plain.body)).valid) return { values, body: plain.body };
  return plain;
}

/**
 * Requests that each change one member the stored object shows to a new valid value, so storing it
 * is observable: every other value of an enum or a boolean, else a value drawn from its schema;
 * every member's first change before any second, at most `MAX_CHANGES`. References change only to another listed value.
 */
function changesOf(
  ctx: RunContext,
  op: OperationCase,
  req: { values: Rec; body: unknown },
  stored: Rec,
  salt: number,
  alternatives: Readonly<Record<string, readonly unknown[]>> = {},
): { values: Rec; body: unknown }[] {
  const mock = ctx.tools.mock;
  const validate = ctx.tools.validateRequest;
  if (!mock || !validate || !op.request) return [];
  const valid = (values: Rec, body: unknown): boolean => validate(op.id, requestInput(op, values, body)).valid;
  const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b) || (scalar(a) && scalar(b) && String(a) === String(b));
  // A reference to another object (`line_item_id`, `media_key`) cannot take an invented value.
  // A member whose value is (part of) the object's key (a TSIG key's name in its id): changing it
  // moves the object, which the suite's case must not do.
  const keyText = op.parameters
    .filter((p) => p.in === "path")
    .map((p) => req.values[p.name])
    .filter((v): v is string => typeof v === "string" && v !== "");
  const holdsKey = (name: string): boolean => {
    const v = stored[name];
    return typeof v === "string" && v.length >= 3 && keyText.some((k) => k.includes(v.replace(/\.$/, "")));
  };
  const reference = (name: string): boolean => namesAnotherObject(op, name) || holdsKey(name);
  // Per member, its changes: every member gets its first change before any gets a second.
  const perMember: { values: Rec; body: unknown }[][] = [];
  const candidates = (schema: unknown, name: string, where: string): unknown[] => {
    // A reference changes only to another object the server listed.
    if (reference(name)) return (alternatives[name] ?? []).filter((v) => !same(v, stored[name])).slice(0, 2);
    const listed = enumValues(ctx.root, schema).filter((v) => !same(v, stored[name]));
    if (listed.length > 0) return listed.slice(0, 3);
    const drawn: unknown[] = [];
    for (let k = 0; k < 6; k++) {
      const v = mock(schema as MockSchema, deriveSeed(ctx.seed, `${op.id}/change/${where}/${name}/${salt}/${k}`));
      if (scalar(v) && !same(v, stored[name])) drawn.push(v);
    }
    return drawn;
  };
  for (const p of op.parameters) {
    if (p.in !== "query" || (reference(p.name) && alternatives[p.name] === undefined) || !Object.prototype.hasOwnProperty.call(stored, p.name) || op.request.parameters[p.name] === undefined) continue;
    const mine: { values: Rec; body: unknown }[] = [];
    for (const v of candidates(op.request.parameters[p.name], p.name, "query")) {
      const values = { ...req.values, [p.name]: v };
      if (mine.length < 2 && valid(values, req.body)) {
        mine.push({ values, body: req.body });
        if (enumValues(ctx.root, op.request.parameters[p.name]).length === 0) break;
      }
    }
    perMember.push(mine);
  }
  const bodySchema = op.request.body?.schema;
  if (bodySchema !== undefined && isRec(req.body)) {
    for (const name of Object.keys(stored)) {
      if (reference(name) && alternatives[name] === undefined) continue;
      const schema = memberSchema(ctx.root, bodySchema, name);
      // A read-only member (a TSIG key's constant type) is the server's: no change is asked of it.
      if (schema === undefined || readOnly(ctx.root, schema)) continue;
      const mine: { values: Rec; body: unknown }[] = [];
      for (const v of candidates(schema, name, "body")) {
        const body = { ...req.body, [name]: v };
        if (mine.length < 2 && valid(req.values, body)) {
          mine.push({ values: req.values, body });
          if (enumValues(ctx.root, schema).length === 0) break;
        }
      }
      perMember.push(mine);
    }
  }
  const rounds = Math.max(0, ...perMember.map((c) => c.length));
  const ordered: { values: Rec; body: unknown }[] = [];
  for (let r = 0; r < rounds; r++) for (const c of perMember) if (c[r] !== undefined) ordered.push(c[r] as { values: Rec; body: unknown });
  return ordered.slice(0, MAX_CHANGES);
}

/** Per member naming another object, the values its lists give (a few): what an update may change it to. */
async function referenceAlternatives(ctx: RunContext, op: OperationCase, known: Rec): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  if ((op.references ?? []).length === 0) return out;
  for (let k = 0; k < 3; k++) {
    const refs = await ctx.pool.referenceValues(op, known, k);
    for (const [name, value] of [...Object.entries(refs.query), ...Object.entries(refs.body)]) {
      const seen = (out[name] ??= []);
      if (!seen.some((v) => JSON.stringify(v) === JSON.stringify(value))) seen.push(value);
    }
  }
  return out;
}

/** Sends each change of `req` (or `req` itself when nothing can be changed); `after` checks what each taken one stored. */
async function updateEach(
  ctx: RunContext,
  update: OperationCase,
  req: { values: Rec; body: unknown },
  stored: Rec,
  id: unknown,
  salt: number,
  map: Readonly<Record<string, string>> | undefined,
  immutable: readonly string[],
  after: (changed: SentMember[]) => Promise<unknown>,
  answerShows = false,
): Promise<{ accepted: number; refusals: string[]; sentBody: unknown; sentQuery: Rec }> {
  const changes = changesOf(ctx, update, req, stored, salt, await referenceAlternatives(ctx, update, req.values));
  // And one write sending every optional member the read-back names that the others leave out.
  const full = map ? maximalRequest(ctx, update, req, map, `update/${salt}`) : undefined;
  if (full && full.added.length > 0) changes.push({ values: full.values, body: full.body });
  let accepted = 0;
  const refusals: string[] = [];
  // Every body member any taken write sent: what a put-back must restore.
  let sentBody: unknown = req.body;
  let sentQuery: Rec = { ...req.values };
  for (const change of changes.length > 0 ? changes : [req]) {
    const sent = await sendUpdate(ctx, update, change, id, map, stored, immutable, answerShows);
    if ("refused" in sent) refusals.push(sent.refused);
    else {
      accepted++;
      if (isRec(sentBody) && isRec(change.body)) sentBody = { ...sentBody, ...change.body };
      sentQuery = { ...sentQuery, ...change.values };
      await after(sent.changed);
      // A PUT is idempotent (RFC 9110 §9.2.2): the same one again leaves the object as the first
      // did. A server that toggles, adds to or appends what it is sent is caught on the second. A
      // refusal of the repeat is not judged (a version the first PUT used up).
      if (update.method === "PUT" && accepted === 1) {
        const again = await sendUpdate(ctx, update, change, id, map, stored, immutable, answerShows);
        if (!("refused" in again)) await after(again.changed);
      }
    }
  }
  return { accepted, refusals, sentBody, sentQuery };
}

/**
 * Sends an update: no 5xx; when taken, an answer of the declared shape that holds what was sent.
 * Returns the members it sent, or the refusal as text.
 */
async function sendUpdate(
  ctx: RunContext,
  update: OperationCase,
  change: { values: Rec; body: unknown },
  id: unknown,
  map: Readonly<Record<string, string>> | undefined,
  before: Rec,
  immutable: readonly string[],
  answerShows = false,
): Promise<{ changed: SentMember[] } | { refused: string }> {
  const ur = await ctx.send(update, change.values, change.body);
  ctx.check(ur.status < 500 || (update.declaredServerErrors ?? []).includes(ur.status), `${where(update)} answered ${describeResponse(ur)} to a valid update of ${String(id)}: a server error`);
  if (!ok2xx(ur)) return { refused: describeResponse(ur).slice(0, 200) };
  ctx.checkShape(update, ur);
  const path = new Set(update.parameters.filter((p) => p.in === "path").map((p) => p.name));
  const answered = subject(ur.body, id);
  // What a read afterwards must hold: what the answer says was stored. An update answered without
  // the object (204) is judged on its status: which members it applies is the server's to say
  // (a PATCH of some members only), and a read cannot tell an ignored member from a lost one.
  // Where nothing but the answer shows the object (`answerShows`: `map` holds the members the
  // answer declares), a member sent and left out of it is lost, not merely unshown.
  const changed = answered
    ? sentMembers(update, change.values, change.body, map).filter(
        (m) => !path.has(m.member) && (Object.prototype.hasOwnProperty.call(answered, m.stored) || (answerShows && map?.[m.member] !== undefined && m.value !== null)),
      )
    : [];
  if (answered) {
    const diff = differences(
      changed.map((x) => ({ ...x, declared: answerShows && map?.[x.member] !== undefined })),
      answered,
    );
    ctx.check(diff.length === 0, `${where(update)} answers the update of ${String(id)} with other values than it was sent: ${diff.join("; ")}`);
    const moved = changedImmutables(before, answered, immutable);
    ctx.check(moved.length === 0, `${where(update)} answers the update of ${String(id)} with what must never change changed: ${moved.join("; ")}`);
  }
  return { changed };
}

/** The path values `to` shares with `from` (a create's or an update's parents, for its read or list), as `values` holds them. */
function pathFrom(from: OperationCase, values: Readonly<Rec>, to: OperationCase): Rec {
  const out: Rec = {};
  for (const p of from.parameters) if (p.in === "path" && values[p.name] !== undefined && to.parameters.some((q) => q.in === "path" && q.name === p.name)) out[p.name] = values[p.name];
  return out;
}

/**
 * The verifier a PIN-mode browser step shows: in a header or body member named for the verifier,
 * or the one run of 4 to 10 digits of a text page. Undefined when the page does not show one a
 * program can read (a person would read it).
 */
function shownVerifier(res: RawResponse): string | undefined {
  const named = namedVerifier(res);
  if (named !== undefined) return named;
  if (typeof res.body === "string") {
    const runs = res.body.match(/\b\d{4,10}\b/g) ?? [];
    if (runs.length === 1) return runs[0];
  }
  return undefined;
}

/** A name that is or ends with the word verifier or PIN (`x-oauth-verifier`, `pin`), not `Public-Key-Pins`. */
const VERIFIER_NAME = /(^|[-_])(verifier|pin)$/i;

/** A verifier the answer names as one (a header or a JSON member called verifier or PIN), not a number found in a page. */
function namedVerifier(res: RawResponse): string | undefined {
  let fromHeader: string | undefined;
  res.headers.forEach((value, name) => {
    if (fromHeader === undefined && VERIFIER_NAME.test(name) && value.trim() !== "") fromHeader = value.trim();
  });
  if (fromHeader !== undefined) return fromHeader;
  if (isRec(res.body)) {
    const key = Object.keys(res.body).find((k) => VERIFIER_NAME.test(k));
    const v = key !== undefined ? res.body[key] : undefined;
    if (typeof v === "string" || typeof v === "number") return String(v);
  }
  return undefined;
}

/** Reads a form-encoded (or JSON) token answer. */
function fields(res: RawResponse): Rec {
  if (isRec(res.body)) return res.body;
  if (typeof res.body === "string") return Object.fromEntries(new URLSearchParams(res.body));
  return {};
}

async function oauth1Flow(ctx: RunContext, sc: Extract<Scenario, { kind: "oauth1Flow" }>, skip: (why: string) => void): Promise<void> {
  const { check } = ctx;
  const t = ctx.target();
  const c = t.auth.oauth1;
  if (!c) return skip('no OAuth 1.0a consumer credentials were given (--auth {"oauth1": …})');
  const consumer: AuthConfig = { oauth1: { consumerKey: c.consumerKey, consumerSecret: c.consumerSecret } };
  const reqOp = ctx.op(sc.requestToken) as OperationCase;
  const authOp = ctx.op(sc.authorize) as OperationCase;
  const accOp = ctx.op(sc.accessToken) as OperationCase;
  /** Whether a body is the one a JSON Schema of the contract describes (the scheme's stated refusals). */
  const matches = createSchemaMatcher(ctx.root, { now: Date.now() });

  // The user who approves, where the target names one (the browser step's screen_name).
  const screenName = typeof t.values?.["screen_name"] === "string" ? (t.values["screen_name"] as string) : undefined;
  const takesScreenName = authOp.parameters.some((p) => p.name === "screen_name" && p.in === "query");

  /** Request token with `callback` (RFC 5849 §2.1: the server confirms it) → the browser step's answer. */
  const browserStep = async (callback: string, browser: OperationCase = authOp): Promise<{ token: string; secret: string; answer: RawResponse } | undefined> => {
    const rq = await ctx.send(reqOp, { ...(reqOp.positive?.values ?? {}), oauth_callback: callback }, undefined, consumer, { callback, token: null, tokenSecret: null });
    check(ok2xx(rq), `${where(reqOp)} answered ${describeResponse(rq)} to a signed request-token step with oauth_callback=${callback}`);
    const f = fields(rq);
    check(typeof f["oauth_token"] === "string" && typeof f["oauth_token_secret"] === "string", `${where(reqOp)}: no oauth_token and oauth_token_secret in ${describeResponse(rq)}`);
    check(String(f["oauth_callback_confirmed"]) === "true", `${where(reqOp)} answered oauth_callback_confirmed=${String(f["oauth_callback_confirmed"])} for oauth_callback=${callback}, expected true`);
    const ar = await ctx.send(browser, { oauth_token: f["oauth_token"], ...(takesScreenName && screenName !== undefined ? { screen_name: screenName } : {}) }, undefined, consumer, {
      token: null,
      tokenSecret: null,
    });
    return { token: String(f["oauth_token"]), secret: String(f["oauth_token_secret"]), answer: ar };
  };

  /** Request token → browser step; the verifier comes back in the callback's query. */
  const approved = async (): Promise<{ token: string; secret: string; verifier: string } | undefined> => {
    const step = await browserStep(sc.callback);
    if (!step) return undefined;
    const f = { oauth_token: step.token };
    const ar = step.answer;
    const location = ar.headers.get("location");
    // No redirect: a person has to approve on the page, unless the page shows a verifier as PIN
    // mode does: then the callback URL given was not kept. A redirect to the callback must carry the verifier.
    if (location === null) {
      check(namedVerifier(ar) === undefined, `${where(authOp)} showed a verifier (PIN mode) for a request token asked with oauth_callback=${sc.callback}: the user must be sent to that callback`);
      // A page for a person is no failure; the scheme's own refusal of an unknown token is: the
      // server does not know the request token it has just issued.
      const refused = sc.invalidToken;
      check(
        !(refused !== undefined && ar.status === refused.status && matches(refused.schema, ar.body)),
        `${where(authOp)} refused the request token ${where(reqOp)} had just issued, as the contract says an unknown token is refused (${refused?.source ?? ""}): ${describeResponse(ar)}`,
      );
      return undefined;
    }
    const back = new URL(location, t.baseUrl).searchParams;
    const verifier = back.get("oauth_verifier");
    check(verifier !== null && back.get("oauth_token") === f["oauth_token"], `${where(authOp)} redirected to ${location} without the request token and its oauth_verifier`);
    if (verifier === null) return undefined;
    return { token: step.token, secret: step.secret, verifier };
  };
  const exchange = (step: { token: string; secret: string }, verifier: string): Promise<RawResponse> =>
    ctx.send(accOp, { oauth_token: step.token, oauth_verifier: verifier }, undefined, consumer, { token: step.token, tokenSecret: step.secret, verifier });

  const first = await approved();
  if (!first) return skip(`${where(authOp)} needs a person at the browser step (no oauth_verifier came back in a redirect)`);
  // RFC 5849 §2.2: a callback that has a query of its own keeps it, the OAuth parameters appended to it.
  const withQuery = `${sc.callback}${sc.callback.includes("?") ? "&" : "?"}cg_state=kept`;
  const own = await browserStep(withQuery);
  const ownLocation = own?.answer.headers.get("location");
  if (own && ownLocation) {
    const back = new URL(ownLocation, t.baseUrl).searchParams;
    check(
      back.get("cg_state") === "kept" && back.get("oauth_token") === own.token && back.get("oauth_verifier") !== null,
      `${where(authOp)} redirected to ${ownLocation} for oauth_callback=${withQuery}: the callback's own query must be kept and oauth_token and oauth_verifier appended to it (RFC 5849 §2.2)`,
    );
  }
  const wrong = await exchange(first, `${first.verifier}-wrong`);
  check(wrong.status >= 400 && wrong.status < 500, `${where(accOp)} accepted a wrong oauth_verifier: ${describeResponse(wrong)}`);
  // The right verifier cut short is as wrong as any other: a server comparing only a prefix takes it.
  if (first.verifier.length > 1) {
    const approvedAgain = await approved();
    if (approvedAgain) {
      const cut = await exchange(approvedAgain, approvedAgain.verifier.slice(0, -1));
      check(cut.status >= 400 && cut.status < 500, `${where(accOp)} accepted the oauth_verifier cut short by one character: ${describeResponse(cut)}`);
    }
  }
  // The exchange must be signed with the very request token it names (RFC 5849 §2.3).
  const other = await approved();
  if (other) {
    const crossed = await ctx.send(accOp, { oauth_token: other.token, oauth_verifier: other.verifier }, undefined, consumer, {
      token: first.token,
      tokenSecret: first.secret,
      verifier: other.verifier,
    });
    check(crossed.status >= 400 && crossed.status < 500, `${where(accOp)} exchanged a request token in a request signed with another one: ${describeResponse(crossed)}`);
    // A verifier belongs to the request token it was given for: another approved token's is a wrong one
    // (a server that finds the request by its verifier alone takes it).
    const mine = await approved();
    if (mine && mine.verifier !== other.verifier) {
      const borrowed = await exchange(mine, other.verifier);
      check(borrowed.status >= 400 && borrowed.status < 500, `${where(accOp)} exchanged a request token with the oauth_verifier given for another one: ${describeResponse(borrowed)}`);
    }
  }

  const step = await approved();
  if (!step) return skip("the browser step stopped answering with a verifier");
  const granted = await exchange(step, step.verifier);
  check(ok2xx(granted), `${where(accOp)} answered ${describeResponse(granted)} to the approved request token and its verifier`);
  const access = fields(granted);
  check(typeof access["oauth_token"] === "string" && typeof access["oauth_token_secret"] === "string", `${where(accOp)}: no access token in ${describeResponse(granted)}`);
  const reused = await exchange(step, step.verifier);
  check(reused.status >= 400 && reused.status < 500, `${where(accOp)} exchanged the same request token twice: ${describeResponse(reused)}`);
  // Who approved is who the access token is for: the same user each time, and the one named where the target names one.
  const identity = (a: Rec): string => `${String(a["user_id"])}/${String(a["screen_name"])}`;
  if ("user_id" in access || "screen_name" in access) {
    if (screenName !== undefined && takesScreenName)
      check(access["screen_name"] === screenName, `${where(accOp)} gave an access token for screen_name ${JSON.stringify(access["screen_name"])} after ${screenName} approved`);
    const again = await approved();
    if (again) {
      const second = fields(await exchange(again, again.verifier));
      check(identity(second) === identity(access), `${where(accOp)}: the same user approving twice got access tokens for ${identity(access)} and ${identity(second)}`);
    }
  }
  // Out-of-band (PIN) mode: no redirect; the verifier is shown to the person, who types it in.
  const pin = await browserStep("oob");
  if (pin) {
    const location = pin.answer.headers.get("location");
    check(location === null || !/^https?:/i.test(location), `${where(authOp)} redirected an oob request token to ${String(location)}: PIN mode shows the verifier instead`);
    const shown = shownVerifier(pin.answer);
    if (shown !== undefined) {
      const wrongPin = await exchange(pin, `${shown}9`);
      check(wrongPin.status >= 400 && wrongPin.status < 500, `${where(accOp)} accepted a wrong PIN: ${describeResponse(wrongPin)}`);
      const viaPin = await browserStep("oob");
      const pinShown = viaPin ? shownVerifier(viaPin.answer) : undefined;
      if (viaPin && pinShown !== undefined) {
        const granted2 = await exchange(viaPin, pinShown);
        check(ok2xx(granted2), `${where(accOp)} answered ${describeResponse(granted2)} to a request token approved in PIN mode and its PIN`);
        const a2 = fields(granted2);
        if ("user_id" in access) check(identity(a2) === identity(access), `${where(accOp)}: PIN mode gave an access token for ${identity(a2)}, the redirect for ${identity(access)}`);
      }
    }
  }

  // The second browser step approves as the first does (the same parameters and result): a fresh
  // request token sent through it comes back to the callback with a verifier that is exchanged.
  const authnOp = sc.authenticate !== undefined ? ctx.op(sc.authenticate) : undefined;
  if (authnOp) {
    const viaAuthn = await browserStep(sc.callback, authnOp);
    const location = viaAuthn?.answer.headers.get("location") ?? null;
    const back = location !== null ? new URL(location, t.baseUrl).searchParams : undefined;
    const verifier = back?.get("oauth_verifier") ?? null;
    check(
      viaAuthn !== undefined && verifier !== null && back?.get("oauth_token") === viaAuthn.token,
      `${where(authnOp)} answered ${viaAuthn ? describeResponse(viaAuthn.answer) : "nothing"} for a fresh request token, where ${where(authOp)} sends the user to the callback with oauth_token and oauth_verifier: the two browser steps approve alike`,
    );
    if (viaAuthn && verifier !== null) {
      const got = await exchange(viaAuthn, verifier);
      check(ok2xx(got), `${where(accOp)} answered ${describeResponse(got)} to a request token approved through ${authnOp.id} and its verifier`);
    }
  }

  /** The consumer's credentials with an access token answer's token and secret. */
  const signedWith = (a: Rec): AuthConfig => ({
    oauth1: { consumerKey: c.consumerKey, consumerSecret: c.consumerSecret, token: String(a["oauth_token"]), tokenSecret: String(a["oauth_token_secret"]) },
  });
  const user = signedWith(access);
  if (sc.invalidate === undefined) return;
  // A second live token of the same user, to show the invalidation below ends the first only.
  const spareStep = await approved();
  const spare = spareStep ? fields(await exchange(spareStep, spareStep.verifier)) : {};
  const otherUser = typeof spare["oauth_token"] === "string" && typeof spare["oauth_token_secret"] === "string" && spare["oauth_token"] !== access["oauth_token"] ? signedWith(spare) : undefined;
  const inv = ctx.op(sc.invalidate) as OperationCase;
  const stated = sc.invalidToken;
  // A request token is not an access token (RFC 5849 §2: temporary credentials serve the exchange
  // only): the invalidation signed with one names no live user token, and is refused as such.
  const temporary = await browserStep(sc.callback);
  if (temporary) {
    const tr = await ctx.send(inv, {}, undefined, signedWith({ oauth_token: temporary.token, oauth_token_secret: temporary.secret }));
    check(
      stated ? tr.status === stated.status && matches(stated.schema, tr.body) : tr.status >= 400 && tr.status < 500,
      `${where(inv)} answered ${describeResponse(tr)} to a request signed with a request token, which is no access token${stated ? `: the contract states (${stated.source}) ${stated.status} and ${JSON.stringify(stated.schema)}` : ""}`,
    );
  }
  const ir = await ctx.send(inv, {}, undefined, user);
  check(ok2xx(ir), `${where(inv)} answered ${describeResponse(ir)} invalidating a fresh access token`);
  const again = await ctx.send(inv, {}, undefined, user);
  check(again.status === (stated?.status ?? 401), `${where(inv)} accepted an invalidated access token: ${describeResponse(again)}, expected ${stated?.status ?? 401}`);
  if (stated)
    check(
      matches(stated.schema, again.body),
      `${where(inv)} refused an invalidated access token with ${describeResponse(again)}, not the refusal the contract states (${stated.source}): ${JSON.stringify(stated.schema)}`,
    );
  // Only the token the request is signed with: another live one still works.
  if (otherUser !== undefined) {
    const live = await ctx.send(inv, {}, undefined, otherUser);
    check(ok2xx(live), `${where(inv)} answered ${describeResponse(live)} for another live access token after invalidating a different one: invalidation must end only the token it is signed with`);
  }
  // Going through the flow again must give a different token than the invalidated one.
  const next = await approved();
  if (!next) return;
  const regranted = fields(await exchange(next, next.verifier));
  check(typeof regranted["oauth_token"] === "string" && regranted["oauth_token"] !== access["oauth_token"], `${where(accOp)}: after invalidation the flow gave the same access token again`);
}

async function bearerLifecycle(ctx: RunContext, sc: Extract<Scenario, { kind: "bearerLifecycle" }>, skip: (why: string) => void): Promise<void> {
  const { check } = ctx;
  const t = ctx.target();
  if (!t.auth.basic) return skip("no Basic credentials (API key and secret) were given to request app-only tokens");
  const create = ctx.op(sc.create) as OperationCase;
  const basic: AuthConfig = { basic: t.auth.basic };
  const issue = async (): Promise<string> => {
    const res = await ctx.send(create, { ...(create.positive?.values ?? {}) }, create.positive?.body, basic);
    check(res.status === 200, `${where(create)} answered ${describeResponse(res)}`);
    return String((res.body as Rec)["access_token"]);
  };
  const first = await issue();
  check((await issue()) === first, `${where(create)}: a repeated request must return the same token until it is invalidated`);
  const inv = ctx.op(sc.invalidate) as OperationCase;
  const invRes = await ctx.send(inv, {}, { access_token: first }, basic);
  check(invRes.status < 300, `${where(inv)} answered ${describeResponse(invRes)}`);
  const probe = ctx.op(sc.probe) as OperationCase;
  const pv = { ...(await ctx.positive(probe, 0, await ctx.pathValues(probe))).values };
  const refused = await ctx.send(probe, pv, probe.positive?.body, { bearer: first });
  check(refused.status === 401, `${where(probe)} accepted an invalidated token: ${describeResponse(refused)}`);
  const second = await issue();
  check(second !== first, `${where(create)}: after invalidation a new token must differ`);
  const works = await ctx.send(probe, pv, probe.positive?.body, { bearer: second });
  check(works.status !== 401, `${where(probe)} refused the new token: ${describeResponse(works)}`);
}

/**
 * An update no lifecycle reaches: on an object made for it where the contract can make one, else on
 * a listed one that is put back afterwards. Read, change one member, write; the answer and a read
 * hold what was sent, and what must never change did not.
 */
async function updateOnly(ctx: RunContext, sc: Extract<Scenario, { kind: "update" }>, skip: (why: string) => void): Promise<void> {
  const { check } = ctx;
  const update = ctx.op(sc.operationId) as OperationCase;
  const on = await ctx.pool.forCase(update, "write");
  if ("why" in on) return skip(on.why);
  const fixed = on.values;
  const read = sc.read !== undefined ? ctx.op(sc.read) : undefined;
  // Without a read, the collection's list shows the object after each write.
  const listOp = !read && sc.list !== undefined ? ctx.op(sc.list) : undefined;
  const last = update.parameters.filter((p) => p.in === "path").at(-1)?.name;
  const id = last === undefined ? undefined : fixed[last];
  const readNow = async (): Promise<RawResponse | undefined> => (read ? ctx.send(read, { ...(await ctx.positive(read, 0, fixed)).values, ...fixed }, undefined) : undefined);
  // What the server holds now: a read, else the answer to the plain update.
  const before = await readNow();
  if (before && before.status === 404 && on.values[last ?? ""] === update.positive?.values[last ?? ""]) {
    return skip(`${String(id)}, the contract's example ${String(last)}, does not exist on this server: pass a live one with --values`);
  }
  let stored: Rec | undefined = before && ok2xx(before) ? subject(before.body, id) : undefined;
  const original = stored;
  await pastStamps(original, sc.immutable ?? []);
  const refusals: string[] = [];
  let lastSent: { res: RawResponse; body: unknown; query?: Rec } | undefined;
  try {
    for (let i = 0; i < 4; i++) {
      if (!stored) {
        const base = await ctx.positive(update, i, fixed);
        const plain = await ctx.send(update, { ...base.values, ...fixed }, base.body);
        check(plain.status < 500 || (update.declaredServerErrors ?? []).includes(plain.status), `${where(update)} answered ${describeResponse(plain)}: a server error`);
        if (!ok2xx(plain)) {
          refusals.push(describeResponse(plain).slice(0, 200));
          continue;
        }
        lastSent = { res: plain, body: base.body };
        stored = subject(plain.body, id);
        if (!stored) return;
      }
      const held = stored;
      const req = await readModifyWrite(ctx, update, held, fixed, i);
      const r = await updateEach(
        ctx,
        update,
        req,
        held,
        id,
        i,
        sc.readBack,
        sc.immutable ?? [],
        async (changed) => {
          if (listOp) {
            const { found, res } = await listContains(ctx, listOp, pathFrom(update, fixed, listOp), id);
            check(found !== undefined, `${where(listOp)} does not list ${String(id)} after ${update.id}: ${describeResponse(res)}`);
            const diff = found ? differences(changed, found) : [];
            check(diff.length === 0, `${where(listOp)}: ${String(id)} after ${update.id} does not hold what was sent: ${diff.join("; ")}`);
            return;
          }
          const rr = await readNow();
          if (!rr || !read) return;
          check(ok2xx(rr), `${where(read)} answered ${describeResponse(rr)} reading ${String(id)} after ${update.id}`);
          const now = subject(rr.body, id);
          const diff = now ? differences(changed, now) : [];
          check(diff.length === 0, `${where(read)}: ${String(id)} after ${update.id} does not hold what was sent: ${diff.join("; ")}`);
          const moved = now && original ? changedImmutables(original, now, sc.immutable ?? []) : [];
          check(moved.length === 0, `${where(update)} changed what must never change of ${String(id)}: ${moved.join("; ")}`);
        },
        !read && !listOp,
      );
      refusals.push(...r.refusals);
      if (r.accepted > 0) {
        lastSent = { res: { status: 200 } as RawResponse, body: r.sentBody, query: r.sentQuery };
        return;
      }
    }
    // Every write answered 404 and no read showed the object: the value named none this server has
    // (given for another API, or listed and gone since); that is no fault of the update.
    if (!original && refusals.length > 0 && refusals.every((r) => r.startsWith("404"))) {
      return skip(`${String(id)}, the ${String(last)} it was given, names no object this server has (every update answered 404): pass a live one with --values`);
    }
    check(false, `${where(update)} refused every valid update: ${refusals.join(" | ")}`);
  } finally {
    // A listed object is put back as it was read (what was sent last, member by member).
    if (lastSent) await on.done(lastSent.res, lastSent.body, lastSent.query);
  }
}

/**
 * A batch write of the list's objects: one new item (a new key), carrying every member it may, is
 * listed afterwards holding what was sent. It leaves the item behind, so it runs only on a
 * throw-away target.
 */
async function batchWrite(ctx: RunContext, sc: Extract<Scenario, { kind: "batchWrite" }>, skip: (why: string) => void): Promise<void> {
  const op = ctx.op(sc.operationId) as OperationCase;
  const list = ctx.op(sc.list);
  if (!list) return skip(`${sc.list} is not in the plan`);
  if (!ctx.target().disposable) return skip(`${op.id} would leave a new item behind: run against a throw-away server with --disposable`);
  const found = await ctx.pool.pathValues(op);
  if (found.missing.length > 0) return skip(ctx.pool.explain(op, found.missing));
  const base = await ctx.positive(op, 0, found.values);
  const items = getAt(base.body, sc.pointer);
  const template = Array.isArray(items) ? items.find(isRec) : undefined;
  const old = template?.[sc.key];
  if (!template || typeof old !== "string") return skip(`no item of ${sc.pointer} with a text ${sc.key} to write a new one from`);
  const fresh = `${old}-cg${deriveSeed(ctx.seed, op.id) % 100_000}`;
  const values = { ...base.values, ...found.values };
  const validate = ctx.tools.validateRequest;
  // A new item shares no text with the one it starts from, where the validators allow: a server may
  // fold items together by another member (one product per item group).
  const apart = (from: Rec, key: string): Rec => {
    let out: Rec = { ...from, [sc.key]: key };
    const suffix = key.slice(old.length + 1);
    for (const [k, v] of Object.entries(from)) {
      // Only what the relations know names another object stays: a refused item is skipped, not failed.
      if (k === sc.key || typeof v !== "string" || (op.references ?? []).some((r) => r.name === k)) continue;
      const next = { ...out, [k]: `${typeof template[k] === "string" ? template[k] : v}-${suffix}` };
      const wrapped = { ...(isRec(base.body) ? base.body : {}), [sc.pointer.slice(1)]: [next] };
      if (validate && validate(op.id, requestInput(op, values, wrapped)).valid) out = next;
    }
    return out;
  };
  const start = apart(template, fresh);
  const { item, body, added } = maximalItem(ctx, op, { values, body: base.body }, sc.pointer, start, sc.readBack, "batch");
  if (validate && !validate(op.id, requestInput(op, values, body)).valid) return skip(`a new ${sc.key} (${fresh}) makes no valid ${op.id} request`);
  const res = await ctx.send(op, values, body);
  ctx.check(res.status < 500 || (op.declaredServerErrors ?? []).includes(res.status), `${where(op)} answered ${describeResponse(res)} to a valid batch of one new item: a server error`);
  if (!ok2xx(res)) return skip(`${op.id} refused a new item carrying every member it may: ${describeResponse(res).slice(0, 200)}`);
  const { found: listed, res: lr } = await listContains(ctx, list, { ...(await ctx.pathValues(list)), ...pathFrom(op, values, list) }, fresh, {}, { key: sc.key });
  ctx.check(listed !== undefined, `${where(list)} does not list ${sc.key}=${fresh} after ${op.id} wrote it (${op.id} answered ${describeResponse(res).slice(0, 300)}): ${describeResponse(lr)}`);
  if (!listed) return;
  const sent = Object.entries(sc.readBack)
    .filter(([m]) => Object.prototype.hasOwnProperty.call(item, m))
    .map(([member, stored]) => ({ member, stored, value: item[member], declared: false }));
  const diff = differences(sent, listed);
  ctx.check(
    diff.length === 0,
    `${where(list)} lists the item ${op.id} wrote (${sc.key}=${fresh}${added.length > 0 ? `, also sending ${added.join(", ")}` : ""}) with other values than were sent: ${diff.join("; ")}`,
  );
  // One more new item, its texts as long as the contract allows: a server that keeps less (a column
  // narrower than the contract) lists them cut.
  const longKey = `${old}-cgl${deriveSeed(ctx.seed, `${op.id}/limits`) % 100_000}`;
  const long = itemAtLengthLimits(
    ctx,
    op,
    { values, body: base.body },
    sc.pointer,
    apart(item, longKey),
    Object.keys(sc.readBack).filter((m) => m !== sc.key),
    `${longKey}-`,
  );
  if (long.set.length === 0) return;
  const again = await ctx.send(op, values, long.body);
  if (!ok2xx(again)) return;
  const { found: kept } = await listContains(ctx, list, { ...(await ctx.pathValues(list)), ...pathFrom(op, values, list) }, longKey, {}, { key: sc.key });
  if (!kept) return;
  const cut = long.set.filter((m) => {
    const shown = kept[sc.readBack[m] ?? m];
    const sentText = long.item[m] as string;
    return typeof shown === "string" && shown.length < sentText.length && sentText.startsWith(shown);
  });
  ctx.check(
    cut.length === 0,
    `${where(list)} lists the item ${op.id} wrote with texts at their length limit (${sc.key}=${longKey}) cut short: ${cut.map((m) => `${m} (${String((kept[sc.readBack[m] ?? m] as string).length)} of ${(long.item[m] as string).length} characters)`).join(", ")}`,
  );
}

/** Counts every item of a list, walking its pages (bounded). */
async function countAll(ctx: RunContext, list: OperationCase, fixed: Rec): Promise<number | undefined> {
  let n = 0;
  for await (const { res, items, more } of pages(ctx, list, { ...(await ctx.positive(list, 0, fixed)).values, ...fixed })) {
    if (!ok2xx(res) || !items) return undefined;
    n += items.length;
    if (!more) return n;
  }
  // Still more after the last page walked: too long to count.
  return undefined;
}

async function outstanding(ctx: RunContext, sc: Extract<Scenario, { kind: "outstanding" }>, skip: (why: string) => void): Promise<void> {
  const create = ctx.op(sc.create) as OperationCase;
  const list = ctx.op(sc.list) as OperationCase;
  const fixed = await ctx.pathValues(create);
  const held = await countAll(ctx, list, await ctx.pathValues(list));
  if (held === undefined) return skip(`${list.id} could not be walked to count what is held`);
  // Fill up to the limit, then one more: that one must be refused.
  for (let n = held; n <= sc.max; n++) {
    const req = await ctx.positive(create, 0, fixed);
    const res = await ctx.send(create, { ...req.values, ...fixed }, req.body);
    ctx.check(res.status < 500 || (create.declaredServerErrors ?? []).includes(res.status), `${where(create)} answered ${describeResponse(res)}: a server error`);
    if (n < sc.max) {
      if (!ok2xx(res)) return skip(`${create.id} refused a create below its limit (${n} of ${sc.max} held), for a reason of its own: ${describeResponse(res).slice(0, 200)}`);
      continue;
    }
    ctx.check(res.status >= 400 && res.status < 500, `${where(create)} created one more while ${n} were held, over its limit of ${sc.max}: ${describeResponse(res)}`);
    ctx.checkShape(create, res);
  }
}

/** Runs one scenario; `skip` ends it as skipped with the reason. */
export async function runScenario(ctx: RunContext, sc: Scenario, skip: (why: string) => void): Promise<void> {
  switch (sc.kind) {
    case "lifecycle":
      return lifecycle(ctx, sc, skip);
    case "oauth1Flow":
      return oauth1Flow(ctx, sc, skip);
    case "bearerLifecycle":
      return bearerLifecycle(ctx, sc, skip);
    case "deletion":
      return deletion(ctx, sc, skip);
    case "update":
      return updateOnly(ctx, sc, skip);
    case "batchWrite":
      return batchWrite(ctx, sc, skip);
    case "outstanding":
      return outstanding(ctx, sc, skip);
  }
}
