/**
 * The packages as another repository gets them: packed with npm, installed from the tarballs into a
 * fresh project outside the workspace, compiled by a strict consumer under both module resolutions,
 * and run against `contractgen mock`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readdirSync, writeFileSync, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT, TSC, CLI } from "../generator/helpers.js";

const PACKAGES = ["runtime", "core", "ads-audiences", "ads-campaigns"];
/** The runtime carries the toolkit's name; the generated packages the platform's scope. */
const npmName = (folder: string): string => (folder === "runtime" ? "@contractgen/runtime" : `@devplatform/${folder}`);
const work = mkdtempSync(path.join(os.tmpdir(), "cg-consumer-"));
const tarballs: Record<string, string> = {};
let mock: { url: string; stop: () => void } | undefined;

function run(cmd: string, args: string[], cwd: string): string {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", env: { ...process.env, npm_config_fund: "false", npm_config_audit: "false" } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed in ${cwd}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

const CONSUMER = `
import { createCoreClient } from "@devplatform/core/client";
import { problems } from "@devplatform/core";
import { createAdsAudiencesClient } from "@devplatform/ads-audiences/client";
import type { Post } from "@devplatform/core/types";

// No @types/node in this consumer: read the environment without it.
const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
const baseUrl: string = env["BASE_URL"] ?? "";
const core = createCoreClient({ baseUrl, auth: { bearer: "mock-bearer-token" } });

// A typed call: the result's type comes from the contract.
const link = await core.createStreamLink({ webhook_id: "1234567890" });
const provisioned: boolean | undefined = link.data?.provisioned;

// A typed problem, caught with instanceof.
let caught = "none";
try {
  await core.createStreamLink({ webhook_id: "not-a-number" });
} catch (error) {
  if (error instanceof problems.Problem) caught = error.type;
}

// One page iteration over a paged advertising list.
const ads = createAdsAudiencesClient({
  baseUrl,
  auth: { oauth1: { consumerKey: "mock-api-key", consumerSecret: "mock-api-secret", token: "mock-access-token", tokenSecret: "mock-access-token-secret" } },
});
const catalogs = await ads.listProductCatalogs({});
const catalogId = catalogs.data[0]?.id ?? "";
let count = 0;
for await (const product of ads.iterate.listProducts({ product_catalog_id: catalogId, count: 2 })) {
  const id: string = product.id;
  if (id) count++;
  if (count >= 3) break;
}
const sample: Pick<Post, "id"> = { id: "1" };
// The types come from declaration files (compiled/types.d.ts, compiled/client.types.d.ts): were one
// missing from the tarball, they would be any and these two lines would compile.
// @ts-expect-error a Post's id is a string
const wrongId: Pick<Post, "id"> = { id: 1 };
// @ts-expect-error createStreamLink's webhook_id is a string
const wrongCall = () => core.createStreamLink({ webhook_id: 1 });
void wrongId;
void wrongCall;
console.log(JSON.stringify({ provisioned, caught, count, sample: sample.id }));
`;

describe("packages installed from their tarballs", () => {
  beforeAll(async () => {
    for (const name of PACKAGES) {
      const out = run("npm", ["pack", path.join(ROOT, "packages", name), "--pack-destination", work, "--json"], work);
      tarballs[name] = path.join(work, (JSON.parse(out) as { filename: string }[])[0]?.filename ?? "");
    }
    const consumer = path.join(work, "consumer");
    mkdirSync(consumer);
    writeFileSync(
      path.join(consumer, "package.json"),
      JSON.stringify({
        name: "consumer",
        private: true,
        type: "module",
        dependencies: Object.fromEntries(PACKAGES.map((n) => [npmName(n), `file:${tarballs[n]}`])),
      }),
    );
    run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline"], consumer);
    writeFileSync(path.join(consumer, "consumer.ts"), CONSUMER);
    const child = spawn(process.execPath, [CLI, "mock", "--port", "0", "--quiet"], { cwd: ROOT });
    mock = await new Promise((resolve, reject) => {
      let log = "";
      child.stderr.on("data", (d: Buffer) => {
        log += d.toString();
        const m = /serving .* at (http:\/\/[^\s]+)/.exec(log);
        if (m) resolve({ url: m[1] as string, stop: () => child.kill() });
      });
      child.on("exit", () => reject(new Error(`contractgen mock exited:\n${log}`)));
    });
  }, 240_000);
  afterAll(() => mock?.stop());

  it.each(PACKAGES)("%s packs only dist/, the compiled validators and tables, README.md, CHANGELOG.md and package.json", (name) => {
    const listing = run("tar", ["-tzf", tarballs[name] as string], work)
      .trim()
      .split("\n");
    const compiled = "validators\\.(strict|params|tables)|(client|server|receiver|operations)\\.tables|mcp\\.tools|mocks\\.data";
    // The types, the client's and the server's are declarations only (no .js).
    const declarations = "types|client\\.types|server\\.types";
    const outside = listing.filter(
      (f) => !new RegExp(`^package\\/(dist\\/.+|compiled\\/(${compiled})\\.(js|d\\.ts)|compiled\\/(${declarations})\\.d\\.ts|README\\.md|CHANGELOG\\.md|package\\.json)$`).test(f),
    );
    expect(outside).toEqual([]);
    expect(listing).toContain("package/dist/index.js");
    expect(listing).toContain("package/dist/index.d.ts");
    // A generated package's dist/ imports these from ../compiled/: without them it would not load.
    if (name !== "runtime") {
      for (const f of ["strict.js", "strict.d.ts", "params.js", "params.d.ts", "tables.js", "tables.d.ts"]) expect(listing).toContain(`package/compiled/validators.${f}`);
      for (const m of ["client.tables", "server.tables", "operations.tables", "mcp.tools", "mocks.data"]) for (const ext of ["js", "d.ts"]) expect(listing).toContain(`package/compiled/${m}.${ext}`);
      for (const m of ["types", "client.types", "server.types"]) expect(listing).toContain(`package/compiled/${m}.d.ts`);
    }
  });

  it("installs no server code for a client-only consumer (Fastify and the MCP SDK are optional peers)", () => {
    expect(existsSync(path.join(work, "consumer/node_modules/fastify"))).toBe(false);
    // The consumer below runs the root export and the client without the MCP SDK installed.
    expect(existsSync(path.join(work, "consumer/node_modules/@modelcontextprotocol"))).toBe(false);
    expect(readdirSync(path.join(work, "consumer/node_modules/@devplatform")).sort()).toEqual(["ads-audiences", "ads-campaigns", "core"]);
    expect(readdirSync(path.join(work, "consumer/node_modules/@contractgen"))).toEqual(["runtime"]);
  });

  it.each(["nodenext", "bundler"])("compiles a strict consumer with moduleResolution %s and runs it against contractgen mock", (resolution) => {
    const consumer = path.join(work, "consumer");
    const options = {
      strict: true,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      target: "ES2022",
      lib: ["ES2023", "DOM"],
      module: resolution === "nodenext" ? "NodeNext" : "ESNext",
      moduleResolution: resolution,
      types: [],
      skipLibCheck: false,
      outDir: `out-${resolution}`,
    };
    writeFileSync(path.join(consumer, `tsconfig.${resolution}.json`), JSON.stringify({ compilerOptions: options, files: ["consumer.ts"] }));
    const tsc = spawnSync(process.execPath, [TSC, "-p", `tsconfig.${resolution}.json`], { cwd: consumer, encoding: "utf8" });
    expect(tsc.stdout + tsc.stderr).toBe("");
    const out = spawnSync(process.execPath, [path.join(consumer, `out-${resolution}`, "consumer.js")], { cwd: consumer, encoding: "utf8", env: { ...process.env, BASE_URL: mock?.url ?? "" } });
    expect(out.stderr).toBe("");
    const result = JSON.parse(out.stdout) as { provisioned: unknown; caught: string; count: number };
    expect(typeof result.provisioned).toBe("boolean");
    expect(result.caught).toBe("https://api.example.com/2/problems/invalid-request");
    expect(result.count).toBeGreaterThan(0);
  });
});
