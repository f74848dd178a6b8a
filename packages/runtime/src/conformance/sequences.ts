/**
 * State sequences: an object's life inferred from the contract (create → read back → listed →
 * update → delete → afterwards), the contract's `x-transitions` rows (repeated deletes, soft
 * deletion, token lifecycles) and the OAuth 1.0a three-legged flow with its refusals.
 */
import type { AuthConfig } from "../client/auth.js";
import type { LifecycleScenario, OperationCase, Scenario } from "./plan.js";
import { where, type RunContext } from "./context.js";
import { itemKey, sameValue } from "./invariants.js";
import { describeResponse, getAt } from "./request.js";
import { requestInput, type PositiveRequest } from "./synth.js";
import type { MockSchema } from "../mock/mock-data.js";
import { deriveSeed } from "../shared/prng.js";
import type { RawResponse } from "../client/transport.js";

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => v !== null && typeof v === "object" && !Array.isArray(v);
const ok2xx = (r: RawResponse): boolean => r.status >= 200 && r.status < 300;

/** The object an answer is about: `data` (or its first item), else the body itself. */
function subject(body: unknown, id?: unknown): Rec | undefined {
  const data = getAt(body, "/data");
  if (Array.isArray(data)) {
    const found = id === undefined ? data[0] : data.find((x) => itemKey(x) === String(id));
    return isRec(found) ? found : undefined;
  }
  if (isRec(data)) return data;
  return isRec(body) ? body : undefined;
}

function scalar(v: unknown): v is string | number | boolean {
  return typeof v === "string" || typeof v === "number" || typeof v === "boolean";
}

/** Values sent that an object read back must hold: scalars of the body and query, by name. */
function sentFields(op: OperationCase, values: Readonly<Rec>, body: unknown): Map<string, string | number | boolean> {
  const out = new Map<string, string | number | boolean>();
  for (const p of op.parameters) if (p.in === "query" && scalar(values[p.name])) out.set(p.name, values[p.name] as string);
  if (isRec(body)) for (const [k, v] of Object.entries(body)) if (scalar(v)) out.set(k, v);
  return out;
}

/** `2025-01-01T00:00:00Z` and `2025-01-01T00:00:00.000Z` are one instant: a server may write either. */
function sameInstant(a: string, b: string): boolean {
  const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
  return iso.test(a) && iso.test(b) && Date.parse(a) === Date.parse(b) && !Number.isNaN(Date.parse(a));
}

/** What was sent is what is stored: every sent scalar the object carries under the same name. */
function differences(sent: Map<string, string | number | boolean>, stored: Rec): string[] {
  const out: string[] = [];
  for (const [name, value] of sent) {
    if (!Object.prototype.hasOwnProperty.call(stored, name)) continue;
    const got = stored[name];
    if (got === value || sameValue(got, value)) continue;
    if (typeof got === "string" && typeof value === "string" && sameInstant(got, value)) continue;
    out.push(`${name}: sent ${JSON.stringify(value)}, reads back ${JSON.stringify(got)}`);
  }
  return out;
}

/**
 * The pages of a list, following its cursor (at most 40): each answer, its items (undefined when it
 * holds no list) and whether a further page follows. Stops after an answer that is not a 2xx.
 */
async function* pages(ctx: RunContext, list: OperationCase, start: Rec): AsyncGenerator<{ res: RawResponse; items: unknown[] | undefined; more: boolean }> {
  const paging = list.pagination;
  let values = start;
  for (let page = 0; page < 40; page++) {
    const res = await ctx.send(list, values, undefined);
    const items = getAt(res.body, paging?.items ?? "/data");
    const next = paging && ok2xx(res) ? getAt(res.body, paging.nextPointer) : undefined;
    const more = typeof next === "string" && next !== "";
    yield { res, items: Array.isArray(items) ? items : undefined, more };
    if (!more || !paging) return;
    values = { ...values, [paging.cursorParam]: next };
    if (paging.totalCount) delete values[paging.totalCount.param];
  }
}

