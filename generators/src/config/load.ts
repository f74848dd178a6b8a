/**
 * Finds and reads `contractgen.config.ts` / `.mjs` / `.json` in the working directory, checks its
 * shape (errors name the file, the member and the fix) and resolves its paths against its folder.
 */
import { existsSync } from "node:fs";
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { typescript } from "../emit/types-tools.js";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ARTIFACTS, isArtifact, type ArtifactName } from "../emit/artifacts.js";
import type { ContractgenConfig, Layout, ScaffoldEntry, SecurityConfig, SpecEntry } from "./define.js";

export const CONFIG_FILES = ["contractgen.config.ts", "contractgen.config.mjs", "contractgen.config.json"] as const;

/** A config the user must fix: the file, where in it, what and how. */
export class ConfigError extends Error {
  constructor(
    readonly file: string,
    readonly where: string,
    readonly problem: string,
    readonly fix: string,
  ) {
    super(`${file} ${where}\n  error: ${problem}\n  fix: ${fix}`);
    this.name = "ConfigError";
  }
}

export interface LoadedConfig {
  /** As displayed (relative to the working directory). */
  readonly file: string;
  /** Folder the config's paths are relative to. */
  readonly dir: string;
  readonly config: ContractgenConfig;
}

/** The config named by `explicit`, else the first of CONFIG_FILES in `cwd`; undefined when none. */
export async function loadConfig(cwd: string, explicit?: string): Promise<LoadedConfig | undefined> {
  const found = explicit !== undefined ? path.resolve(cwd, explicit) : CONFIG_FILES.map((f) => path.join(cwd, f)).find((f) => existsSync(f));
  if (found === undefined) return undefined;
  const file = path.relative(cwd, found) || found;
  if (!existsSync(found)) throw new ConfigError(file, "", "no such file", "check the --config path");
  const raw = found.endsWith(".json") ? parseJson(file, await readFile(found, "utf8")) : await importModule(file, found);
  return { file, dir: path.dirname(found), config: checkConfig(file, raw) };
}

function parseJson(file: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new ConfigError(file, "", `not JSON: ${(e as Error).message}`, "fix the syntax, or write contractgen.config.ts with defineConfig");
  }
}

/**
 * Imports a `.ts` config by transpiling it beside itself (so its imports resolve as written) to a
 * temporary `.mjs` that is removed again; Node 20 cannot import TypeScript by itself.
 */
async function importModule(file: string, abs: string): Promise<unknown> {
  let target = abs;
  let temp: string | undefined;
  if (abs.endsWith(".ts")) {
    temp = path.join(path.dirname(abs), `.${path.basename(abs, ".ts")}.${process.pid}.${Date.now()}.mjs`);
    await writeFile(temp, await transpiled(file, abs));
    target = temp;
  }
  try {
    const mod = (await import(pathToFileURL(target).href)) as { default?: unknown };
    if (mod.default === undefined) throw new ConfigError(file, "", "has no default export", "end it with `export default defineConfig({ … })`");
    return mod.default;
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    throw new ConfigError(file, "", `could not be loaded: ${(e as Error).message}`, "run it with node to see the error; imports resolve from the config's folder");
  } finally {
    if (temp) await rm(temp, { force: true });
  }
}

/**
 * The config's JavaScript. Loading TypeScript costs most of a second, more than the whole no-op
 * check it precedes, so the output is kept under node_modules/.cache beside the config, keyed by
 * the config's text and TypeScript's version; a syntax error is reported, never kept.
 */
