#!/usr/bin/env node
// `npm pack` / `npm publish` of the generator (generators/): its built-in templates live at the top of
// the repository (templates/), so `prepack` copies them into the package folder, where the packed
// generator looks first (generators/src/templates/template.ts), and `postpack` removes the copy.
//   node ../scripts/pack-templates.mjs copy|clean   (run by npm in generators/)
import { cpSync, existsSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const copy = path.join(root, "generators", "templates");
const action = process.argv[2];
if (action === "copy") {
  rmSync(copy, { recursive: true, force: true });
  cpSync(path.join(root, "templates"), copy, { recursive: true });
  if (!existsSync(path.join(root, "generators", "dist", "cli.js"))) {
    process.stderr.write("generators/dist is missing: run npm run build:generators before packing\n");
    process.exitCode = 1;
  }
} else if (action === "clean") {
  rmSync(copy, { recursive: true, force: true });
} else {
  process.stderr.write("usage: pack-templates.mjs copy|clean\n");
  process.exitCode = 3;
}
