/**
 * The release through a real registry (Verdaccio on loopback, started and stopped here), as two
 * other teams live it:
 *
 * - a team with only its own spec installs `contractgen` and `@contractgen/runtime` (from the
 *   registry's tarballs; from the registry by range itself with CONTRACTGEN_INSTALL_FROM=registry,
 *   `npm run release:registry`, slower: every dependency of the generator then comes through the
 *   registry's proxy), then runs `init`, `generate`, `test --base-url`, `scaffold` (the project it
 *   makes installs the runtime by its semver range and builds) and `mcp`, and publishes its package;
 * - a consumer installs that package by semver range and compiles against it; the spec changes,
 *   `contractgen diff` names the bump, `generate` sets the version, the package is published again,
 *   and the consumer's `npm update` takes it and still compiles.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT, TSC } from "../generator/helpers.js";
import { startRegistry, type Registry } from "./registry.js";

const FROM_REGISTRY = process.env["CONTRACTGEN_INSTALL_FROM"] === "registry";
const work = mkdtempSync(path.join(os.tmpdir(), "cg-registry-"));
const user = path.join(work, "team");
const consumer = path.join(work, "consumer");
const SPEC = path.join(ROOT, "node_modules/@readme/oas-examples/3.0/json/petstore-expanded.json");
const PACKAGE = "@acme/petstore-expanded";
let registry: Registry;

/** Runs a command with one actor's npm configuration; throws with its output unless it exits with `codes`. */
function sh(cwd: string, npmrc: string, command: string, codes: readonly number[] = [0]): string {
  const r = spawnSync("bash", ["-c", command], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, npm_config_userconfig: npmrc, npm_config_fund: "false", npm_config_audit: "false", npm_config_update_notifier: "false", NO_COLOR: "1" },
    maxBuffer: 64 * 1024 * 1024,
  });
  const out = `${r.stdout}${r.stderr}`;
  if (!codes.includes(r.status ?? -1)) throw new Error(`${command} (in ${cwd}) exited ${r.status}:\n${out.slice(-4000)}`);
  return out;
}

const npmrc = (name: string, lines: readonly string[]): string => {
  const file = path.join(work, `${name}.npmrc`);
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
};

/** A server for the contract from the generated plugin, each handler answering the contract's example response. */
const TINY_SERVER = `
import Fastify from "fastify";
import { petstoreExpandedServer, routes } from "./packages/petstore-expanded/dist/server.js";
import { exampleResponse } from "./packages/petstore-expanded/dist/mocks.js";
import { methodNames } from "./packages/petstore-expanded/compiled/server.tables.js";
const handlers = Object.fromEntries(routes.map((r) => [methodNames[r.id], async () => {
  const e = exampleResponse(r.id);
  return { status: e.status, body: e.body, ...(e.contentType ? { contentType: e.contentType } : {}) };
}]));
const app = Fastify();
await app.register(petstoreExpandedServer, { handlers });
process.stderr.write("listening at " + (await app.listen({ host: "127.0.0.1", port: 0 })) + "\\n");
`;

const CONSUMER_V1 = `
import { createPetstoreExpandedClient } from "${PACKAGE}/client";
import type { Pet } from "${PACKAGE}/types";
const client = createPetstoreExpandedClient({ baseUrl: "http://127.0.0.1:1" });
export async function names(): Promise<string[]> {
  const pets: Pet[] = await client.findPets({ limit: 2 });
  return pets.map((p) => p.name);
}
`;
/** Uses the operation the second version adds. */
const CONSUMER_V2 = `${CONSUMER_V1}
export async function count(): Promise<number | undefined> {
  return (await client.countPets()).count;
}
`;

function tscIn(dir: string): string {
  writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { target: "ES2022", lib: ["ES2023", "DOM"], module: "NodeNext", moduleResolution: "NodeNext", strict: true, exactOptionalPropertyTypes: true, noEmit: true, types: [] },
      files: ["consumer.ts"],
    }),
  );
  const r = spawnSync(process.execPath, [TSC, "-p", dir], { encoding: "utf8" });
  return `${r.stdout}${r.stderr}`;
}

let publisher: string;
let team: string;