async function listContains(ctx: RunContext, list: OperationCase, fixed: Rec, id: unknown, extra: Rec = {}): Promise<{ found: Rec | undefined; res: RawResponse }> {
  let last: RawResponse = { status: 0, headers: new Headers(), body: undefined } as unknown as RawResponse;
  for await (const { res, items } of pages(ctx, list, { ...(await ctx.positive(list, 0, fixed)).values, ...extra })) {
    last = res;
    if (!ok2xx(res)) break;
    ctx.checkShape(list, res);
    const found = items?.find((x) => itemKey(x) === String(id));
    if (found !== undefined) return { found: isRec(found) ? found : {}, res };
  }
  return { found: undefined, res: last };
}

/** A deleted object reads 404; a soft-deleted one, where the read takes with_deleted, 404 without it and deleted=true with it. */
async function readAfterDelete(ctx: RunContext, read: OperationCase, del: OperationCase, values: Rec, id: unknown, soft: boolean): Promise<void> {
  const { check } = ctx;
  const rv = { ...values };
  const flag = read.parameters.some((p) => p.name === "with_deleted");
  if (flag) delete rv["with_deleted"];
  const after = await ctx.send(read, rv, undefined);
  if (!soft) check(after.status === 404, `${where(read)} answered ${describeResponse(after)} for ${String(id)} after ${del.id}: a deleted object must answer 404`);
  else if (flag) {
    check(after.status === 404, `${where(read)} answered ${describeResponse(after)} for deleted ${String(id)} without with_deleted=true: expected 404`);
    const shown = await ctx.send(read, { ...rv, with_deleted: true }, undefined);
    const obj = ok2xx(shown) ? subject(shown.body, id) : undefined;
    check(obj?.["deleted"] === true, `${where(read)} answered ${describeResponse(shown)} for deleted ${String(id)} with with_deleted=true: expected the object with deleted=true`);
  } else {
    const obj = ok2xx(after) ? subject(after.body, id) : undefined;
    check(after.status === 404 || obj?.["deleted"] === true, `${where(read)} answered ${describeResponse(after)} for ${String(id)} after ${del.id}: expected 404 or the object with deleted=true`);
  }
}

/** with_deleted=true adds deleted objects to a list; the live ones stay listed. */
async function keepsLive(ctx: RunContext, list: OperationCase, fixed: Rec): Promise<void> {
  const plain = await ctx.send(list, { ...(await ctx.positive(list, 0, fixed)).values }, undefined);
  const items = getAt(plain.body, list.pagination?.items ?? "/data");
  const live = Array.isArray(items) ? items[0] : undefined;
  if (live === undefined) return;
  const key = itemKey(live);
  const shown = await listContains(ctx, list, fixed, key, { with_deleted: true });
  ctx.check(shown.found !== undefined, `${where(list)} with with_deleted=true leaves out ${key}, which it lists without it: the flag must add deleted objects, not replace live ones`);
}

