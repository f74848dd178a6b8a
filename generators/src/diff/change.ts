import { severityOf, severityRank, type ChangeKind, type Severity } from "./kinds.js";

/** One difference between two versions of a contract. */
export interface Change {
  readonly kind: ChangeKind;
  readonly severity: Severity;
  /** operationId (or the generated name) of the operation the change reaches, when it reaches one. */
  readonly operation?: string;
  /** Upper-case HTTP method of that operation. */
  readonly method?: string;
  /** Path template of that operation. */
  readonly path?: string;
  /**
   * JSON pointer (`#/…`) of the changed item in the bundled document named by `side`: the old spec
   * for things removed, the new one otherwise. Schemas reached through `$ref` are pointed at where
   * they are defined, so a change to a shared schema names the component.
   */
  readonly pointer: string;
  readonly side: "old" | "new";
  readonly message: string;
}

export type Bump = "major" | "minor" | "patch" | "none";

export interface DiffResult {
  /** Grouped by operation (groups with breaking changes first), then sorted within each group. */
  readonly changes: readonly Change[];
  /** major for any breaking change, minor for additions and deprecations, patch for documentation only. */
  readonly bump: Bump;
}

/** A change as found, before the operation it belongs to is attached. */
export interface Finding {
  readonly kind: ChangeKind;
  readonly side: "old" | "new";
  readonly pointer: string;
  readonly message: string;
}

export interface OperationRef {
  readonly id: string;
  readonly method: string;
  readonly path: string;
}

export function toChange(f: Finding, op?: OperationRef): Change {
  return {
    kind: f.kind,
    severity: severityOf(f.kind),
    ...(op ? { operation: op.id, method: op.method.toUpperCase(), path: op.path } : {}),
    pointer: f.pointer,
    side: f.side,
    message: f.message,
  };
}

export function bumpOf(changes: readonly Change[]): Bump {
  if (changes.some((c) => c.severity === "breaking")) return "major";
  if (changes.some((c) => c.severity === "non-breaking")) return "minor";
  return changes.length > 0 ? "patch" : "none";
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The label a change is grouped under: the operation, or `""` for document-level changes. */
export function groupKey(c: Change): string {
  return c.operation === undefined ? "" : `${c.operation} ${c.method ?? ""} ${c.path ?? ""}`;
}

/**
 * Orders changes the way the report prints them: operation groups by their gravest change, then by
 * name (document-level changes after operations at the same gravity); inside a group by severity,
 * pointer, kind and message. Code-unit comparisons only, so the order never depends on locale.
 * Exact duplicates (a shared schema reached twice in one operation) are dropped.
 */
export function sortChanges(changes: readonly Change[]): Change[] {
  const seen = new Set<string>();
  const unique = changes.filter((c) => {
    const key = [c.kind, groupKey(c), c.side, c.pointer, c.message].join("\u0000");
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const gravest = new Map<string, number>();
  for (const c of unique) {
    const k = groupKey(c);
    gravest.set(k, Math.min(gravest.get(k) ?? 3, severityRank(c.severity)));
  }
  return unique.sort((a, b) => {
    const ga = groupKey(a);
    const gb = groupKey(b);
    return (
      (gravest.get(ga) ?? 3) - (gravest.get(gb) ?? 3) ||
      Number(ga === "") - Number(gb === "") ||
      cmp(ga, gb) ||
      severityRank(a.severity) - severityRank(b.severity) ||
      cmp(a.pointer, b.pointer) ||
      cmp(a.kind, b.kind) ||
      cmp(a.side, b.side) ||
      cmp(a.message, b.message)
    );
  });
}
