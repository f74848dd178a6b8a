import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { FIXTURES, ROOT, TSC, runCli, workspaceTmpDir, type CliResult } from "../generator/helpers.js";

export const PETS_V1 = path.join(FIXTURES, "scaffold/pets-v1.yaml");
export const PETS_V2 = path.join(FIXTURES, "scaffold/pets-v2.yaml");

/** A workspace folder holding `pets.yaml` (a copy of `spec`) and the project folder `server/`. */
export function petsWorkspace(spec = PETS_V1): { dir: string; spec: string; server: string } {
  const dir = workspaceTmpDir("scaffold-");
  copyFileSync(spec, path.join(dir, "pets.yaml"));
  return { dir, spec: path.join(dir, "pets.yaml"), server: path.join(dir, "server") };
}

/** Replaces the spec the project was scaffolded from (the contract changed). */
export function changeSpec(ws: { spec: string }, to: string): void {
  copyFileSync(to, ws.spec);
}

export function scaffold(ws: { dir: string }, ...args: string[]): Promise<CliResult> {
  return runCli(["scaffold", "pets.yaml", "--out", "server", ...args], ws.dir);
}

/** What `npm install` does for the `file:./contract` dependency: a link in node_modules. */
export function linkContract(server: string, name = "pets"): void {
  mkdirSync(path.join(server, "node_modules"), { recursive: true });
  try {
    symlinkSync("../contract", path.join(server, "node_modules", name), "dir");
  } catch {
    // Already linked by an earlier step of the same test.
  }
}

/** Runs tsc as the project's build does; returns the diagnostics (empty when it compiles). */
export function tsc(project: string, emit = true): { ok: boolean; output: string } {
  const r = spawnSync(process.execPath, [TSC, "-p", project, ...(emit ? [] : ["--noEmit"])], { encoding: "utf8" });
  return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
}

/** True when `small`'s lines appear in `big` in the same order (nothing the user wrote is lost or moved). */
export function keepsEveryLine(small: string, big: string): boolean {
  const want = small.split("\n");
  let i = 0;
  for (const line of big.split("\n")) if (i < want.length && line === want[i]) i++;
  return i === want.length;
}

export { ROOT };
