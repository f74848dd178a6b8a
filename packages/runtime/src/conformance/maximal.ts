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
  if (mock) for (let k = 0; k < 4; k++) out.push(mock(schema as MockSchema, deriveSeed(ctx.seed, `${op.id}/maximal/${name}/${salt}/${k}`)));
  return out.filter((v) => v !== undefined && v !== null);
}

/**
 * `req` with each member of `map` it does not send added, and each it sends truthy turned falsy
 * (`0`, `false`), one at a time, each kept only while the package's validators accept the whole
 * request (a member another one excludes stays out). Members naming other objects and the path's own
 * are left alone. `added` names what changed; empty when nothing could.
 */
export function maximalRequest(
  ctx: RunContext,
  op: OperationCase,
  req: { readonly values: Readonly<Rec>; readonly body: unknown },
  map: Readonly<Record<string, string>>,
  salt: string,
): { values: Rec; body: unknown; added: string[] } {
  const values: Rec = { ...req.values };
  let body: unknown = isRec(req.body) ? { ...req.body } : req.body;
  const added: string[] = [];
  const validate = ctx.tools.validateRequest;
  if (!validate || !op.request) return { values, body, added };
  const query = new Set(op.parameters.filter((p) => p.in === "query").map((p) => p.name));
  const path = new Set(op.parameters.filter((p) => p.in === "path").map((p) => p.name));
  const bodySchema = op.request.body?.schema;
  // Passes until nothing more is taken: a member another one requires (a fourth choice needing the
  // third) is taken on the pass after the one it needs.
  const done = new Set<string>();
  for (let pass = 0; pass < 4; pass++) {
    const before = added.length;
    for (const member of Object.keys(map).sort()) {
      if (done.has(member)) continue;
      if (path.has(member) || namesAnotherObject(op, member) || member === op.pagination?.cursorParam) continue;
      const inQuery = query.has(member) && op.request.parameters[member] !== undefined;
      const schema = inQuery ? op.request.parameters[member] : isRec(body) && bodySchema !== undefined ? memberSchema(ctx.root, bodySchema, member) : undefined;
      if (schema === undefined || readOnly(ctx.root, schema)) continue;
      const present = inQuery ? values[member] !== undefined : Object.prototype.hasOwnProperty.call(body as Rec, member);
      // A member already sent is sent again only as its falsy value, where that is a change.
      const current = inQuery ? values[member] : (body as Rec)[member];
      const tries = present ? falsy(ctx.root, schema).filter((v) => v !== current) : candidates(ctx, op, schema, member, salt);
      for (const value of tries) {
        const nextValues = inQuery ? { ...values, [member]: value } : values;
        const nextBody = inQuery ? body : { ...(body as Rec), [member]: value };
        if (!validate(op.id, requestInput(op, nextValues, nextBody)).valid) continue;
        if (inQuery) values[member] = value;
        else body = nextBody;
        added.push(member);
        done.add(member);
        break;
      }
    }
    if (added.length === before) break;
  }
  return { values, body, added };
}

/**
 * An item of the body array at `pointer` (alone in it) with each member of `map` it leaves out
 * added and each it sends truthy turned falsy, kept one at a time while the validators accept the
 * request that carries it. `added` names what changed.
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
  const member = pointer.slice(1);
  const wrap = (it: Rec): Rec => ({ ...(isRec(req.body) ? req.body : {}), [member]: [it] });
  const validate = ctx.tools.validateRequest;
  const itemSchema = op.request?.body !== undefined ? schemaAt(ctx.root, op.request.body.schema, `${pointer}/0`) : undefined;
  let out: Rec = { ...item };
  const added: string[] = [];
  if (!validate || itemSchema === undefined) return { item: out, body: wrap(out), added };
  const done = new Set<string>();
  for (let pass = 0; pass < 4; pass++) {
    const before = added.length;
    for (const name of Object.keys(map).sort()) {
      if (done.has(name) || namesAnotherObject(op, name)) continue;
      const schema = memberSchema(ctx.root, itemSchema, name);
      if (schema === undefined || readOnly(ctx.root, schema)) continue;
      const present = Object.prototype.hasOwnProperty.call(out, name);
      const tries = present ? falsy(ctx.root, schema).filter((v) => v !== out[name]) : candidates(ctx, op, schema, name, salt);
      for (const value of tries) {
        const next = { ...out, [name]: value };
        if (!validate(op.id, requestInput(op, req.values, wrap(next))).valid) continue;
        out = next;
        added.push(name);
        done.add(name);
        break;
      }
    }
    if (added.length === before) break;
  }
  return { item: out, body: wrap(out), added };
}
