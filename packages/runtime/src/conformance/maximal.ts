/**
 * Maximal requests: a create or update that also sends every optional member the object is read
 * back with (the plan's read-back map) and the request left out. Examples and drawn requests send
 * some optional members only, so a server that drops one (a fourth choice, a second call-to-action,
 * an inventory of 0) would otherwise never be asked to store it. Falsy values go first: `0` and
 * `false` are what a careless `if (value)` loses.
 */
import type { RunContext } from "./context.js";
import type { OperationCase } from "./plan.js";
import { deref, memberSchema, schemaAt } from "./schema-walk.js";
import { requestInput } from "./synth.js";
import type { MockSchema } from "../mock/mock-data.js";
import { deriveSeed } from "../shared/prng.js";

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => v !== null && typeof v === "object" && !Array.isArray(v);

/** A member naming another object (`line_item_id`, `media_key`) cannot take a drawn value. */
export function namesAnotherObject(op: OperationCase, name: string): boolean {
  return /(^id$|_ids?$|_keys?$|_uri$)/.test(name) || (op.references ?? []).some((r) => r.name === name);
}

/** The schema marks the member `readOnly`: the server sets it, a client never changes it. */
export function readOnly(root: unknown, schema: unknown): boolean {
  if (isRec(schema) && schema["readOnly"] === true) return true;
  const s = deref(root, schema);
  return isRec(s) && s["readOnly"] === true;
}

/** The falsy values a schema's types allow: what a careless `if (value)` drops. */
function falsy(root: unknown, schema: unknown): unknown[] {
  const s = deref(root, schema);
  const types = isRec(s) ? (Array.isArray(s["type"]) ? s["type"] : [s["type"]]) : [];
  return [...(types.includes("boolean") ? [false] : []), ...(types.includes("integer") || types.includes("number") ? [0] : [])];
}

/** Values to try for a member the request leaves out: its falsy value where the schema allows one, then drawn ones. */
function candidates(ctx: RunContext, op: OperationCase, schema: unknown, name: string, salt: string): unknown[] {
  const out: unknown[] = falsy(ctx.root, schema);
  const mock = ctx.tools.mock;
  const drawn: unknown[] = [];
  if (mock) for (let k = 0; k < 4; k++) drawn.push(mock(schema as MockSchema, deriveSeed(ctx.seed, `${op.id}/maximal/${name}/${salt}/${k}`)));
  // An empty list or text says nothing a server could lose: drawn values with content go first.
  const empty = (v: unknown): boolean => (Array.isArray(v) && v.length === 0) || v === "";
  return [...out, ...drawn.filter((v) => !empty(v)), ...drawn.filter(empty)].filter((v) => v !== undefined && v !== null);
}

/** Where a maximal request's members live: their schemas, and reading and writing them in state `S`. */
interface Slots<S> {
  /** The member's schema, or undefined to leave the member alone. */
  schemaOf(member: string): unknown;
  has(state: S, member: string): boolean;
  get(state: S, member: string): unknown;
  set(state: S, member: string, value: unknown): S;
  valid(state: S): boolean;
}

/**
 * `state` with each member of `members` it leaves out added, and each it holds truthy turned falsy
 * (`0`, `false`), one at a time, each kept only while `valid` accepts the whole (a member another
 * one excludes stays out). Passes until nothing more is taken: a member another requires (a fourth
 * choice needing the third) is taken on the pass after the one it needs. Read-only members and
 * members naming other objects are left alone.
 */
function fill<S>(ctx: RunContext, op: OperationCase, state: S, members: readonly string[], slots: Slots<S>, salt: string, named: Readonly<Rec> = {}): { state: S; added: string[] } {
  const added: string[] = [];
  const done = new Set<string>();
  for (let pass = 0; pass < 4; pass++) {
    const before = added.length;
    for (const member of [...members].sort()) {
      if (done.has(member)) continue;
      const schema = slots.schemaOf(member);
      if (schema === undefined || readOnly(ctx.root, schema)) continue;
      // A member naming another object takes one the server listed (`named`), never a drawn value.
      const naming = namesAnotherObject(op, member);
      if (naming && (slots.has(state, member) || named[member] === undefined)) continue;
      // A member already sent is sent again only as its falsy value, where that is a change.
      const current = slots.get(state, member);
      const tries = naming ? [named[member]] : slots.has(state, member) ? falsy(ctx.root, schema).filter((v) => v !== current) : candidates(ctx, op, schema, member, salt);
      for (const value of tries) {
        const next = slots.set(state, member, value);
        if (!slots.valid(next)) continue;
        state = next;
        added.push(member);
        done.add(member);
        break;
      }
    }
    if (added.length === before) break;
  }
  return { state, added };
}

/**
 * `req` with every member of `map` it may carry (see `fill`): query members as parameters, the rest
 * as top-level body members; members naming other objects take the values in `named` (listed by the
 * server), or stay out. The path's own members and a cursor are left alone. `added` names what
 * changed; empty when nothing could.
 */
