// How the bench runs @hey-api/openapi-ts: its own CLI (bin/run.js, as `npx openapi-ts` does) with
// scripts/bench/openapi-ts.config.mjs, working folder and output in the bench's temp folder.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";

/** The command, working folder and environment for one process generating every job in `jobs`. */
export function heyapiCommand(root, jobs, cwd) {
  mkdirSync(cwd, { recursive: true });
  return {
    args: [process.execPath, path.join(root, "node_modules/@hey-api/openapi-ts/bin/run.js"), "-f", path.join(root, "scripts/bench/openapi-ts.config.mjs")],
    cwd,
    env: {
      BENCH_HEYAPI_JOBS: JSON.stringify(jobs),
      // c12 loads the config through jiti, whose transpile cache would go to the nearest
      // node_modules/.cache: nothing of the run may land outside the temp folder.
      JITI_FS_CACHE: "false",
      NO_COLOR: "1",
    },
  };
}

/** The installed version, for the report. */
export const heyapiVersion = (root) => JSON.parse(readFileSync(path.join(root, "node_modules/@hey-api/openapi-ts/package.json"), "utf8")).version;

/** The Node range it declares (0.99 declares ≥ 22.18, above this workspace's ≥ 20.19; npm only warns). */
export const heyapiEngine = (root) => JSON.parse(readFileSync(path.join(root, "node_modules/@hey-api/openapi-ts/package.json"), "utf8")).engines?.node ?? "any";

/**
 * One untimed run with scripts/bench/offline.mjs preloaded into every node process of the CLI (it
 * re-spawns node, hence NODE_OPTIONS), checking that it reaches no network, writes every output and
 * leaves the workspace's top level and node_modules/.cache as they were.
 */
export function checkHeyapiOffline(root, jobs, cwd) {
  const { args, env } = heyapiCommand(root, jobs, cwd);
  const watched = [root, path.join(root, "node_modules/.cache")];
  const snapshot = () => watched.map((d) => (existsSync(d) ? readdirSync(d).sort().join("\n") : "")).join("\0");
  const before = snapshot();
  const guard = `--import=${JSON.stringify(path.join(root, "scripts/bench/offline.mjs"))}`;
  const r = spawnSync(args[0], args.slice(1), { cwd, env: { ...process.env, ...env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} ${guard}`.trim() }, encoding: "utf8" });
  if (r.status === 97) throw new Error(`@hey-api/openapi-ts tried the network:\n${r.stderr}`);
  if (r.status !== 0) throw new Error(`@hey-api/openapi-ts failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  for (const { output } of jobs) if (!existsSync(path.join(output, "sdk.gen.ts"))) throw new Error(`@hey-api/openapi-ts wrote no ${output}/sdk.gen.ts`);
  if (snapshot() !== before) throw new Error("@hey-api/openapi-ts wrote outside its temp folder (workspace top level or node_modules/.cache changed)");
}
