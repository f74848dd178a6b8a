#!/usr/bin/env node
// Compares the loader's YAML fast path (generators/src/load/yaml-fast.ts: js-yaml under a YAML 1.2
// core schema) with `yaml` over every .yaml/.yml file under the folders given: the data must be
// identical wherever the fast path answers, and the fast path must never accept what `yaml` rejects.
// Usage: node scripts/corpus/yaml-fast.mjs <folder>...   (build the generator first)
// Prints each differing file and the counts; exits 1 when any differ.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { parseDocument } from "yaml";

const { fastYamlData } = await import("../../generators/dist/load/yaml-fast.js");
const folders = process.argv.slice(2);
if (folders.length === 0) {
  process.stderr.write("usage: node scripts/corpus/yaml-fast.mjs <folder>...\n");
  process.exit(2);
}
const files = execFileSync("find", [...folders, "(", "-name", "*.yaml", "-o", "-name", "*.yml", ")", "-type", "f"], { encoding: "utf8", maxBuffer: 1 << 26 })
  .trim()
  .split("\n")
  .filter(Boolean);
const counts = { files: files.length, fast: 0, leftToYaml: 0, yamlRejects: 0, differing: 0, yamlMs: 0, fastMs: 0 };
for (const f of files) {
  const text = readFileSync(f, "utf8");
  let t = performance.now();
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  let want;
  let rejected = doc.errors.length > 0;
  if (!rejected) {
    try {
      want = doc.toJS({ maxAliasCount: 10_000 });
    } catch {
      rejected = true;
    }
  }
  counts.yamlMs += performance.now() - t;
  t = performance.now();
  const got = fastYamlData(text);
  counts.fastMs += performance.now() - t;
  if (rejected) counts.yamlRejects++;
  if (!got) {
    counts.leftToYaml++;
    continue;
  }
  counts.fast++;
  if (rejected || !isDeepStrictEqual(got.data, want)) {
    counts.differing++;
    console.log(`${rejected ? "accepted, yaml rejects" : "different data"}: ${f}`);
  }
}
counts.yamlMs = Math.round(counts.yamlMs);
counts.fastMs = Math.round(counts.fastMs);
console.log(JSON.stringify(counts));
process.exitCode = counts.differing > 0 ? 1 : 0;
