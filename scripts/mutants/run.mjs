#!/usr/bin/env node
// @ts-check
/**
 * npm run mutants: measures the strength of the generated conformance suites by mutation testing
 * of the mock server. The unmutated mock must pass first (else the run aborts); then each mutant of
 * the catalogue is applied to a private copy, built, started, and the suites run against it.
 * Writes docs/mutants.md (full runs, or --doc) and prints `N killed, N survived` last.
 *
 *   node scripts/mutants/run.mjs [--only id,id] [--jobs N] [--json file] [--doc file] [--min-rate 95]
 *     [--catalogue module]   (another catalogue of the same shape: a batch written blind, scripts/mutants/blind/)
 *   node scripts/mutants/run.mjs --from-json file [--doc file]   (re-renders the report of a saved run
 *     with the catalogue's current texts, without running anything)
 *
 * Exit 0 when the kill rate reaches --min-rate, 1 when it does not, 2 when the baseline fails or a
 * mutant no longer applies, 3 on a usage error. Needs a build (`npm run mutants` runs `npm run build`).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { mutants as ownCatalogue } from "./catalogue.mjs";
import { MOCK_DIR, ROOT, applyMutant } from "./patch.mjs";
import { stopAll } from "./processes.mjs";
import { renderReport, shortName, tally } from "./report.mjs";
import { Slot } from "./slot.mjs";
import { runSuites } from "./suite.mjs";

/** @typedef {import("./report.mjs").MutantResult} MutantResult */

function usage(/** @type {string} */ message) {
  process.stderr.write(`mutants: ${message}\n`);
  process.exit(3);
}

/** @type {{ values: { only?: string; jobs: string; json?: string; doc?: string; "min-rate": string; "from-json"?: string; catalogue?: string } }} */
let parsed;
try {
  parsed = parseArgs({
    options: {
      only: { type: "string" },
      jobs: { type: "string", default: String(Math.max(1, Math.min(2, os.availableParallelism()))) },
      json: { type: "string" },
      doc: { type: "string" },
      "min-rate": { type: "string", default: "95" },
      "from-json": { type: "string" },
      catalogue: { type: "string" },
    },
  });
} catch (e) {
  usage(/** @type {Error} */ (e).message);
  throw e;
}
const args = parsed.values;
/** The mutants of this run: the repository's catalogue, or a module with the same `mutants` export. */
const mutants = args.catalogue === undefined ? ownCatalogue : /** @type {readonly import("./catalogue.d.mts").Mutant[]} */ ((await import(path.resolve(args.catalogue))).mutants);
const jobs = Number(args.jobs);
const minRate = Number(args["min-rate"]);
if (!Number.isInteger(jobs) || jobs < 1 || jobs > 8) usage("--jobs takes 1 to 8");
if (!Number.isFinite(minRate) || minRate < 0 || minRate > 100) usage("--min-rate takes a percentage");
const wanted = args.only
  ?.split(",")
  .map((s) => s.trim())
  .filter((s) => s !== "");
const unknown = (wanted ?? []).filter((id) => !mutants.some((m) => m.id === id));
if (unknown.length > 0) usage(`no mutant named ${unknown.join(", ")}`);
const selected = wanted ? mutants.filter((m) => wanted.includes(m.id)) : mutants;
// Without --only the run is the measurement of record; a partial run writes the doc only when asked.
const docFile = args.doc ?? (wanted || args.catalogue !== undefined ? undefined : path.join(ROOT, "docs/mutants.md"));

if (args["from-json"]) rerender(args["from-json"], args.doc ?? path.join(ROOT, "docs/mutants.md"));

for (const need of ["generators/dist/cli.js", "packages/core/dist/server.js", "packages/ads-audiences/dist/server.js", "packages/ads-campaigns/dist/server.js", "packages/runtime/dist/index.js"]) {
  if (!existsSync(path.join(ROOT, need))) usage(`${need} is missing: run npm run build first (npm run mutants does)`);
}
// Every mutant must still apply exactly once, before any time is spent.
for (const m of selected) {
  try {
    applyMutant(readFileSync(path.join(MOCK_DIR, m.file), "utf8"), m);
  } catch (e) {
    process.stderr.write(`mutants: ${/** @type {Error} */ (e).message}\n`);
    process.exit(2);
  }
}

let interrupted = false;
for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM"])) {
  process.once(signal, () => {
    interrupted = true;
    // Only private copies are mutated, so stopping the children is all the cleanup there is.
    stopAll();
    process.stderr.write(`mutants: ${signal}, stopped\n`);
    process.exit(signal === "SIGINT" ? 130 : 143);
  });
}

const started = performance.now();
const reports = path.join(ROOT, ".tmp/mutants/reports");
mkdirSync(reports, { recursive: true });

process.stderr.write(`mutants: baseline (unmutated mock)…\n`);
const baseSlot = new Slot("baseline");
const baseBuild = await baseSlot.build(undefined);
if (!baseBuild.ok) {
  process.stderr.write(`mutants: the unmutated mock does not build: ${baseBuild.reason}\n`);
  process.exit(2);
}
const baseline = await runSuites(baseSlot.entry, path.join(reports, "baseline"));
if (!baseline.ok || baseline.exitCode !== 0 || baseline.cases.some((c) => c.state === "failed")) {
  const why = baseline.ok
    ? baseline.cases
        .filter((c) => c.state === "failed")
        .map((c) => `  ${shortName(c.name)}: ${c.message}`)
        .join("\n") || `exit ${baseline.exitCode}`
    : baseline.reason;
  process.stderr.write(`mutants: the suites fail against the unmutated mock, so no mutant can be judged:\n${why}\n`);
  process.exit(2);
}
const baselinePassed = new Set(baseline.cases.filter((c) => c.state === "passed").map((c) => `${c.file} > ${c.name}`));
process.stderr.write(`mutants: baseline ${baseline.summary} in ${(baseline.ms / 1000).toFixed(1)} s; ${selected.length} mutants, ${jobs} at a time\n`);

