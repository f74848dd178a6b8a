// Whether two builds of @contractgen/runtime's mock-data generator draw the same values: every
// component schema of each given generated package, seeds 1..N, each generator with the package's
// own validators as its hook. A change meant to make drawing faster must print "differ 0".
//   node scripts/bench/mock-draws-same.mjs <before runtime dist> <after runtime dist> <seeds> <package folder>…
// (a package folder holds compiled/mocks.data.js and dist/ or src/ validators.js, as a generated and
// built package, or `contractgen mock --spec`'s cache under node_modules/.cache/contractgen/mock/run/).
import path from "node:path";
import { pathToFileURL } from "node:url";
const [beforeDist, afterDist, seedsArg, ...pkgs] = process.argv.slice(2);
const load = async (dist) => (await import(pathToFileURL(path.join(dist, "mock/mock-data.js")).href)).createMockGenerator;
const [before, after] = [await load(beforeDist), await load(afterDist)];
let compared = 0,
  differ = 0;
for (const pkg of pkgs) {
  const data = await import(pathToFileURL(path.join(pkg, "compiled/mocks.data.js")).href);
  const v = await import(pathToFileURL(path.join(pkg, "dist/validators.js")).href).catch(() => import(pathToFileURL(path.join(pkg, "src/validators.js")).href));
  const keys = new Map(data.schemaTypeNames);
  const hook = (name, value) => {
    const k = keys.get(name);
    const f = k === undefined ? undefined : v.schemaValidators[k];
    return f === undefined || f(value);
  };
  const gens = [before, after].map((g) => g({ root: data.mockDocument(), validate: hook }));
  const names = Object.keys(data.mockDocument().components?.schemas ?? {});
  let n = 0;
  for (const name of names)
    for (let seed = 1; seed <= Number(seedsArg); seed++) {
      const out = gens.map((g) => {
        try {
          return JSON.stringify(g.forSchema(name, seed));
        } catch (e) {
          return `error: ${e.message}`;
        }
      });
      compared++;
      n++;
      if (out[0] !== out[1]) {
        differ++;
        if (differ < 5) console.log("DIFF", pkg, name, seed, out[0].slice(0, 200), "|", out[1].slice(0, 200));
      }
    }
  console.log(pkg, names.length, "schemas", n, "draws");
}
console.log(`compared ${compared}, differ ${differ}`);
