/**
 * What `contractgen test --spec` names, turned into conformance suites on disk: a package folder
 * under the packages folder (`core`), a generated package anywhere (`../gen/api`, `/tmp/pkg`), or an
 * OpenAPI document, which is generated first into a cache folder and reused while it is unchanged.
 */
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { generate, targetFor, type Reporter } from "../pipeline.js";

/** One generated package whose conformance suite is run. */
export interface Suite {
  /** The package's folder (absolute). */
  readonly dir: string;
  /** `test/conformance.test.ts` inside it (absolute). */
  readonly file: string;
  /** The package's npm name (its package.json `name`), the key of its cases in a baseline. */
  readonly packageName: string;
}

/** Raised for a `--spec` value that names nothing testable; the CLI reports it as a usage error. */
export class SuiteNotFoundError extends Error {}

const SUITE = path.join("test", "conformance.test.ts");
const DOCUMENT = /\.(ya?ml|json)$/i;

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** The package.json name, or the folder name when there is none (a package is still testable). */
function packageNameOf(dir: string): string {
  try {
    const name = (JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { name?: unknown }).name;
    if (typeof name === "string" && name !== "") return name;
  } catch {
    // No or unreadable package.json: the folder name identifies the package well enough.
  }
  return path.basename(dir);
}

function suiteIn(dir: string, shown: string): Suite {
  const file = path.join(dir, SUITE);
  if (!isFile(file)) throw new SuiteNotFoundError(`--spec ${shown}: no conformance suite at ${path.join(shown, SUITE)}; generate the package first (contractgen generate <spec> --out ${shown})`);
  return { dir, file, packageName: packageNameOf(dir) };
}

/** Every package under `packagesDir` that carries a conformance suite, in name order. */
export function workspaceSuites(packagesDir: string): Suite[] {
  if (!isDir(packagesDir)) return [];
  return readdirSync(packagesDir)
    .sort()
    .map((name) => path.join(packagesDir, name))
    .filter((dir) => isFile(path.join(dir, SUITE)))
    .map((dir) => suiteIn(dir, dir));
}

export interface ResolveSuitesOptions {
  readonly cwd: string;
  /** Absolute folder of the workspace's generated packages. */
  readonly packagesDir: string;
  /** Where documents given to --spec are generated. @default "<cwd>/node_modules/.cache/contractgen/test" */
  readonly cacheDir?: string;
  readonly reporter: Reporter;
}

/**
 * One suite per `--spec` value. A bare name is looked up under the packages folder first, so `core`
 * means the workspace's package even when the current folder holds something else called `core`.
 */
export async function resolveSuites(specs: readonly string[], options: ResolveSuitesOptions): Promise<Suite[]> {
  const suites: Suite[] = [];
  for (const spec of specs) {
    const bare = !spec.includes("/") && !spec.includes(path.sep) && !DOCUMENT.test(spec);
    const underPackages = path.join(options.packagesDir, spec);
    if (bare && isDir(underPackages)) {
      suites.push(suiteIn(underPackages, spec));
      continue;
    }
    const given = path.resolve(options.cwd, spec);
    if (isDir(given)) suites.push(suiteIn(given, spec));
    else if (isFile(given)) suites.push(await generatedSuite(given, options));
    else {
      throw new SuiteNotFoundError(`--spec ${spec}: not a package under ${path.relative(options.cwd, options.packagesDir) || "."}/, a generated package folder or an OpenAPI document`);
    }
  }
  // The same package named twice would run its suite twice against one server.
  return suites.filter((s, i) => suites.findIndex((o) => o.file === s.file) === i);
}

/**
 * Generates `document` into `<cacheDir>/<hash of its path>/` and returns that package's suite. The
 * generator's own no-op cache skips the work while the document and the generator are unchanged.
 */
async function generatedSuite(document: string, options: ResolveSuitesOptions): Promise<Suite> {
  const cacheDir = options.cacheDir ?? path.join(options.cwd, "node_modules", ".cache", "contractgen", "test");
  // Keyed by the path, not the contents: editing the document regenerates in place instead of
  // leaving a folder behind per version.
  const key = createHash("sha256").update(document).digest("hex").slice(0, 16);
  const outDir = path.join(cacheDir, key);
  const target = targetFor(options.cwd, document, outDir);
  await generate([target], { cwd: options.cwd, reporter: options.reporter, cacheDir: path.join(cacheDir, ".generate") });
  return suiteIn(outDir, path.relative(options.cwd, outDir));
}

/** Whether a folder lies inside another (or is it). */
export function isInside(dir: string, parent: string): boolean {
  const rel = path.relative(parent, dir);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}
