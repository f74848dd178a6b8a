/**
 * No committed file names a place on one machine: a path such as a home folder or a work folder
 * works there only, and says something about the machine it came from. Generated output already
 * holds no absolute path (the generator's rule); this holds every tracked file to the same.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../generator/helpers.js";

/**
 * Absolute paths that belong to one machine: a user's home folder (Linux, macOS or Windows), root's
 * home, or a top-level work folder. A JSON pointer such as `/home/city` has no folder after the
 * user's name and is not one. The brackets, and the examples below built from pieces, keep this file
 * from matching itself.
 */
export const MACHINE_PATH = /(?<![\w~.$-])(?:\/wor[k]\/|\/hom[e]\/[\w.-]+\/|\/User[s]\/[\w.-]+\/|\/roo[t]\/|[A-Za-z]:\\User[s]\\)/;

function trackedFiles(): string[] {
  const r = spawnSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ls-files failed: ${r.stderr}`);
  return r.stdout.split("\0").filter((f) => f !== "");
}

describe("committed files", () => {
  it("recognises a machine's path and leaves JSON pointers and relative paths alone", () => {
    const slash = "/";
    expect(MACHINE_PATH.test(`find ${slash}work${slash}main/packages -name x`)).toBe(true);
    expect(MACHINE_PATH.test(`import("${slash}home${slash}dev/project/x.js")`)).toBe(true);
    expect(MACHINE_PATH.test(["C:", "Users", "dev", "x"].join("\\"))).toBe(true);
    expect(MACHINE_PATH.test('["/home/city", "type"]')).toBe(false);
    expect(MACHINE_PATH.test("cd ~/work/alertmanager")).toBe(false);
    expect(MACHINE_PATH.test("../shared/work/x")).toBe(false);
  });

  it("hold no absolute path of a machine", () => {
    const hits: string[] = [];
    for (const file of trackedFiles()) {
      let text: string;
      try {
        text = readFileSync(path.join(ROOT, file), "utf8");
      } catch {
        continue; // a tracked file deleted in the work tree
      }
      if (text.includes("\0")) continue; // binary
      text.split("\n").forEach((line, i) => {
        if (MACHINE_PATH.test(line)) hits.push(`${file}:${i + 1}: ${line.trim().slice(0, 160)}`);
      });
    }
    expect(hits).toEqual([]);
  });
});
