/**
 * A list under one parent shows that parent's children only (`/accounts/{a}/cards`: the cards of
 * account A, not those of every account the caller may see).
 *
 * The scope cases of single objects (`does not reach a … through another …`) leave a list alone,
 * and they skip a key two parents both list: an object two parents share is rightly reached
 * through either. This case only judges a key that cannot be shared by chance: one the server
 * minted for the suite's own create under parent A a moment before. Two parents the contract's
 * own list of parents shows as two objects are two objects, so that key listed under parent B is a
 * child listed where it does not belong.
 */
import { where, type RunContext } from "./context.js";
import { keysOf } from "./filters.js";
import { listValues } from "./lists.js";
import type { OperationCase } from "./plan.js";
import { describeResponse } from "./request.js";
import { walkAll } from "./walk.js";

type Rec = Record<string, unknown>;

/** The values of `op`'s path parameters among `values`. */
const pathOf = (op: OperationCase, values: Readonly<Rec>): Rec => Object.fromEntries(op.parameters.filter((p) => p.in === "path" && values[p.name] !== undefined).map((p) => [p.name, values[p.name]]));

/** How many other parents a case lists under (each is one walk of the children's list). */
const OTHERS_TRIED = 3;

/** A list of objects: the operation, where its items are and which member keys them. */
export interface ListAt {
  readonly op: OperationCase;
  readonly items: string;
  readonly field: string;
}

export interface ListScope {
  readonly parent: string;
  readonly child: string;
  /** The children's own collection under the parent (`…/{parent}/children`). */
  readonly children: ListAt;
  /** The list that shows the parents. */
  readonly parents: ListAt;
  /** Path values of the parents' list (its own parents, if any). */
  readonly parentsAt: Readonly<Rec>;
}

/**
 * Judges the object the suite just made under `made[parent]` (its key `made[child]`): it must be
 * listed under its own parent (else the list says nothing and the case skips) and under no other
 * listed parent. Returns a reason to skip, a failure message, or undefined when it holds.
 */
export async function listedUnderAnother(ctx: RunContext, scope: ListScope, made: Readonly<Rec>): Promise<{ why: string } | { failure: string } | undefined> {
  const { parent, child, children, parents } = scope;
  const key = String(made[child]);
  const at = (p: unknown): Promise<Rec> => listValues(ctx, children.op, { ...pathOf(children.op, made), [parent]: p });
  const own = await walkAll(ctx, children.op, await at(made[parent]), children.items);
  if (own.failed) return { why: `${children.op.id} answered ${describeResponse(own.failed).slice(0, 160)} under the suite's own ${parent}` };
  if (!keysOf(own.items, children.field).includes(key))
    return { why: `${children.op.id} does not list the ${child} the suite just made under ${parent} ${String(made[parent])}, so no list shows whose it is` };
  const listed = await walkAll(ctx, parents.op, { ...scope.parentsAt }, parents.items);
  const others = [...new Set(keysOf(listed.items, parents.field))].filter((k) => k !== String(made[parent]) && !k.startsWith("{")).slice(0, OTHERS_TRIED);
  if (others.length === 0) return { why: `only one ${parent} is listed: no other to list under` };
  let judged = 0;
  for (const other of others) {
    const under = await walkAll(ctx, children.op, await at(other), children.items);
    // Another owner's parent may be refused to the caller: nothing is listed there, which is right.
    if (under.failed) continue;
    judged++;
    if (keysOf(under.items, children.field).includes(key))
      return { failure: `${where(children.op)} under ${parent} ${other} lists ${child} ${key}, which the suite made under ${parent} ${String(made[parent])} a moment before` };
  }
  return judged === 0 ? { why: `no other ${parent} could be listed` } : undefined;
}
