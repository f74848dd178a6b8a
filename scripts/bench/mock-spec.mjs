#!/usr/bin/env node
// `contractgen mock --spec <document>` beside Prism (`prism mock`) and a bare Fastify server on the
// same document and routes: requests per second and server CPU per request, a GET by id, a list
// and a POST create, all on loopback under the same load. Prints JSON for run.mjs (the "Mock
// --spec beside Prism" section of docs/benchmarks.md); progress goes to stderr.
//
//   node scripts/bench/mock-spec.mjs [--docs=ads-campaigns,github] [--rounds=5] [--servers=contractgen,prism,prism-logging,fastify]
//     [--routes=read,list,create]
//   BENCH_LOAD_SECONDS (default 5): each load's duration
//   --before=<folder of another @contractgen/runtime build>: adds the server "contractgen-before", the same
//     generated package served on that runtime, interleaved with the others (an A/B of a runtime change)
//   BENCH_MOCK_NODE_ARGS: node options for the mock's process only (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof";
//   the mock writes its profile when stopped at the end of each round)
//
// Prism runs twice: with its logging off (`-v silent`, as the mock runs `--quiet`: its best case)
// and as `prism mock` runs by default (every request logged, to /dev/null here).
//
// Each server is its own process. The load is autocannon in this process, 10 connections, for the
// given seconds per route and round; a round loads every server on every route, the servers'
// order rotating per round; medians over the rounds. The mock keeps state, so it is started afresh
// each round and its create is loaded last (the objects a create load makes would otherwise be in
// the next list's answer); Prism and bare Fastify keep none and run for the whole document. Before
// each server's first measured load, every GET route gets a short load that is not counted. Beside
// requests per second, each server's CPU time is read from /proc around each load and divided by
// the requests it answered: on this shared machine throughput moves with the neighbours, CPU time
// per request far less.
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { load1, median } from "./measure.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const argv = process.argv.slice(2);
const option = (name, fallback) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const DURATION = Number(process.env.BENCH_LOAD_SECONDS ?? 5);
const WARMUP = 2;
const CONNECTIONS = 10;
const ROUNDS = Number(option("rounds", 5));
const SERVERS = ["contractgen", "contractgen-before", "prism", "prism-logging", "fastify"];
const before = option("before", undefined);
const servers = option("servers", SERVERS.filter((s) => s !== "contractgen-before" || before !== undefined).join(",")).split(",");
if (servers.includes("contractgen-before") && before === undefined) throw new Error("contractgen-before needs --before=<runtime folder>");
for (const s of servers) if (!SERVERS.includes(s)) throw new Error(`unknown server "${s}" (${SERVERS.join(", ")})`);
const mockNodeArgs = (process.env.BENCH_MOCK_NODE_ARGS ?? "").split(" ").filter(Boolean);
const prismCli = path.join(root, "node_modules/@stoplight/prism-cli/dist/index.js");
const cli = path.join(root, "generators/dist/cli.js");

/** The development OAuth 1.0a credentials the mock verifies signatures with (docs/mocking.md). */
const { signOAuth1 } = await import("@contractgen/runtime/oauth1");
const oauth1 = { consumerKey: "mock-api-key", consumerSecret: "mock-api-secret", token: "mock-access-token", tokenSecret: "mock-access-token-secret" };

/**
 * The documents and, per document, the three routes: `{id}` in a path is the key the read asks
 * for, taken from the mock's own list (Prism and Fastify answer any). `auth: "oauth1"` signs every
 * request (a fresh nonce each: the mock refuses a replay), for every server alike.
 */
