#!/usr/bin/env node
// Builds every workspace package under packages/ with its own tsconfig (tsc → dist/ with
// declarations and source maps), in dependency order: a package builds once the workspace packages
// it depends on have. Independent packages build two at a time: this machine class has two cores.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const tsc = path.join(root, "node_modules/typescript/bin/tsc");
const packagesDir = path.join(root, "packages");
const names = existsSync(packagesDir)
  ? readdirSync(packagesDir)
      .filter((n) => existsSync(path.join(packagesDir, n, "tsconfig.json")))
      .sort()
  : [];
const byPackageName = new Map(names.map((n) => [JSON.parse(readFileSync(path.join(packagesDir, n, "package.json"), "utf8")).name, n]));
const needs = new Map(
  names.map((n) => {
    const pkg = JSON.parse(readFileSync(path.join(packagesDir, n, "package.json"), "utf8"));
    const deps = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies, ...pkg.peerDependencies });
    return [n, deps.map((d) => byPackageName.get(d)).filter((d) => d !== undefined && d !== n)];
  }),
);

function build(name) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [tsc, "-p", path.join(packagesDir, name)], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (code) => {
      process.stderr.write(`build ${name.padEnd(16)} ${code === 0 ? "ok" : "FAILED"} ${(performance.now() - started).toFixed(0)} ms\n`);
      if (code !== 0) process.stderr.write(out);
      resolve(code === 0);
    });
  });
}

async function pool(list, size) {
  const results = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(size, list.length) }, async () => {
      while (next < list.length) results.push(await build(list[next++]));
    }),
  );
  return results.every(Boolean);
}

// Waves: every package whose workspace dependencies are built joins the next wave.
const done = new Set();
let ok = true;
while (ok && done.size < names.length) {
  const wave = names.filter((n) => !done.has(n) && needs.get(n).every((d) => done.has(d)));
  if (wave.length === 0) {
    process.stderr.write(`build: dependency cycle among ${names.filter((n) => !done.has(n)).join(", ")}\n`);
    ok = false;
    break;
  }
  ok = await pool(wave, 2);
  for (const n of wave) done.add(n);
}
process.exitCode = ok ? 0 : 1;
