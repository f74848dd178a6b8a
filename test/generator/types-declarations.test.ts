import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync, appendFileSync } from "node:fs";
import path from "node:path";
import { generate } from "../../generators/dist/index.js";
import type { Reporter, Target } from "../../generators/dist/index.js";
import { FIXTURES, ROOT, TSC, workspaceTmpDir } from "./helpers.js";

// A package's types ship as compiled/types.d.ts, re-exported by src/types.ts; the client's types
// (options, arguments, results, the client's interface) as compiled/client.types.d.ts, re-exported
// by src/client.ts; the server's (inputs, replies, the handlers' interface) as
// compiled/server.types.d.ts, re-exported by src/server.ts. A consumer's `skipLibCheck` (and the
// package's own tsconfig) skips declaration files, so an error in them would reach nobody: these
// tests check the declarations on their own with skipLibCheck off.
const DECLARATIONS = ["compiled/types.d.ts", "compiled/client.types.d.ts", "compiled/server.types.d.ts"];
const quiet: Reporter = { step() {}, info() {}, debug() {} };

/** tsc over the given declaration files alone, strict, every declaration file checked. */
function checkDeclarations(dir: string, files: readonly string[]): { status: number | null; output: string } {
  const config = {
    compilerOptions: {
      strict: true,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      skipLibCheck: false,
      noEmit: true,
      target: "ES2022",
      lib: ["ES2023", "DOM"],
      module: "NodeNext",
      moduleResolution: "NodeNext",
      types: [],
    },
    files,
  };
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(config));
  const r = spawnSync(process.execPath, [TSC, "-p", dir, "--pretty", "false"], { encoding: "utf8" });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe("the declaration files of a package (compiled/types.d.ts, client.types.d.ts, server.types.d.ts)", () => {
  it("has no type errors for the repository's packages, the construct fixtures and the hostile spec", async () => {
    const dir = workspaceTmpDir("types-dts-");
    const specs = [
      ...readdirSync(path.join(FIXTURES, "constructs"))
        .filter((f) => f.endsWith(".yaml") && !f.startsWith("invalid"))
        .map((f) => path.join(FIXTURES, "constructs", f)),
      path.join(FIXTURES, "hostile/openapi.yaml"),
    ];
    const targets: Target[] = specs.map((spec, i) => ({
      specPath: spec,
      outDir: path.join(dir, `p${i}`),
      packageName: `@t/p${i}`,
      name: `p${i}`,
    }));
    await generate(targets, { cwd: ROOT, reporter: quiet, force: true, cacheDir: path.join(dir, ".cache") });
    const outDirs = [...targets.map((t) => t.outDir), ...["core", "ads-audiences", "ads-campaigns"].map((p) => path.join(ROOT, "packages", p))];
    const files = outDirs.flatMap((d) => DECLARATIONS.map((f) => path.join(d, f)));
    for (const f of files) expect(existsSync(f), f).toBe(true);
    const checked = checkDeclarations(dir, files);
    expect(checked.output).toBe("");
    expect(checked.status).toBe(0);
  }, 120_000);

  it("reports an error in the declarations that skipLibCheck would hide", () => {
    const dir = workspaceTmpDir("types-dts-bad-");
    const file = path.join(dir, "types.d.ts");
    copyFileSync(path.join(ROOT, "packages/core/compiled/types.d.ts"), file);
    appendFileSync(file, `export type Broken = components["schemas"]["NoSuchSchema"];\n`);
    const checked = checkDeclarations(dir, [file]);
    expect(checked.status).not.toBe(0);
    expect(checked.output).toMatch(/types\.d\.ts\(\d+,\d+\): error TS2339: Property 'NoSuchSchema' does not exist/);
  });

  it("is what src/types.ts re-exports, with nothing to load at run time", () => {
    const src = readFileSync(path.join(ROOT, "packages/core/src/types.ts"), "utf8");
    expect(src.split("\n").filter((l) => !l.startsWith("//") && l !== "")).toEqual([`export type * from "../compiled/types.js";`]);
    // The built module is empty: `export type *` is erased, so no compiled/types.js is needed.
    const out = workspaceTmpDir("types-dts-emit-");
    mkdirSync(path.join(out, "src"));
    copyFileSync(path.join(ROOT, "packages/core/src/types.ts"), path.join(out, "src/types.ts"));
    mkdirSync(path.join(out, "compiled"));
    copyFileSync(path.join(ROOT, "packages/core/compiled/types.d.ts"), path.join(out, "compiled/types.d.ts"));
    writeFileSync(
      path.join(out, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", strict: true, outDir: "dist", types: [] }, include: ["src"] }),
    );
    const r = spawnSync(process.execPath, [TSC, "-p", out, "--pretty", "false"], { encoding: "utf8" });
    expect(`${r.stdout}${r.stderr}`).toBe("");
    expect(readFileSync(path.join(out, "dist/types.js"), "utf8").trim()).toBe("export {};");
  });
});
