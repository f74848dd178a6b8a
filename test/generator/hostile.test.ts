import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { FIXTURES, TSC, runCli, workspaceTmpDir } from "./helpers.js";

// The fixture's strings try to run `globalThis.pwned = …` from every place a spec string can reach
// generated code: title, descriptions, summaries, operationIds, schema and property names, enum
// values and examples, with quotes, backticks, `*/`, `${…}`, newlines and U+2028/U+2029.
describe("hostile spec strings", () => {
  it("generate code that compiles under strict tsc and runs without executing any of them", async () => {
    const out = path.join(workspaceTmpDir(), "hostile");
    const r = await runCli(["generate", path.join(FIXTURES, "hostile/openapi.yaml"), "--out", out, "--name", "@t/hostile"]);
    expect(r.stderr).not.toContain("error");
    expect(r.code).toBe(0);

    const build = spawnSync(process.execPath, [TSC, "-p", out], { encoding: "utf8" });
    expect(build.stdout + build.stderr).toBe("");
    expect(build.status).toBe(0);

    const g = globalThis as Record<string, unknown>;
    delete g["pwned"];
    const mod = (await import(pathToFileURL(path.join(out, "dist/index.js")).href)) as {
      operationList: { operationId: string; path: string }[];
    };
    expect(g["pwned"]).toBeUndefined();
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    // Strings arrive intact, not mangled into something "safe".
    expect(mod.operationList.map((o) => o.operationId)).toEqual(["delete", "class", "constructor", "__proto__", "\"; globalThis.pwned = 'operationId'; \"", "getNoidByIdX"]);
    expect(mod.operationList[0]?.path).toBe("/things/{thing id}");
  });

  it("keep every comment closed: no spec text ends a JSDoc block early", async () => {
    const out = path.join(workspaceTmpDir(), "hostile");
    await runCli(["generate", path.join(FIXTURES, "hostile/openapi.yaml"), "--out", out, "--name", "@t/hostile"]);
    for (const file of ["compiled/types.d.ts", "src/operations.ts"]) {
      const text = readFileSync(path.join(out, file), "utf8");
      // Every `globalThis.pwned` in the output sits inside a string literal or a comment.
      const withoutComments = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/[^\n]*/g, "");
      const withoutStrings = withoutComments.replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, '""');
      expect(withoutStrings).not.toContain("pwned");
    }
  });
});
