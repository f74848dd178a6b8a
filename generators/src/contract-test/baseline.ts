/**
 * A baseline of known deviations: the failing cases a team records when it adopts the suite on an
 * existing server, so a run fails only on new ones. Cases are keyed by package, operation and check
 * (the test name), which the engine keeps free of seeds and values.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { CaseResult } from "./results.js";

export interface BaselineEntry {
  readonly package: string;
  readonly operation: string;
  readonly check: string;
  /** Why it failed when recorded: for the people reading the file, never compared. */
  readonly reason?: string;
}

export interface Baseline {
  readonly known: readonly BaselineEntry[];
}

/** Raised for a baseline file that cannot be used; the CLI reports it as a usage error. */
export class BaselineError extends Error {}

/**
 * Which drawn request of an operation fails depends on the seed ("valid request 3" at one seed is
 * "valid request 2" at another), so those checks are one deviation per operation: a baseline
 * recorded at one seed holds at every seed.
 */
const checkKey = (check: string): string => check.replace(/\bvalid request \d+\b/g, "valid request N");
const keyOf = (e: { package: string; operation: string; check: string }): string => JSON.stringify([e.package, e.operation, checkKey(e.check)]);

function isEntry(value: unknown): value is BaselineEntry {
  if (value === null || typeof value !== "object") return false;
  const v = value as Record<string, unknown>;
  return typeof v["package"] === "string" && typeof v["operation"] === "string" && typeof v["check"] === "string";
}

/** Reads a baseline; a missing file is an empty baseline only when `missingOk` (it is about to be written). */
export function readBaseline(file: string, missingOk: boolean): Baseline {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if (missingOk && (err as NodeJS.ErrnoException).code === "ENOENT") return { known: [] };
    throw new BaselineError(`cannot read the baseline ${file}: ${(err as Error).message}; record one with --update-baseline`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new BaselineError(`the baseline ${file} is not JSON (${(err as Error).message}); record it again with --update-baseline`);
  }
  const known = data !== null && typeof data === "object" ? (data as Record<string, unknown>)["known"] : undefined;
  if (!Array.isArray(known)) throw new BaselineError(`the baseline ${file} has no "known" list; record it again with --update-baseline`);
  const bad = known.findIndex((e) => !isEntry(e));
  if (bad >= 0) throw new BaselineError(`the baseline ${file}: known[${bad}] needs string members package, operation and check`);
  return { known: known as BaselineEntry[] };
}

export interface BaselineVerdict {
  /** Failures the baseline does not list: these fail the run. */
  readonly fresh: readonly CaseResult[];
  /** Failures the baseline lists. */
  readonly known: readonly CaseResult[];
  /** Baselined cases that ran and passed: the deviation is gone. */
  readonly fixed: readonly CaseResult[];
}

export function compareWithBaseline(cases: readonly CaseResult[], baseline: Baseline): BaselineVerdict {
  const listed = new Set(baseline.known.map(keyOf));
  const failed = cases.filter((c) => c.state === "fail");
  return {
    fresh: failed.filter((c) => !listed.has(keyOf(c))),
    known: failed.filter((c) => listed.has(keyOf(c))),
    // Gone only when no case of the same deviation failed (another drawn request may still show it).
    fixed: cases.filter((c) => c.state === "pass" && listed.has(keyOf(c)) && !failed.some((f) => keyOf(f) === keyOf(c))),
  };
}

/**
 * The baseline after this run: every failure of the packages that ran, plus the entries of packages
 * this run did not test (a run of one package must not forget the others' deviations).
 */
export function updatedBaseline(previous: Baseline, cases: readonly CaseResult[], packagesRun: readonly string[]): Baseline {
  const ran = new Set(packagesRun);
  const kept = previous.known.filter((e) => !ran.has(e.package));
  const failures = cases
    .filter((c) => c.state === "fail")
    .map((c): BaselineEntry => ({ package: c.package, operation: c.operation, check: c.check, ...(c.reason !== undefined ? { reason: c.reason } : {}) }));
  const seen = new Set<string>();
  const known = [...kept, ...failures].filter((e) => {
    const k = keyOf(e);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  // Sorted by code unit so the file diffs cleanly between recordings.
  known.sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
  return { known };
}

export function writeBaseline(file: string, baseline: Baseline): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const doc = {
    $comment: "Known contract deviations: contractgen test --baseline <this file> fails only on others. Rewrite with --update-baseline.",
    known: baseline.known,
  };
  writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
}
