/**
 * Generated code inside an application's own source folder (`--layout sources`, generated into
 * `src/api/`): built by the application's tsconfig (another outDir, NodeNext) and run from that
 * outDir; type-checked under bundler resolution and bundled by esbuild for the browser, the bundle
 * run with a fetch stub; and a client-only application with neither Fastify nor the MCP SDK
 * installed. Every module the code runs is TypeScript the application's build emits.
 */
import { afterAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT, TSC, runCli, workspaceTmpDir } from "./helpers.js";

const CORE = path.join(ROOT, "spec/core.yaml");
const PETSTORE = path.join(ROOT, "node_modules/@readme/oas-examples/3.0/json/petstore-expanded.json");

/** A program written against the generated client: one call answered, one problem caught, through a fetch stub. */
const CORE_MAIN = `
import { createCoreClient } from "./api/client.js";
import { Problem } from "./api/problems.js";
const calls: string[] = [];
const json = (status: number, type: string, body: unknown): Response => new Response(JSON.stringify(body), { status, headers: { "content-type": type } });
const stub = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  calls.push((init?.method ?? "GET") + " " + url.pathname);
  if (url.pathname === "/2/posts") return json(200, "application/json", { data: [{ id: "1", text: "hello", edit_history_tweet_ids: ["1"] }] });
  return json(400, "application/problem+json", { type: "https://api.example.com/2/problems/invalid-request", title: "Invalid Request", status: 400, detail: "webhook_id" });
};
const client = createCoreClient({ baseUrl: "https://api.example.com", auth: { bearer: "token" }, fetch: stub as typeof fetch });
const posts = await client.getPostsByIds({ ids: ["1"] });
let caught = "";
try {
  await client.createStreamLink({ webhook_id: "123" });
} catch (error) {
  if (error instanceof Problem) caught = error.type;
}
console.log(JSON.stringify({ posts: posts.data?.length ?? 0, caught, calls }));
`;

function tsc(dir: string): string {
  const r = spawnSync(process.execPath, [TSC, "-p", dir], { encoding: "utf8" });
  return `${r.stdout}${r.stderr}`;
}

function node(file: string, cwd: string): { out: string; err: string } {
  const r = spawnSync(process.execPath, [file], { cwd, encoding: "utf8" });
  return { out: r.stdout, err: r.stderr };
}

const outside: string[] = [];
afterAll(() => {
  for (const d of outside) rmSync(d, { recursive: true, force: true });
});

async function app(dir: string, spec: string, extra: readonly string[] = []): Promise<void> {
  mkdirSync(path.join(dir, "src"), { recursive: true });
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  const r = await runCli(["generate", spec, "--out", "src/api", "--name", "api", "--layout", "sources", ...extra], dir);
  expect(r.code, r.stderr).toBe(0);
}

const strict = { strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true, verbatimModuleSyntax: true, skipLibCheck: true, target: "ES2022", lib: ["ES2023", "DOM"], types: [] };

describe("--layout sources: generated code inside an application", () => {
  it("writes TypeScript modules only (declaration files aside), no package.json, tsconfig or test folder", async () => {
    const dir = workspaceTmpDir("app-files-");
    await app(dir, CORE);
    const files = readdirSync(path.join(dir, "src/api"), { recursive: true }).map(String);
    expect(files.filter((f) => f.endsWith(".js"))).toEqual([]);
    expect(files).toContain("client.ts");
    expect(files).toContain(path.join("compiled", "client.tables.ts"));
    expect(files).toContain(path.join("compiled", "types.d.ts"));
    for (const gone of ["package.json", "tsconfig.json", "test", "src"]) expect(files).not.toContain(gone);
  });

  it("builds with the app's NodeNext tsconfig into its own outDir and runs from there", async () => {
    const dir = workspaceTmpDir("app-nodenext-");
    await app(dir, CORE);
    writeFileSync(path.join(dir, "src/main.ts"), CORE_MAIN);
    writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { ...strict, module: "NodeNext", moduleResolution: "NodeNext", rootDir: "src", outDir: "build" }, include: ["src"] }),
    );
    expect(tsc(dir)).toBe("");
    expect(existsSync(path.join(dir, "build/api/compiled/validators.strict.js"))).toBe(true);
    const run = node("build/main.js", dir);
    expect(run.err).toBe("");
    expect(JSON.parse(run.out)).toEqual({ posts: 1, caught: "https://api.example.com/2/problems/invalid-request", calls: ["GET /2/posts", "POST /2/posts/search/webhooks/123"] });
  });

  it("type-checks under bundler resolution and bundles with esbuild for the browser; the bundle runs", async () => {
    const dir = workspaceTmpDir("app-bundler-");
    await app(dir, CORE);
    writeFileSync(path.join(dir, "src/main.ts"), CORE_MAIN);
    writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { ...strict, module: "ESNext", moduleResolution: "bundler", noEmit: true }, include: ["src/main.ts"] }));
    expect(tsc(dir)).toBe("");
    const { build } = await import("esbuild");
    const result = await build({ absWorkingDir: dir, entryPoints: ["src/main.ts"], bundle: true, platform: "browser", format: "esm", outfile: "bundle/main.js", logLevel: "silent" });
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    const run = node("bundle/main.js", dir);
    expect(run.err).toBe("");
    expect(JSON.parse(run.out)).toMatchObject({ posts: 1, caught: "https://api.example.com/2/problems/invalid-request" });
  });

  it("a client-only app (a third-party document) builds and runs with neither Fastify nor the MCP SDK installed", async () => {
    // Outside the workspace, with only what a client needs in its node_modules.
    const dir = mkdtempSync(path.join(os.tmpdir(), "cg-client-only-"));
    outside.push(dir);
    mkdirSync(path.join(dir, "node_modules/@contractgen"), { recursive: true });
    symlinkSync(path.join(ROOT, "packages/runtime"), path.join(dir, "node_modules/@contractgen/runtime"), "dir");
    for (const dep of ["ajv", "ajv-formats"]) symlinkSync(path.join(ROOT, "node_modules", dep), path.join(dir, "node_modules", dep), "dir");
    writeFileSync(path.join(dir, "contractgen.config.json"), JSON.stringify({ specs: [{ spec: "petstore.json", out: "src/api", name: "api", artifacts: ["client"], layout: "sources" }] }));
    spawnSync("cp", [PETSTORE, path.join(dir, "petstore.json")]);
    mkdirSync(path.join(dir, "src"), { recursive: true });
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
    const r = await runCli(["generate"], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(path.join(dir, "src/api/server.ts"))).toBe(false);
    writeFileSync(
      path.join(dir, "src/main.ts"),
      `
import { createPetstoreClient } from "./api/client.js";
import type { Pet } from "./api/types.js";
const stub = async (): Promise<Response> => new Response(JSON.stringify([{ id: 1, name: "Rex" }]), { status: 200, headers: { "content-type": "application/json" } });
const client = createPetstoreClient({ fetch: stub as typeof fetch });
const pets: Pet[] = await client.findPets({ limit: 1 });
console.log(pets.map((p) => p.name).join(","));
`,
    );
    writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { ...strict, module: "NodeNext", moduleResolution: "NodeNext", rootDir: "src", outDir: "dist" }, include: ["src"] }),
    );
    expect(existsSync(path.join(dir, "node_modules/fastify"))).toBe(false);
    expect(existsSync(path.join(dir, "node_modules/@modelcontextprotocol"))).toBe(false);
    expect(tsc(dir)).toBe("");
    const run = node("dist/main.js", dir);
    expect(run.err).toBe("");
    expect(run.out.trim()).toBe("Rex");
  });
});
