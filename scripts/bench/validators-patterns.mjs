// Validations per second on GitHub's REST description with the pattern engine the validators run
// (RE2, @contractgen/runtime/pattern) against the same compiled modules calling plain RegExp: the
// package is generated once (or taken from argv[2]), its compiled/ folder copied with the engine
// import pointed at a module that returns `new RegExp`, and both are fed the same values: a mock
// value per component schema (the mock generator, checked against the RE2 validators), all of them
// and the ones whose schema holds a pattern. Interleaved rounds, medians. Prints JSON.
import { cpSync, existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const github = path.join(root, "node_modules/@octokit/openapi/generated/api.github.com.json");
// Inside the workspace, so the package's imports (@contractgen/runtime, ajv) resolve.
const pkg = process.argv[2] ?? path.join(root, ".tmp", "bench-patterns-github");
if (!existsSync(path.join(pkg, "compiled/validators.strict.js"))) {
  const r = spawnSync(process.execPath, [path.join(root, "generators/dist/cli.js"), "generate", github, "--out", pkg, "--name", "@bench/github", "-q"], { cwd: root, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`generating GitHub's package failed:\n${r.stderr}`);
}

// The RegExp twin: the same modules, the engine import pointed at RegExp.
const twin = path.join(pkg, "compiled-regexp");
cpSync(path.join(pkg, "compiled"), twin, { recursive: true });
writeFileSync(path.join(twin, "regexp-engine.js"), "export function patternRegExp(source, flags) { return new RegExp(source, flags); }\n");
for (const f of readdirSync(twin).filter((n) => /^validators\.(strict|params)\.js$/.test(n))) {
  const file = path.join(twin, f);
  writeFileSync(file, readFileSync(file, "utf8").replace('from "@contractgen/runtime/pattern"', 'from "./regexp-engine.js"'));
}

const re2 = (await import(pathToFileURL(path.join(pkg, "compiled/validators.tables.js")).href)).schemaValidators;
const plain = (await import(pathToFileURL(path.join(twin, "validators.tables.js")).href)).schemaValidators;
const { mockDocument, schemaTypeNames } = await import(pathToFileURL(path.join(pkg, "compiled/mocks.data.js")).href);
const { createMockGenerator } = await import("@contractgen/runtime/mock-data");
const keys = new Map(schemaTypeNames);
const generator = createMockGenerator({ root: mockDocument(), validate: (name, value) => re2[keys.get(name)]?.(value) ?? true });

// One valid value per component schema; the ones whose schema (or a schema it reaches) runs a pattern.
const doc = JSON.parse(readFileSync(github, "utf8"));
const hasPattern = (name) => JSON.stringify(doc.components.schemas[name]).includes('"pattern"');
const values = [];
for (const [name, key] of keys) {
  let value;
  try {
    value = generator.forSchema(name, 1);
  } catch {
    continue;
  }
  if (re2[key]?.(value) && plain[key]?.(value)) values.push({ key, value, pattern: hasPattern(name) });
}
const withPattern = values.filter((v) => v.pattern);

/** Validations per second over whole passes of `set`, for at least 300 ms (the actual time divides). */
function rate(table, set) {
  let n = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < 300) {
    for (const { key, value } of set) table[key](value);
    n += set.length;
    elapsed = performance.now() - start;
  }
  return (n / elapsed) * 1000;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function compare(set) {
  const a = [];
  const b = [];
  for (let i = 0; i < 7; i++) {
    a.push(rate(re2, set));
    b.push(rate(plain, set));
  }
  return { re2: median(a), regexp: median(b), values: set.length };
}
process.stdout.write(JSON.stringify({ all: compare(values), withPattern: compare(withPattern) }));
