// Type-check time of generated output: the workspace's pinned TypeScript (`tsc --noEmit`) over what
// a generator wrote, each with a minimal tsconfig, as a user's build or editor checks it after
// every regeneration. Both get the same options; only module resolution differs, as each output
// needs (contractgen writes `.js` specifiers and imports @contractgen/runtime through its exports
// map: NodeNext; hey-api writes extensionless specifiers: bundler).
import { existsSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { benchRounds } from "./measure.mjs";

const common = {
  target: "ES2022",
  lib: ["ES2023", "DOM", "DOM.Iterable"],
  strict: true,
  skipLibCheck: true,
  noEmit: true,
  // Only what the output imports: no ambient @types/* from the workspace for either side.
  types: [],
};

/**
 * Writes `<dir>/tsconfig.json` covering `srcDir` (or `entries` in it). contractgen's package imports
 * @contractgen/runtime, ajv and its optional peers (fastify, @modelcontextprotocol/sdk): the
 * package folder (srcDir's parent) gets a node_modules link to the workspace's, so they resolve as
 * in a consumer's install, where the runtime is packages/runtime through the workspace link.
 */
export function prepareTypecheck(root, dir, srcDir, resolution, entries, options = {}) {
  mkdirSync(dir, { recursive: true });
  const nm = path.join(path.dirname(srcDir), "node_modules");
  if (resolution === "NodeNext" && !existsSync(nm)) symlinkSync(path.join(root, "node_modules"), nm, "dir");
  const moduleOptions = resolution === "NodeNext" ? { module: "NodeNext", moduleResolution: "NodeNext" } : { module: "ESNext", moduleResolution: "bundler" };
  // `entries`: only these files and what they import (a consumer of one subpath), else every file.
  const scope = entries ? { files: entries.map((e) => path.join(srcDir, e)) } : { include: [`${srcDir}/**/*.ts`] };
  const config = { compilerOptions: { ...common, ...moduleOptions, ...options }, ...scope };
  writeFileSync(path.join(dir, "tsconfig.json"), `${JSON.stringify(config, null, 2)}\n`);
  return path.join(dir, "tsconfig.json");
}

/**
 * Number of TypeScript files (.ts, .d.ts) and their bytes under `dir`, for the report; `filter`
 * picks files by name (contractgen's compiled/ folder: its declaration files).
 */
export function sizeOf(dir, filter = () => true) {
  let files = 0;
  let bytes = 0;
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".ts") && filter(e.name)) {
        files++;
        bytes += statSync(p).size;
      }
    }
  };
  walk(dir);
  return { files, bytes };
}

/**
 * tsc --noEmit -p each tsconfig, timed, the rows interleaved round by round (benchRounds); a run with
 * type errors is kept but its error count reported. `checks` are [label, tsconfig] pairs.
 */
export function typecheckRows(root, checks, runs) {
  const tsc = path.join(root, "node_modules/typescript/bin/tsc");
  const rows = benchRounds(
    checks.map(([label, tsconfig]) => ({ label, args: [process.execPath, tsc, "--noEmit", "-p", tsconfig], allowFail: true, cwd: path.dirname(tsconfig) })),
    runs,
  );
  for (const row of rows) {
    row.errors = (row.last.stdout.match(/error TS\d+/g) ?? []).length;
    if (row.errors > 0) process.stderr.write(`  ${row.errors} type error(s), first: ${row.last.stdout.split("\n").find((l) => l.includes("error TS"))}\n`);
  }
  return rows;
}
