/**
 * `contractgen diff <old-spec> <new-spec>`: loads both specs the way `generate` does, prints the
 * report on stdout and turns it into an exit code.
 */
import path from "node:path";
import { SpecError, formatIssue, parsePointer, type SpecIssue } from "../load/errors.js";
import { loadSpec, locateIssue, type LoadedSpec } from "../load/load.js";
import type { SourceFile } from "../load/source.js";
import { buildModel } from "../model/build.js";
import { diffModels } from "./diff.js";
import { formatJsonReport, formatTextReport, type ReportOptions } from "./report.js";

export interface DiffCommandArgs {
  /** The spec before the change (YAML or JSON, multi-file allowed). */
  readonly old: string;
  /** The spec after the change. */
  readonly new: string;
  /** Exit 0 even when there are breaking changes (`--allow-breaking`, off unless given). */
  readonly allowBreaking: boolean;
  /** `text` for people, `json` for tools (`--format`, text unless given). */
  readonly format: "text" | "json";
  /** Directory the spec paths are relative to and display paths are shown from. */
  readonly cwd: string;
}

/** Same values as the CLI's EXIT (kept here so this module does not import the CLI). */
const EXIT_OK = 0;
const EXIT_BREAKING = 1;
const EXIT_INVALID_SPEC = 2;

/**
 * Runs the diff and prints the report on stdout. Returns 1 when there are breaking changes and
 * `allowBreaking` is false, 2 when either spec is invalid (issues on stderr, formatted as the CLI
 * formats them), 0 otherwise.
 */
export async function runDiffCommand(args: DiffCommandArgs): Promise<number> {
  const loaded = await Promise.allSettled([loadSpec(args.old, { cwd: args.cwd }), loadSpec(args.new, { cwd: args.cwd })]);
  const issues: SpecIssue[] = [];
  for (const r of loaded) {
    if (r.status === "fulfilled") continue;
    if (r.reason instanceof SpecError) issues.push(...r.reason.issues);
    else throw r.reason;
  }
  if (issues.length > 0) {
    process.stderr.write(`${issues.map(formatIssue).join("\n")}\n`);
    process.stderr.write(`${issues.length} problem(s) in the spec; nothing was compared\n`);
    return EXIT_INVALID_SPEC;
  }
  const [oldSpec, newSpec] = loaded.map((r) => (r as PromiseFulfilledResult<LoadedSpec>).value) as [LoadedSpec, LoadedSpec];
  const result = diffModels(buildModel(oldSpec, modelName(args.old)), buildModel(newSpec, modelName(args.new)));
  const options: ReportOptions = {
    oldLabel: oldSpec.root.displayPath,
    newLabel: newSpec.root.displayPath,
    locate: locator(oldSpec, newSpec),
  };
  process.stdout.write(args.format === "json" ? formatJsonReport(result, options) : formatTextReport(result, options));
  return result.bump === "major" && !args.allowBreaking ? EXIT_BREAKING : EXIT_OK;
}

const modelName = (spec: string): string => path.basename(spec).replace(/\.(ya?ml|json)$/i, "");

/** `file:line:col` of a bundled-document pointer, found through the `$ref`s bundling inlined. */
function locator(oldSpec: LoadedSpec, newSpec: LoadedSpec): (side: "old" | "new", pointer: string) => string | undefined {
  const files = (spec: LoadedSpec): Map<string, SourceFile> => new Map(spec.files.map((f) => [f.absPath, f]));
  const sides = {
    old: { files: files(oldSpec), root: oldSpec.root.absPath },
    new: { files: files(newSpec), root: newSpec.root.absPath },
  };
  return (side, pointer) => {
    const s = sides[side];
    const issue = locateIssue(s.files, s.root, parsePointer(pointer), "", "");
    return issue.line === undefined ? issue.file : `${issue.file}:${issue.line}:${issue.col ?? 1}`;
  };
}
