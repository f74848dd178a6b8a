/**
 * Lookups the conformance plan makes for every operation, indexed once per model: which operations
 * a state table moves into a deleted, invalidated or revoked state.
 */
import type { ApiModel } from "../../model/ir.js";
import { isObj } from "./negatives.js";

export interface OperationIndex {
  /** Operation ids some state table moves into a deleted, invalidated or revoked state. */
  readonly destroying: ReadonlySet<unknown>;
}

export function indexOperations(model: ApiModel): OperationIndex {
  const tables = [...model.schemas.map((s) => (isObj(s.schema) ? s.schema["x-transitions"] : undefined)), ...model.operations.map((o) => o.transitions)].filter(isObj);
  const destroying = new Set<unknown>();
  for (const t of tables) {
    if (!Array.isArray(t["transitions"])) continue;
    for (const r of t["transitions"]) if (isObj(r) && /invalidat|delet|revok/i.test(String(r["to"] ?? ""))) destroying.add(r["on"]);
  }
  return { destroying };
}
