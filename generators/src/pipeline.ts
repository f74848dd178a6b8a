import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import type { GeneratedFile } from "./emit/index.js";
import { emittersFor, type ArtifactName } from "./emit/artifacts.js";
import { loadPackageTemplates, templatesHash, type PackageTemplates } from "./templates/package.js";
import { headerText } from "./emit/header.js";
import type { ApiModel } from "./model/ir.js";
import { kebabCase } from "./model/naming.js";
import { SpecError, formatIssue, parsePointer } from "./load/errors.js";
import type { OpenApiDocument } from "./load/load.js";
import type { ModelOutline } from "./model/build.js";
import type { PreviousState } from "./release.js";
import { diffOutput, scanAndWriteOutput, type Drift } from "./write/write.js";
import { workflowsPathFor } from "./workflows/path.js";
import { generatorFingerprint, hashContents, hashFiles, isUpToDate, readCache, writeCache } from "./write/cache.js";
import { PackCache, openPackageCaches, packFile, salted, type PackageCaches } from "./write/content-cache.js";
import { defaultWorkerCount, releaseWorkers } from "./workers/pool.js";
import { createRequire } from "node:module";

/** One spec and the package it becomes. */
export interface Target {
  readonly specPath: string;
  readonly outDir: string;
  readonly packageName: string;
  /** Short name used in messages and generated names (`core`). */
  readonly name: string;
  /** Artifacts to emit (what they import comes with them). @default every artifact */
  readonly artifacts?: readonly ArtifactName[];
  /** Folder overriding templates/package/ by path. @default the built-in templates */
  readonly templates?: string;
  /** `sources`: modules for an application's source folder (emit/sources-layout.ts). @default "package" */
  readonly layout?: "package" | "sources";
  /** Absolute folders `$ref`s may read besides the root spec's own (config `security.refRoots`). @default [] */
  readonly refRoots?: readonly string[];
  /** Patterns RE2 cannot express that may still run, bounded (config `security.backtrackingPatterns`). @default [] */
  readonly backtrackingPatterns?: readonly string[];
}

export interface Reporter {
  /** One finished stage of one package, with its duration. */
  step(target: Target, stage: string, ms: number): void;
  info(message: string): void;
  debug(message: string): void;
}

export interface ProjectLayout {
  /** Folder holding one spec per package (its top level only; `common/` holds shared pieces). @default "spec" */
  readonly specDir?: string;
  /** Folder the packages are generated into. @default "packages" */
  readonly packagesDir?: string;
  /** npm scope of generated package names. @default "@devplatform" */
  readonly scope?: string;
}

export interface RunOptions {
  readonly cwd: string;
  readonly reporter: Reporter;
  /** Regenerate even when nothing changed. @default false */
  readonly force?: boolean;
  /** Where no-op hashes and the content caches live (safe to delete: only the next run is slower). @default "<cwd>/node_modules/.cache/contractgen" */
  readonly cacheDir?: string;
  /**
   * Worker threads for the validators' compilation (0: none, all on the main thread).
   * @default `CONTRACTGEN_WORKERS`, else min(2, available cores)
   */
  readonly workers?: number;
  /**
   * Keep the worker threads between runs, as `--watch` does: a run after the first neither starts
   * them nor loads and warms up their code again (on GitHub's description, most of a second of
   * the types' worker), and the process holds their heaps between runs. One-off runs end the
   * large ones as soon as they are done, which keeps a cold run's peak memory low.
   * @default false
   */
  readonly keepWorkers?: boolean;
}

export interface TargetResult {
  readonly target: Target;
  readonly skipped: boolean;
  readonly drift?: Drift;
  /** Absolute paths of every file the spec was read from (what --watch watches). */
  readonly sources: readonly string[];
}

