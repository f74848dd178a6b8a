#!/usr/bin/env node
// npm run bench: our generator and openapi-typescript side by side, in one run, on this machine.
// Prints median wall time and peak memory per case and writes the table to docs/benchmarks.md.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const tmp = mkdtempSync(path.join(os.tmpdir(), "cg-bench-"));
const node = process.execPath;
const cli = path.join(root, "generators/dist/cli.js");
const ots = path.join(root, "node_modules/openapi-typescript/bin/cli.js");
const github = path.join(root, "node_modules/@octokit/openapi/generated/api.github.com.json");
const specs = ["core", "ads-audiences", "ads-campaigns"].map((n) => path.join(root, "spec", `${n}.yaml`)).filter(existsSync);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

/** Runs a command under /usr/bin/time; returns wall seconds and peak RSS in MiB. */
function measure(args, cwd = root) {
  const r = spawnSync("/usr/bin/time", ["-f", "%e %M", ...args], { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${args.join(" ")} failed:\n${r.stderr}`);
  const [wall, kb] = r.stderr.trim().split("\n").pop().split(" ").map(Number);
  return { wall, mem: kb / 1024 };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function bench(label, args, runs = RUNS, setup) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    setup?.();
    samples.push(measure(args));
  }
  const row = { label, wall: median(samples.map((s) => s.wall)), mem: Math.max(...samples.map((s) => s.mem)), runs };
  process.stderr.write(`${label.padEnd(58)} ${row.wall.toFixed(2).padStart(6)} s  ${row.mem.toFixed(0).padStart(5)} MiB  (median of ${runs})\n`);
  return row;
}

const rows = [];
const pairs = [];
for (const spec of [...specs, github]) {
  const name = spec === github ? "GitHub REST (13 MB JSON)" : path.relative(root, spec);
  const runs = spec === github ? Math.min(RUNS, 3) : RUNS;
  const ours = bench(`types stage: contractgen — ${name}`, [node, path.join(root, "scripts/bench/types-stage.mjs"), spec, path.join(tmp, "types.ts")], runs);
  const theirs = bench(`types: openapi-typescript CLI — ${name}`, [node, ots, spec, "-o", path.join(tmp, "ots.ts")], runs);
  const full = bench(`all artifacts: contractgen generate --force — ${name}`, [node, cli, "generate", spec, "--out", path.join(tmp, "pkg"), "--force", "-q"], runs);
  rows.push(ours, theirs, full);
  pairs.push({ name, ratio: ours.wall / theirs.wall });
}

// Project-level runs, in a copy of the workspace layout so the committed packages stay untouched.
const work = mkdtempSync(path.join(os.tmpdir(), "cg-bench-ws-"));
spawnSync("cp", ["-r", path.join(root, "spec"), path.join(work, "spec")]);
const projectArgs = [node, cli, "generate", "--spec-dir", path.join(work, "spec"), "--packages-dir", path.join(work, "packages"), "--cache-dir", path.join(work, ".cache"), "-q"];
const fullRegen = bench("full regeneration of the three specs (generate --force)", [...projectArgs, "--force"], RUNS);
const noop = bench("no-op generate (nothing changed)", projectArgs, RUNS);
rows.push(fullRegen, noop);

const lines = [
  "# Benchmarks",
  "",
  `Measured by \`npm run bench\` (scripts/bench/run.mjs) on ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, Node ${process.version}.`,
  "Wall time is the median of the runs; memory is the peak resident set of the slowest process.",
  "Each row is a whole process, start-up included, as a user runs it.",
  "",
  "| case | median wall (s) | peak RSS (MiB) | runs |",
  "| --- | ---: | ---: | ---: |",
  ...rows.map((r) => `| ${r.label} | ${r.wall.toFixed(2)} | ${r.mem.toFixed(0)} | ${r.runs} |`),
  "",
  "## Ratios",
  "",
  "| spec | contractgen types stage ÷ openapi-typescript | target |",
  "| --- | ---: | --- |",
  ...pairs.map((p) => `| ${p.name} | ${p.ratio.toFixed(2)}× | ≤ 1.20× on GitHub |`),
  "",
  `Targets: no-op under 0.5 s (measured ${noop.wall.toFixed(2)} s); full regeneration of the three specs under 5 s (measured ${fullRegen.wall.toFixed(2)} s).`,
  "",
];
writeFileSync(path.join(root, "docs/benchmarks.md"), lines.join("\n"));
process.stderr.write(`wrote docs/benchmarks.md\n`);
