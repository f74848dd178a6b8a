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
for (let i = 1; i <= rounds; i++) {
  // In-process (what --watch does).
  const before = path.join(work, `before-${i}`);
  cpSync(out, before, { recursive: true });
  edit(2 * i);
  stages.length = 0;
  t = performance.now();
  await run();
  inProcess.push(performance.now() - t);
  stageLog.push(Object.fromEntries(stages.map(([s, ms]) => [s, Math.round(ms)])));
  // The same edit, cold: empty cache, same previous output.
  const coldCache = path.join(work, `cold-cache-${i}`);
  spawnSync(process.execPath, [cli, "generate", specFile, "--out", before, "--cache-dir", coldCache, "-q"], { cwd: work });
  checks.push(sameTree(out, before));
  rmSync(before, { recursive: true, force: true });
  rmSync(coldCache, { recursive: true, force: true });

  // A fresh process with the cache on disk (what a CI job or a one-off command does).
  edit(2 * i + 1);
  t = performance.now();
  const r = spawnSync(process.execPath, [cli, "generate", specFile, "--out", out, "--cache-dir", cacheDir, "-q"], { cwd: work });
  freshProcess.push(performance.now() - t);
  if (r.status !== 0) throw new Error(r.stderr.toString());
}

const result = {
  spec: which,
  rounds,
  coldInProcessMs: Math.round(cold),
  incrementalInProcessMs: { median: Math.round(median(inProcess)), all: inProcess.map(Math.round) },
  incrementalFreshProcessMs: { median: Math.round(median(freshProcess)), all: freshProcess.map(Math.round) },
  byteIdenticalToCold: checks,
  stagesOfLastInProcessRun: stageLog.at(-1),
  loadAverage: os.loadavg().map((x) => x.toFixed(1)).join(" "),
};
console.log(JSON.stringify(result, null, 1));
rmSync(work, { recursive: true, force: true });
if (checks.some((c) => !c)) process.exitCode = 1;
