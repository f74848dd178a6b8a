/**
 * Every script under scripts/ parses: the bench and corpus scripts run by hand (not in CI), so a
 * syntax error in one (an unescaped backtick in a template literal) otherwise surfaces only when
 * someone runs it.
 */
import { describe, expect, it } from "vitest";
import { execFileSync, spawnSync } from "node:child_process";
import { ROOT } from "../generator/helpers.js";

const scripts = execFileSync("git", ["ls-files", "scripts/*.mjs", "scripts/**/*.mjs"], { cwd: ROOT, encoding: "utf8" }).split("\n").filter(Boolean);

describe("scripts", () => {
  it("are found", () => {
    expect(scripts.length).toBeGreaterThan(10);
  });

  it.each(scripts)("%s parses", (file) => {
    const r = spawnSync(process.execPath, ["--check", file], { cwd: ROOT, encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });
});