async function lifecycle(ctx: RunContext, sc: LifecycleScenario, skip: (why: string) => void): Promise<void> {
  const { check } = ctx;
  const op = (id: string | undefined): OperationCase | undefined => (id === undefined ? undefined : ctx.op(id));
  const create = op(sc.create) as OperationCase;
  // A schema-valid create may still be refused for what it refers to (a media key never uploaded,
  // one object per user already held): try a few valid requests before giving up, and say why.
  const fixedCreate = await ctx.pathValues(create);
  const refusals: string[] = [];
  let made: PositiveRequest | undefined;
  let res: RawResponse | undefined;
  for (let i = 0; i < 4 && made === undefined; i++) {
    const attempt = await ctx.positive(create, i, fixedCreate);
    const answer = await ctx.send(create, { ...attempt.values, ...fixedCreate }, attempt.body);
    check(answer.status < 500, `${where(create)} answered ${describeResponse(answer)} to a valid create: a server error`);
    if (ok2xx(answer)) {
      made = { ...attempt, values: { ...attempt.values, ...fixedCreate } };
      res = answer;
    } else refusals.push(describeResponse(answer).slice(0, 160));
  }
  if (!made || !res) return skip(`${create.id} refused every valid create it was sent, so there was no object to follow: ${refusals.join(" | ")}`);
  ctx.checkShape(create, res);
  const id = sc.idPointers.map((p) => getAt(res.body, p)).find((v) => scalar(v));
  check(id !== undefined, `${where(create)}: the answer carries no id at ${sc.idPointers.join(" or ")}`);
  const sent = sentFields(create, made.values, made.body);
  const created = subject(res.body, id);
  if (created) {
    const diff = differences(sent, created);
    check(diff.length === 0, `${where(create)} answers with other values than it was sent: ${diff.join("; ")}`);
  }
  const itemValues = async (item: OperationCase): Promise<Rec> => ({ ...(await ctx.pathValues(item)), ...pathFrom(create, made.values, item), [sc.idParam]: id });

  const read = op(sc.read);
  const readBack = async (what: string, expectSent: Map<string, string | number | boolean>): Promise<Rec | undefined> => {
    if (!read) return undefined;
    const r = await ctx.send(read, { ...(await ctx.positive(read, 0, await itemValues(read))).values, ...(await itemValues(read)) }, undefined);
    check(ok2xx(r), `${where(read)} answered ${describeResponse(r)} reading ${String(id)} ${what}`);
    ctx.checkShape(read, r);
    const stored = subject(r.body, id);
    check(stored !== undefined, `${where(read)}: reading ${String(id)} ${what} gives no object`);
    const diff = differences(expectSent, stored as Rec);
    check(diff.length === 0, `${where(read)}: ${String(id)} ${what} does not hold what was sent: ${diff.join("; ")}`);
    return stored;
  };
  await readBack("after it was created", sent);

  const list = op(sc.list);
  if (list) {
    const { found, res: lr } = await listContains(ctx, list, pathFrom(create, made.values, list), id);
    check(found !== undefined, `${where(list)} does not list ${String(id)} after ${create.id} created it: ${describeResponse(lr)}`);
  }

  const update = op(sc.update);
  if (update) {
    const fixed = await itemValues(update);
    const stored = created ?? {};
    // The examples' update first, then drawn ones: one of them must be taken (a drawn one may name
    // objects the server does not have). Each is made to change a field the object shows, so the
    // read-back can tell an update that was stored from one that was only answered.
    const refusals: string[] = [];
    let accepted = 0;
    for (let i = 0; i < 4 && accepted === 0; i++) {
      const base = await ctx.positive(update, i, fixed);
      const r = await updateEach(ctx, update, { values: { ...base.values, ...fixed }, body: base.body }, stored, id, i, (changed) => readBack("after it was updated", changed));
      accepted += r.accepted;
      refusals.push(...r.refusals);
    }
    check(accepted > 0, `${where(update)} refused every valid update of ${String(id)}: ${refusals.join(" | ")}`);
  }

  const del = op(sc.delete);
  if (!del) return;
  const dv = { ...(await ctx.positive(del, 0, await itemValues(del))).values, ...(await itemValues(del)) };
  const dr = await ctx.send(del, dv, undefined);
  check(ok2xx(dr), `${where(del)} answered ${describeResponse(dr)} deleting ${String(id)}`);
  ctx.checkShape(del, dr);
  ctx.forget();
  if (sc.deletion === "soft") {
    const gone = subject(dr.body, id);
    if (gone && "deleted" in gone) check(gone["deleted"] === true, `${where(del)}: the deleted object answers deleted=${JSON.stringify(gone["deleted"])}, expected true`);
  }
  if (read) await readAfterDelete(ctx, read, del, { ...(await ctx.positive(read, 0, await itemValues(read))).values, ...(await itemValues(read)) }, id, sc.deletion === "soft");
  if (list) {
    const hidden = await listContains(ctx, list, pathFrom(create, made.values, list), id);
    check(hidden.found === undefined, `${where(list)} still lists ${String(id)} after ${del.id}${sc.deletion === "soft" ? " without with_deleted=true" : ""}`);
    if (sc.deletion === "soft" && list.parameters.some((p) => p.name === "with_deleted")) {
      const shown = await listContains(ctx, list, pathFrom(create, made.values, list), id, { with_deleted: true });
      check(shown.found !== undefined, `${where(list)} does not list deleted ${String(id)} with with_deleted=true`);
      if (shown.found) check(shown.found["deleted"] === true, `${where(list)} lists deleted ${String(id)} with deleted=${JSON.stringify(shown.found["deleted"])}, expected true`);
      await keepsLive(ctx, list, pathFrom(create, made.values, list));
    }
  }
  if (sc.repeatDeleteStatus !== undefined) {
    const again = await ctx.send(del, dv, undefined);
    check(again.status === sc.repeatDeleteStatus, `${where(del)}: deleting ${String(id)} again must answer ${sc.repeatDeleteStatus}, answered ${describeResponse(again)}`);
  }
}

