// Stage times of one build without the validators' compile and without formatting: loadSpec,
// buildModel, then every other emitter's emit, in one process (what docs/benchmarks.md's
// "Emitters on GitHub's REST description" compares between two builds).
// Usage: node scripts/bench/emitters.mjs <build root> <spec> [--emit a,b] [--reps n] [--dump dir]
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const [root, spec, ...rest] = process.argv.slice(2);
if (root === undefined || spec === undefined) {
  console.error("usage: node scripts/bench/emitters.mjs <build root> <spec> [--emit a,b] [--reps n] [--dump dir]");
  process.exit(3);
}
const option = (name) => {
  const i = rest.indexOf(name);
  return i === -1 ? undefined : rest[i + 1];
};
const only = option("--emit")?.split(",");
const dump = option("--dump");
const reps = Number(option("--reps") ?? "1");
const load = (p) => import(path.resolve(root, "generators/dist", p));
const { loadSpec } = await load("load/load.js");
const { buildModel } = await load("model/build.js");
const { EMITTERS } = await load("emit/index.js");
const { loadPackageTemplates } = await load("templates/package.js");

const times = new Map();
const record = (stage, ms) => times.set(stage, [...(times.get(stage) ?? []), Math.round(ms)]);
let t = performance.now();
const loaded = await loadSpec(spec, { cwd: root });
record("load", performance.now() - t);
t = performance.now();
const model = buildModel(loaded, "api");
record("model", performance.now() - t);

const emitters = EMITTERS.filter((e) => e.name !== "validators" && (only === undefined || only.includes(e.name)) && (!e.applies || e.applies(model)));
const exports = new Map();
const namespaced = new Set();
const unbarrelled = new Set();
for (const e of EMITTERS) {
  for (const [subpath, module] of Object.entries(e.exports ?? {})) {
    exports.set(subpath, module);
    if (e.barrel === "namespace") namespaced.add(module);
    if (e.barrel === "none") unbarrelled.add(module);
  }
}
const templates = await loadPackageTemplates(undefined, root);
const ctx = { templates, release: { version: "1.0.0", changelog: "" }, model, packageName: "api", exports, namespaced, unbarrelled, dependencies: {}, optionalPeers: {}, workers: 0 };
for (let r = 0; r < reps; r++) {
  for (const e of emitters) {
    t = performance.now();
    const files = await e.emit(ctx);
    record(e.name, performance.now() - t);
    if (dump !== undefined && r === 0) {
      for (const f of files) {
        const file = path.join(dump, f.path);
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, f.contents);
      }
    }
  }
}
for (const [stage, ms] of times) console.log(stage.padEnd(12), ms.join(" "));
console.log("rss MB", Math.round(process.memoryUsage().rss / 1e6));
