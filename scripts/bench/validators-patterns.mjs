// Validations per second on GitHub's REST description with the pattern engine the validators run
// (RE2, @contractgen/runtime/pattern) against the same compiled modules calling plain RegExp: the
// package is generated once (or taken from argv[2]), its compiled/ folder copied with the engine
// import pointed at a module that returns `new RegExp`, and both are fed the same values: a mock
// values per component schema (the mock generator, three seeds, valid for both), all of them and the
// ones whose validation runs a pattern. Two warm-up rounds, then 11 interleaved rounds, medians.
// Prints JSON.
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

// Twins of the compiled modules with the engine import pointed elsewhere: plain RegExp (what is
// compared), and RegExp that counts its calls (which values run a pattern at all).
function twin(name, engine) {
  const dir = path.join(pkg, name);
  cpSync(path.join(pkg, "compiled"), dir, { recursive: true });
  writeFileSync(path.join(dir, "regexp-engine.js"), engine);
  for (const f of readdirSync(dir).filter((n) => /^validators\.(strict|params)\.js$/.test(n))) {
    const file = path.join(dir, f);
    writeFileSync(file, readFileSync(file, "utf8").replace('from "@contractgen/runtime/pattern"', 'from "./regexp-engine.js"'));
  }
  return dir;
}
const plainDir = twin("compiled-regexp", "export function patternRegExp(source, flags) { return new RegExp(source, flags); }\n");
const countDir = twin(
  "compiled-count",
  "export const counter = { calls: 0 };\nexport function patternRegExp(source, flags) { const re = new RegExp(source, flags); return { test: (s) => (counter.calls++, re.test(s)), toString: () => String(re) }; }\n",
);

const re2 = (await import(pathToFileURL(path.join(pkg, "compiled/validators.tables.js")).href)).schemaValidators;
const plain = (await import(pathToFileURL(path.join(plainDir, "validators.tables.js")).href)).schemaValidators;
const counting = (await import(pathToFileURL(path.join(countDir, "validators.tables.js")).href)).schemaValidators;
const { counter } = await import(pathToFileURL(path.join(countDir, "regexp-engine.js")).href);
const { mockDocument, schemaTypeNames } = await import(pathToFileURL(path.join(pkg, "compiled/mocks.data.js")).href);
const { createMockGenerator } = await import("@contractgen/runtime/mock-data");
const keys = new Map(schemaTypeNames);
const generator = createMockGenerator({ root: mockDocument(), validate: (name, value) => re2[keys.get(name)]?.(value) ?? true });

// Mock values per component schema (three seeds), valid for both; those whose validation runs at
// least one pattern form the second set.
const values = [];
for (const [name, key] of keys) {
  for (const seed of [1, 2, 3]) {
    let value;
    try {
      value = generator.forSchema(name, seed);
    } catch {
      continue;
    }
    if (!re2[key]?.(value) || !plain[key]?.(value)) continue;
    const before = counter.calls;
    counting[key](value);
    values.push({ key, value, patterns: counter.calls - before });
  }
}
const withPattern = values.filter((v) => v.patterns > 0);

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
  // Two rounds each first, unmeasured: both modules' code optimised before either is timed.
  for (let i = 0; i < 2; i++) {
    rate(re2, set);
    rate(plain, set);
  }
  for (let i = 0; i < 11; i++) {
    a.push(rate(re2, set));
    b.push(rate(plain, set));
  }
  return { re2: median(a), regexp: median(b), values: set.length };
}
process.stdout.write(JSON.stringify({ all: compare(values), withPattern: { ...compare(withPattern), patternTests: withPattern.reduce((n, v) => n + v.patterns, 0) } }));