/**
 * Requests that each change one field the stored object shows to a new valid value (drawn from its
 * schema and accepted by the request validators), so storing it is observable: up to six, query
 * fields first. Each is sent on its own, so a refusal of one (a rule about stored state) spares the
 * others, and a server that stores some fields and drops another is caught on the one it drops.
 */
function changesOf(ctx: RunContext, op: OperationCase, req: { values: Rec; body: unknown }, stored: Rec, salt: number): { values: Rec; body: unknown }[] {
  const mock = ctx.tools.mock;
  const validate = ctx.tools.validateRequest;
  if (!mock || !validate || !op.request) return [];
  const valid = (values: Rec, body: unknown): boolean => validate(op.id, requestInput(op, values, body)).valid;
  const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b) || (scalar(a) && scalar(b) && String(a) === String(b));
  // A reference to another object (`line_item_id`, `media_key`) cannot take an invented value.
  const reference = (name: string): boolean => /(^id$|_ids?$|_keys?$|_uri$)/.test(name);
  const out: { values: Rec; body: unknown }[] = [];
  const query = op.parameters.filter((p) => p.in === "query" && !reference(p.name) && Object.prototype.hasOwnProperty.call(stored, p.name) && op.request?.parameters[p.name] !== undefined);
  for (const p of query) {
    for (let k = 0; k < 6; k++) {
      const v = mock(op.request.parameters[p.name] as MockSchema, deriveSeed(ctx.seed, `${op.id}/change/${p.name}/${salt}/${k}`));
      if (!scalar(v) || same(v, stored[p.name])) continue;
      const values = { ...req.values, [p.name]: v };
      if (valid(values, req.body)) {
        out.push({ values, body: req.body });
        break;
      }
    }
  }
  const bodySchema = op.request.body?.schema;
  if (bodySchema !== undefined && isRec(req.body)) {
    const done = new Set<string>();
    for (let k = 0; k < 6; k++) {
      const drawn = mock(bodySchema as MockSchema, deriveSeed(ctx.seed, `${op.id}/change/body/${salt}/${k}`));
      if (!isRec(drawn)) break;
      for (const [name, v] of Object.entries(drawn)) {
        if (done.has(name) || !scalar(v) || reference(name) || !Object.prototype.hasOwnProperty.call(stored, name) || same(v, stored[name])) continue;
        const body = { ...req.body, [name]: v };
        if (valid(req.values, body)) {
          done.add(name);
          out.push({ values: req.values, body });
        }
      }
    }
  }
  return out.slice(0, 6);
}

/** Sends each change of `req` (or `req` itself when nothing can be changed); `after` checks what each taken one stored. */
async function updateEach(
  ctx: RunContext,
  update: OperationCase,
  req: { values: Rec; body: unknown },
  stored: Rec,
  id: unknown,
  salt: number,
  after: (changed: Map<string, string | number | boolean>) => Promise<unknown>,
): Promise<{ accepted: number; refusals: string[] }> {
  const changes = changesOf(ctx, update, req, stored, salt);
  let accepted = 0;
  const refusals: string[] = [];
  for (const change of changes.length > 0 ? changes : [req]) {
    const sent = await sendUpdate(ctx, update, change, id);
    if ("refused" in sent) refusals.push(sent.refused);
    else {
      accepted++;
      await after(sent.changed);
    }
  }
  return { accepted, refusals };
}

/**
 * Sends an update: no 5xx; when taken, an answer of the declared shape that holds what was sent.
 * Returns the fields it changed, or the refusal as text.
 */
