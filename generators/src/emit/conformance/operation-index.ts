/**
 * Lookups the conformance plan makes for every operation, indexed once per model: which operations
 * a state table moves into a deleted, invalidated or revoked state, and which turn authentication
 * off or revoke credentials by what they are called.
 */
import type { ApiModel } from "../../model/ir.js";
import { relationsOf } from "../../model/relations.js";
import { isObj } from "./negatives.js";

export interface OperationIndex {
  /**
   * Operation ids some state table moves into a deleted, invalidated or revoked state, and those
   * named for turning authentication off or revoking credentials (`AuthDisable`, `POST /auth/revoke`):
   * sent with the suite's own credentials, they would end them for every case after (etcd drops all
   * tokens when authentication is disabled), so they run only as destructive cases, last.
   */
  readonly destroying: ReadonlySet<unknown>;
}

export function indexOperations(model: ApiModel): OperationIndex {
  const tables = [...model.schemas.map((s) => (isObj(s.schema) ? s.schema["x-transitions"] : undefined)), ...model.operations.map((o) => o.transitions)].filter(isObj);
  const destroying = new Set<unknown>();
  for (const t of tables) {
    if (!Array.isArray(t["transitions"])) continue;
    for (const r of t["transitions"]) if (isObj(r) && /invalidat|delet|revok/i.test(String(r["to"] ?? ""))) destroying.add(r["on"]);
  }
  const AUTH = /auth|token|credential|session|login|password/i;
  const REVOKE = /disable|revoke|invalidat|logout|log-out|signout|sign-out/i;
  const references = relationsOf(model).references;
  for (const op of model.operations) {
    const words = `${op.id} ${op.path}`;
    // An RPC-style operation acting on an object the suite makes for it (`…/auth/role/revoke` on a
    // new role) ends no credentials of the suite's.
    const onOwnObject = (references.get(op.id) ?? []).some((r) => r.own === "change" && r.sources.some((s) => s.kind === "create"));
    if (AUTH.test(words) && REVOKE.test(words) && !onOwnObject) destroying.add(op.id);
  }
  return { destroying };
}
