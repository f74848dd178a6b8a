// Whether two folders hold the same files with the same bytes: what the incremental and watch
// benchmarks check a regenerated package against a cold run with.
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

function files(dir) {
  const all = [];
  for (const f of readdirSync(dir, { recursive: true })) if (statSync(path.join(dir, f)).isFile()) all.push(f);
  return all.sort();
}

export function sameTree(a, b) {
  const fa = files(a);
  const fb = files(b);
  if (fa.join("\n") !== fb.join("\n")) return false;
  return fa.every((f) => readFileSync(path.join(a, f)).equals(readFileSync(path.join(b, f))));
}
