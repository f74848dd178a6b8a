/** The contract diff: what changed between two versions of a spec, and the semver bump it implies. */
export { diffModels, diffSpecs } from "./diff.js";
export type { DiffOptions } from "./diff.js";
export { bumpOf, sortChanges } from "./change.js";
export type { Bump, Change, DiffResult } from "./change.js";
export { listChangeKinds, severityOf, PLAIN_CHANGES, SCHEMA_CHANGES } from "./kinds.js";
export type { ChangeKind, Direction, PlainChangeKind, SchemaChange, SchemaChangeKind, Severity } from "./kinds.js";
export { summarizeChanges, summarizeBySubject } from "./summary.js";
export type { ChangeSummary, SummaryBySubject } from "./summary.js";
export { countSeverities, formatJsonReport, formatTextReport, jsonReport } from "./report.js";
export type { JsonReport, ReportOptions, SeverityCounts } from "./report.js";
export { applyBump } from "./version.js";
export { runDiffCommand } from "./command.js";
export type { DiffCommandArgs } from "./command.js";