async function transpiled(file: string, abs: string): Promise<string> {
  const source = await readFile(abs, "utf8");
  const require = createRequire(import.meta.url);
  let version = "?";
  try {
    version = (JSON.parse(await readFile(require.resolve("typescript/package.json"), "utf8")) as { version?: string }).version ?? "?";
  } catch {
    // Unknown version: the key still changes with the text.
  }
  const key = createHash("sha256").update(`${version}\0ESNext/ES2022\0${source}`).digest("hex").slice(0, 32);
  const cached = path.join(path.dirname(abs), "node_modules", ".cache", "contractgen", "config", `${key}.mjs`);
  try {
    return await readFile(cached, "utf8");
  } catch {
    // Not transpiled before: below.
  }
  const ts = typescript();
  const out = ts.transpileModule(source, { fileName: abs, reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
  const syntax = out.diagnostics?.[0];
  if (syntax?.file && syntax.start !== undefined) {
    const { line, character } = syntax.file.getLineAndCharacterOfPosition(syntax.start);
    throw new ConfigError(`${file}:${line + 1}:${character + 1}`, "", ts.flattenDiagnosticMessageText(syntax.messageText, "\n"), "fix the syntax error");
  }
  try {
    await mkdir(path.dirname(cached), { recursive: true });
    await writeFile(cached, out.outputText);
  } catch {
    // A read-only folder: transpile again next time.
  }
  return out.outputText;
}

const KEYS = ["scope", "specDir", "packagesDir", "specs", "artifacts", "layout", "templates", "scaffold", "security"];

function checkConfig(file: string, raw: unknown): ContractgenConfig {
  const fail = (where: string, problem: string, fix: string): never => {
    throw new ConfigError(file, where, problem, fix);
  };
  const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
  if (!isRecord(raw)) return fail("", "the config is not an object", "export default defineConfig({ … })");
  for (const k of Object.keys(raw)) if (!KEYS.includes(k)) fail(k, `unknown option ${JSON.stringify(k)}`, `use one of: ${KEYS.join(", ")}`);
  const str = (where: string, v: unknown): string | undefined => (v === undefined ? undefined : typeof v === "string" && v !== "" ? v : fail(where, "must be a non-empty string", "give a string"));
  const artifacts = (where: string, v: unknown): readonly ArtifactName[] | undefined => {
    if (v === undefined) return undefined;
    if (!Array.isArray(v)) return fail(where, "must be an array of artifact names", `list some of: ${ARTIFACTS.join(", ")}`);
    return v.map((a, i) => (typeof a === "string" && isArtifact(a) ? a : fail(`${where}[${i}]`, `unknown artifact ${JSON.stringify(a)}`, `use one of: ${ARTIFACTS.join(", ")}`)));
  };
  const layout = (where: string, v: unknown): Layout | undefined =>
    v === undefined ? undefined : v === "package" || v === "sources" ? v : fail(where, `unknown layout ${JSON.stringify(v)}`, 'use "package" or "sources"');
  const list = <T>(where: string, v: unknown, item: (x: Record<string, unknown>, at: string) => T): readonly T[] | undefined => {
    if (v === undefined) return undefined;
    if (!Array.isArray(v)) return fail(where, "must be an array", "give a list of entries");
    return v.map((x, i) => (isRecord(x) ? item(x, `${where}[${i}]`) : fail(`${where}[${i}]`, "must be an object", "give an object")));
  };
  const specs = list("specs", raw["specs"], (x, at): SpecEntry => {
    for (const k of Object.keys(x))
      if (!["spec", "out", "name", "artifacts", "layout"].includes(k)) fail(`${at}.${k}`, `unknown option ${JSON.stringify(k)}`, "use spec, out, name, artifacts or layout");
    const spec = str(`${at}.spec`, x["spec"]) ?? fail(`${at}.spec`, "is missing", "name the OpenAPI document");
    const out = str(`${at}.out`, x["out"]);
    const name = str(`${at}.name`, x["name"]);
    const arts = artifacts(`${at}.artifacts`, x["artifacts"]);
    const lay = layout(`${at}.layout`, x["layout"]);
    return { spec, ...(out ? { out } : {}), ...(name ? { name } : {}), ...(arts ? { artifacts: arts } : {}), ...(lay ? { layout: lay } : {}) };
  });
  const scaffold = list("scaffold", raw["scaffold"], (x, at): ScaffoldEntry => ({
    source: str(`${at}.source`, x["source"]) ?? fail(`${at}.source`, "is missing", "name the spec or generated package"),
    out: str(`${at}.out`, x["out"]) ?? fail(`${at}.out`, "is missing", "name the project folder"),
  }));
  const security = ((v: unknown): SecurityConfig | undefined => {
    if (v === undefined) return undefined;
    if (!isRecord(v)) return fail("security", "must be an object", "give { refRoots?: string[], backtrackingPatterns?: string[] }");
    for (const k of Object.keys(v)) if (!["refRoots", "backtrackingPatterns"].includes(k)) fail(`security.${k}`, `unknown option ${JSON.stringify(k)}`, "use refRoots or backtrackingPatterns");
    const strings = (where: string, x: unknown, nonEmpty: boolean): readonly string[] | undefined => {
      if (x === undefined) return undefined;
      if (!Array.isArray(x)) return fail(where, "must be an array of strings", "give a list of strings");
      return x.map((s, i) => (typeof s === "string" && (!nonEmpty || s !== "") ? s : fail(`${where}[${i}]`, "must be a non-empty string", "give a string")));
    };
    const refRoots = strings("security.refRoots", v["refRoots"], true);
    const backtrackingPatterns = strings("security.backtrackingPatterns", v["backtrackingPatterns"], false);
    return { ...(refRoots ? { refRoots } : {}), ...(backtrackingPatterns ? { backtrackingPatterns } : {}) };
  })(raw["security"]);
  const scope = str("scope", raw["scope"]);
  const specDir = str("specDir", raw["specDir"]);
  const packagesDir = str("packagesDir", raw["packagesDir"]);
  const templates = str("templates", raw["templates"]);
  const arts = artifacts("artifacts", raw["artifacts"]);
  const lay = layout("layout", raw["layout"]);
  return {
    ...(lay ? { layout: lay } : {}),
    ...(scope ? { scope } : {}),
    ...(specDir ? { specDir } : {}),
    ...(packagesDir ? { packagesDir } : {}),
    ...(specs ? { specs } : {}),
    ...(arts ? { artifacts: arts } : {}),
    ...(templates ? { templates } : {}),
    ...(scaffold ? { scaffold } : {}),
    ...(security ? { security } : {}),
  };
}
