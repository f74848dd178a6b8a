// @ts-check
/**
 * A private build of the mock server: a copy of packages/mock-server under .tmp/mutants/<name>/
 * (inside the repository, so its imports resolve through the workspace's node_modules), built
 * with tsc as `npm run build` builds the real one. The real package is only read, never edited.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { MOCK_DIR, ROOT, applyMutant } from "./patch.mjs";
import { run } from "./processes.mjs";

const TSC = path.join(ROOT, "node_modules/typescript/bin/tsc");
export const SLOTS_DIR = path.join(ROOT, ".tmp/mutants");

export class Slot {
  /** @param {string} name */
  constructor(name) {
    this.dir = path.join(SLOTS_DIR, name);
    rmSync(this.dir, { recursive: true, force: true });
    mkdirSync(this.dir, { recursive: true });
    for (const f of ["package.json", "tsconfig.json"]) cpSync(path.join(MOCK_DIR, f), path.join(this.dir, f));
    cpSync(path.join(MOCK_DIR, "src"), path.join(this.dir, "src"), { recursive: true });
    /** @type {string | undefined} the file the current mutant changed, to restore before the next */
    this.changed = undefined;
    this.entry = path.join(this.dir, "dist/index.js");
  }

  /**
   * Puts the slot's source in the state of `mutant` (undefined: the unmutated source) and builds it.
   * @param {import("./catalogue.d.mts").Mutant | undefined} mutant
   * @returns {Promise<{ ok: true } | { ok: false; reason: string }>}
   */
  async build(mutant) {
    if (this.changed !== undefined) {
      writeFileSync(path.join(this.dir, this.changed), readFileSync(path.join(MOCK_DIR, this.changed), "utf8"));
      this.changed = undefined;
    }
    if (mutant) {
      writeFileSync(path.join(this.dir, mutant.file), applyMutant(readFileSync(path.join(MOCK_DIR, mutant.file), "utf8"), mutant));
      this.changed = mutant.file;
    }
    // Incremental: between two mutants only one file differs, so most of the check is reused.
    const r = await run(process.execPath, [TSC, "-p", this.dir, "--incremental", "--tsBuildInfoFile", path.join(this.dir, "build.tsbuildinfo")], { cwd: ROOT, timeoutMs: 300_000 });
    if (r.code === 0) return { ok: true };
    // A realistic bug compiles: one that does not is a broken mutant, not a kill.
    return { ok: false, reason: r.timedOut ? "tsc timed out" : `does not compile: ${r.output.trim().split("\n").slice(0, 3).join(" | ")}` };
  }
}
