#!/usr/bin/env node
// npm run bench (and npm run bench:scaffold): contractgen scaffold on GitHub's REST description
// (1,223 operations). Times the ts-morph work in-process, phase by phase: a fresh scaffold, a
// re-scaffold with nothing changed, and a re-scaffold after a contract change (operations added
// under a new tag and to existing tags, removed, renamed). Writes docs/benchmarks-scaffold.md.
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const dist = (p) => import(path.join(root, "generators/dist", p));
const { loadSpec } = await dist("load/load.js");
const { buildModel } = await dist("model/build.js");
const { planScaffold } = await dist("scaffold/plan.js");
const { reconcile, HANDLERS_DIR } = await dist("scaffold/reconcile.js");
const { freshTexts, loadScaffoldTemplates } = await dist("scaffold/files.js");

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const github = path.join(root, "node_modules/@octokit/openapi/generated/api.github.com.json");
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
let peak = 0;
const sample = () => (peak = Math.max(peak, process.memoryUsage().rss));

const spec = await loadSpec(github, { cwd: root });
const base = buildModel(spec, "github");
const templates = await loadScaffoldTemplates(undefined, root);
const factsOf = (model, plan) => ({
  model,
  plan,
  packageName: "github",
  projectName: "bench",
  contractDir: "./contract",
  runtimeDir: undefined,
  buildsContract: true,
  command: "contractgen scaffold",
});

/** The contract after a change: 20 operations removed, 10 renamed, 15 added to existing tags, 15 under a new tag. */
function changedModel() {
  const doc = structuredClone(spec.document);
  const ops = [];
  for (const [p, item] of Object.entries(doc.paths)) for (const m of ["get", "put", "post", "delete", "patch"]) if (item[m]) ops.push({ p, m, op: item[m] });
  for (const { p, m } of ops.slice(0, 20)) delete doc.paths[p][m];
  for (const { op } of ops.slice(100, 110)) op.operationId = `${op.operationId}-renamed`;
  ops.slice(200, 230).forEach(({ op }, i) => {
    const copy = structuredClone(op);
    copy.operationId = `bench/added-${i}`;
    if (i >= 15) copy.tags = ["bench-new-tag"];
    doc.paths[`/bench/added/${i}`] = { post: copy };
  });
  return buildModel({ ...spec, document: doc }, "github");
}

function time(fn) {
  const t = performance.now();
  const out = fn();
  sample();
  return { ms: performance.now() - t, out };
}

function writeTree(dir, writes) {
  for (const [file, text] of writes) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
}

function readTree(dir) {
  const map = new Map();
  const d = path.join(dir, HANDLERS_DIR);
  for (const n of readdirSync(d).sort()) map.set(`${HANDLERS_DIR}/${n}`, readFileSync(path.join(d, n), "utf8"));
  return map;
}

const plan = time(() => planScaffold(base));
const changed = changedModel();
const changedPlan = planScaffold(changed);
const rows = { fresh: [], noop: [], change: [] };
let facts;
for (let i = 0; i < RUNS; i++) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "cg-bench-scaffold-"));
  const fresh = time(() => reconcile(plan.out, new Map(), freshTexts(factsOf(base, plan.out), templates), "github/server"));
  rows.fresh.push(fresh.ms);
  writeTree(dir, fresh.out.writes);
  const noop = time(() => reconcile(plan.out, readTree(dir), freshTexts(factsOf(base, plan.out), templates), "github/server"));
  if (noop.out.writes.size !== 0) throw new Error("a re-scaffold with nothing changed wrote files");
  rows.noop.push(noop.ms);
  const change = time(() => reconcile(changedPlan, readTree(dir), freshTexts(factsOf(changed, changedPlan), templates), "github/server"));
  rows.change.push(change.ms);
  facts = { files: fresh.out.writes.size, handlers: fresh.out.added.length, change: change.out };
}

const c = facts.change;
const result = {
  operations: base.operations.length,
  modules: plan.out.modules.length,
  files: facts.files,
  planMs: plan.ms,
  freshMs: median(rows.fresh),
  noopMs: median(rows.noop),
  changeMs: median(rows.change),
  added: c.added.length,
  newModules: c.newModules.length,
  stale: c.stale.length,
  changedFiles: c.writes.size,
  peakMiB: peak / 2 ** 20,
  runs: RUNS,
};
const lines = [
  "# Benchmarks: scaffold",
  "",
  `Measured by \`npm run bench:scaffold\` (scripts/bench/scaffold.mjs; also run by \`npm run bench\`) on ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, Node ${process.version}.`,
  `GitHub's REST description: ${result.operations} operations in ${result.modules} tags. In-process times of the ts-morph work (plan, parse and analyse the handler modules, batched insertions, print), median of ${RUNS} runs; loading the spec and writing files are not included.`,
  "",
  "| case | median (ms) |",
  "| --- | ---: |",
  `| plan (operations → modules and handlers) | ${result.planMs.toFixed(0)} |`,
  `| fresh scaffold: ${result.files} files, ${result.handlers ?? facts.handlers} stub handlers | ${result.freshMs.toFixed(0)} |`,
  `| re-scaffold, contract unchanged (parse and analyse ${result.files} files, no edit) | ${result.noopMs.toFixed(0)} |`,
  `| re-scaffold after a change: ${result.added} handlers added (${result.newModules} new module), ${result.stale} marked stale; ${result.changedFiles} files edited | ${result.changeMs.toFixed(0)} |`,
  "",
  `Peak resident set of the benchmark process: ${result.peakMiB.toFixed(0)} MiB.`,
  "",
];
writeFileSync(path.join(root, "docs/benchmarks-scaffold.md"), lines.join("\n"));
process.stdout.write(`${JSON.stringify({ ...result, handlers: facts.handlers })}\n`);
process.stderr.write(lines.join("\n"));
