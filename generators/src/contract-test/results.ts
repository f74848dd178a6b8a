/**
 * The cases of a vitest run, flattened: which package, which operation (the innermost describe:
 * an operationId, or "state transitions"), which check (the test name), and how it ended.
 */
import path from "node:path";
import type { Suite } from "./suites.js";

export type CaseState = "pass" | "fail" | "skip";

export interface CaseResult {
  /** The package's npm name. */
  readonly package: string;
  readonly operation: string;
  /** The test's name: stable across runs and seeds (the engine keeps values out of it). */
  readonly check: string;
  readonly state: CaseState;
  /** First line of the first error, for failures; why, for cases the suite skipped (what to give to run them). */
  readonly reason?: string;
}

/** The shape of vitest's task tree this module reads (a structural subset of its File/Suite/Test). */
export interface TaskNode {
  readonly type: string;
  readonly name: string;
  readonly mode?: string;
  readonly filepath?: string;
  readonly result?: { readonly state?: string; readonly note?: string; readonly errors?: readonly { readonly message?: string }[] };
  readonly tasks?: readonly TaskNode[];
}

export interface RunResults {
  readonly cases: readonly CaseResult[];
  /** Suites whose file failed before any test ran (a broken import, the server not reachable at start-up). */
  readonly brokenFiles: readonly { readonly package: string; readonly reason: string }[];
}

function firstLine(text: string | undefined): string | undefined {
  const line = text?.split("\n").find((l) => l.trim() !== "");
  return line === undefined ? undefined : line.length > 300 ? `${line.slice(0, 297)}...` : line;
}

export function collectResults(files: readonly TaskNode[], suites: readonly Suite[]): RunResults {
  const cases: CaseResult[] = [];
  const brokenFiles: { package: string; reason: string }[] = [];
  for (const file of files) {
    const suite = suites.find((s) => file.filepath !== undefined && path.resolve(file.filepath) === path.resolve(s.file));
    const pkg = suite?.packageName ?? file.name;
    const walk = (tasks: readonly TaskNode[], operation: string, into: CaseResult[]): void => {
      for (const t of tasks) {
        if (t.type === "suite") {
          walk(t.tasks ?? [], t.name, into);
          continue;
        }
        if (t.type !== "test") continue;
        const skipped = t.mode === "skip" || t.mode === "todo" || t.result?.state === "skip";
        const state: CaseState | undefined = skipped ? "skip" : t.result?.state === "pass" ? "pass" : t.result?.state === "fail" ? "fail" : undefined;
        // A test with no outcome did not run (a bail, a filter): it is neither passed nor failed.
        if (state === undefined) continue;
        const reason = state === "fail" ? firstLine(t.result?.errors?.[0]?.message) : state === "skip" ? firstLine(t.result?.note) : undefined;
        into.push({ package: pkg, operation, check: t.name, state, ...(reason !== undefined ? { reason } : {}) });
      }
    };
    const own: CaseResult[] = [];
    walk(file.tasks ?? [], "", own);
    // A file that failed with no failing test of its own broke around its tests (a broken import, a
    // beforeAll that could not start the server, an afterAll): that is a failure, and the tests
    // vitest skipped because of it are not "skipped by the contract".
    if (file.result?.state === "fail" && !own.some((c) => c.state === "fail")) {
      brokenFiles.push({ package: pkg, reason: firstLine(file.result.errors?.[0]?.message) ?? "the suite failed to load" });
      cases.push(...own.filter((c) => c.state === "pass"));
    } else cases.push(...own);
  }
  return { cases, brokenFiles };
}
