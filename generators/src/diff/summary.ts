/**
 * Changes folded into changelog lists: which operations and component schemas were added, changed,
 * deprecated or removed.
 */
import { parsePointer } from "../load/errors.js";
import type { Change, DiffResult } from "./change.js";
import { byCodeUnit } from "./view.js";

export interface ChangeSummary {
  readonly added: readonly string[];
  readonly changed: readonly string[];
  readonly deprecated: readonly string[];
  readonly removed: readonly string[];
}

export interface SummaryBySubject {
  /** operationIds. */
  readonly operations: ChangeSummary;
  /** Component schema names (`components.schemas` keys). */
  readonly schemas: ChangeSummary;
}

class Lists {
  readonly added = new Set<string>();
  readonly changed = new Set<string>();
  readonly deprecated = new Set<string>();
  readonly removed = new Set<string>();
  done(): ChangeSummary {
    const sorted = (s: Set<string>): string[] => [...s].sort(byCodeUnit);
    return { added: sorted(this.added), changed: sorted(this.changed), deprecated: sorted(this.deprecated), removed: sorted(this.removed) };
  }
}

/** The component schema a pointer lies in, if any. */
function schemaAt(pointer: string): string | undefined {
  const segments = parsePointer(pointer);
  return segments[0] === "components" && segments[1] === "schemas" ? segments[2] : undefined;
}

/**
 * Operations and schemas per list, each sorted by code unit. An operation or schema is `changed`
 * when anything about it changed other than being added, removed or deprecated, documentation
 * included (a move or rename counts as changed); one deprecated and otherwise edited is in both.
 */
export function summarizeBySubject(input: DiffResult | readonly Change[]): SummaryBySubject {
  const changes = "changes" in input ? input.changes : input;
  const ops = new Lists();
  const schemas = new Lists();
  for (const c of changes) {
    if (c.operation !== undefined) {
      if (c.kind === "operation-added") ops.added.add(c.operation);
      else if (c.kind === "operation-removed") ops.removed.add(c.operation);
      else if (c.kind === "operation-deprecated") ops.deprecated.add(c.operation);
      else ops.changed.add(c.operation);
    }
    const schema = schemaAt(c.pointer);
    if (schema === undefined) continue;
    if (c.kind === "schema-added") schemas.added.add(schema);
    else if (c.kind === "schema-removed") schemas.removed.add(schema);
    else if (c.kind === "schema-deprecated" && parsePointer(c.pointer).length === 4) schemas.deprecated.add(schema);
    else schemas.changed.add(schema);
  }
  return { operations: ops.done(), schemas: schemas.done() };
}

/** Operation ids and schema names together, for a changelog that lists both. */
export function summarizeChanges(input: DiffResult | readonly Change[]): ChangeSummary {
  const { operations, schemas } = summarizeBySubject(input);
  const merge = (a: readonly string[], b: readonly string[]): string[] => [...new Set([...a, ...b])].sort(byCodeUnit);
  return {
    added: merge(operations.added, schemas.added),
    changed: merge(operations.changed, schemas.changed),
    deprecated: merge(operations.deprecated, schemas.deprecated),
    removed: merge(operations.removed, schemas.removed),
  };
}