/** The specs under `specDir`: files at its top level whose content declares `openapi`. */
export async function discoverTargets(cwd: string, layout: ProjectLayout = {}): Promise<Target[]> {
  const specDir = path.resolve(cwd, layout.specDir ?? "spec");
  const packagesDir = path.resolve(cwd, layout.packagesDir ?? "packages");
  const scope = layout.scope ?? "@devplatform";
  const names = (await readdir(specDir)).filter((f) => /\.(ya?ml|json)$/i.test(f)).sort();
  const targets: Target[] = [];
  for (const file of names) {
    const text = await readFile(path.join(specDir, file), "utf8");
    if (!/^\s*((openapi|swagger)\s*:|\{[\s\S]{0,200}?"(openapi|swagger)"\s*:)/m.test(text.slice(0, 4096))) continue;
    const name = kebabCase(file.replace(/\.(ya?ml|json)$/i, ""));
    targets.push({
      specPath: path.relative(cwd, path.join(specDir, file)) || file,
      outDir: path.join(packagesDir, name),
      packageName: `${scope}/${name}`,
      name,
    });
  }
  return targets;
}

export function targetFor(cwd: string, specPath: string, outDir: string, packageName?: string): Target {
  const base = kebabCase(path.basename(specPath).replace(/\.(ya?ml|json)$/i, ""));
  return { specPath, outDir: path.resolve(cwd, outDir), packageName: packageName ?? base, name: base };
}

interface Rendered {
  readonly target: Target;
  /** What the run computed and can reuse next time (saved once the package is written). */
  readonly caches: PackageCaches;
  readonly model: ApiModel;
  /** Which run of this process rendered it (see ReleaseRequest in emit/offload.ts). */
  readonly run: number;
  readonly files: readonly GeneratedFile[];
  readonly sources: readonly string[];
}

/** Renders so far in this process: each run's number. */
let runs = 0;

const now = (): number => performance.now();

/**
 * Resident memory above which the worker threads are ended once a package's emitters are done
 * (see render). GitHub's REST description goes well over it; the repository's specs stay far under.
 * @default 512 MiB
 */
const RELEASE_WORKERS_ABOVE_RSS = 512 * 1024 * 1024;

/** Load → model → every emitter → format, all in memory. Throws SpecError for bad input. */
export async function render(target: Target, options: RunOptions, templates?: PackageTemplates): Promise<Rendered> {
  const { loadSpec } = await import("./load/load.js");
  const { buildModel } = await import("./model/build.js");
  const { formatFiles } = await import("./write/format.js");
  const { reporter } = options;

  const cachesReady = openPackageCaches(cacheDirOf(options), target.outDir);
  // The loader's pack alone is awaited before loading (PackCache.open shares the read).
  const loadCache = salted(await PackCache.open(packFile(cacheDirOf(options), target.outDir, "load")), await contentSalt());
  let t = now();
  const spec = await loadSpec(target.specPath, { cwd: options.cwd, cache: loadCache, ...(target.refRoots ? { refRoots: target.refRoots } : {}) });
  const { checkPatterns } = await import("./load/patterns.js");
  checkPatterns(spec, target.backtrackingPatterns ?? []);
  reporter.step(target, "load", now() - t);
  for (const w of spec.warnings) reporter.info(`warning: ${formatIssue(w).replace("\n  error: ", "\n  ")}`);

  t = now();
  const built = buildModel(spec, target.name);
  reporter.step(target, "model", now() - t);
  t = now();
  const { loadWorkflows } = await import("./workflows/load.js");
  // Other contracts a workflow calls are loaded as this one is, for their operations only; their
  // files are sources of this package too (a change there regenerates it).
  const otherFiles: string[] = [];
  const flows = await loadWorkflows(target.specPath, options.cwd, built, async (abs, name) => {
    const other = await loadSpec(abs, { cwd: options.cwd, ...(target.refRoots ? { refRoots: target.refRoots } : {}) });
    otherFiles.push(...other.files.map((f) => f.absPath));
    return buildModel(other, name);
  });
  const model: ApiModel = flows.workflows.length > 0 ? { ...built, workflows: flows.workflows } : built;
  if (flows.file !== undefined) reporter.step(target, "workflows", now() - t);

  // An emitter with nothing to say for this contract (no webhooks: no receiver) writes no subpath.
  const emitters = (await emittersFor(target.artifacts)).filter((e) => !e.applies || e.applies(model));
  const exports = new Map<string, string>();
  const namespaced = new Set<string>();
  const unbarrelled = new Set<string>();
  for (const e of emitters) {
    for (const [subpath, module] of Object.entries(e.exports ?? {})) {
      exports.set(subpath, module);
      if (e.barrel === "namespace") namespaced.add(module);
      if (e.barrel === "none") unbarrelled.add(module);
    }
  }
  const merged = (pick: (e: (typeof emitters)[number]) => Readonly<Record<string, string>> | undefined): Record<string, string> => {
    const all: Record<string, string> = {};
    for (const e of emitters) Object.assign(all, pick(e) ?? {});
    return Object.fromEntries(Object.entries(all).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  };
  const caches = await cachesReady;
  const salt = await contentSalt();
  const { release } = await import("./release.js");
  const { packageVersion } = await import("./emit/package.js");
  const previous = await readPrevious(target.outDir);
  let rel: { readonly version: string; readonly changelog: string } | undefined;
  const ctx = {
    templates: templates ?? (await loadPackageTemplates(target.templates, options.cwd)),
    // The release (a diff against the last contract: most of a second on GitHub's description after
    // an edit) is computed when first read, by the package emitter, the last to start: the worker's
    // tasks and the other emitters start before it instead of after.
    get release(): { readonly version: string; readonly changelog: string } {
      if (rel === undefined) {
        const t0 = now();
        const r = release(previous, model.document as OpenApiDocument, packageVersion(model.info.version), model.source.path, model);
        rel = { version: r.version, changelog: r.changelog };
        reporter.step(target, "release", now() - t0);
      }
      return rel;
    },
    model,
    packageName: target.packageName,
    exports,
    namespaced,
    unbarrelled,
    dependencies: merged((e) => e.dependencies),
    optionalPeers: merged((e) => e.optionalPeers),
    ...(options.workers !== undefined ? { workers: options.workers } : {}),
    ...(options.keepWorkers ? { keepWorkers: true } : {}),
    unitCache: salted(caches.units, salt),
  };

  // Emitters start in order. One that awaits (the validators, compiling on worker threads) lets
  // the ones after it run meanwhile, and each emitter's files are formatted as soon as they exist,
  // one emitter's files at a time. Results are put back in emitter order: output never depends on
  // which finished first.
  const emitted: Promise<readonly GeneratedFile[]>[] = [];
  // A large contract's model-only emitters run on a worker thread meanwhile (emit/offload.ts); a
  // worker kept between runs diffs the release there too, against the model it kept from the run
  // that wrote contract.json.
  const { offloaded } = await import("./emit/offload.js");
  const run = ++runs;
  const releaseRequest = {
    outDir: path.resolve(target.outDir),
    ...(previous.contractRun !== undefined ? { previousRun: previous.contractRun } : {}),
    run,
    previous: { ...(previous.version !== undefined ? { version: previous.version } : {}), ...(previous.changelog !== undefined ? { changelog: previous.changelog } : {}) },
    specVersion: packageVersion(model.info.version),
    specPath: model.source.path,
  };
  const elsewhere = offloaded(model, emitters, options.workers ?? defaultWorkerCount(), options.keepWorkers === true, releaseRequest);
  for (const emitter of emitters) {
    if (emitter.readsRelease && elsewhere?.release !== undefined && rel === undefined) {
      const t0 = now();
      const answer = await elsewhere.release;
      if (answer !== undefined) {
        rel = answer;
        reporter.step(target, "release", now() - t0);
        reporter.debug(`${target.packageName}: release diffed on the kept worker thread`);
      }
    }
    const started = now();
    let files: readonly GeneratedFile[] | Promise<readonly GeneratedFile[]>;
    try {
      files = elsewhere?.files.get(emitter.name) ?? emitter.emit(ctx);
    } catch (err) {
      // A synchronous failure stops the run here, as it always did; what already started is let settle.
      await Promise.allSettled(emitted);
      throw await locateEmitterIssues(err, spec);
    }
    if (!(files instanceof Promise)) {
      reporter.step(target, emitter.name, now() - started);
      emitted.push(Promise.resolve(files));
      continue;
    }
    // An awaiting emitter's time is from its start to its files, other emitters' work included.
    emitted.push(
      files.then((done) => {
        reporter.step(target, emitter.name, now() - started);
        return done;
      }),
    );
  }
  // Formatting (on worker threads when there is much of it) starts as soon as an emitter's files
  // exist; its time is from the first start to the last end.
  let formatStart: number | undefined;
  let formatEnd = 0;
  const formatOptions = options.workers !== undefined ? { workers: options.workers } : {};
  const formattedGroups = emitted.map((group) =>
    group.then(async (files) => {
      formatStart ??= now();
      const out = await formatFiles(files, salted(caches.format, salt), formatOptions);
      formatEnd = now();
      return out;
    }),
  );
  const settled = await Promise.allSettled(formattedGroups);
  // After a large contract the workers' heaps are a large share of the process: end them before the
  // output is written (the write's peak adds to theirs). A small contract keeps them for the next.
  if (!options.keepWorkers && process.memoryUsage.rss() > RELEASE_WORKERS_ABOVE_RSS) releaseWorkers();
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed) throw await locateEmitterIssues(failed.reason, spec);
  const formatted = settled.flatMap((s) => (s.status === "fulfilled" ? s.value : []));
  reporter.step(target, "format", formatStart === undefined ? 0 : formatEnd - formatStart);

  const byPath = new Map<string, GeneratedFile>();
  for (const f of formatted) {
    if (byPath.has(f.path)) throw new Error(`two emitters wrote ${f.path}`);
    byPath.set(f.path, f);
  }
  const packaged = [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const sorted = target.layout === "sources" ? (await import("./emit/sources-layout.js")).toSourcesLayout(packaged) : packaged;
  reporter.debug(`${target.packageName}: ${sorted.length} files; ${headerText(model)}`);
  return { target, caches, model, run, files: sorted, sources: [...new Set([...spec.files.map((f) => f.absPath), ...(flows.file !== undefined ? [flows.file] : []), ...otherFiles])] };
}

/**
 * An emitter that refuses part of the contract (the MCP profile linter) knows the JSON pointer but
 * not the source files; its issues get their file:line:col here, like the loader's.
 */
async function locateEmitterIssues(err: unknown, spec: import("./load/load.js").LoadedSpec): Promise<unknown> {
  if (!(err instanceof SpecError) || err.issues.every((i) => i.line !== undefined)) return err;
  const { locateIssue } = await import("./load/load.js");
  const files = new Map(spec.files.map((f) => [f.absPath, f]));
  return new SpecError(err.issues.map((i) => (i.line !== undefined ? i : locateIssue(files, spec.root.absPath, parsePointer(i.pointer), i.message, i.fix))));
}

/** What the last generation left, and which run of this process wrote its contract.json, if one did. */
type Previous = PreviousState & { readonly contractRun?: number };

/** What the last generation left in the package folder: version, contract snapshot, changelog. */
async function readPrevious(outDir: string): Promise<Previous> {
  const read = async (name: string): Promise<string | undefined> => {
    try {
      return await readFile(path.join(outDir, name), "utf8");
    } catch {
      return undefined;
    }
  };
  const [pkg, contract, changelog] = await Promise.all([read("package.json"), read("contract.json"), read("CHANGELOG.md")]);
  const out: { -readonly [K in keyof Previous]: Previous[K] } = {};
  try {
    if (pkg) {
      const v = (JSON.parse(pkg) as { version?: unknown }).version;
      if (typeof v === "string") out.version = v;
    }
    // The file this process wrote last time, unchanged: its outline is the one kept then.
    const known = lastContracts.get(path.resolve(outDir));
    if (contract !== undefined && known?.text === contract) {
      out.contractOutline = known.outline;
      out.contractRun = known.run;
    } else if (contract) out.contract = JSON.parse(contract);
  } catch {
    // A hand-mangled file is not history: generate as if for the first time.
    return {};
  }
  if (changelog !== undefined) out.changelog = changelog;
  return out;
}

/**
 * The contract.json this process last wrote into each package folder (by absolute path), and the
 * outline of the model it was written from. The next run of `--watch` reads the same text back,
 * and the release's diff starts from the outline instead of parsing and outlining the file again
 * (on GitHub's description, a third of a second). Only kept when the document survives JSON as it
 * is (`jsonExact`), so the outline is exactly what parsing the file would give.
 */
const lastContracts = new Map<string, { readonly text: string; readonly outline: ModelOutline; readonly run: number }>();

/** Whether `JSON.parse(JSON.stringify(value))` gives `value` back: finite numbers, plain members, no `undefined`. */
function jsonExact(value: unknown): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) {
    for (const item of value) if (!jsonExact(item)) return false;
    return true;
  }
  if (typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const key in value) if (!jsonExact((value as Record<string, unknown>)[key])) return false;
  return true;
}