/** @type {(MutantResult | undefined)[]} */
const results = new Array(selected.length);
let next = 0;
let done = 0;

/** @param {number} worker */
async function work(worker) {
  const slot = new Slot(`slot-${worker}`);
  while (!interrupted && next < selected.length) {
    const index = next++;
    const mutant = /** @type {import("./catalogue.d.mts").Mutant} */ (selected[index]);
    const t0 = performance.now();
    /** @type {MutantResult} */
    let result;
    const built = await slot.build(mutant);
    if (!built.ok) result = { mutant, verdict: "invalid", failures: [], reason: built.reason, ms: performance.now() - t0 };
    else {
      const r = await runSuites(slot.entry, path.join(reports, mutant.id));
      if (!r.ok) result = { mutant, verdict: "invalid", failures: [], reason: r.reason, ms: performance.now() - t0 };
      else {
        // Killed: a case that passed against the unmutated mock fails against this one.
        const failures = r.cases.filter((c) => c.state === "failed" && baselinePassed.has(`${c.file} > ${c.name}`)).map((c) => ({ name: c.name, message: c.message.slice(0, 400) }));
        if (failures.length === 0 && r.exitCode !== 0)
          result = { mutant, verdict: "invalid", failures: [], reason: `the suites exited ${r.exitCode} without a failing case (${r.summary})`, ms: performance.now() - t0 };
        else result = { mutant, verdict: failures.length > 0 ? "killed" : "survived", failures, ms: performance.now() - t0 };
      }
    }
    results[index] = result;
    done++;
    const first = result.failures[0];
    const detail =
      result.verdict === "killed" && first
        ? ` by ${shortName(first.name)}${result.failures.length > 1 ? ` (+${result.failures.length - 1})` : ""}`
        : result.verdict === "invalid"
          ? `: ${result.reason}`
          : "";
    process.stderr.write(`[${String(done).padStart(2)}/${selected.length}] ${result.verdict.padEnd(8)} ${mutant.id}${detail} (${(result.ms / 1000).toFixed(0)} s)\n`);
  }
}

await Promise.all(Array.from({ length: Math.min(jobs, selected.length) }, (_, i) => work(i + 1)));
const final = /** @type {MutantResult[]} */ (results.filter((r) => r !== undefined));
const totalMs = performance.now() - started;
const t = tally(final);

let commit = "unknown";
try {
  commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
  const dirty = execFileSync("git", ["status", "--porcelain", "--", "packages", "generators/src", "spec"], { cwd: ROOT, encoding: "utf8" }).trim();
  if (dirty !== "") commit += " with uncommitted changes";
} catch {
  // Not a git checkout: the commit stays unknown.
}
const info = { date: new Date().toISOString().slice(0, 16).replace("T", " ") + " UTC", commit, baselineSummary: baseline.summary, baselineMs: baseline.ms, totalMs, jobs, minRate };
if (args.json)
  writeFileSync(
    path.resolve(args.json),
    JSON.stringify(
      { ...info, ...t, results: final.map((r) => ({ id: r.mutant.id, api: r.mutant.api, check: r.mutant.check, verdict: r.verdict, failures: r.failures, reason: r.reason, ms: Math.round(r.ms) })) },
      null,
      2,
    ) + "\n",
  );
if (docFile) {
  writeFileSync(docFile, renderReport(final, info));
  process.stderr.write(`mutants: wrote ${path.relative(ROOT, docFile)}\n`);
}
process.stdout.write(`kill rate ${t.rate.toFixed(1)}% (target ${minRate}%), ${t.equivalent} equivalent, ${t.invalid} invalid, ${(totalMs / 60_000).toFixed(1)} min\n`);
process.stdout.write(`${t.killed} killed, ${t.survived} survived\n`);
process.exit(t.rate >= minRate ? 0 : 1);

/**
 * Writes the report of a saved run (--json) again, with the catalogue's current texts (facts,
 * checks, why survivors were missed). The verdicts are the saved ones: nothing is run.
 * @param {string} file
 * @param {string} doc
 * @returns {never}
 */
function rerender(file, doc) {
  /** @type {import("./report.mjs").RunInfo & { results: { id: string; verdict: MutantResult["verdict"]; failures: MutantResult["failures"]; reason?: string; ms: number }[] }} */
  const saved = JSON.parse(readFileSync(path.resolve(file), "utf8"));
  const results = saved.results.map((r) => {
    const mutant = mutants.find((m) => m.id === r.id);
    if (!mutant) usage(`${file} holds mutant ${r.id}, which the catalogue no longer has: run the mutants again`);
    return { mutant: /** @type {import("./catalogue.d.mts").Mutant} */ (mutant), verdict: r.verdict, failures: r.failures, ...(r.reason !== undefined ? { reason: r.reason } : {}), ms: r.ms };
  });
  writeFileSync(doc, renderReport(results, saved));
  const t = tally(results);
  process.stderr.write(`mutants: wrote ${path.relative(ROOT, doc)} from ${file}\n`);
  process.stdout.write(`${t.killed} killed, ${t.survived} survived\n`);
  process.exit(0);
}
