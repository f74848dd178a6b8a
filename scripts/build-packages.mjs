#!/usr/bin/env node
// Builds every workspace package under packages/ with its own tsconfig (tsc → dist/ with
// declarations and source maps). Packages build in parallel, two at a time: this machine class has
// two cores.
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const tsc = path.join(root, "node_modules/typescript/bin/tsc");
const packagesDir = path.join(root, "packages");
// The runtime is imported by generated packages, so it builds first.
const names = existsSync(packagesDir) ? readdirSync(packagesDir).filter((n) => existsSync(path.join(packagesDir, n, "tsconfig.json"))).sort() : [];
const first = names.filter((n) => n === "runtime");
const rest = names.filter((n) => n !== "runtime");

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

const ok = (await pool(first, 1)) && (await pool(rest, 2));
process.exitCode = ok ? 0 : 1;
