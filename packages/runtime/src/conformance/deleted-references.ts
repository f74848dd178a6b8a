/**
 * A request member that names another object (plan `references`) names one that exists: a key of
 * an object the suite made and then deleted through the contract's own delete is refused (4xx).
 * A server that checks only that the key is well formed, or finds the object without looking at
 * whether it was deleted (a soft delete's `deleted: true`), takes it.
 *
 * Only where the contract gives the named objects a whole life (a create, the list the reference's
 * values come from, keyed by the member the reference takes, and a delete): the object is the
 * suite's own, made for the case and deleted by it, so no object anyone else uses is touched.
 */
import type { RawResponse } from "../client/transport.js";
import { where, type RunContext } from "./context.js";
import type { LifecycleScenario, OperationCase, PlanReference } from "./plan.js";
import { pathNames } from "./objects.js";
import { describeResponse, ok2xx } from "./request.js";

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * A valid request (`base`, on the path values `on`) with `ref` naming `key` instead: as a query
 * value, or as a member of the body, one key or a list of one.
 */
export function naming(base: { readonly values: Readonly<Rec>; readonly body?: unknown }, on: Readonly<Rec>, ref: PlanReference, key: unknown): { values: Rec; body: unknown } {
  const value: unknown = ref.many ? [key] : key;
  const values = ref.in === "query" ? { ...base.values, ...on, [ref.name]: value } : { ...base.values, ...on };
  const body = ref.in === "body" && isRec(base.body) ? { ...base.body, [ref.name]: value } : base.body;
  return { values, body };
}

/**
 * The life of the objects `ref` names: a lifecycle with a delete whose list is one the reference
 * takes its values from, by the member that is the list items' key.
 */
export function referencedLife(ref: PlanReference, scenarios: readonly { readonly kind: string }[]): LifecycleScenario | undefined {
  if (ref.own !== undefined) return undefined;
  for (const sc of scenarios) {
    if (sc.kind !== "lifecycle") continue;
    const life = sc as LifecycleScenario;
    if (life.delete === undefined || life.list === undefined) continue;
    const key = life.keyField ?? life.idParam;
    if (ref.sources.some((s) => s.kind === "list" && s.operationId === life.list && s.field === key)) return life;
  }
  return undefined;
}

/** What the case needs of the run beyond the context: the pool's per-case objects. */
export interface DeletedReferenceDeps {
  readonly ctx: RunContext;
  forCase(op: OperationCase, kind: "read" | "write" | "delete"): Promise<{ values: Rec; done(res: RawResponse, sentBody: unknown): Promise<void> } | { why: string }>;
  caseKind(op: OperationCase): "read" | "write" | "delete";
  /** The contract's own validators' verdict on a request, where the suite has them. */
  valid(op: OperationCase, values: Rec, body: unknown): boolean;
}

/**
 * Makes an object of the referenced collection, deletes it, and sends `op` naming it. Returns a
 * reason to skip, `"refused"` when the server refused it (4xx), or fails through `ctx.check`.
 */
export async function sendDeletedReference(deps: DeletedReferenceDeps, op: OperationCase, ref: PlanReference, life: LifecycleScenario): Promise<string | "refused"> {
  const { ctx } = deps;
  const del = ctx.op(life.delete ?? "");
  if (!del) return `the contract's delete ${String(life.delete)} is not in the plan`;
  const on = await deps.forCase(op, deps.caseKind(op));
  if ("why" in on) return on.why;
  const made = await deps.forCase(del, "delete");
  if ("why" in made) return made.why;
  const key = made.values[pathNames(del).at(-1) ?? ""];
  // The object must sit under the parents the request names (the same account), or its refusal
  // would say nothing about deletion.
  const elsewhere = pathNames(del)
    .slice(0, -1)
    .filter((p) => Object.prototype.hasOwnProperty.call(on.values, p) && String(on.values[p]) !== String(made.values[p]));
  // The object made stays: nothing was sent to it.
  if (key === undefined || elsewhere.length > 0) return `no ${ref.name} could be made under the request's own ${elsewhere.join(", ") || "parents"}`;
  const gone = await ctx.send(del, made.values, undefined);
  await made.done(gone, undefined);
  if (!ok2xx(gone)) return `${del.id} answered ${describeResponse(gone)} deleting ${String(key)}, so there was no deleted ${ref.name} to name`;
  const { values, body } = naming(await ctx.positive(op, 0, on.values), on.values, ref, key);
  if (!deps.valid(op, values, body)) return `the contract's own validators refuse ${ref.name} ${String(key)} beside the other values`;
  const res = await ctx.send(op, values, body);
  await on.done(res, body);
  ctx.check(res.status >= 400 && res.status < 500, `${where(op)} took ${ref.name} ${String(key)}, which ${del.id} had deleted: answered ${describeResponse(res)}, expected a 4xx refusal`);
  return "refused";
}
