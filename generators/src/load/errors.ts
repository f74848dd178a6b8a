/** One problem in a spec, located in its source file. */
export interface SpecIssue {
  /** Path as the user gave it or relative to the working directory; never absolute when avoidable. */
  readonly file: string;
  readonly line?: number;
  readonly col?: number;
  /** JSON pointer inside `file` (RFC 6901, with a leading `#`). */
  readonly pointer: string;
  readonly message: string;
  /** What to change so the spec loads. */
  readonly fix: string;
}

/** Thrown for input problems (the user's to fix), as opposed to bugs in the generator. */
export class SpecError extends Error {
  readonly issues: readonly SpecIssue[];
  constructor(issues: readonly SpecIssue[]) {
    super(issues.map(formatIssue).join("\n"));
    this.name = "SpecError";
    this.issues = issues;
  }
}

export function formatIssue(issue: SpecIssue): string {
  const where = issue.line !== undefined ? `${issue.file}:${issue.line}:${issue.col ?? 1}` : issue.file;
  return `${where} ${issue.pointer}\n  error: ${issue.message}\n  fix: ${issue.fix}`;
}

export function escapePointerSegment(segment: string): string {
  // Most segments need no escape; the diff and the loader escape hundreds of thousands per run.
  if (!segment.includes("~") && !segment.includes("/")) return segment;
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

export function toPointer(segments: readonly (string | number)[]): string {
  return "#" + segments.map((s) => "/" + escapePointerSegment(String(s))).join("");
}

/** Splits `#/a/b~1c` (or `/a/b`) into segments; `#` and `` give the root. */
export function parsePointer(pointer: string): string[] {
  const p = pointer.startsWith("#") ? pointer.slice(1) : pointer;
  if (p === "") return [];
  return p
    .slice(1)
    .split("/")
    .map((s) => decodeURIComponent(s.replace(/~1/g, "/").replace(/~0/g, "~")));
}