describe("contractgen and its packages through a registry", () => {
  beforeAll(async () => {
    registry = await startRegistry(path.join(work, "registry"));
    publisher = npmrc("publisher", [`registry=${registry.url}`, registry.authLine]);
    // The team's packages and the toolkit's come from the test registry, the rest from the public one.
    const scopes = ["@contractgen", "@acme", "@devplatform"].map((s) => `${s}:registry=${registry.url}`);
    team = npmrc("team", [...(FROM_REGISTRY ? [`registry=${registry.url}`] : []), ...scopes, registry.authLine]);
    mkdirSync(path.join(user, "spec"), { recursive: true });
    writeFileSync(path.join(user, "package.json"), JSON.stringify({ name: "team", private: true, type: "module" }));
    copyFileSync(SPEC, path.join(user, "spec/petstore-expanded.json"));
  }, 60_000);
  afterAll(async () => {
    await registry?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it("publishes the runtime, the generator (with its templates) and a generated package", () => {
    sh(ROOT, publisher, "npm publish ./packages/runtime");
    sh(ROOT, publisher, "npm publish ./generators");
    sh(ROOT, publisher, "npm publish ./packages/core");
    const view = JSON.parse(sh(work, publisher, "npm view contractgen@^0.1.0 --json")) as { version: string; bin: Record<string, string>; dependencies: Record<string, string> };
    expect(view.version).toBe("0.1.0");
    expect(view.bin).toEqual({ contractgen: "bin/contractgen.js" });
    expect(view.dependencies["@contractgen/runtime"]).toBe("^0.1.0");
    const files = sh(work, publisher, "npm pack contractgen@^0.1.0 --dry-run --json");
    expect(files).toContain("templates/scaffold/package.json.tpl");
    expect(files).toContain("templates/package/README.md.tpl");
    // prepack's copy is removed after packing: the workspace keeps one templates/ folder.
    expect(existsSync(path.join(ROOT, "generators/templates"))).toBe(false);
  }, 120_000);

  it("a team with only its spec installs contractgen and the runtime, then init and generate work", () => {
    if (FROM_REGISTRY) sh(user, team, "npm install -D contractgen@^0.1.0 @contractgen/runtime@^0.1.0");
    else {
      // The registry's own tarballs, installed from files; their dependencies from the public registry.
      sh(work, team, `npm pack contractgen@^0.1.0 @contractgen/runtime@^0.1.0 --registry ${registry.url}`);
      sh(user, team, "npm install -D --prefer-offline ../contractgen-0.1.0.tgz ../contractgen-runtime-0.1.0.tgz");
    }
    expect(sh(user, team, "npx contractgen init")).toContain("1 spec(s) found");
    const config = path.join(user, "contractgen.config.ts");
    writeFileSync(config, readFileSync(config, "utf8").replace('scope: "@devplatform"', 'scope: "@acme"'));
    sh(user, team, "npx contractgen generate");
    const pkg = JSON.parse(readFileSync(path.join(user, "packages/petstore-expanded/package.json"), "utf8")) as { name: string; version: string };
    expect(pkg).toMatchObject({ name: PACKAGE, version: "1.0.0" });
    // The package builds with the team's TypeScript and no Fastify installed (the server module
    // names Fastify's type through the runtime).
    expect(existsSync(path.join(user, "node_modules/fastify"))).toBe(false);
    sh(user, team, "npx tsc -p packages/petstore-expanded");
  }, 300_000);

  it("mcp serves the package's tools (generated, not built: its sources are run), and test --base-url runs its suite against a server", async () => {
    sh(user, team, "npm install --prefer-offline fastify@^5.0.0");
    writeFileSync(path.join(user, "tiny-server.mjs"), TINY_SERVER);
    const server = spawn(process.execPath, ["tiny-server.mjs"], { cwd: user, stdio: ["ignore", "ignore", "pipe"] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let log = "";
        server.stderr.on("data", (d: Buffer) => {
          log += d.toString();
          const m = /listening at (\S+)/.exec(log);
          if (m) resolve(m[1] as string);
        });
        server.once("exit", () => reject(new Error(log)));
      });
      const report = sh(user, team, `npx contractgen test --spec packages/petstore-expanded --base-url ${url}`, [0, 1]);
      // The suite ran against the server: positive cases pass. (The 400s of a contract whose only
      // error response is a `default` application/json one are problem+json: reported as failures,
      // see docs/release-workflow.md.)
      const counts = /(\d+) passed, (\d+) failed/.exec(report);
      expect(counts, report.slice(-2000)).not.toBeNull();
      expect(Number(counts?.[1])).toBeGreaterThanOrEqual(5);
      expect(report).toContain("findPets: answers valid request 1");

      const built = path.join(user, "packages/petstore-expanded/dist");
      rmSync(`${built}-away`, { recursive: true, force: true });
      // Without dist/: the package as `generate` left it.
      spawnSync("mv", [built, `${built}-away`]);
      const messages = [
        { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "release-test", version: "0" } } },
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { jsonrpc: "2.0", id: 2, method: "tools/list" },
        { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "findPets", arguments: {} } },
      ];
      const input = path.join(work, "mcp-input.jsonl");
      writeFileSync(input, messages.map((m) => JSON.stringify(m)).join("\n") + "\n");
      // stdin stays open a few seconds so the answers come before the session ends.
      const out = sh(user, team, `(cat ${input}; sleep 4) | timeout 60 npx contractgen mcp --spec packages/petstore-expanded --base-url ${url}`, [0, 124]);
      spawnSync("mv", [`${built}-away`, built]);
      expect(out).toContain('"name":"findPets"');
      expect(out).toMatch(/"id":3/);
      expect(out).toContain('"structuredContent"');
    } finally {
      server.kill();
    }
  }, 300_000);

  it("scaffold makes a server project that asks for the runtime by semver range, installs it from the registry and builds", () => {
    sh(user, team, "npx contractgen scaffold spec/petstore-expanded.json --out server");
    const pkg = JSON.parse(readFileSync(path.join(user, "server/package.json"), "utf8")) as { dependencies: Record<string, string>; overrides?: Record<string, string> };
    expect(pkg.dependencies["@contractgen/runtime"]).toBe("^0.1.0");
    expect(Object.values(pkg.dependencies).filter((v) => v.startsWith("file:") && v !== "file:./contract")).toEqual([]);
    expect(pkg.overrides ?? {}).toEqual({});
    sh(path.join(user, "server"), team, "npm install --prefer-offline");
    sh(path.join(user, "server"), team, "npm run build");
    expect(existsSync(path.join(user, "server/dist/main.js"))).toBe(true);
  }, 300_000);

  it("a consumer installs the team's package by range; a spec change is diffed, versioned, published, and npm update takes it", () => {
    sh(user, team, "npm publish ./packages/petstore-expanded");
    mkdirSync(consumer);
    writeFileSync(path.join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module", dependencies: { [PACKAGE]: "^1.0.0" } }));
    sh(consumer, team, "npm install --prefer-offline");
    writeFileSync(path.join(consumer, "consumer.ts"), CONSUMER_V1);
    expect(tscIn(consumer)).toBe("");

    // The contract gains an operation: a minor change.
    const specFile = path.join(user, "spec/petstore-expanded.json");
    copyFileSync(specFile, path.join(user, "old.json"));
    const spec = JSON.parse(readFileSync(specFile, "utf8")) as { paths: Record<string, unknown> };
    spec.paths["/pets/count"] = {
      get: {
        operationId: "countPets",
        responses: { "200": { description: "how many pets", content: { "application/json": { schema: { type: "object", properties: { count: { type: "integer" } } } } } } },
      },
    };
    writeFileSync(specFile, JSON.stringify(spec, null, 2));
    expect(sh(user, team, "npx contractgen diff old.json spec/petstore-expanded.json")).toMatch(/minor/);
    sh(user, team, "npx contractgen generate");
    const pkgFile = path.join(user, "packages/petstore-expanded");
    expect((JSON.parse(readFileSync(path.join(pkgFile, "package.json"), "utf8")) as { version: string }).version).toBe("1.1.0");
    expect(readFileSync(path.join(pkgFile, "CHANGELOG.md"), "utf8")).toMatch(/1\.1\.0[\s\S]*countPets/);
    sh(user, team, "npx tsc -p packages/petstore-expanded && npm publish ./packages/petstore-expanded");

    sh(consumer, team, "npm update --prefer-offline");
    const installed = JSON.parse(readFileSync(path.join(consumer, "node_modules", PACKAGE, "package.json"), "utf8")) as { version: string };
    expect(installed.version).toBe("1.1.0");
    expect(tscIn(consumer)).toBe("");
    writeFileSync(path.join(consumer, "consumer.ts"), CONSUMER_V2);
    expect(tscIn(consumer)).toBe("");
  }, 300_000);
});
