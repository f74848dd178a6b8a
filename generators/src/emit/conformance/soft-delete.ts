/**
 * How a contract says its deletes are soft: the member that marks a deleted object and the query
 * flags that still show it. Inferred here once, so the runtime's deletion checks take the names
 * from the plan and know no particular API's words.
 */
import type { Operation } from "../../model/ir.js";
import { isObj, type Resolve } from "../../model/schema-resolve.js";

type Obj = Record<string, unknown>;

/** What the plan carries for a soft delete (`SoftDelete` in the runtime's plan). */
export interface SoftDeleteFacts {
  readonly field: string;
  readonly listFlag?: string;
  readonly readFlag?: string;
}

/** A state table whose states are the member's two boolean values (`deleted`: 'false' → 'true'). */
function booleanStateField(rows: readonly { table: Obj }[]): string | undefined {
  for (const { table } of rows) {
    const states = Array.isArray(table["states"]) ? table["states"].map(String) : [];
    if (typeof table["field"] === "string" && states.includes("true")) return table["field"];
  }
  return undefined;
}

/**
 * A boolean query parameter that adds objects marked by `field` (`with_deleted`, `include_deleted`);
 * without a known field, one named `with_<member>` / `include_<member>` / `show_<member>` names both.
 */
function flagOf(op: Operation | undefined, field: string | undefined, resolve: Resolve): { flag: string; field: string } | undefined {
  for (const p of op?.parameters ?? []) {
    if (p.in !== "query") continue;
    const type = resolve(p.schema)["type"];
    if (type !== "boolean" && !(Array.isArray(type) && type.includes("boolean"))) continue;
    const m = /^(?:with|include|show)_(.+)$/.exec(p.name);
    if (!m) continue;
    if (field === undefined || m[1] === field) return { flag: p.name, field: m[1] as string };
  }
  return undefined;
}

/**
 * The soft delete of `del`, if the contract says its deletes are soft: an `x-transitions` table on
 * a boolean member, a list or read flag that shows deleted objects, or (the common convention) a
 * boolean `deleted` member of the object. Undefined: deleted objects are gone.
 */
export function softDeleteOf(rows: readonly { table: Obj }[], object: Obj | undefined, list: Operation | undefined, read: Operation | undefined, resolve: Resolve): SoftDeleteFacts | undefined {
  const props = isObj(object?.["properties"]) ? (object["properties"] as Obj) : {};
  const stated = booleanStateField(rows);
  const flagged = flagOf(list, stated, resolve) ?? flagOf(read, stated, resolve);
  const field = stated ?? flagged?.field ?? (props["deleted"] !== undefined ? "deleted" : undefined);
  if (field === undefined) return undefined;
  const listFlag = flagOf(list, field, resolve)?.flag;
  const readFlag = flagOf(read, field, resolve)?.flag;
  return { field, ...(listFlag !== undefined ? { listFlag } : {}), ...(readFlag !== undefined ? { readFlag } : {}) };
}
