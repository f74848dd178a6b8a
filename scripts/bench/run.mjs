#!/usr/bin/env node
// npm run bench: our generator and openapi-typescript side by side, in one run, on this machine.
// Prints median wall time and peak memory per case and writes the table to docs/benchmarks.md.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
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

// Validators: import time of the precompiled module vs compiling the same schemas at start-up.
function timed(args) {
  const r = spawnSync(node, args, { cwd: root, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${args.join(" ")} failed:\n${r.stderr}`);
  return Number(r.stdout);
}
const validatorRows = [];
for (const spec of specs) {
  const name = path.basename(spec, ".yaml");
  const imported = median(Array.from({ length: RUNS }, () => timed([path.join(root, "scripts/bench/validators-import.mjs"), name])));
  const compiled = median(Array.from({ length: RUNS }, () => timed([path.join(root, "scripts/bench/validators-compile.mjs"), spec])));
  validatorRows.push({ name, imported, compiled });
  process.stderr.write(`validators ${name.padEnd(16)} import ${imported.toFixed(1)} ms  vs  ajv compile at start-up ${compiled.toFixed(1)} ms\n`);
}
const tp = JSON.parse(spawnSync(node, [path.join(root, "scripts/bench/validators-throughput.mjs")], { cwd: root, encoding: "utf8" }).stdout);
process.stderr.write(`validations/s Product ${tp.product.standalone.toFixed(0)} vs ${tp.product.runtime.toFixed(0)}; 25-product batch ${tp.batch.standalone.toFixed(0)} vs ${tp.batch.runtime.toFixed(0)}\n`);
const pct = (a, b) => `${(((a - b) / b) * 100).toFixed(1)}%`;

// Client overhead per call against a bare fetch on loopback (interleaved rounds, median).
const overhead = JSON.parse(spawnSync(node, [path.join(root, "scripts/bench/client-overhead.mjs")], { cwd: root, encoding: "utf8" }).stdout);
process.stderr.write(`client call ${overhead.clientUs.toFixed(0)} µs vs bare fetch ${overhead.bareFetchUs.toFixed(0)} µs\n`);

// Mock server: start-up and throughput beside Prism and bare Fastify.
const mockRun = spawnSync(node, [path.join(root, "scripts/bench/mock.mjs")], { cwd: root, encoding: "utf8", timeout: 600_000 });
if (mockRun.status !== 0) throw new Error(`mock bench failed:\n${mockRun.stderr}`);
const mock = JSON.parse(mockRun.stdout);
for (const r of mock.rows) process.stderr.write(`${r.name}: ${r.kind === "startup" ? `${r.ms.toFixed(0)} ms` : `${r.rps.toFixed(0)} req/s, p99 ${r.p99} ms`}\n`);
const bare = mock.rows.find((r) => r.name.startsWith("bare Fastify"));

// Scaffold: ts-morph on GitHub's 1,223 operations (details in docs/benchmarks-scaffold.md).
const scaffoldRun = spawnSync(node, [path.join(root, "scripts/bench/scaffold.mjs")], { cwd: root, encoding: "utf8", timeout: 600_000 });
if (scaffoldRun.status !== 0) throw new Error(`scaffold bench failed:\n${scaffoldRun.stderr}`);
const scaffold = JSON.parse(scaffoldRun.stdout);

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
  "## Validators",
  "",
  "Import time of each package's precompiled validators, in a fresh process, against loading ajv and compiling the same named schemas at start-up (median of the runs). Target: core under 50 ms.",
  "",
  "| package | import precompiled (ms) | ajv compile at start-up (ms) |",
  "| --- | ---: | ---: |",
  ...validatorRows.map((v) => `| ${v.name} | ${v.imported.toFixed(1)} | ${v.compiled.toFixed(1)} |`),
  "",
  "Validations per second (median of 7 alternating rounds of 400 ms), precompiled standalone code against ajv compiling the same schema at run time with the same options (allErrors, formats, x-rules keyword). They should match within 10%.",
  "",
  "| input | precompiled (/s) | ajv at run time (/s) | difference |",
  "| --- | ---: | ---: | ---: |",
  `| one Product (ProductInput) | ${tp.product.standalone.toFixed(0)} | ${tp.product.runtime.toFixed(0)} | ${pct(tp.product.standalone, tp.product.runtime)} |`,
  `| 25-product batch (ProductBatchRequest) | ${tp.batch.standalone.toFixed(0)} | ${tp.batch.runtime.toFixed(0)} | ${pct(tp.batch.standalone, tp.batch.runtime)} |`,
  "",
  "## Client",
  "",
  "Median time per sequential call on loopback (15 interleaved rounds of 300 calls), the generated client's `createStreamLink` against a bare `fetch` of the same request. Target: within 10%.",
  "",
  "| call | µs per call |",
  "| --- | ---: |",
  `| bare fetch | ${overhead.bareFetchUs.toFixed(0)} |`,
  `| generated client (bearer, default options) | ${overhead.clientUs.toFixed(0)} (${pct(overhead.clientUs, overhead.bareFetchUs)}) |`,
  "",
  "## Mock server",
  "",
  `Loopback, autocannon with ${mock.connections} connections for ${mock.duration} s per row. Targets: at least half of bare Fastify's throughput on a validated route; start-up under 0.5 s for the three specs.`,
  "",
  "| case | req/s (mean) | p99 latency (ms) | × bare Fastify |",
  "| --- | ---: | ---: | ---: |",
  ...mock.rows.filter((r) => r.kind === "load").map((r) => `| ${r.name} | ${r.rps.toFixed(0)} | ${r.p99} | ${(r.rps / bare.rps).toFixed(2)} |`),
  "",
  "| start-up | ms |",
  "| --- | ---: |",
  ...mock.rows.filter((r) => r.kind === "startup").map((r) => `| ${r.name} | ${r.ms.toFixed(0)} |`),
  "",
  "## Scaffold",
  "",
  `contractgen scaffold's ts-morph work on GitHub's ${scaffold.operations} operations (median of ${scaffold.runs}; see docs/benchmarks-scaffold.md): fresh ${scaffold.freshMs.toFixed(0)} ms, re-scaffold unchanged ${scaffold.noopMs.toFixed(0)} ms, after a change (${scaffold.added} added, ${scaffold.stale} stale) ${scaffold.changeMs.toFixed(0)} ms.`,
  "",
];
// A hand-written "Work in progress" section (figures of work not yet in this table, with how they
// were measured) is kept at the end: regenerating the table must not drop them.
const target = path.join(root, "docs/benchmarks.md");
const previous = existsSync(target) ? readFileSync(target, "utf8") : "";
const kept = previous.indexOf("\n## Work in progress");
writeFileSync(target, lines.join("\n") + (kept === -1 ? "" : previous.slice(kept)));
process.stderr.write(`wrote docs/benchmarks.md\n`);
