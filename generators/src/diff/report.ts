/**
 * The diff as people and tools read it: text grouped by operation (groups with breaking changes
 * first), or JSON with the same changes in the same order.
 */
import { groupKey, type Change, type DiffResult } from "./change.js";
import { summarizeChanges, type ChangeSummary } from "./summary.js";

export interface ReportOptions {
  /** How the old spec is named in the heading (its display path). @default "old" */
  readonly oldLabel?: string;
  /** How the new spec is named in the heading (its display path). @default "new" */
  readonly newLabel?: string;
  /**
   * Maps a change's pointer to `file:line:col` in the spec files, for multi-file specs where the
   * bundled pointer alone does not say which file to open. @default no file positions
   */
  readonly locate?: (side: "old" | "new", pointer: string) => string | undefined;
}

export interface SeverityCounts {
  readonly breaking: number;
  readonly nonBreaking: number;
  readonly documentation: number;
}

export function countSeverities(changes: readonly Change[]): SeverityCounts {
  let breaking = 0;
  let nonBreaking = 0;
  let documentation = 0;
  for (const c of changes) {
    if (c.severity === "breaking") breaking++;
    else if (c.severity === "non-breaking") nonBreaking++;
    else documentation++;
  }
  return { breaking, nonBreaking, documentation };
}

const pad = (s: string, n: number): string => (s.length >= n ? s : s + " ".repeat(n - s.length));

export function formatTextReport(result: DiffResult, options: ReportOptions = {}): string {
  const oldLabel = options.oldLabel ?? "old";
  const newLabel = options.newLabel ?? "new";
  const counts = countSeverities(result.changes);
  const lines = [`contractgen diff ${oldLabel} → ${newLabel}`];
  if (result.changes.length === 0) {
    lines.push("no changes", "semver bump: none");
    return `${lines.join("\n")}\n`;
  }
  lines.push(`${counts.breaking} breaking, ${counts.nonBreaking} non-breaking, ${counts.documentation} documentation`, `semver bump: ${result.bump}`);
  const kindWidth = Math.max(...result.changes.map((c) => c.kind.length));
  let group: string | undefined;
  for (const c of result.changes) {
    const key = groupKey(c);
    if (key !== group) {
      group = key;
      lines.push("", c.operation === undefined ? "document and components" : `${c.operation} (${c.method ?? ""} ${c.path ?? ""})`);
    }
    const position = options.locate?.(c.side, c.pointer);
    lines.push(`  ${pad(c.severity, "documentation".length)}  ${pad(c.kind, kindWidth)}  ${c.message}  [${c.side} ${c.pointer}${position ? ` ${position}` : ""}]`);
  }
  return `${lines.join("\n")}\n`;
}

export interface JsonReport {
  readonly old: string;
  readonly new: string;
  readonly bump: DiffResult["bump"];
  readonly counts: SeverityCounts;
  readonly summary: ChangeSummary;
  readonly changes: readonly (Change & { readonly location?: string })[];
}

export function jsonReport(result: DiffResult, options: ReportOptions = {}): JsonReport {
  return {
    old: options.oldLabel ?? "old",
    new: options.newLabel ?? "new",
    bump: result.bump,
    counts: countSeverities(result.changes),
    summary: summarizeChanges(result),
    changes: result.changes.map((c) => {
      const location = options.locate?.(c.side, c.pointer);
      return location ? { ...c, location } : c;
    }),
  };
}

export function formatJsonReport(result: DiffResult, options: ReportOptions = {}): string {
  return `${JSON.stringify(jsonReport(result, options), null, 2)}\n`;
}
