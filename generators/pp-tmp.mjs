import { readFileSync } from "node:fs";
import { execSync } from "node:child_process";
const prettier = await import("prettier");
const { PRETTIER_OPTIONS } = await import("./dist/write/format.js");
const PIECE_BOUNDARY = /(?<=[;}])\n\n+(?=\/\*\*|\/\/|(?:export|import|const|let|function|class|interface|type|declare|enum|async|abstract)\b)/;
const opts = { ...PRETTIER_OPTIONS, parser: "babel-ts" };
const MARK = "// @contractgen-piece-boundary";
const files = execSync(`find /work/main/packages/core /work/main/packages/ads-audiences /work/main/packages/ads-campaigns /tmp/gh-b/pkg -name "*.ts" -not -path "*/node_modules/*" -not -path "*/dist/*" -size -129k`, { encoding: "utf8" }).trim().split("\n");
let pieces = 0, mismatch = 0, tAlone = 0, tBatch = 0, splitFail = 0;
for (const f of files) {
  const ps = readFileSync(f, "utf8").split(PIECE_BOUNDARY);
  let t = performance.now();
  const alone = [];
  for (const p of ps) { try { alone.push(await prettier.format(p, opts)); } catch { alone.push(null); } }
  tAlone += performance.now() - t;
  if (alone.includes(null)) continue;
  t = performance.now();
  const out = await prettier.format(ps.join(`\n\n${MARK}\n\n`), opts);
  tBatch += performance.now() - t;
  const parts = out.split(`\n${MARK}\n\n`).map((x, i, a) => i < a.length - 1 ? x.replace(/\n*$/, "\n") : x);
  if (parts.length !== ps.length) { splitFail++; console.log("split", f, parts.length, ps.length); continue; }
  pieces += ps.length;
  parts.forEach((p, i) => { if (p !== alone[i]) { mismatch++; if (mismatch < 4) console.log("MISMATCH", f, i, JSON.stringify(p.slice(0,200)), JSON.stringify(alone[i].slice(0,200))); } });
}
console.log({ files: files.length, pieces, mismatch, splitFail, aloneMs: Math.round(tAlone), batchMs: Math.round(tBatch) });
