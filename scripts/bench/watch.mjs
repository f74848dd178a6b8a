#!/usr/bin/env node
// The real `contractgen generate --watch` CLI on GitHub's description, as a user runs it: one watch
// process, then N one-property edits of `simple-user`, each written once the previous regeneration
// was reported. Each edit is timed from the write of the spec to the watcher's "updated" line (its
// debounce included). Before the last edit the package is copied aside; after it, a cold run (empty
// cache) of the same spec over that copy must give the same bytes as the watcher's package.
// Usage: node scripts/bench/watch.mjs [edits] [--cli <path to cli.js>]   (prints JSON)
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sameTree } from "./same-tree.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const args = process.argv.slice(2);
const cliAt = args.indexOf("--cli");
const cli = cliAt >= 0 ? path.resolve(args[cliAt + 1]) : path.join(root, "generators/dist/cli.js");
const edits = Number(args.find((a, i) => /^\d+$/.test(a) && args[i - 1] !== "--cli") ?? 8);
const work = mkdtempSync(path.join(os.tmpdir(), "cg-watch-"));
const spec = path.join(work, "gh.json");
cpSync(path.join(root, "node_modules/@octokit/openapi/generated/api.github.com.json"), spec);

const child = spawn(process.execPath, [cli, "generate", "gh.json", "--out", "pkg", "--watch"], { cwd: work });
let pending = "";
let onDone;
let failed;
const reported = () => new Promise((resolve, reject) => ((onDone = resolve), (failed = reject)));
// Progress and results are on stderr; a regeneration ends with "… updated → pkg" (or "unchanged").
const read = (chunk) => {
  pending += chunk;
  const lines = pending.split("\n");
  pending = lines.pop() ?? "";
  for (const line of lines) {
    if (/(updated|unchanged) → /.test(line)) onDone?.(performance.now());
    else if (/\berror:/i.test(line)) failed?.(new Error(line));
  }
};
child.stdout.on("data", read);
child.stderr.on("data", read);
child.on("exit", (code) => failed?.(new Error(`the watch process exited (${code})`)));
const vm = (key) => {
  const m = new RegExp(`${key}:\\s+(\\d+)`).exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
  return m ? Math.round(Number(m[1]) / 1024) : undefined;
};
const withTimeout = (p, ms) => Promise.race([p, new Promise((_, reject) => setTimeout(() => reject(new Error(`no regeneration within ${ms} ms`)), ms))]);

const results = [];
try {
  await withTimeout(reported(), 300_000);
  const doc = JSON.parse(readFileSync(spec, "utf8"));
  for (let i = 1; i <= edits; i++) {
    // A pause, so the watcher's debounce and the write of the previous package are behind us.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    if (i === edits) cpSync(path.join(work, "pkg"), path.join(work, "cold"), { recursive: true });
    doc.components.schemas["simple-user"].properties[`watch_${i}`] = { type: "string", maxLength: 10 + i };
    const done = reported();
    const start = performance.now();
    writeFileSync(spec, JSON.stringify(doc));
    const end = await withTimeout(done, 120_000);
    results.push({ ms: Math.round(end - start), rssMiB: vm("VmRSS"), peakRssMiB: vm("VmHWM") });
  }
} finally {
  child.kill("SIGINT");
}
const cold = spawnSync(process.execPath, [cli, "generate", "gh.json", "--out", "cold", "--cache-dir", "empty-cache", "-q"], { cwd: work, encoding: "utf8" });
if (cold.status !== 0) throw new Error(`cold run failed: ${cold.stderr}`);
const sorted = results.map((r) => r.ms).sort((a, b) => a - b);
console.log(
  JSON.stringify(
    {
      cli: path.relative(root, cli) || cli,
      edits: results.length,
      medianMs: sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : Math.round((sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2),
      allMs: results.map((r) => r.ms),
      rssMiBAfterEach: results.map((r) => r.rssMiB),
      peakRssMiB: Math.max(...results.map((r) => r.peakRssMiB ?? 0)),
      lastEditIdenticalToCold: sameTree(path.join(work, "pkg"), path.join(work, "cold")),
      loadAverage: os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" "),
    },
    null,
    1,
  ),
);
rmSync(work, { recursive: true, force: true });
