// Interleaved A/B of the mock server against another build of this repository (the "before"),
// with bare Fastify as the ceiling: on a shared machine only rounds alternated in one run compare.
// Each server is its own process; every round runs every case once (autocannon, 10 connections,
// BENCH_LOAD_SECONDS each), the order rotating per round. Prints per-case medians and × bare, of
// requests per second and of the server process's CPU time per request (from /proc, Linux only):
// on a loaded machine the second moves far less with the neighbours than the first.
//   node scripts/bench/mock-ab.mjs <before repo root> [rounds]
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

const after = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const before = path.resolve(process.argv[2] ?? "");
const ROUNDS = Number(process.argv[3] ?? 5);
const DURATION = Number(process.env.BENCH_LOAD_SECONDS ?? 5);
const bearer = { authorization: "Bearer mock-bearer-token" };

function start(args, cwd, ready) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let log = "";
    const onData = (d) => {
      log += d.toString();
      if (ready.test(log)) resolve(child);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code) => reject(new Error(`${args.join(" ")} exited ${code}:\n${log}`)));
  });
}

const TICK_US = 1e6 / Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
/** User + system CPU time of a process so far, in µs. */
function cpuUs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_US;
}

const load = (url, options = {}) =>
  new Promise((resolve, reject) =>
    autocannon({ url, connections: 10, duration: DURATION, ...options }, (err, r) =>
      err ? reject(err) : resolve({ rps: r.requests.average, total: r.requests.total, non2xx: r.non2xx, errors: r.errors }),
    ),
  );

const bareScript =
  'const app = (await import("fastify")).default(); app.get("/plain", async () => ({ data: [{ id: "1", text: "hello" }] })); await app.listen({ port: 4523, host: "127.0.0.1" }); console.log("listening");';
const children = [
  await start(["generators/dist/cli.js", "mock", "--port", "4521", "--quiet"], before, /serving/),
  await start(["generators/dist/cli.js", "mock", "--port", "4522", "--quiet"], after, /serving/),
  await start(["--input-type=module", "-e", bareScript], after, /listening/),
];
const get = "/2/posts?ids=1,2&post.fields=id,text";
const post = "/2/posts/search/webhooks/1234567890";
const [beforePid, afterPid, barePid] = children.map((c) => c.pid);
const cases = [
  { name: "before GET", pid: beforePid, url: `http://127.0.0.1:4521${get}`, options: { headers: bearer } },
  { name: "after GET", pid: afterPid, url: `http://127.0.0.1:4522${get}`, options: { headers: bearer } },
  { name: "before POST", pid: beforePid, url: `http://127.0.0.1:4521${post}`, options: { method: "POST", headers: bearer } },
  { name: "after POST", pid: afterPid, url: `http://127.0.0.1:4522${post}`, options: { method: "POST", headers: bearer } },
  { name: "bare", pid: barePid, url: "http://127.0.0.1:4523/plain", options: {} },
];
const results = Object.fromEntries(cases.map((c) => [c.name, []]));
const cpu = Object.fromEntries(cases.map((c) => [c.name, []]));
try {
  // Warm-up: one short load per server, not counted.
  for (const c of cases) await new Promise((r) => autocannon({ url: c.url, connections: 10, duration: 2, ...c.options }, r));
  for (let round = 0; round < ROUNDS; round++) {
    const order = cases.map((_, i) => cases[(i + round) % cases.length]);
    for (const c of order) {
      const cpuBefore = cpuUs(c.pid);
      const r = await load(c.url, c.options);
      const perRequest = (cpuUs(c.pid) - cpuBefore) / r.total;
      if (r.non2xx > 0 || r.errors > 0) throw new Error(`${c.name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
      results[c.name].push(r.rps);
      cpu[c.name].push(Number(perRequest.toFixed(1)));
      process.stderr.write(`round ${round + 1} ${c.name}: ${r.rps} req/s, ${perRequest.toFixed(1)} µs CPU per request\n`);
    }
  }
} finally {
  for (const child of children) child.kill();
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const bare = median(results["bare"]);
const bareCpu = median(cpu["bare"]);
const rows = cases.map((c) => ({
  case: c.name,
  rps: median(results[c.name]),
  rpsXBare: Number((median(results[c.name]) / bare).toFixed(3)),
  cpuUsPerRequest: median(cpu[c.name]),
  // Throughput the CPU cost allows, relative to bare: bare's CPU per request over this case's.
  cpuXBare: Number((bareCpu / median(cpu[c.name])).toFixed(3)),
  rounds: results[c.name],
  cpuRounds: cpu[c.name],
}));
process.stdout.write(JSON.stringify({ duration: DURATION, rounds: ROUNDS, rows }, null, 2) + "\n");
