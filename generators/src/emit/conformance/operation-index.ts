/**
 * Lookups the conformance plan makes for every operation (a path's list operation, the lists a
 * parameter's name points at, which operations destroy state), indexed once per model: searched
 * per operation and parameter they were quadratic, seconds on GitHub's 1,223 operations.
 */
import type { ApiModel, Operation } from "../../model/ir.js";
import { isObj } from "./negatives.js";

export interface OperationIndex {
  /** The first GET at each path whose shape the contract shows. */
  readonly listAt: ReadonlyMap<string, Operation>;
  /** GET operations by their path's last segment, in contract order. */
  readonly getsByLastSegment: ReadonlyMap<string, readonly { readonly op: Operation; readonly order: number }[]>;
  /** Operation ids some state table moves into a deleted, invalidated or revoked state. */
  readonly destroying: ReadonlySet<unknown>;
}

export function indexOperations(model: ApiModel): OperationIndex {
  const listAt = new Map<string, Operation>();
  const getsByLastSegment = new Map<string, { op: Operation; order: number }[]>();
  model.operations.forEach((op, order) => {
    if (op.method !== "get") return;
    if (op.unspecified === undefined && !listAt.has(op.path)) listAt.set(op.path, op);
    const last = op.path.split("/").at(-1) ?? "";
    let list = getsByLastSegment.get(last);
    if (!list) getsByLastSegment.set(last, (list = []));
    list.push({ op, order });
  });
  const tables = [...model.schemas.map((s) => (isObj(s.schema) ? s.schema["x-transitions"] : undefined)), ...model.operations.map((o) => o.transitions)].filter(isObj);
  const destroying = new Set<unknown>();
  for (const t of tables) {
    if (!Array.isArray(t["transitions"])) continue;
    for (const r of t["transitions"]) if (isObj(r) && /invalidat|delet|revok/i.test(String(r["to"] ?? ""))) destroying.add(r["on"]);
  }
  return { listAt, getsByLastSegment, destroying };
}
