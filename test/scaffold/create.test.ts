/**
 * `contractgen scaffold <spec> --out <dir>` on a fresh folder: a project that compiles, serves the
 * contract with every handler answering the contract's 501 problem, and whose own test runs the
 * contract's conformance suite against it. Driven through the CLI, compiled with tsc, run.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type { FastifyInstance } from "fastify";
import { runCli, snapshotTree, workspaceTmpDir } from "../generator/helpers.js";
import { ROOT, linkContract, petsWorkspace, scaffold, tsc } from "./support.js";

describe("contractgen scaffold: a new project", () => {
  it("creates a project that compiles, serves every operation as a 501 stub, and runs the conformance suite against itself", async () => {
    const ws = petsWorkspace();
    const r = await scaffold(ws);
    expect(r.stderr).toContain("0 implemented, 5 to do");
    expect(r.code).toBe(0);
    const files = Object.keys(snapshotTree(ws.server))
      .filter((f) => !f.startsWith("contract/"))
      .sort();
    expect(files).toEqual([
      "README.md",
      "package.json",
      "src/app.ts",
      "src/handlers/default.ts",
      "src/handlers/index.ts",
      "src/handlers/pets.ts",
      "src/handlers/stores.ts",
      "src/main.ts",
      "src/security.ts",
      "test/conformance.test.ts",
      "tsconfig.json",
      "vitest.config.ts",
    ]);
    const pkg = JSON.parse(readFileSync(path.join(ws.server, "package.json"), "utf8")) as { dependencies: Record<string, string>; scripts: Record<string, string> };
    expect(pkg.dependencies["pets"]).toBe("file:./contract");
    expect(pkg.scripts["start"]).toBe("npm run build && node dist/main.js");

    // What `npm install && npm run build` does, with the workspace's packages standing in for the registry.
    linkContract(ws.server);
    expect(tsc(path.join(ws.server, "contract/tsconfig.json")).output).toBe("");
    expect(tsc(path.join(ws.server, "tsconfig.json")).output).toBe("");

    const { buildApp } = (await import(pathToFileURL(path.join(ws.server, "dist/app.js")).href)) as { buildApp(): Promise<FastifyInstance> };
    const app = await buildApp();
    try {
      const list = await app.inject({ method: "GET", url: "/pets?limit=3" });
      expect(list.statusCode).toBe(501);
      expect(list.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(list.json()).toMatchObject({ status: 501, detail: "listPets is not implemented" });
      // Validation still runs before a stub: the contract's 400 names the parameter.
      const bad = await app.inject({ method: "GET", url: "/pets?limit=0" });
      expect(bad.statusCode).toBe(400);
      expect(JSON.stringify(bad.json())).toContain("limit");
      expect((await app.inject({ method: "GET", url: "/health" })).statusCode).toBe(501);
    } finally {
      await app.close();
    }

    // The project's own `npm test`: the contract's conformance suite against the app; stubs fail it.
    const run = spawnSync(process.execPath, [path.join(ROOT, "node_modules/vitest/vitest.mjs"), "run"], {
      cwd: ws.server,
      encoding: "utf8",
      env: { ...process.env, CONTRACT_BASE_URL: "", NO_COLOR: "1" },
    });
    const output = `${run.stdout}${run.stderr}`;
    expect(run.status, output).toBe(1);
    expect(output).toMatch(/listPets/);
    expect(output).toMatch(/501/);
  });

  it("scaffolds against a package contractgen generated, depending on it where it is", async () => {
    const dir = workspaceTmpDir("scaffold-pkg-");
    const r = await runCli(["scaffold", path.join(ROOT, "packages/ads-audiences"), "--out", "server"], dir);
    expect(r.code, r.stderr).toBe(0);
    const server = path.join(dir, "server");
    const pkg = JSON.parse(readFileSync(path.join(server, "package.json"), "utf8")) as { dependencies: Record<string, string>; scripts: Record<string, string> };
    expect(pkg.dependencies["@devplatform/ads-audiences"]).toBe(`file:${path.relative(server, path.join(ROOT, "packages/ads-audiences"))}`);
    expect(pkg.scripts["build"]).toBe("tsc -p tsconfig.json");
    expect(existsSync(path.join(server, "contract"))).toBe(false);
    // The workspace's built package resolves as the installed one would.
    expect(tsc(path.join(server, "tsconfig.json"), false).output).toBe("");
  });

  it("writes the same bytes for the same contract", async () => {
    const a = petsWorkspace();
    const b = petsWorkspace();
    expect((await scaffold(a)).code).toBe(0);
    expect((await scaffold(b)).code).toBe(0);
    expect(snapshotTree(a.server)).toEqual(snapshotTree(b.server));
  });

  it("names the problem and writes nothing when the source is neither a spec nor a generated package", async () => {
    const ws = petsWorkspace();
    const missing = await runCli(["scaffold", "nope.yaml", "--out", "server"], ws.dir);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain("nope.yaml: no such file or folder");
    const notPackage = await runCli(["scaffold", ".", "--out", "server"], ws.dir);
    expect(notPackage.code).toBe(3);
    expect(notPackage.stderr).toContain("not a package contractgen generated");
    expect(existsSync(ws.server)).toBe(false);
  });
});
