#!/usr/bin/env node
// The README's commands on a clean clone, as a new user runs them: clone this repository's
// committed HEAD into a temporary folder (with ../shared beside it, as the repository expects),
// run the README's set-up command (`npm ci && npm run generate`), then every command of its "Use"
// block, each with what it needs around it (a receiver on :3000, the mock for `--base-url`, two
// documents for `diff`) and a time bound; the long-running ones (mock, mcp, --watch) are started,
// checked while they run, and stopped. A line of the block no entry below knows fails the run, so
// the README and this check stay in step. The slow proofs (`npm run bench`, `mutants`, `flakes`)
// are checked to exist, not run: each takes many minutes and has its own report in docs/.
//
//   npm run readme:commands            # exit 0 when every command behaves as the README says
//   KEEP=1 npm run readme:commands     # keep the clone (its path is printed) to look around
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const work = mkdtempSync(path.join(os.tmpdir(), "cg-readme-"));
const clone = path.join(work, "contractgen");
// The mock's development credentials (contractgen mock prints them), for the `test --base-url` lines:
// a CI job gives its server's the same way (CONTRACT_AUTH, read like --auth; docs/contract-testing.md).
const MOCK_AUTH = JSON.stringify({
  bearer: "mock-bearer-token",
  basic: { username: "mock-api-key", password: "mock-api-secret" },
  oauth1: { consumerKey: "mock-api-key", consumerSecret: "mock-api-secret", token: "mock-access-token", tokenSecret: "mock-access-token-secret" },
});
const env = { ...process.env, npm_config_fund: "false", npm_config_audit: "false", NO_COLOR: "1", FORCE_COLOR: "0", CONTRACT_AUTH: MOCK_AUTH };
const results = [];

function log(line) {
  process.stdout.write(`${line}\n`);
}