const DOCUMENTS = {
  "ads-campaigns": {
    title: "spec/ads-campaigns.yaml (accounts; every request OAuth 1.0a signed)",
    spec: "spec/ads-campaigns.yaml",
    auth: "oauth1",
    routes: {
      read: { method: "GET", path: "/12/accounts/{id}" },
      list: { method: "GET", path: "/12/accounts" },
      create: { method: "POST", path: "/12/accounts" },
    },
    idOf: (list) => list.data[0].id,
  },
  github: {
    title: "GitHub REST (@octokit/openapi api.github.com.json, 13 MB; issues)",
    spec: "node_modules/@octokit/openapi/generated/api.github.com.json",
    routes: {
      read: { method: "GET", path: "/repos/octo-org/hello-world/issues/{id}" },
      list: { method: "GET", path: "/repos/octo-org/hello-world/issues" },
      create: { method: "POST", path: "/repos/octo-org/hello-world/issues", body: { title: "Found a bug", body: "It fails on start-up." } },
    },
    idOf: (list) => list[0].number,
  },
};
const ROUTES = ["read", "list", "create"];
const measured = option("routes", ROUTES.join(",")).split(",");
for (const r of measured) if (!ROUTES.includes(r)) throw new Error(`unknown route "${r}" (${ROUTES.join(", ")})`);
const docs = option("docs", Object.keys(DOCUMENTS).join(",")).split(",");
for (const d of docs) if (!DOCUMENTS[d]) throw new Error(`unknown document "${d}" (${Object.keys(DOCUMENTS).join(", ")})`);

const TICK_US = 1e6 / Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
/** User + system CPU time of a process so far, in µs (Linux). */
function cpuUs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_US;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Starts a process and resolves once `url` answers at all (any status), with the time it took. */
function start(args, url, timeoutS = 900) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "ignore", "pipe"] });
    let log = "";
    let done = false;
    child.stderr.on("data", (d) => (log = (log + d.toString()).slice(-4000)));
    child.on("exit", (code) => {
      if (!done) reject(new Error(`${args.join(" ")} exited ${code}:\n${log}`));
    });
    const poll = async () => {
      while (!done) {
        if (performance.now() - started > timeoutS * 1000) {
          child.kill();
          return reject(new Error(`${args.join(" ")}: not answering after ${timeoutS} s`));
        }
        try {
          await fetch(url, { signal: AbortSignal.timeout(30_000) });
          done = true;
          return resolve({ child, ms: performance.now() - started });
        } catch {
          await sleep(100);
        }
      }
    };
    void poll();
  });
}

const stop = (child) =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill();
  });

/** Headers of one request: a fresh OAuth 1.0a signature where the document asks for one. */
function headersFor(doc, method, url, route) {
  const h = route.body !== undefined ? { "content-type": "application/json" } : {};
  if (doc.auth === "oauth1") h.authorization = signOAuth1({ method, url, ...oauth1 }).authorization;
  return h;
}

