/**
 * The config file: `contractgen init` writes one, `generate`/`check`/`scaffold` read it, flags
 * override it, a client-only package compiles, and mistakes are named with where and how to fix.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveTargets } from "../../generators/src/config/targets.js";
import { discoverTargets } from "../../generators/src/pipeline.js";
import { FIXTURES, ROOT, runCli, typecheck, workspaceTmpDir } from "../generator/helpers.js";

function project(): string {
  const dir = workspaceTmpDir("config-");
  mkdirSync(path.join(dir, "spec"));
  copyFileSync(path.join(FIXTURES, "scaffold/pets-v1.yaml"), path.join(dir, "spec/pets.yaml"));
  return dir;
}

describe("contractgen.config", () => {
  it("is what generates this repository's own three packages", async () => {
    const { targets, config } = await resolveTargets(ROOT, {});
    expect(config?.file).toBe("contractgen.config.ts");
    const discovered = await discoverTargets(ROOT);
    const key = (t: { specPath: string; outDir: string; packageName: string; name: string }): string => JSON.stringify([t.specPath, t.outDir, t.packageName, t.name]);
    expect(targets.map(key).sort()).toEqual(discovered.map(key).sort());
    expect(targets.map((t) => t.packageName)).toEqual(["@devplatform/core", "@devplatform/ads-audiences", "@devplatform/ads-campaigns"]);
  });

  it("init writes a commented config listing the specs; generate reads it; flags override it; init refuses to overwrite", async () => {
    const dir = project();
    const init = await runCli(["init"], dir);
    expect(init.code, init.stderr).toBe(0);
    const text = readFileSync(path.join(dir, "contractgen.config.ts"), "utf8");
    expect(text).toContain('{ spec: "spec/pets.yaml", out: "packages/pets" },');
    expect(text).toContain("// Server projects `contractgen scaffold` creates");
    // Point the config at another package folder, then generate with no arguments.
    writeFileSync(path.join(dir, "contractgen.config.ts"), text.replace('out: "packages/pets"', 'out: "gen/pets-package"'));
    const gen = await runCli(["generate", "-q"], dir);
    expect(gen.code, gen.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path.join(dir, "gen/pets-package/package.json"), "utf8")).name).toBe("@devplatform/pets");
    const flagged = await runCli(["generate", "-q", "--scope", "@acme", "--packages-dir", "other"], dir);
    expect(flagged.code, flagged.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path.join(dir, "other/pets/package.json"), "utf8")).name).toBe("@acme/pets");
    const again = await runCli(["init"], dir);
    expect(again.code).toBe(3);
    expect(again.stderr).toContain("contractgen.config.ts exists already");
  });

  it("generates a client-only package that compiles and has no server, mocks or tests", async () => {
    const dir = project();
    writeFileSync(path.join(dir, "contractgen.config.json"), JSON.stringify({ specs: [{ spec: "spec/pets.yaml", out: "client", name: "pets-client", artifacts: ["client"] }] }));
    const gen = await runCli(["generate", "-q"], dir);
    expect(gen.code, gen.stderr).toBe(0);
    const pkg = JSON.parse(readFileSync(path.join(dir, "client/package.json"), "utf8")) as { exports: Record<string, unknown>; peerDependencies?: unknown };
    expect(Object.keys(pkg.exports)).toEqual([".", "./types", "./validators", "./problems", "./client"]);
    expect(pkg.peerDependencies).toBeUndefined();
    for (const absent of ["src/server.ts", "compiled/server.types.d.ts", "src/mocks.ts", "test"]) expect(existsSync(path.join(dir, "client", absent)), absent).toBe(false);
    expect(typecheck(path.join(dir, "client")).output).toBe("");
    // check agrees with what the config generates.
    expect((await runCli(["check", "-q"], dir)).code).toBe(0);
  });

  it("names the file, the option and the fix for a mistake", async () => {
    const dir = project();
    writeFileSync(path.join(dir, "contractgen.config.json"), JSON.stringify({ specs: [{ spec: "spec/pets.yaml", artifacts: ["clients"] }] }));
    const r = await runCli(["generate"], dir);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(
      'contractgen.config.json specs[0].artifacts[0]\n  error: unknown artifact "clients"\n  fix: use one of: types, operations, validators, problems, client, server, receiver, mcp, mocks, msw, deliveries, conformance',
    );
    writeFileSync(path.join(dir, "contractgen.config.json"), JSON.stringify({ spec: "spec/pets.yaml" }));
    expect((await runCli(["generate"], dir)).stderr).toContain('contractgen.config.json spec\n  error: unknown option "spec"');
  });

  it("checks the security option, and reads refRoots from the config's folder", async () => {
    const dir = project();
    const config = (c: object): void => writeFileSync(path.join(dir, "contractgen.config.json"), JSON.stringify(c));
    config({ security: { refRoot: ["shared"] } });
    expect((await runCli(["generate"], dir)).stderr).toContain('contractgen.config.json security.refRoot\n  error: unknown option "refRoot"');
    config({ security: { backtrackingPatterns: "^(a)\\1$" } });
    expect((await runCli(["generate"], dir)).stderr).toContain("contractgen.config.json security.backtrackingPatterns\n  error: must be an array of strings");

    mkdirSync(path.join(dir, "shared"));
    writeFileSync(path.join(dir, "shared/name.yaml"), "Name: { type: string }\n");
    writeFileSync(path.join(dir, "spec/outside.yaml"), 'openapi: 3.1.0\ninfo: { title: outside, version: "1" }\npaths: {}\ncomponents:\n  schemas:\n    Name: { $ref: "../shared/name.yaml#/Name" }\n');
    const specs = [{ spec: "spec/outside.yaml", out: "packages/outside" }];
    config({ specs });
    const refused = await runCli(["generate"], dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("spec/outside.yaml:6:");
    config({ specs, security: { refRoots: ["shared"] } });
    const r = await runCli(["generate"], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(path.join(dir, "packages/outside/src/types.ts"))).toBe(true);
  });

  it("lists the projects scaffold keeps in step", async () => {
    const dir = project();
    writeFileSync(path.join(dir, "contractgen.config.json"), JSON.stringify({ scaffold: [{ source: "spec/pets.yaml", out: "servers/pets" }] }));
    const r = await runCli(["scaffold"], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(path.join(dir, "servers/pets/src/handlers/pets.ts"))).toBe(true);
    expect((await runCli(["scaffold", "--check"], dir)).code).toBe(0);
  });
});
