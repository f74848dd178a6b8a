#!/usr/bin/env node
// Which operations of a document got at least one valid request answered 2xx in a traced run
// (scripts/real-server/trace-fetch.mjs). A request counts as valid when the test that sent it sends
// valid requests: "answers valid request n", "accepts a request …" (edge values), the state sequences
// ("a → b → c") and update read-backs. Requests are matched to operations by method and path template.
//
//   node scripts/real-server/coverage.mjs <document.json|yaml> <trace.jsonl> [--json]
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const [docPath, tracePath, flag] = process.argv.slice(2);
if (!docPath || !tracePath) {
  console.error("usage: coverage.mjs <document> <trace.jsonl> [--json]");
  process.exit(3);
}
const require = createRequire(new URL("../../package.json", import.meta.url));
const text = readFileSync(docPath, "utf8");
const doc = /^\s*\{/.test(text) ? JSON.parse(text) : require("yaml").parse(text, { merge: true });
const base = (doc.basePath ?? new URL(doc.servers?.[0]?.url ?? "/", "http://x").pathname).replace(/\/+$/, "");
const methods = ["get", "put", "post", "delete", "patch", "head", "options"];
const ops = [];
for (const [path, item] of Object.entries(doc.paths ?? {})) {
  for (const m of methods) {
    const op = item?.[m];
    if (!op) continue;
    // A parameter is one path segment, except one named `path` (Jupyter's file paths hold slashes).
    const pattern = (base + path)
      .split(/(\{[^}]+\})/)
      .map((part) => (/^\{path\}$/.test(part) ? "(.+)" : /^\{.+\}$/.test(part) ? "([^/]+)" : part.replace(/[.*+?^$()|[\]\\]/g, "\\$&")))
      .join("");
    ops.push({
      id: op.operationId ?? `${m.toUpperCase()} ${path}`,
      method: m.toUpperCase(),
      path,
      literal: path.replace(/\{[^}]+\}/g, "").length,
      re: new RegExp(`^${pattern}$`),
      requests: 0,
      valid: 0,
      ok: 0,
      statuses: new Map(),
    });
  }
}
const valid = (test) => test !== undefined && (/: answers valid request \d+/.test(test) || /: accepts a request /.test(test) || test.includes(" → ") || /hold what the update sent/.test(test));
for (const line of readFileSync(tracePath, "utf8").split("\n")) {
  if (!line.trim()) continue;
  const r = JSON.parse(line);
  const path = decodeURIComponent(new URL(r.url).pathname);
  // The most literal template wins (/zones/{id}/export over /zones/{id} with a slash in the id).
  const op = ops.filter((o) => o.method === r.method && o.re.test(path)).sort((a, b) => b.literal - a.literal)[0];
  if (!op) continue;
  op.requests++;
  if (!valid(r.test)) continue;
  op.valid++;
  const key = r.status ?? r.error;
  op.statuses.set(key, (op.statuses.get(key) ?? 0) + 1);
  if (r.status >= 200 && r.status < 300) op.ok++;
}
const reached = ops.filter((o) => o.ok > 0).length;
if (flag === "--json") {
  console.log(
    JSON.stringify(
      {
        operations: ops.length,
        reached,
        list: ops.map((o) => ({ id: o.id, method: o.method, path: o.path, requests: o.requests, valid: o.valid, ok: o.ok, statuses: Object.fromEntries(o.statuses) })),
      },
      null,
      1,
    ),
  );
} else {
  for (const o of ops) {
    const st = [...o.statuses].map(([s, n]) => `${s}×${n}`).join(" ");
    console.log(`${o.ok > 0 ? "2xx" : "---"}  ${o.id.padEnd(34)} ${o.method.padEnd(6)} ${o.path}  valid ${o.valid}: ${st}`);
  }
  console.log(`${reached} of ${ops.length} operations (${Math.round((100 * reached) / ops.length)}%) had a valid request answered 2xx`);
}
