import type { ContentCache } from "../../generators/dist/write/content-cache.js";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const CLI = path.join(ROOT, "generators/dist/cli.js");
export const TSC = path.join(ROOT, "node_modules/typescript/bin/tsc");
export const FIXTURES = path.join(ROOT, "test/fixtures");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI as a user would. */
export function runCli(args: readonly string[], cwd: string = ROOT): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, NO_COLOR: "1" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

export function tmpDir(prefix = "cg-"): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A fresh folder under the workspace's `.tmp/`, where generated code resolves the workspace's packages. */
export function workspaceTmpDir(prefix = "cg-"): string {
  const base = path.join(ROOT, ".tmp");
  mkdirSync(base, { recursive: true });
  return mkdtempSync(path.join(base, prefix));
}

/** Type-checks a project folder with the workspace's TypeScript; returns the diagnostics. */
export function typecheck(project: string): { ok: boolean; output: string } {
  // GitHub's whole package (types, receiver for 270 webhooks, MCP tools, conformance) needs more than
  // tsc's default 4 GB heap since the receiver and MCP modules landed; the machine has 24 GB.
  const r = spawnSync(process.execPath, ["--max-old-space-size=8192", TSC, "-p", project, "--noEmit"], { encoding: "utf8" });
  return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
}

/** Every file under `dir` with its contents, for before/after comparisons. */
export function snapshotTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = path.join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[path.relative(dir, p)] = readFileSync(p, "utf8");
    }
  };
  walk(dir);
  return out;
}

/** A content cache in memory that counts its misses: how many items a step had to compute. */
export function countingCache(): ContentCache & { misses: number } {
  const entries = new Map<string, string>();
  const cache = {
    misses: 0,
    get: (k: string) => {
      const v = entries.get(k);
      if (v === undefined) cache.misses++;
      return v;
    },
    set: (k: string, v: string) => void entries.set(k, v),
  };
  return cache;
}
