/**
 * The generated README starts with a quick start (install, create the client by its real factory
 * name, authenticate, one call, a problem handled; then server, mocks, MCP) whose code compiles
 * against the package as written: every ```ts block of the README of the workspace's packages and
 * of packages generated from published third-party documents is type-checked under strict settings.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT, TSC, runCli, workspaceTmpDir } from "./helpers.js";

/** The ```ts blocks of a README, in order. */
function tsBlocks(readme: string): string[] {
  return [...readme.matchAll(/^(`{3,})ts\n([\s\S]*?)\n\1$/gm)].map((m) => m[2] as string);
}

/** Type-checks `files` (name → text) in a fresh folder of the workspace; returns tsc's output. */
function compile(files: Readonly<Record<string, string>>): string {
  const dir = workspaceTmpDir("quick-start-");
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  const compilerOptions = {
    target: "ES2022",
    lib: ["ES2023", "DOM"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    skipLibCheck: true,
    noEmit: true,
    types: ["node"],
  };
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: Object.keys(files) }));
  const r = spawnSync(process.execPath, [TSC, "-p", dir], { encoding: "utf8" });
  return `${r.stdout}${r.stderr}`;
}

describe("the generated README's quick start", () => {
  it.each(["core", "ads-audiences", "ads-campaigns"])("of @devplatform/%s names the real factory and compiles against the built package", (name) => {
    const readme = readFileSync(path.join(ROOT, "packages", name, "README.md"), "utf8");
    const quick = readme.indexOf("## Quick start");
    expect(quick).toBeGreaterThan(0);
    // Install, then the client: before the reference tables.
    expect(quick).toBeLessThan(readme.indexOf("## Entry points"));
    expect(readme.slice(quick)).toMatch(/npm install @devplatform\//);
    const blocks = tsBlocks(readme);
    expect(blocks[0]).toMatch(/create\w+Client\(/);
    expect(blocks[0]).toContain("instanceof Problem");
    expect(blocks.length).toBe(3); // client, server, mocks
    expect(compile(Object.fromEntries(blocks.map((b, i) => [`block${i}.ts`, `${b}\nexport {};\n`])))).toBe("");
  });

  it.each(["petstore.json", "security-multiple.json", "server-variables.json"])("of a package generated from @readme/oas-examples %s compiles against its sources", async (doc) => {
    const dir = workspaceTmpDir("quick-start-pkg-");
    const r = await runCli(["generate", path.join(ROOT, "node_modules/@readme/oas-examples/3.0/json", doc), "--out", path.join(dir, "pkg"), "--name", "@example/api"], dir);
    expect(r.code, r.stderr).toBe(0);
    const blocks = tsBlocks(readFileSync(path.join(dir, "pkg/README.md"), "utf8"));
    expect(blocks.length).toBeGreaterThan(0);
    // The package is not built or installed here: its subpaths point at its sources.
    const local = (b: string): string => b.replace(/"@example\/api\/(\w+)"/g, (_m, sub: string) => JSON.stringify(`../pkg/src/${sub}.js`));
    mkdirSync(path.join(dir, "use"));
    const files = Object.fromEntries(blocks.map((b, i) => [`use/block${i}.ts`, `${local(b)}\nexport {};\n`]));
    for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, file), text);
    const compilerOptions = {
      target: "ES2022",
      lib: ["ES2023", "DOM"],
      module: "NodeNext",
      moduleResolution: "NodeNext",
      strict: true,
      exactOptionalPropertyTypes: true,
      skipLibCheck: true,
      noEmit: true,
      types: ["node"],
    };
    writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: Object.keys(files) }));
    const tsc = spawnSync(process.execPath, [TSC, "-p", dir], { encoding: "utf8" });
    expect(`${tsc.stdout}${tsc.stderr}`).toBe("");
  });
});
