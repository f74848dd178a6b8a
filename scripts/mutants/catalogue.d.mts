/** Types of the mutant catalogue (the catalogue itself is plain ESM so `npm run mutants` runs on Node 20 without a build). */

/** The three APIs of the mock, named like their packages. */
export type Api = "core" | "ads-audiences" | "ads-campaigns";

/** The kind of check a suite needs to catch a mutant: the report groups survivors by it. */
export type CheckKind =
  | "token and OAuth sequences"
  | "soft delete and with_deleted"
  | "paging invariants"
  | "batch results"
  | "state rules, effects and refusals"
  | "response values the documents fix"
  | "read-back of written values"
  | "status codes of valid requests"
  | "rate limits";

/** One realistic implementation bug, as an exact edit of the mock server's source. */
export interface Mutant {
  /** Unique, kebab-case, prefixed with the API (`core-`, `aud-`, `camp-`). */
  readonly id: string;
  readonly api: Api;
  readonly check: CheckKind;
  /** The fact of the documents the bug breaks: which document and section, and its words. */
  readonly fact: string;
  /** The bug as a team would make it, in one sentence. */
  readonly bug: string;
  /** The file it edits, relative to packages/mock-server/. */
  readonly file: string;
  /** Text that must occur exactly once in `file`. */
  readonly search: string;
  readonly replace: string;
  /** The check a suite needs to catch it: the operation, the request sequence, the assertion. */
  readonly detect: string;
  /**
   * Why the suites of the last measurement (docs/mutants.md) miss it, where that is more than "no
   * case makes this request or checks this value": update it when the suites change.
   */
  readonly missed?: string;
  /**
   * Why the mutant cannot change any answer of the server (another layer already enforces the
   * fact), with the evidence. Such a survivor is reported but left out of the kill rate.
   */
  readonly equivalent?: string;
}

export declare const mutants: readonly Mutant[];
