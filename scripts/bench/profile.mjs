#!/usr/bin/env node
// npm run bench:profile (or `npm run bench -- --profile`): where `contractgen generate --force`
// spends its CPU on GitHub's REST description. Runs it once under `node --cpu-prof` (one profile
// per thread: the main one and the validators' compile workers), summarises the profiles with
// scripts/bench/cpu-profile.mjs, and writes the "Where the time goes" section of docs/benchmarks.md.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { summarise } from "./cpu-profile.mjs";
import { upsertSections } from "./doc-sections.mjs";
import { load1 } from "./measure.mjs";

export const PROFILE_SECTION = "Where the time goes";

/** One profiled run; returns the summary, the generator's own stage lines and the run's wall time. */
export function profileGithub(root, tmp) {
  const dir = mkdtempSync(path.join(tmp, "cpu-prof-"));
  const github = path.join(root, "node_modules/@octokit/openapi/generated/api.github.com.json");
  const args = ["--cpu-prof", "--cpu-prof-dir", dir, path.join(root, "generators/dist/cli.js"), "generate", github, "--out", path.join(tmp, "pkg-profiled"), "--force"];
  const loadBefore = load1();
  const started = performance.now();
  // Not quiet: the generator's progress lines give each stage's wall time beside the CPU figures.
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: "utf8", maxBuffer: 64 << 20 });
  const wallS = (performance.now() - started) / 1000;
  if (r.status !== 0) throw new Error(`profiled generate failed:\n${r.stderr}`);
  const stageWallMs = new Map();
  for (const line of r.stderr.split("\n")) {
    const m = /^\S+\s+(\S+)\s+(\d+) ms$/.exec(line.trim());
    if (m) stageWallMs.set(m[1], (stageWallMs.get(m[1]) ?? 0) + Number(m[2]));
  }
  // CPU.<date>.<time>.<pid>.<thread id>.<seq>.cpuprofile: the main thread (id 0) first.
  const threadOf = (f) => Number(/\.(\d+)\.\d+\.cpuprofile$/.exec(f)?.[1] ?? 0);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .sort((a, b) => threadOf(a) - threadOf(b));
  const summary = summarise(
    files.map((f) => JSON.parse(readFileSync(path.join(dir, f), "utf8"))),
    root,
  );
  return { summary, stageWallMs, wallS, load: [loadBefore, load1()], threads: files.length };
}

const s = (us) => (us / 1e6).toFixed(2);
const pct = (us, total) => `${((100 * us) / total).toFixed(1)}%`;

/** The markdown section, heading included. `note` says how the machine was (e.g. loaded). */
export function profileSection({ summary, stageWallMs, wallS, load, threads }, { top = 15, note = "" } = {}) {
  const total = summary.cpuUs;
  // Stages under 0.5% of the CPU are summed into one row: the table is for where the time goes.
  const shown = summary.byStage.filter(([, us]) => us >= total * 0.005);
  const rest = summary.byStage.slice(shown.length);
  const stageRows = shown.map(([stage, us]) => `| ${stage} | ${s(us)} | ${pct(us, total)} | ${stageWallMs.has(stage) ? stageWallMs.get(stage).toFixed(0) : ""} |`);
  if (rest.length > 0) {
    const us = rest.reduce((a, [, u]) => a + u, 0);
    stageRows.push(
      `| ${rest.length} others (${rest
        .slice(0, 4)
        .map(([k]) => k)
        .join(", ")}, …) | ${s(us)} | ${pct(us, total)} | |`,
    );
  }
  const [main, ...workers] = summary.threads;
  const threadText = `main thread ${s(main?.cpuUs ?? 0)} s of CPU${workers.length ? `, ${workers.length} worker thread(s) ${workers.map((w) => `${s(w.cpuUs)} s`).join(" and ")}` : ""}`;
  return [
    `## ${PROFILE_SECTION}: contractgen generate --force, GitHub REST (CPU profile)`,
    "",
    `\`node --cpu-prof --cpu-prof-dir <tmp> generators/dist/cli.js generate node_modules/@octokit/openapi/generated/api.github.com.json --out <tmp> --force\`, one run, summarised by scripts/bench/cpu-profile.mjs (\`npm run bench:profile\`). ` +
      `${threads} thread profile(s): ${threadText}; ${s(total)} s of CPU sampled in all, ${s(summary.idleUs)} s idle; the run took ${wallS.toFixed(1)} s wall with the profiler on; one-minute load average ${load.join(" → ")}.` +
      (note ? ` ${note}` : ""),
    "",
    "Self time is CPU time in the function itself, summed over threads; percentages are of all CPU sampled. A sample's stage is the contractgen module the pipeline called (helpers count for their caller: model/ code run by the types emitter is \"types\"); samples with no contractgen frame on the stack (async continuations inside a package, e.g. prettier after an await) are named by their outermost package: prettier is called only by format, and openapi-typescript (with @redocly/openapi-core) only by the types emitter, so those rows are those stages' time after an await. The generator's own wall time per stage (its progress lines) overlaps: emitters run while the validators compile on workers.",
    "",
    "| stage | CPU self (s) | % of CPU | generator's wall for the stage (ms) |",
    "| --- | ---: | ---: | ---: |",
    ...stageRows,
    "",
    "| package or file | CPU self (s) | % of CPU |",
    "| --- | ---: | ---: |",
    ...summary.byPackage.slice(0, top).map(([k, us]) => `| ${k} | ${s(us)} | ${pct(us, total)} |`),
    "",
    `Top ${top} functions by self time:`,
    "",
    "| function (package or file:line) | CPU self (s) | % of CPU |",
    "| --- | ---: | ---: |",
    ...summary.byFunction.slice(0, top).map(([k, us]) => `| ${k.replaceAll("|", "\\|")} | ${s(us)} | ${pct(us, total)} |`),
  ].join("\n");
}

/** Replaces (or adds) the section in docs/benchmarks.md, leaving every other section as it is. */
export function writeProfileSection(root, text) {
  const target = path.join(root, "docs/benchmarks.md");
  const previous = existsSync(target) ? readFileSync(target, "utf8") : "# Benchmarks\n";
  writeFileSync(target, upsertSections(previous, [{ key: PROFILE_SECTION, text }]));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
  const tmp = mkdtempSync(path.join(os.tmpdir(), "cg-bench-prof-"));
  const note = process.argv.find((a) => a.startsWith("--note="))?.slice("--note=".length) ?? "";
  const result = profileGithub(root, tmp);
  const text = profileSection(result, { note });
  process.stderr.write(`${text}\n`);
  writeProfileSection(root, text);
  process.stderr.write("wrote the profile section of docs/benchmarks.md\n");
}
