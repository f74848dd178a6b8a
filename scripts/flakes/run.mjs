// npm run flakes: runs `contractgen test --destructive` against ONE freshly started `contractgen mock`
// process, round after round, optionally with every core kept busy, and reports which cases failed
// in which rounds and why. A suite that never flakes passes every round.
//
//   node scripts/flakes/run.mjs [--rounds 20] [--load] [--seed 1] [--spec core,ads-audiences] [--keep]
//
// Bounded: each round has a time limit, the load processes stop themselves, and the mock is stopped
// at the end (by its pid, never by name).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const cli = path.join(root, "generators/dist/cli.js");
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const rounds = Number(arg("rounds", "20"));
const seed = arg("seed", undefined);
const load = process.argv.includes("--load");
const specs = arg("spec", undefined)?.split(",").filter(Boolean) ?? [];
const ROUND_LIMIT_MS = 10 * 60_000;
// The mock's development credentials (contractgen mock prints them): every scheme the contracts use.
const auth = JSON.stringify({
  bearer: "mock-bearer-token",
  basic: { username: "mock-api-key", password: "mock-api-secret" },
  oauth1: { consumerKey: "mock-api-key", consumerSecret: "mock-api-secret", token: "mock-access-token", tokenSecret: "mock-access-token-secret" },
});

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function run(args, limitMs) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: root, env: { ...process.env, NO_COLOR: "1" } });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), limitMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

const unescape = (s) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&#10;/g, " ")
    .replace(/&amp;/g, "&");

/** Failed test cases of a JUnit file: `classname › name` and the failure message. */
function failuresOf(file) {
  let xml;
  try {
    xml = readFileSync(file, "utf8");
  } catch {
    return [{ name: "(no report: the run did not finish)", message: "" }];
  }
  const out = [];
  for (const m of xml.matchAll(/<testcase classname="([^"]*)" name="([^"]*)"[^>]*>([\s\S]*?)<\/testcase>/g)) {
    const failure = /<failure message="([^"]*)"/.exec(m[3]);
    if (failure) out.push({ name: `${unescape(m[1])} › ${unescape(m[2])}`, message: unescape(failure[1]).slice(0, 400) });
  }
  return out;
}

const port = await freePort();
const mock = spawn(process.execPath, [cli, "mock", "--port", String(port), "--quiet"], { cwd: root, stdio: ["ignore", "ignore", "pipe"] });
let mockErr = "";
mock.stderr.on("data", (d) => (mockErr += d));
const baseUrl = `http://127.0.0.1:${port}`;
for (let i = 0; i < 100 && !mockErr.includes("serving"); i++) await new Promise((r) => setTimeout(r, 100));
if (!mockErr.includes("serving")) {
  console.error(`contractgen mock did not start:\n${mockErr}`);
  mock.kill();
  process.exit(4);
}

// Busy loops on every core, each ending by itself after the longest the rounds may take.
const loaders = load ? os.cpus().map(() => spawn(process.execPath, ["-e", `const end = Date.now() + ${rounds * ROUND_LIMIT_MS}; while (Date.now() < end) {}`], { stdio: "ignore" })) : [];

const tmp = mkdtempSync(path.join(os.tmpdir(), "cg-flakes-"));
const failures = new Map();
let clean = 0;
const started = Date.now();
try {
  for (let r = 1; r <= rounds; r++) {
    const report = path.join(tmp, `round-${r}.xml`);
    const t0 = Date.now();
    const { code, out } = await run(
      ["test", "--base-url", baseUrl, "--destructive", "--auth", auth, ...(seed ? ["--seed", seed] : []), ...(specs.length > 0 ? ["--spec", ...specs] : []), "--reporter", "junit", "--output", report],
      ROUND_LIMIT_MS,
    );
    const failed = failuresOf(report);
    const last = out.trim().split("\n").at(-1);
    console.log(`round ${String(r).padStart(2)}: exit ${code}, ${last} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    if (code === 0) clean++;
    for (const f of failed) {
      const entry = failures.get(f.name) ?? { rounds: [], message: f.message };
      entry.rounds.push(r);
      failures.set(f.name, entry);
    }
  }
} finally {
  for (const l of loaders) l.kill();
  mock.kill("SIGTERM");
  if (!process.argv.includes("--keep")) rmSync(tmp, { recursive: true, force: true });
}

console.log(
  `\n${clean} of ${rounds} rounds of ${specs.length > 0 ? specs.join(", ") : "every suite"} passed against one contractgen mock process${load ? ` with ${loaders.length} busy loops` : ""}, ${((Date.now() - started) / 60_000).toFixed(1)} min`,
);
for (const [name, f] of [...failures].sort((a, b) => b[1].rounds.length - a[1].rounds.length)) {
  console.log(`- ${name}: failed in rounds ${f.rounds.join(", ")}\n    ${f.message}`);
}
process.exit(clean === rounds ? 0 : 1);
