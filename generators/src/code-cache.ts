/**
 * TypeScript's compiler (one 9 MB CommonJS file) required through V8's code cache. Compiling it is
 * about 0.2 s of every process or worker that prints types or reads a `contractgen.config.ts`;
 * from the cache it is about 0.05 s. The cache is written at build time (`npm run
 * build:generators` runs this module) by the Node that builds, into dist/code-cache, after a small
 * use of the compiler so the functions a run calls first are in it too. A cache from another Node
 * is never read (its version and architecture are in the file name), and V8 refuses one whose V8
 * flags or source differ: the module then compiles as `require` would. What the module does never
 * depends on the cache, only how long it takes to start.
 * Usage (build step): node generators/dist/code-cache.js
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

const require = createRequire(import.meta.url);

const CACHE_DIR = fileURLToPath(new URL("./code-cache/", import.meta.url));

/** Where the code cache of the installed package `id` lives for this Node. */
export function codeCacheFile(id: string): string {
  const { version } = require(`${id}/package.json`) as { version: string };
  return path.join(CACHE_DIR, `${id.replace(/[^a-z0-9.-]/gi, "_")}-${version}-node${process.version}-${process.arch}.v8`);
}

/** The module as `require` would load it, compiled with `cachedData` (undefined: none) and registered in require's cache. */
function load(resolved: string, cachedData: Buffer | undefined): { exports: unknown; script: vm.Script } {
  const script = new vm.Script(Module.wrap(readFileSync(resolved, "utf8")), { filename: resolved, ...(cachedData ? { cachedData } : {}) });
  const mod = new Module(resolved);
  mod.filename = resolved;
  // Registered before it runs, as require does, so a module it requires back sees it.
  require.cache[resolved] = mod;
  try {
    const wrapper = script.runInThisContext() as (exports: unknown, require: NodeRequire, module: Module, filename: string, dirname: string) => void;
    wrapper.call(mod.exports, mod.exports, createRequire(resolved), mod, resolved, path.dirname(resolved));
  } catch (err) {
    delete require.cache[resolved];
    throw err;
  }
  mod.loaded = true;
  return { exports: mod.exports, script };
}

/**
 * `require(id)`, through the code cache when this Node has one for the installed version. Packages
 * that require `id` themselves (openapi-typescript requires typescript) get this same instance.
 */
export function requireCached(id: string): unknown {
  const resolved = require.resolve(id);
  const loaded = require.cache[resolved];
  if (loaded) return loaded.exports;
  let cachedData: Buffer;
  try {
    cachedData = readFileSync(codeCacheFile(id));
  } catch {
    return require(id);
  }
  return load(resolved, cachedData).exports;
}

/**
 * Writes the code cache of `id` for this Node, after `warmUp` has used the module (functions V8
 * compiled by then are in the cache). Returns the file written.
 */
export function writeCodeCache(id: string, warmUp: (exports: unknown) => void): string {
  const resolved = require.resolve(id);
  if (require.cache[resolved]) throw new Error(`${id} is loaded already: write its code cache from a fresh process`);
  const { exports, script } = load(resolved, undefined);
  warmUp(exports);
  mkdirSync(CACHE_DIR, { recursive: true });
  const file = codeCacheFile(id);
  writeFileSync(file, script.createCachedData());
  return file;
}

/** What the build runs TypeScript through before caching it: printing and transpiling, as a run does. */
function warmTypescript(exports: unknown): void {
  const ts = exports as typeof import("typescript");
  const f = ts.factory;
  const alias = f.createTypeAliasDeclaration(
    [f.createModifier(ts.SyntaxKind.ExportKeyword)],
    "A",
    undefined,
    f.createTypeLiteralNode([f.createPropertySignature(undefined, "a", f.createToken(ts.SyntaxKind.QuestionToken), f.createKeywordTypeNode(ts.SyntaxKind.StringKeyword))]),
  );
  ts.createPrinter().printList(ts.ListFormat.MultiLine, f.createNodeArray([alias]), ts.createSourceFile("a.ts", "", ts.ScriptTarget.ESNext));
  ts.transpileModule("export default { specs: [] as string[] };", { compilerOptions: { module: ts.ModuleKind.ESNext } });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = writeCodeCache("typescript", warmTypescript);
  process.stdout.write(`code cache ${path.relative(process.cwd(), file)}\n`);
}