/** One request with fetch, for set-up: the body parsed, the status checked. */
async function call(doc, base, route, pathname) {
  const url = `${base}${pathname}`;
  const r = await fetch(url, { method: route.method, headers: headersFor(doc, route.method, url, route), body: route.body !== undefined ? JSON.stringify(route.body) : undefined });
  const text = await r.text();
  if (r.status >= 300) throw new Error(`${route.method} ${url}: ${r.status} ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

/** A load of one route: requests per second, requests answered, non-2xx, errors, latency. */
function load(doc, base, route, pathname, seconds) {
  const body = route.body !== undefined ? JSON.stringify(route.body) : undefined;
  const request = { method: route.method, path: pathname, ...(body !== undefined ? { body } : {}) };
  // Signed requests are made one by one (autocannon re-renders a request whose setupRequest is set).
  const setupRequest = (req) => ({ ...req, headers: { ...req.headers, ...headersFor(doc, route.method, `${base}${pathname}`, route) } });
  return new Promise((resolve, reject) =>
    autocannon(
      {
        url: base,
        connections: CONNECTIONS,
        duration: seconds,
        requests: [{ ...request, ...(doc.auth ? { setupRequest } : { headers: headersFor(doc, route.method, base, route) }) }],
      },
      (err, r) => (err ? reject(err) : resolve({ rps: r.requests.average, total: r.requests.total, non2xx: r.non2xx, errors: r.errors + r.timeouts, p99: r.latency.p99 })),
    ),
  );
}

/** A bare Fastify server: one hand-written route per measured route, each answering a fixed body (the mock's own answer, so the same shape and size). */
function bareScript(doc, bodies, port) {
  const fastifyPath = (p) => p.replace(/\{id\}/g, ":id");
  const routes = ROUTES.map((name) => ({ method: doc.routes[name].method, url: fastifyPath(doc.routes[name].path), body: bodies[name], status: bodies.status[name] }));
  return `const app = (await import("fastify")).default();
for (const r of ${JSON.stringify(routes)}) app.route({ method: r.method, url: r.url, handler: async (request, reply) => reply.code(r.status).send(r.body) });
await app.listen({ port: ${port}, host: "127.0.0.1" });`;
}

/**
 * The package `contractgen mock --spec` generated for `spec` (generators/src/mock/source.ts names its
 * cache folders), copied with its transpiled modules into a folder whose @contractgen/runtime is
 * `runtime`: served as a package folder, it runs on that build.
 */
const made = [];
process.on("exit", () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function packageOn(spec, runtime) {
  const hash = (text) => createHash("sha256").update(text).digest("hex").slice(0, 16);
  const cache = path.join(root, "node_modules/.cache/contractgen/mock");
  const generated = path.join(cache, hash(spec));
  const out = mkdtempSync(path.join(os.tmpdir(), "cg-mock-before-"));
  made.push(out);
  for (const part of ["package.json", "contract.json", "src", "compiled"]) cpSync(path.join(generated, part), path.join(out, part), { recursive: true });
  cpSync(path.join(cache, "run", hash(generated), "dist"), path.join(out, "dist"), { recursive: true });
  // Newer than src/: served as built.
  const later = new Date(Date.now() + 60_000);
  for (const f of ["mocks.js", "server.js"]) utimesSync(path.join(out, "dist", f), later, later);
  for (const [name, target] of [
    ["@contractgen/runtime", path.resolve(runtime)],
    ["ajv", path.join(root, "node_modules/ajv")],
    ["ajv-formats", path.join(root, "node_modules/ajv-formats")],
  ]) {
    const at = path.join(out, "node_modules", name);
    mkdirSync(path.dirname(at), { recursive: true });
    symlinkSync(target, at, "dir");
  }
  return out;
}

const results = [];
let port = 4730;
for (const key of docs) {
  const doc = DOCUMENTS[key];
  const spec = path.join(root, doc.spec);
  const pathOf = (name, id) => doc.routes[name].path.replace("{id}", encodeURIComponent(String(id)));
  process.stderr.write(`\n${key}: ${doc.title}\n`);

  // The mock: the first start generates the package into the cache (not timed as start-up);
  // every later start is the warm one a user sees after the first.
  const mockPort = port++;
  const mockBase = `http://127.0.0.1:${mockPort}`;
  const mockArgs = [...mockNodeArgs, cli, "mock", "--spec", spec, "--port", String(mockPort), "--quiet"];
  let first = await start(mockArgs, mockBase);
  process.stderr.write(`  contractgen mock: first start (package generated if not cached) ${(first.ms / 1000).toFixed(1)} s\n`);
  // The bodies bare Fastify answers with: the mock's own answers on a fresh start.
  const list = await call(doc, mockBase, doc.routes.list, pathOf("list"));
  const id = doc.idOf(list);
  const bodies = { list, read: await call(doc, mockBase, doc.routes.read, pathOf("read", id)), status: {} };
  const created = await fetch(`${mockBase}${pathOf("create")}`, {
    method: doc.routes.create.method,
    headers: headersFor(doc, doc.routes.create.method, `${mockBase}${pathOf("create")}`, doc.routes.create),
    body: doc.routes.create.body !== undefined ? JSON.stringify(doc.routes.create.body) : undefined,
  });
  bodies.create = await created.json();
  bodies.status = { read: 200, list: 200, create: created.status };
  await stop(first.child);
  const sizes = Object.fromEntries(ROUTES.map((r) => [r, JSON.stringify(bodies[r]).length]));

  const prismPort = port++;
  const barePort = port++;
  const loggingPort = port++;
  const beforePort = port++;
  const argsOf = {
    contractgen: mockArgs,
    "contractgen-before": before === undefined ? [] : [...mockNodeArgs, cli, "mock", "--spec", packageOn(spec, before), "--port", String(beforePort), "--quiet"],
    // Logging off: the mock runs --quiet; Prism's default logs every request.
    prism: [prismCli, "mock", spec, "-p", String(prismPort), "-h", "127.0.0.1", "-v", "silent"],
    "prism-logging": [prismCli, "mock", spec, "-p", String(loggingPort), "-h", "127.0.0.1"],
    fastify: ["--input-type=module", "-e", bareScript(doc, bodies, barePort)],
  };
  const baseOf = {
    contractgen: mockBase,
    "contractgen-before": `http://127.0.0.1:${beforePort}`,
    prism: `http://127.0.0.1:${prismPort}`,
    "prism-logging": `http://127.0.0.1:${loggingPort}`,
    fastify: `http://127.0.0.1:${barePort}`,
  };
  const running = Object.fromEntries(servers.map((name) => [name, { base: baseOf[name], fresh: name.startsWith("contractgen"), startMs: [] }]));
  const startServer = async (name) => {
    const s = running[name];
    const started = await start(argsOf[name], s.base);
    s.child = started.child;
    s.startMs.push(started.ms);
    process.stderr.write(`  ${name}: listening after ${(started.ms / 1000).toFixed(1)} s\n`);
    // Warm-up, not counted: the GET routes (a create would leave objects behind in the mock).
    for (const r of ["read", "list"]) await load(doc, s.base, doc.routes[r], pathOf(r, id), WARMUP);
  };
  for (const name of servers) if (!running[name].fresh) await startServer(name);
  const samples = Object.fromEntries(servers.map((n) => [n, Object.fromEntries(measured.map((r) => [r, []]))]));
  const loads = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const order = servers.map((_, i) => servers[(i + round) % servers.length]);
      for (const name of order) {
        const s = running[name];
        if (s.fresh) await startServer(name);
        for (const r of measured) {
          const pid = s.child.pid;
          loads.push(load1());
          const cpuBefore = cpuUs(pid);
          const m = await load(doc, s.base, doc.routes[r], pathOf(r, id), DURATION);
          const cpuPerRequest = m.total > 0 ? (cpuUs(pid) - cpuBefore) / m.total : Number.NaN;
          samples[name][r].push({ ...m, cpuUs: cpuPerRequest });
          process.stderr.write(
            `  round ${round + 1} ${name.padEnd(11)} ${r.padEnd(6)} ${m.rps.toFixed(0).padStart(6)} req/s  ${cpuPerRequest.toFixed(0).padStart(6)} µs CPU/req  p99 ${m.p99} ms${m.non2xx || m.errors ? `  ${m.non2xx} non-2xx, ${m.errors} errors` : ""}\n`,
          );
        }
        if (s.fresh) await stop(s.child);
      }
    }
  } finally {
    for (const s of Object.values(running)) if (s.child) await stop(s.child);
  }
  const summary = Object.fromEntries(
    Object.entries(samples).map(([name, byRoute]) => [
      name,
      Object.fromEntries(
        Object.entries(byRoute).map(([r, xs]) => [
          r,
          {
            rps: median(xs.map((x) => x.rps)),
            cpuUs: median(xs.map((x) => x.cpuUs)),
            p99: median(xs.map((x) => x.p99)),
            rounds: xs.map((x) => Math.round(x.rps)),
            non2xx: xs.reduce((a, x) => a + x.non2xx, 0),
            errors: xs.reduce((a, x) => a + x.errors, 0),
            requests: xs.reduce((a, x) => a + x.total, 0),
          },
        ]),
      ),
    ]),
  );
  results.push({
    key,
    title: doc.title,
    routes: Object.fromEntries(ROUTES.map((r) => [r, `${doc.routes[r].method} ${doc.routes[r].path.replace("{id}", String(id))}`])),
    bodyBytes: sizes,
    startMs: Object.fromEntries(Object.entries(running).map(([n, s]) => [n, median(s.startMs)])),
    firstStartMs: first.ms,
    load: [Math.min(...loads), Math.max(...loads)],
    servers: summary,
  });
}

process.stdout.write(
  JSON.stringify(
    { duration: DURATION, warmup: WARMUP, connections: CONNECTIONS, rounds: ROUNDS, cores: os.cpus().length, cpu: os.cpus()[0]?.model ?? "cpu", node: process.version, documents: results },
    null,
    2,
  ) + "\n",
);