/** Templates read once per run and override folder (a run over 130 specs would read them 390 times). */
function templateReader(cwd: string): (target: Target) => Promise<PackageTemplates> {
  const byDir = new Map<string, Promise<PackageTemplates>>();
  return (target) => {
    const key = target.templates ?? "";
    let found = byDir.get(key);
    if (!found) byDir.set(key, (found = loadPackageTemplates(target.templates, cwd)));
    return found;
  };
}

/** What, besides the generator and the spec, decides a target's output: its name, artifacts and templates. */
function targetKey(target: Target, templates: PackageTemplates, cwd: string): string {
  // Whether a workflow document sits beside the spec: adding one must regenerate, not be a no-op.
  const workflows = workflowsPathFor(path.resolve(cwd, target.specPath)) ?? "";
  return JSON.stringify([
    target.packageName,
    target.specPath,
    target.artifacts ?? "all",
    target.layout ?? "package",
    templatesHash(templates),
    workflows,
    target.refRoots ?? [],
    target.backtrackingPatterns ?? [],
  ]);
}

/**
 * What content-cache entries depend on besides their own input: the generator build and the tools
 * whose output they hold. A new version of any of them is a new namespace, never a stale hit.
 */
async function contentSalt(): Promise<string> {
  const require = createRequire(import.meta.url);
  const versions = ["ajv", "ajv-formats", "ajv-draft-04", "prettier", "yaml"].map((name) => {
    try {
      return `${name}@${(require(`${name}/package.json`) as { version?: string }).version ?? "?"}`;
    } catch {
      return `${name}@?`;
    }
  });
  return generatorFingerprint(`content\0${versions.join("\0")}`);
}

