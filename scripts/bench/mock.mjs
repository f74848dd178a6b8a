// Mock server throughput and start-up, side by side with Prism on the same spec and a bare Fastify
// route, all on loopback with a bounded load (autocannon: fixed connections and duration).
// Prints JSON rows for run.mjs.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import Fastify from "fastify";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const DURATION = Number(process.env.BENCH_LOAD_SECONDS ?? 5);
const CONNECTIONS = 10;

function load(url, options = {}) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: DURATION, ...options }, (err, r) => {
      if (err) return reject(err);
      resolve({ rps: r.requests.average, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors });
    });
  });
}

/** Starts a command and resolves once a line matches `ready`, with the time it took. */
function startProcess(args, ready) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(args[0], args.slice(1), { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let log = "";
    const onData = (d) => {
      log += d.toString();
      if (ready.test(log)) resolve({ child, ms: performance.now() - started });
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code) => reject(new Error(`${args.join(" ")} exited ${code}:\n${log}`)));
  });
}

const rows = [];
const bearer = { authorization: "Bearer mock-bearer-token" };

// In-process start-up of the mock: create + ready, the three specs' plugins (median of 5).
{
  const { createMockServer } = await import("@devplatform/mock-server");
  const times = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const { app } = await createMockServer();
    await app.ready();
    times.push(performance.now() - t);
    await app.close();
  }
  times.sort((a, b) => a - b);
  rows.push({ kind: "startup", name: "contractgen mock: create + ready, three APIs, in process (median of 5)", ms: times[2] });
}

// contractgen mock as a process.
{
  const port = 4411;
  const { child, ms } = await startProcess([process.execPath, "generators/dist/cli.js", "mock", "--port", String(port), "--quiet"], /serving/);
  rows.push({ kind: "startup", name: "contractgen mock: process start until listening", ms });
  const base = `http://127.0.0.1:${port}`;
  rows.push({ kind: "load", name: "contractgen mock: GET /2/posts?ids=… (validated, bearer)", ...(await load(`${base}/2/posts?ids=1,2&post.fields=id,text`, { headers: bearer })) });
  rows.push({
    kind: "load",
    name: "contractgen mock: POST /2/posts/search/webhooks/{id} (validated, bearer)",
    ...(await load(`${base}/2/posts/search/webhooks/1234567890?post.fields=id,text`, { method: "POST", headers: bearer })),
  });
  child.kill();
}

// The same GET in process with development-mode reply validation off: how much of the cost is
// checking the mock's own answers against the contract.
{
  const { createMockServer } = await import("@devplatform/mock-server");
  const { app } = await createMockServer({ validateResponses: false });
  await app.listen({ port: 4414, host: "127.0.0.1" });
  rows.push({ kind: "load", name: "contractgen mock, reply validation off: GET /2/posts?ids=…", ...(await load("http://127.0.0.1:4414/2/posts?ids=1,2&post.fields=id,text", { headers: bearer })) });
  await app.close();
}

// Prism on the core spec.
{
  const port = 4412;
  const prism = path.join(root, "node_modules/@stoplight/prism-cli/dist/index.js");
  const { child, ms } = await startProcess([process.execPath, prism, "mock", "spec/core.yaml", "-p", String(port), "-h", "127.0.0.1"], /Prism is listening/);
  rows.push({ kind: "startup", name: "Prism 5 mock spec/core.yaml: process start until listening", ms });
  const base = `http://127.0.0.1:${port}`;
  rows.push({ kind: "load", name: "Prism: GET /2/posts?ids=…", ...(await load(`${base}/2/posts?ids=1,2&post.fields=id,text`, { headers: bearer })) });
  rows.push({
    kind: "load",
    name: "Prism: POST /2/posts/search/webhooks/{id}",
    ...(await load(`${base}/2/posts/search/webhooks/1234567890?post.fields=id,text`, { method: "POST", headers: bearer })),
  });
  child.kill();
}

// Bare Fastify: the ceiling on this machine.
{
  const app = Fastify();
  app.get("/plain", async () => ({ data: [{ id: "1", text: "hello" }] }));
  await app.listen({ port: 4413, host: "127.0.0.1" });
  rows.push({ kind: "load", name: "bare Fastify: GET /plain (no validation)", ...(await load("http://127.0.0.1:4413/plain")) });
  await app.close();
}

process.stdout.write(JSON.stringify({ rows, duration: DURATION, connections: CONNECTIONS }));