async function sendUpdate(ctx: RunContext, update: OperationCase, change: { values: Rec; body: unknown }, id: unknown): Promise<{ changed: Map<string, string | number | boolean> } | { refused: string }> {
  const ur = await ctx.send(update, change.values, change.body);
  ctx.check(ur.status < 500, `${where(update)} answered ${describeResponse(ur)} to a valid update of ${String(id)}: a server error`);
  if (!ok2xx(ur)) return { refused: describeResponse(ur).slice(0, 200) };
  ctx.checkShape(update, ur);
  const changed = sentFields(update, change.values, change.body);
  for (const p of update.parameters) if (p.in === "path") changed.delete(p.name);
  const answered = subject(ur.body, id);
  if (answered) {
    const diff = differences(changed, answered);
    ctx.check(diff.length === 0, `${where(update)} answers the update of ${String(id)} with other values than it was sent: ${diff.join("; ")}`);
  }
  return { changed };
}

/** Path values an item operation shares with the create it follows (the parent's ids). */
function pathFrom(create: OperationCase, values: Readonly<Rec>, item: OperationCase): Rec {
  const out: Rec = {};
  for (const p of create.parameters) if (p.in === "path" && item.parameters.some((q) => q.in === "path" && q.name === p.name)) out[p.name] = values[p.name];
  return out;
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
  if (!c) return skip("no OAuth 1.0a consumer credentials were given (--auth {\"oauth1\": …})");
  const consumer: AuthConfig = { oauth1: { consumerKey: c.consumerKey, consumerSecret: c.consumerSecret } };
  const reqOp = ctx.op(sc.requestToken) as OperationCase;
  const authOp = ctx.op(sc.authorize) as OperationCase;
  const accOp = ctx.op(sc.accessToken) as OperationCase;

  /** Request token → browser step; the verifier comes back in the callback's query. */
  const approved = async (): Promise<{ token: string; secret: string; verifier: string } | undefined> => {
    const callback = sc.callback;
    const rq = await ctx.send(reqOp, { ...(reqOp.positive?.values ?? {}), oauth_callback: callback }, undefined, consumer, { callback, token: null, tokenSecret: null });
    check(ok2xx(rq), `${where(reqOp)} answered ${describeResponse(rq)} to a signed request-token step`);
    const f = fields(rq);
    check(typeof f["oauth_token"] === "string" && typeof f["oauth_token_secret"] === "string", `${where(reqOp)}: no oauth_token and oauth_token_secret in ${describeResponse(rq)}`);
    const ar = await ctx.send(authOp, { oauth_token: f["oauth_token"] }, undefined, consumer, { token: null, tokenSecret: null });
    const location = ar.headers.get("location");
    // No redirect: a person has to approve on the page. A redirect to the callback must carry the verifier.
    if (location === null) return undefined;
    const back = new URL(location, t.baseUrl).searchParams;
    const verifier = back.get("oauth_verifier");
    check(verifier !== null && back.get("oauth_token") === f["oauth_token"], `${where(authOp)} redirected to ${location} without the request token and its oauth_verifier`);
    if (verifier === null) return undefined;
    return { token: String(f["oauth_token"]), secret: String(f["oauth_token_secret"]), verifier };
  };
  const exchange = (step: { token: string; secret: string }, verifier: string): Promise<RawResponse> =>
    ctx.send(accOp, { oauth_token: step.token, oauth_verifier: verifier }, undefined, consumer, { token: step.token, tokenSecret: step.secret, verifier });

  const first = await approved();
  if (!first) return skip(`${where(authOp)} needs a person at the browser step (no oauth_verifier came back in a redirect)`);
  const wrong = await exchange(first, `${first.verifier}-wrong`);
  check(wrong.status >= 400 && wrong.status < 500, `${where(accOp)} accepted a wrong oauth_verifier: ${describeResponse(wrong)}`);
  // The exchange must be signed with the very request token it names (RFC 5849 §2.3).
  const other = await approved();
  if (other) {
    const crossed = await ctx.send(accOp, { oauth_token: other.token, oauth_verifier: other.verifier }, undefined, consumer, { token: first.token, tokenSecret: first.secret, verifier: other.verifier });
    check(crossed.status >= 400 && crossed.status < 500, `${where(accOp)} exchanged a request token in a request signed with another one: ${describeResponse(crossed)}`);
  }

  const step = await approved();
  if (!step) return skip("the browser step stopped answering with a verifier");
  const granted = await exchange(step, step.verifier);
  check(ok2xx(granted), `${where(accOp)} answered ${describeResponse(granted)} to the approved request token and its verifier`);
  const access = fields(granted);
  check(typeof access["oauth_token"] === "string" && typeof access["oauth_token_secret"] === "string", `${where(accOp)}: no access token in ${describeResponse(granted)}`);
  const reused = await exchange(step, step.verifier);
  check(reused.status >= 400 && reused.status < 500, `${where(accOp)} exchanged the same request token twice: ${describeResponse(reused)}`);

  const user: AuthConfig = { oauth1: { consumerKey: c.consumerKey, consumerSecret: c.consumerSecret, token: String(access["oauth_token"]), tokenSecret: String(access["oauth_token_secret"]) } };
  if (sc.invalidate === undefined) return;
  const inv = ctx.op(sc.invalidate) as OperationCase;
  const ir = await ctx.send(inv, {}, undefined, user);
  check(ok2xx(ir), `${where(inv)} answered ${describeResponse(ir)} invalidating a fresh access token`);
  const again = await ctx.send(inv, {}, undefined, user);
  check(again.status === 401, `${where(inv)} accepted an invalidated access token: ${describeResponse(again)}, expected 401`);
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

/** Why an existing object of `op` cannot be named: its id is neither discovered, given, nor stated by the contract. */
async function unnamed(ctx: RunContext, op: OperationCase): Promise<string | undefined> {
  const last = op.parameters.filter((p) => p.in === "path").at(-1)?.name;
  if (last === undefined) return undefined;
  const fixed = await ctx.pathValues(op);
  if (fixed[last] !== undefined || op.positive?.values[last] !== undefined) return undefined;
  return `no ${last} of an existing object is known (no list operation gives one and the contract states none): pass one with --values '{"${last}": "…"}'`;
}

async function deletion(ctx: RunContext, sc: Extract<Scenario, { kind: "deletion" }>, skip: (why: string) => void): Promise<void> {
  const { check } = ctx;
  const del = ctx.op(sc.operationId) as OperationCase;
  const create = sc.createOperationId !== undefined ? ctx.op(sc.createOperationId) : undefined;
  if (!create) {
    const why = await unnamed(ctx, del);
    if (why !== undefined) return skip(why);
  }
  const known = await ctx.pathValues(del);
  const values: Rec = { ...(await ctx.positive(del, 0, known)).values, ...known };
  const lastParam = del.parameters.filter((p) => p.in === "path").at(-1)?.name;
  const fixedId = lastParam === undefined ? undefined : known[lastParam];
  if (create && lastParam) {
    // Delete an object made for the purpose, not one other cases read.
    const made = await ctx.positive(create, 0, await ctx.pathValues(create));
    const res = await ctx.send(create, made.values, made.body);
    check(ok2xx(res), `${where(create)} answered ${describeResponse(res)} while making an object to delete`);
    const obj = subject(res.body);
    values[lastParam] = obj?.["id"] ?? obj?.["media_key"] ?? values[lastParam];
  }
  ctx.forget();
  const first = await ctx.send(del, values, undefined);
  // An object named only by the contract's example may be gone already (an earlier run deleted it): nothing to follow.
  if (!create && lastParam !== undefined && fixedId === undefined && first.status === 404) return skip(`${String(values[lastParam])}, the contract's example ${lastParam}, does not exist on this server (deleted by an earlier run?): pass a live one with --values`);
  check(ok2xx(first), `${where(del)} answered ${describeResponse(first)} to the first delete`);
  ctx.checkShape(del, first);
  const last = del.parameters.filter((p) => p.in === "path").at(-1)?.name as string;
  const id = values[last];
  if (sc.readOperationId !== undefined) {
    const read = ctx.op(sc.readOperationId) as OperationCase;
    await readAfterDelete(ctx, read, del, { ...(await ctx.positive(read, 0, await ctx.pathValues(read))).values, ...values }, id, sc.soft);
  }
  if (sc.soft) {
    const gone = subject(first.body, id);
    check(gone !== undefined && gone["deleted"] === true, `${where(del)}: a soft delete must answer the object with deleted=true, answered ${describeResponse(first)}`);
  }
  if (sc.listOperationId !== undefined) {
    const list = ctx.op(sc.listOperationId) as OperationCase;
    const fixed = await ctx.pathValues(list);
    const hidden = await listContains(ctx, list, fixed, id);
    check(hidden.found === undefined, `${where(list)} still lists ${String(id)} after ${del.id} without with_deleted=true`);
    const shown = await listContains(ctx, list, fixed, id, { with_deleted: true });
    check(shown.found !== undefined, `${where(list)} does not list deleted ${String(id)} with with_deleted=true`);
    await keepsLive(ctx, list, fixed);
  }
  if (sc.repeatStatus !== undefined) {
    const again = await ctx.send(del, values, undefined);
    check(again.status === sc.repeatStatus, `${where(del)}: a repeated delete must answer ${sc.repeatStatus}, answered ${describeResponse(again)}`);
  }
}

/** An update of an object the suite did not make: its answer and a read-back hold the changed field. */
async function updateOnly(ctx: RunContext, sc: Extract<Scenario, { kind: "update" }>, skip: (why: string) => void): Promise<void> {
  const { check } = ctx;
  const update = ctx.op(sc.operationId) as OperationCase;
  const why = await unnamed(ctx, update);
  if (why !== undefined) return skip(why);
  const read = sc.read !== undefined ? ctx.op(sc.read) : undefined;
  const fixed = await ctx.pathValues(update);
  const last = update.parameters.filter((p) => p.in === "path").at(-1)?.name;
  // The object's id: discovered, given, or (see unnamed) the contract's example.
  const id = last === undefined ? undefined : (fixed[last] ?? update.positive?.values[last]);
  // What the server holds now: a read, else the answer to the plain update.
  let stored: Rec | undefined;
  if (read) {
    const r = await ctx.send(read, { ...(await ctx.positive(read, 0, fixed)).values, ...fixed }, undefined);
    if (ok2xx(r)) stored = subject(r.body, id);
  }
  const refusals: string[] = [];
  for (let i = 0; i < 4; i++) {
    const base = await ctx.positive(update, i, fixed);
    const req = { values: { ...base.values, ...fixed }, body: base.body };
    if (!stored) {
      const plain = await ctx.send(update, req.values, req.body);
      check(plain.status < 500, `${where(update)} answered ${describeResponse(plain)}: a server error`);
      // An object named only by the contract's example may be gone (an earlier run deleted it).
      if (plain.status === 404 && last !== undefined && fixed[last] === undefined) {
        return skip(`${String(id)}, the contract's example ${last}, does not exist on this server (deleted by an earlier run?): pass a live one with --values`);
      }
      if (!ok2xx(plain)) {
        refusals.push(describeResponse(plain).slice(0, 200));
        continue;
      }
      stored = subject(plain.body, id);
      if (!stored) return;
    }
    const held = stored;
    const r = await updateEach(ctx, update, req, held, id, i, async (changed) => {
      if (!read) return;
      const rr = await ctx.send(read, { ...(await ctx.positive(read, 0, fixed)).values, ...fixed }, undefined);
      check(ok2xx(rr), `${where(read)} answered ${describeResponse(rr)} reading ${String(id)} after ${update.id}`);
      const now = subject(rr.body, id);
      const diff = now ? differences(changed, now) : [];
      check(diff.length === 0, `${where(read)}: ${String(id)} after ${update.id} does not hold what was sent: ${diff.join("; ")}`);
    });
    refusals.push(...r.refusals);
    if (r.accepted > 0) return;
  }
  check(false, `${where(update)} refused every valid update: ${refusals.join(" | ")}`);
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
    ctx.check(res.status < 500, `${where(create)} answered ${describeResponse(res)}: a server error`);
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
    case "outstanding":
      return outstanding(ctx, sc, skip);
  }
}