function cacheDirOf(options: RunOptions): string {
  return options.cacheDir ?? path.join(options.cwd, "node_modules", ".cache", "contractgen");
}

/**
 * Generates every target. All packages are rendered before anything is written, so bad input in
 * any spec leaves every package as it was.
 */
export async function generate(targets: readonly Target[], options: RunOptions): Promise<TargetResult[]> {
  const cacheDir = cacheDirOf(options);
  const templatesOf = templateReader(options.cwd);
  const results: TargetResult[] = [];
  const pending: Target[] = [];
  for (const target of targets) {
    const cached = options.force ? undefined : await readCache(cacheDir, target.outDir);
    const fingerprint = await generatorFingerprint(targetKey(target, await templatesOf(target), options.cwd));
    if (cached && (await isUpToDate(cached, fingerprint))) {
      options.reporter.info(`${target.packageName}  up to date (spec and output unchanged)`);
      results.push({ target, skipped: true, sources: Object.keys(cached.sources) });
    } else pending.push(target);
  }

  const rendered: Rendered[] = [];
  for (const target of pending) rendered.push(await render(target, options, await templatesOf(target)));

  for (const r of rendered) {
    const t = now();
    const { drift, hashes } = await scanAndWriteOutput(r.target.outDir, r.files);
    const fingerprint = await generatorFingerprint(targetKey(r.target, await templatesOf(r.target), options.cwd));
    const sources = (await hashFiles(r.sources)) ?? {};
    const outputs: Record<string, string> = {};
    for (const f of r.files) outputs[path.join(r.target.outDir, f.path)] = hashes.get(f.path) ?? hashContents(f.contents);
    await writeCache(cacheDir, r.target.outDir, { fingerprint, sources, outputs });
    const contract = r.files.find((f) => f.path === "contract.json");
    if (contract !== undefined && jsonExact(r.model.document)) lastContracts.set(path.resolve(r.target.outDir), { text: contract.contents, outline: r.model, run: r.run });
    else lastContracts.delete(path.resolve(r.target.outDir));
    await Promise.all([r.caches.units.save(), r.caches.format.save(), r.caches.load.save()]);
    options.reporter.step(r.target, "write", now() - t);
    const n = drift.changed.length + drift.added.length + drift.stale.length;
    options.reporter.info(`${r.target.packageName}  ${n === 0 ? "unchanged" : `${n} file(s) updated`} → ${path.relative(options.cwd, r.target.outDir) || "."}`);
    results.push({ target: r.target, skipped: false, drift, sources: r.sources });
  }
  return results;
}

/** Renders every target and compares with what is on disk; writes nothing. */
export async function check(targets: readonly Target[], options: RunOptions): Promise<TargetResult[]> {
  const results: TargetResult[] = [];
  const templatesOf = templateReader(options.cwd);
  for (const target of targets) {
    const r = await render(target, options, await templatesOf(target));
    results.push({ target, skipped: false, drift: await diffOutput(target.outDir, r.files), sources: r.sources });
  }
  return results;
}
