#!/usr/bin/env node
// Regeneration after a one-schema change, as `contractgen generate --watch` does it (one process,
// modules loaded, content caches warm) and as a fresh `contractgen generate` process does it.
// Every incremental result is compared byte for byte with a cold run (empty cache) of the same
// edited spec over the same previous output: the cache must never make output differ.
// Usage: node scripts/bench/incremental.mjs [github|core] [rounds]   (prints JSON)
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import YAML from "yaml";
import { sameTree } from "./same-tree.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const { generate, targetFor } = await import(path.join(root, "generators/dist/index.js"));
const which = process.argv[2] ?? "core";
const rounds = Number(process.argv[3] ?? 3);
const work = mkdtempSync(path.join(os.tmpdir(), "cg-incr-"));
const cli = path.join(root, "generators/dist/cli.js");

// The spec is copied: the edits below must never touch the repository's files.
let specFile, schemaFile, edit;
if (which === "github") {
  specFile = schemaFile = path.join(work, "api.github.com.json");
  cpSync(path.join(root, "node_modules/@octokit/openapi/generated/api.github.com.json"), specFile);
  edit = (n) => {
    const doc = JSON.parse(readFileSync(schemaFile, "utf8"));
    doc.components.schemas["simple-user"].properties[`bench_${n}`] = { type: "string", maxLength: 10 + n };
    writeFileSync(schemaFile, JSON.stringify(doc));
  };
} else {
  cpSync(path.join(root, "spec"), path.join(work, "spec"), { recursive: true });
  specFile = path.join(work, "spec/core.yaml");
  schemaFile = path.join(work, "spec/common/core-objects.yaml");
  edit = (n) => {
    const doc = YAML.parse(readFileSync(schemaFile, "utf8"));
    const name = Object.keys(doc.components?.schemas ?? doc).find((k) => (doc.components?.schemas ?? doc)[k]?.properties);
    (doc.components?.schemas ?? doc)[name].properties[`bench_${n}`] = { type: "string", maxLength: 10 + n };
    writeFileSync(schemaFile, YAML.stringify(doc));
  };
}

const stages = [];
const reporter = { step: (_t, stage, ms) => stages.push([stage, ms]), info() {}, debug() {} };
const out = path.join(work, "pkg");
const cacheDir = path.join(work, "cache");
const target = targetFor(work, specFile, out);
// keepWorkers: what `--watch` passes (its worker threads, and their loaded code, stay between runs).
const run = (force = false) => generate([target], { cwd: work, reporter, cacheDir, force, keepWorkers: true });

const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

let t = performance.now();
await run(true);
const cold = performance.now() - t;

const inProcess = [];
const freshProcess = [];
const checks = [];
const stageLog = [];
/**
 * Runs `regenerate` after edit `n` and records its time. The package before and after it is copied
 * aside: once every round ran, a cold run (empty cache) of each edit over its "before" copy must
 * write the bytes of its "after" copy. The cold runs come last so none runs between two timed ones.
 */
const toVerify = [];
const round = async (n, times, regenerate) => {
  const before = path.join(work, `before-${n}`);
  cpSync(out, before, { recursive: true });
  edit(n);
  t = performance.now();
  await regenerate();
  times.push(performance.now() - t);
  const after = path.join(work, `after-${n}`);
  cpSync(out, after, { recursive: true });
  toVerify.push({ n, before, after, spec: readFileSync(schemaFile, "utf8") });
};
const verify = () => {
  for (const { n, before, after, spec } of toVerify) {
    writeFileSync(schemaFile, spec);
    const coldCache = path.join(work, `cold-cache-${n}`);
    spawnSync(process.execPath, [cli, "generate", specFile, "--out", before, "--cache-dir", coldCache, "-q"], { cwd: work });
    checks.push(sameTree(after, before));
    for (const dir of [before, after, coldCache]) rmSync(dir, { recursive: true, force: true });
  }
};
// In one process, one edit after another, as --watch runs them: nothing else writes the package in
// between (a run of another process there would make the next one read contract.json again).
for (let i = 1; i <= rounds; i++) {
  await round(i, inProcess, async () => {
    stages.length = 0;
    await run();
    stageLog.push(Object.fromEntries(stages.map(([s, ms]) => [s, Math.round(ms)])));
  });
}
verify();
toVerify.length = 0;
// Then a fresh process per edit, with the cache on disk (what a CI job or a one-off command does).
for (let i = 1; i <= rounds; i++) {
  await round(rounds + i, freshProcess, async () => {
    const r = spawnSync(process.execPath, [cli, "generate", specFile, "--out", out, "--cache-dir", cacheDir, "-q"], { cwd: work });
    if (r.status !== 0) throw new Error(r.stderr.toString());
  });
}
verify();

const result = {
  spec: which,
  rounds,
  coldInProcessMs: Math.round(cold),
  incrementalInProcessMs: { median: Math.round(median(inProcess)), all: inProcess.map(Math.round) },
  incrementalFreshProcessMs: { median: Math.round(median(freshProcess)), all: freshProcess.map(Math.round) },
  byteIdenticalToCold: checks,
  stagesOfLastInProcessRun: stageLog.at(-1),
  loadAverage: os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(" "),
};
console.log(JSON.stringify(result, null, 1));
rmSync(work, { recursive: true, force: true });
if (checks.some((c) => !c)) process.exitCode = 1;