export function maximalRequest(
  ctx: RunContext,
  op: OperationCase,
  req: { readonly values: Readonly<Rec>; readonly body: unknown },
  map: Readonly<Record<string, string>>,
  salt: string,
  named: Readonly<Rec> = {},
): { values: Rec; body: unknown; added: string[] } {
  const start = { values: { ...req.values }, body: isRec(req.body) ? { ...req.body } : req.body };
  const validate = ctx.tools.validateRequest;
  const request = op.request;
  if (!validate || !request) return { ...start, added: [] };
  const query = new Set(op.parameters.filter((p) => p.in === "query" && request.parameters[p.name] !== undefined).map((p) => p.name));
  const path = new Set(op.parameters.filter((p) => p.in === "path").map((p) => p.name));
  const bodySchema = request.body?.schema;
  type State = { values: Rec; body: unknown };
  const slots: Slots<State> = {
    schemaOf: (m) =>
      path.has(m) || m === op.pagination?.cursorParam
        ? undefined
        : query.has(m)
          ? request.parameters[m]
          : isRec(start.body) && bodySchema !== undefined
            ? memberSchema(ctx.root, bodySchema, m)
            : undefined,
    has: (st, m) => (query.has(m) ? st.values[m] !== undefined : Object.prototype.hasOwnProperty.call(st.body as Rec, m)),
    get: (st, m) => (query.has(m) ? st.values[m] : (st.body as Rec)[m]),
    set: (st, m, v) => (query.has(m) ? { values: { ...st.values, [m]: v }, body: st.body } : { values: st.values, body: { ...(st.body as Rec), [m]: v } }),
    valid: (st) => validate(op.id, requestInput(op, st.values, st.body)).valid,
  };
  const { state, added } = fill(ctx, op, start, Object.keys(map), slots, salt, named);
  return { ...state, added };
}

/**
 * One item alone in the body array at `pointer`: the request body that carries it, the item's
 * schema, and whether the request carrying it is valid. Undefined without validators or schema.
 */
function bodyItem(
  ctx: RunContext,
  op: OperationCase,
  req: { readonly values: Readonly<Rec>; readonly body: unknown },
  pointer: string,
): { wrap(it: Rec): Rec; schema: unknown; valid(it: Rec): boolean } | { wrap(it: Rec): Rec; schema?: undefined } {
  const wrap = (it: Rec): Rec => ({ ...(isRec(req.body) ? req.body : {}), [pointer.slice(1)]: [it] });
  const validate = ctx.tools.validateRequest;
  const schema = op.request?.body !== undefined ? schemaAt(ctx.root, op.request.body.schema, `${pointer}/0`) : undefined;
  if (!validate || schema === undefined) return { wrap };
  return { wrap, schema, valid: (it) => validate(op.id, requestInput(op, req.values, wrap(it))).valid };
}

/**
 * An item of the body array at `pointer` (alone in it) with every member of `map` it may carry
 * (see `fill`), judged as the request that carries it. `added` names what changed.
 */
export function maximalItem(
  ctx: RunContext,
  op: OperationCase,
  req: { readonly values: Readonly<Rec>; readonly body: unknown },
  pointer: string,
  item: Rec,
  map: Readonly<Record<string, string>>,
  salt: string,
): { item: Rec; body: Rec; added: string[] } {
  const at = bodyItem(ctx, op, req, pointer);
  if (at.schema === undefined) return { item: { ...item }, body: at.wrap({ ...item }), added: [] };
  const itemSchema = at.schema;
  const slots: Slots<Rec> = {
    schemaOf: (m) => memberSchema(ctx.root, itemSchema, m),
    has: (it, m) => Object.prototype.hasOwnProperty.call(it, m),
    get: (it, m) => it[m],
    set: (it, m, v) => ({ ...it, [m]: v }),
    valid: at.valid,
  };
  const { state, added } = fill(ctx, op, { ...item }, Object.keys(map), slots, salt);
  return { item: state, body: at.wrap(state), added };
}

/**
 * A text member's length limit: a string schema with `maxLength`. Whether a long text of `x`s fits
 * the rest (a pattern, a format) is the validators' to say, as for every value tried.
 */
function textLimit(root: unknown, schema: unknown): number | undefined {
  const s = deref(root, schema);
  if (!isRec(s) || s["type"] !== "string" || typeof s["maxLength"] !== "number" || s["enum"] !== undefined || s["const"] !== undefined) return undefined;
  return s["maxLength"] > 0 && s["maxLength"] <= 10_000 ? s["maxLength"] : undefined;
}

/**
 * An item of the body array at `pointer` whose plain text members (of `members`, and held by
 * `item`) are each as long as the contract allows, each kept only while the request stays valid.
 * A text is `tag` then `x`s, so items stay apart. `set` names the members at their limit.
 */
export function itemAtLengthLimits(
  ctx: RunContext,
  op: OperationCase,
  req: { readonly values: Readonly<Rec>; readonly body: unknown },
  pointer: string,
  item: Rec,
  members: readonly string[],
  tag: string,
): { item: Rec; body: Rec; set: string[] } {
  const at = bodyItem(ctx, op, req, pointer);
  let state: Rec = { ...item };
  const set: string[] = [];
  if (at.schema === undefined) return { item: state, body: at.wrap(state), set };
  const itemSchema = at.schema;
  for (const m of [...members].sort()) {
    if (typeof state[m] !== "string" || namesAnotherObject(op, m)) continue;
    const limit = textLimit(ctx.root, memberSchema(ctx.root, itemSchema, m));
    if (limit === undefined || limit <= tag.length) continue;
    const next = { ...state, [m]: `${tag}${"x".repeat(limit - tag.length)}` };
    if (!at.valid(next)) continue;
    state = next;
    set.push(m);
  }
  return { item: state, body: at.wrap(state), set };
}