/** Runs to completion within `seconds`; returns { code, out, ms }. */
function run(command, { cwd = clone, seconds = 300 } = {}) {
  const started = performance.now();
  const r = spawnSync("bash", ["-c", command], { cwd, env, encoding: "utf8", timeout: seconds * 1000, maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status ?? (r.signal ? `killed by ${r.signal} after ${seconds} s` : "?"), out: `${r.stdout}${r.stderr}`, ms: performance.now() - started };
}

/** Starts a long-running command; `until` resolves when its output matches (or rejects after `seconds`). */
function start(command, { cwd = clone, stdin = "ignore" } = {}) {
  const child = spawn("bash", ["-c", `exec ${command}`], { cwd, env, stdio: [stdin, "pipe", "pipe"], detached: true });
  let out = "";
  const waiters = [];
  const feed = (d) => {
    out += d.toString();
    for (const w of [...waiters]) if (w.pattern.test(out)) w.resolve(out.match(w.pattern));
  };
  child.stdout.on("data", feed);
  child.stderr.on("data", feed);
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve(code ?? signal)));
  return {
    child,
    output: () => out,
    exited,
    until(pattern, seconds) {
      if (pattern.test(out)) return Promise.resolve(out.match(pattern));
      return new Promise((resolve, reject) => {
        const w = { pattern, resolve };
        waiters.push(w);
        setTimeout(() => reject(new Error(`no ${pattern} within ${seconds} s; output:\n${out.slice(-2000)}`)), seconds * 1000).unref();
        void exited.then((code) => reject(new Error(`exited (${code}) before ${pattern}; output:\n${out.slice(-2000)}`)));
      });
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      process.kill(-child.pid, "SIGINT");
      const timer = setTimeout(() => process.kill(-child.pid, "SIGKILL"), 10_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

function freePort(port) {
  return new Promise((resolve) => {
    const s = createServer();
    s.once("error", () => resolve(false));
    s.listen(port, "127.0.0.1", () => s.close(() => resolve(true)));
  });
}

function record(line, ok, detail) {
  results.push({ line, ok, detail });
  log(`${ok ? "ok  " : "FAIL"} ${line}${detail ? `\n     ${detail.split("\n").join("\n     ")}` : ""}`);
}

function expectExit(line, r, codes, pattern) {
  const ok = codes.includes(r.code) && (pattern === undefined || pattern.test(r.out));
  record(
    line,
    ok,
    `${ok ? "" : `exit ${r.code}, wanted ${codes.join(" or ")}${pattern ? ` and output matching ${pattern}` : ""}\n${r.out.slice(-1500)}`}${ok ? `exit ${r.code}, ${(r.ms / 1000).toFixed(1)} s` : ""}`,
  );
}

// A receiver for core's deliveries (the generated one, every handler acknowledging), for the lines
// that name http://127.0.0.1:3000.
const RECEIVER = `
import Fastify from "fastify";
import { coreReceiver } from "@devplatform/core/receiver";
const ack = () => undefined;
const all = new Proxy({}, { get: () => ack, has: () => true, getOwnPropertyDescriptor: () => ({ value: ack, enumerable: true, configurable: true }) });
const app = Fastify();
await app.register(coreReceiver, { handlers: { filteredStreamPost: ack, accountActivityEvent: ack, activityEvent: all } });
const url = await app.listen({ host: "127.0.0.1", port: Number(process.env.PORT) });
process.stderr.write("receiver at " + url + "\\n");
`;

/** MCP over stdio: initialize, list the tools, and read the answers. */
async function mcpSession(proc) {
  const send = (msg) => proc.child.stdin.write(`${JSON.stringify(msg)}\n`);
  send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "readme-check", version: "0" } } });
  await proc.until(/"id":1/, 60);
  send({ jsonrpc: "2.0", method: "notifications/initialized" });
  send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
  const m = await proc.until(/\{"result":\{"tools":\[.*"id":2\}|"id":2.*"tools":\[/, 60);
  proc.child.stdin.end();
  return m[0];
}

/** Each line of the README's "Use" block: how to run it here and what must hold. */
const HANDLERS = [
  [/^npx contractgen generate$/, (line) => expectExit(line, run(line), [0], /unchanged|updated/)],
  [
    /^npx contractgen generate api\.yaml --out gen\/api$/,
    (line) => {
      // Any document: core's own bundled contract, a single file.
      copyFileSync(path.join(clone, "packages/core/contract.json"), path.join(clone, "api.yaml"));
      const r = run(line);
      expectExit(line, r, [0]);
      if (!existsSync(path.join(clone, "gen/api/src/client.ts"))) record(`${line} (writes gen/api/src/client.ts)`, false, "missing");
    },
  ],
  [
    /^npx contractgen generate --watch$/,
    async (line) => {
      const p = start(line);
      try {
        await p.until(/watching for changes/, 120);
        // An edit is regenerated: touch a spec (no change to its text: the run finds nothing to write).
        const spec = path.join(clone, "spec/core.yaml");
        writeFileSync(spec, readFileSync(spec));
        const before = (p.output().match(/watching for changes/g) ?? []).length;
        await p.until(new RegExp(`(?:[\\s\\S]*watching for changes){${before + 1}}`), 120);
        record(line, true, "watched, regenerated after a save, stopped with SIGINT");
      } catch (e) {
        record(line, false, e.message);
      } finally {
        await p.stop();
      }
    },
  ],
  [
    /^npx contractgen generate api\.yaml --out src\/api --layout sources$/,
    (line) => {
      const r = run(line);
      expectExit(line, r, [0]);
      if (!existsSync(path.join(clone, "src/api/client.ts")) || !existsSync(path.join(clone, "src/api/compiled/client.tables.ts")))
        record(`${line} (writes src/api/client.ts and compiled/*.ts)`, false, "missing");
    },
  ],
  [/^npx contractgen check$/, (line) => expectExit(line, run(line), [0])],
  [/^npx contractgen test --base-url https:\/\/staging…$/, async (line, ctx) => expectExit(line, run(line.replace("https://staging…", await ctx.mockUrl()), { seconds: 600 }), [0], /passed/)],
  [/^npx contractgen test --spec api\.yaml --base-url …$/, async (line, ctx) => expectExit(line, run(line.replace("…", await ctx.mockUrl()), { seconds: 600 }), [0], /passed/)],
  [
    /^npx contractgen test --receiver http:\/\/127\.0\.0\.1:3000$/,
    async (line, ctx) => {
      const url = await ctx.receiverUrl();
      expectExit(line, run(line.replace("http://127.0.0.1:3000", url), { seconds: 300 }), [0]);
    },
  ],
  [
    /^npx contractgen mock$/,
    async (line, ctx) => {
      await ctx.stopMock();
      if (!(await freePort(4010))) return record(line, false, "port 4010 is taken on this machine: stop what listens there");
      const p = start(line);
      try {
        const [, url] = await p.until(/serving .* at (http:\/\/\S+)/, 120);
        const res = await fetch(`${url}/2/posts?ids=1`, { headers: { authorization: "Bearer mock-bearer-token" } });
        record(line, res.status === 200, `served at ${url}; GET /2/posts?ids=1 → ${res.status}`);
      } catch (e) {
        record(line, false, e.message);
      } finally {
        await p.stop();
      }
    },
  ],
  [
    /^npx contractgen mock --spec api\.yaml$/,
    async (line, ctx) => {
      await ctx.stopMock();
      // Any document: core's own bundled contract, a single file (as for generate api.yaml).
      copyFileSync(path.join(clone, "packages/core/contract.json"), path.join(clone, "api.yaml"));
      if (!(await freePort(4010))) return record(line, false, "port 4010 is taken on this machine: stop what listens there");
      const p = start(line);
      try {
        const [, url] = await p.until(/serving .* at (http:\/\/\S+): \d+ operation/, 300);
        const ok = await fetch(`${url}/2/posts?ids=1`, { headers: { authorization: "Bearer mock-bearer-token" } });
        const bad = await fetch(`${url}/2/posts?ids=abc`, { headers: { authorization: "Bearer mock-bearer-token" } });
        const named = (await bad.text()).includes("ids");
        record(line, ok.status === 200 && bad.status === 400 && named, `served at ${url}; GET /2/posts?ids=1 → ${ok.status}; ?ids=abc → ${bad.status}${named ? " naming ids" : " not naming ids"}`);
      } catch (e) {
        record(line, false, e.message);
      } finally {
        await p.stop();
      }
    },
  ],
  [
    /^npx contractgen mock --deliver-to http:\/\/127\.0\.0\.1:3000$/,
    async (line, ctx) => {
      const url = await ctx.receiverUrl();
      if (!(await freePort(4010))) return record(line, false, "port 4010 is taken on this machine");
      const p = start(line.replace("http://127.0.0.1:3000", url));
      try {
        await p.until(/delivered [^\n]+: 2\d\d/, 120);
        const failed = /delivered [^\n]+: (?!2\d\d)/.test(p.output());
        record(line, !failed, failed ? p.output().slice(-1500) : "deliveries sent and acknowledged");
      } catch (e) {
        record(line, false, e.message);
      } finally {
        await p.stop();
      }
    },
  ],
  [
    /^npx contractgen mcp --spec core$/,
    async (line) => {
      const p = start(line, { stdin: "pipe" });
      try {
        const answer = await mcpSession(p);
        const tools = (answer.match(/"name":"/g) ?? []).length;
        record(line, tools > 0, `${tools} tool(s) listed over stdio`);
      } catch (e) {
        record(line, false, e.message);
      } finally {
        await p.stop();
      }
    },
  ],
  [
    /^npx contractgen diff old\.yaml new\.yaml$/,
    (line) => {
      const doc = JSON.parse(readFileSync(path.join(clone, "packages/core/contract.json"), "utf8"));
      writeFileSync(path.join(clone, "old.yaml"), JSON.stringify(doc));
      doc.info.description = `${doc.info.description ?? ""} (edited)`;
      writeFileSync(path.join(clone, "new.yaml"), JSON.stringify(doc));
      expectExit(line, run(line), [0], /patch/i);
    },
  ],
  [/^npx contractgen scaffold spec\/core\.yaml --out servers\/core$/, (line) => expectExit(line, run(line), [0])],
  [/^npx contractgen scaffold … --check$/, (line) => expectExit(line, run(line.replace("…", "spec/core.yaml --out servers/core")), [0])],
  [
    /^npx contractgen init$/,
    (line) => {
      // This repository has its config: init refuses to overwrite it (exit 3) and says so.
      expectExit(`${line} (in the repository)`, run(line), [3], /exists already/);
      // In a project without one, it writes one listing the specs of spec/.
      const fresh = path.join(work, "fresh");
      run(`mkdir -p ${fresh}/spec && cp ${clone}/packages/core/contract.json ${fresh}/spec/api.json`);
      expectExit(`${line} (in a new project)`, run(`node ${clone}/generators/bin/contractgen.js init`, { cwd: fresh }), [0], /1 spec/);
    },
  ],
  [
    /^npm run (bench|bench:profile|bench:watch|mutants|flakes|readme:commands|release:registry|directions:compare|check:style)$/,
    (line) => {
      const name = line.replace(/^npm run /, "");
      const scripts = JSON.parse(readFileSync(path.join(clone, "package.json"), "utf8")).scripts ?? {};
      record(
        `${line} (exists; not run here: a slow proof, this check itself, or the style check that waits for the lead's formatting pass)`,
        typeof scripts[name] === "string",
        scripts[name] ?? "no such script",
      );
    },
  ],
  [
    /^npm run test:browser$/,
    (line) => {
      // Without a Chromium executable the test fails (not skips) and says which it looked for.
      const r = run(line, { seconds: 300 });
      const missing = /no Chromium executable|CHROMIUM_PATH=.* is not an executable file/.test(r.out);
      expectExit(line, r, missing ? [1] : [0], missing ? undefined : /5 passed/);
    },
  ],
  [
    /^scripts\/real-server\/alertmanager\.sh$/,
    (line) => {
      // Without an Alertmanager binary the script says how to get one and exits 3; with one, it runs the suite.
      const r = run(line, { seconds: 600 });
      expectExit(line, r, r.out.includes("no Alertmanager binary") ? [3] : [0]);
    },
  ],
];

function useBlock(readme) {
  const at = readme.indexOf("## Use");
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(at));
  if (at < 0 || !block) throw new Error("README.md has no ## Use block");
  return block[1]
    .split("\n")
    .map((l) => l.replace(/\s+#.*$/, "").trim())
    .filter((l) => l !== "");
}

async function main() {
  log(`clone → ${clone}`);
  const cloned = run(`git clone --quiet ${JSON.stringify(repo)} ${JSON.stringify(clone)}`, { cwd: work, seconds: 120 });
  if (cloned.code !== 0) throw new Error(cloned.out);
  const shared = path.resolve(repo, "../shared");
  if (existsSync(shared)) symlinkSync(shared, path.join(work, "shared"), "dir");

  const setup = run("npm ci --no-audit --no-fund && npm run generate", { seconds: 900 });
  expectExit("npm ci && npm run generate", setup, [0]);
  if (setup.code !== 0) return;

  let mock;
  let receiver;
  const ctx = {
    async mockUrl() {
      if (!mock) {
        mock = start("node generators/bin/contractgen.js mock --port 0 --quiet");
        const [, url] = await mock.until(/serving .* at (http:\/\/\S+)/, 120);
        mock.url = url;
      }
      return mock.url;
    },
    async stopMock() {
      await mock?.stop();
      mock = undefined;
    },
    async receiverUrl() {
      if (!receiver) {
        // The README names :3000; on a machine where it is taken, any free port stands in.
        const port = (await freePort(3000)) ? 3000 : 0;
        writeFileSync(path.join(clone, "receiver.mjs"), RECEIVER);
        receiver = start(`env PORT=${port} node receiver.mjs`, { cwd: clone });
        const [, url] = await receiver.until(/receiver at (http:\/\/\S+)/, 60);
        receiver.url = url;
      }
      return receiver.url;
    },
  };
  try {
    for (const line of useBlock(readFileSync(path.join(clone, "README.md"), "utf8"))) {
      const handler = HANDLERS.find(([pattern]) => pattern.test(line));
      if (!handler) {
        record(line, false, "no entry in scripts/readme-commands.mjs: add one saying how to run this line and what must hold");
        continue;
      }
      try {
        await handler[1](line, ctx);
      } catch (e) {
        record(line, false, e.stack ?? String(e));
      }
    }
  } finally {
    await mock?.stop();
    await receiver?.stop();
  }
}

try {
  await main();
} catch (e) {
  record("set-up", false, e.stack ?? String(e));
}
const failed = results.filter((r) => !r.ok).length;
log(`\nREADME commands: ${results.length - failed} passed, ${failed} failed`);
if (process.env.KEEP) log(`kept ${work}`);
else rmSync(work, { recursive: true, force: true });
process.exitCode = failed === 0 ? 0 : 1;
