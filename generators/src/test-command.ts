/**
 * `contractgen test`: runs generated conformance suites through vitest's Node API against a server,
 * for the workspace's packages, generated packages anywhere on disk, or OpenAPI documents (generated
 * on the way); optionally against a baseline of known deviations.
 */
import { readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { compareWithBaseline, readBaseline, updatedBaseline, writeBaseline, type BaselineVerdict } from "./contract-test/baseline.js";
import { suiteBaseUrl } from "./contract-test/base-url.js";
import { inGivenOrder } from "./contract-test/order.js";
import { generatorResolution } from "./contract-test/resolve.js";
import { collectResults, type CaseResult, type TaskNode } from "./contract-test/results.js";
import { isInside, resolveSuites, SuiteNotFoundError, workspaceSuites, type Suite } from "./contract-test/suites.js";
import type { Reporter } from "./pipeline.js";

/** The module that starts the mock of the three APIs for a suite (see @contractgen/runtime's conformance/target.ts). */
const MOCK_TARGET = "@devplatform/mock-server/target";

export interface ContractTestOptions {
  readonly cwd: string;
  /** Server to test; undefined runs the workspace's packages against the in-process mock server. */
  readonly baseUrl?: string;
  /**
   * What to test, each one of: a package folder name under `packagesDir`, a generated package's
   * folder anywhere, or an OpenAPI document (generated into `<cwd>/node_modules/.cache/contractgen/test/`).
   * @default every package under packagesDir with a conformance suite
   */
  readonly specs?: readonly string[];
  /** Credentials as the runtime's AuthConfig JSON, or `@file` holding it. @default none */
  readonly auth?: string;
  /** Let state scenarios change data on the server (deletes, token invalidation). @default false */
  readonly destructive?: boolean;
  /**
   * The server's data is throw-away (a test server started for the run): where the contract has no
   * operation that makes an object for a case that deletes one, a listed object may be deleted
   * (`CONTRACT_DISPOSABLE`). Without it such cases are skipped, naming what to give. @default false
   */
  readonly disposable?: boolean;
  /**
   * Check the stated rate limits (`x-limits` kind rate): each is driven to its end and must admit
   * exactly the stated number of requests, then refuse. Only for a server whose quotas were fresh
   * when the run started and that no one else uses meanwhile (it spends them). @default false
   */
  readonly rateLimits?: boolean;
  /**
   * Parameter values for objects the contract gives no way to discover (a path id no list returns), as
   * JSON or `@file`: `{"account_id": "…"}`. @default none
   */
  readonly values?: string;
  /**
   * Servers of the other contracts a workflow's steps call, each `<name>=<url>` with the name of its
   * Arazzo source description (`CONTRACT_SOURCES`). A workflow calling a source not given is skipped,
   * naming what to give. @default none
   */
  readonly sources?: readonly string[];
  /** Seed of the synthesized requests (`CONTRACT_SEED`): the same seed sends the same cases. @default the engine's (1) */
  readonly seed?: number;
  /** A baseline file of known deviations: those are reported as known and do not fail the run. @default none */
  readonly baseline?: string;
  /** Write `baseline` from this run's failures instead of comparing with it. @default false */
  readonly updateBaseline?: boolean;
  /** `default` prints to the terminal; `junit` writes JUnit XML to `output`. @default "default" */
  readonly reporter?: "default" | "junit";
  readonly output?: string;
  /** @default "packages" */
  readonly packagesDir?: string;
  /** Progress of generating documents given to `specs`. @default silent */
  readonly progress?: Reporter;
}

export interface ContractTestResult {
  readonly passed: number;
  /** Failures that fail the run: every failure without a baseline, the unlisted ones with one. */
  readonly failed: number;
  /** Failures the baseline lists (0 without a baseline). */
  readonly known: number;
  readonly skipped: number;
  /** Lines for the terminal after vitest's report, ending with the counts. */
  readonly lines: readonly string[];
  /** 0 when nothing new failed and something ran, else 1. */
  readonly exitCode: 0 | 1;
}

/** Raised for options that cannot work together; the CLI reports it as a usage error. */
export class ContractTestUsageError extends Error {}

const SILENT: Reporter = { step: () => undefined, info: () => undefined, debug: () => undefined };

/** An option given as JSON or `@file` holding JSON, checked now: a clear error beats a confusing one inside every test. */
function readJsonOption(flag: string, value: string | undefined, cwd: string, example: string): string | undefined {
  if (value === undefined) return undefined;
  let text = value;
  if (value.startsWith("@")) {
    try {
      text = readFileSync(path.resolve(cwd, value.slice(1)), "utf8");
    } catch (err) {
      throw new ContractTestUsageError(`${flag} ${value}: ${(err as Error).message}`);
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ContractTestUsageError(`${flag} is not JSON (${(err as Error).message}): give ${example}, or @file`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new ContractTestUsageError(`${flag} must be a JSON object: give ${example}, or @file`);
  return text;
}

const caseName = (c: CaseResult): string => `${c.package} › ${c.operation} › ${c.check}`;

/**
 * Runs the suites: against `baseUrl` when given, else each workspace package's suite starts the
 * in-process mock server.
 */
export async function runContractTests(options: ContractTestOptions): Promise<ContractTestResult> {
  const packagesDir = path.resolve(options.cwd, options.packagesDir ?? "packages");
  if (options.updateBaseline && !options.baseline) throw new ContractTestUsageError("--update-baseline needs --baseline <file>: the file to write");
  if (options.seed !== undefined && !Number.isSafeInteger(options.seed)) throw new ContractTestUsageError(`--seed ${options.seed}: give an integer`);
  const baselineFile = options.baseline ? path.resolve(options.cwd, options.baseline) : undefined;
  // Read before the run, so a broken baseline costs no test time.
  const baseline = baselineFile ? readBaseline(baselineFile, options.updateBaseline === true) : undefined;

  let suites: Suite[];
  try {
    suites = options.specs && options.specs.length > 0 ? await resolveSuites(options.specs, { cwd: options.cwd, packagesDir, reporter: options.progress ?? SILENT }) : workspaceSuites(packagesDir);
  } catch (err) {
    if (err instanceof SuiteNotFoundError) throw new ContractTestUsageError(err.message);
    throw err;
  }
  if (suites.length === 0) throw new ContractTestUsageError(`no conformance suites under ${path.relative(options.cwd, packagesDir) || "."}/: generate the packages first, or name one with --spec`);

  // Each suite gets CONTRACT_BASE_URL from its project's env (below). A CONTRACT_TARGET left in the
  // environment would be the fallback if that ever went missing: a silent test of the wrong server.
  if (options.baseUrl) delete process.env["CONTRACT_TARGET"];
  else {
    delete process.env["CONTRACT_BASE_URL"];
    // The in-process mock serves the workspace's three contracts only; any other package needs its server.
    const foreign = suites.filter((s) => !isInside(s.dir, packagesDir));
    const target = process.env["CONTRACT_TARGET"];
    if (foreign.length > 0 && (target === undefined || target === MOCK_TARGET)) {
      throw new ContractTestUsageError(`${foreign.map((s) => s.packageName).join(", ")}: give the server to test with --base-url <url>`);
    }
    // Without a server the suites test the workspace's mock, which knows its own start-up and credentials.
    process.env["CONTRACT_TARGET"] ??= MOCK_TARGET;
  }
  const auth = readJsonOption("--auth", options.auth, options.cwd, `the client's auth option, e.g. {"bearer":"…"}`);
  if (auth) process.env["CONTRACT_AUTH"] = auth;
  const values = readJsonOption("--values", options.values, options.cwd, `parameter names and values, e.g. {"account_id":"18ce54d4x5t"}`);
  if (values) process.env["CONTRACT_VALUES"] = values;
  if (options.sources && options.sources.length > 0) {
    const byName = Object.fromEntries(options.sources.map((s) => [s.slice(0, s.indexOf("=")), s.slice(s.indexOf("=") + 1)]));
    process.env["CONTRACT_SOURCES"] = JSON.stringify(byName);
  }
  if (options.destructive) process.env["CONTRACT_DESTRUCTIVE"] = "1";
  if (options.disposable) process.env["CONTRACT_DISPOSABLE"] = "1";
  if (options.rateLimits) process.env["CONTRACT_RATE_LIMITS"] = "1";
  if (options.seed !== undefined) process.env["CONTRACT_SEED"] = String(options.seed);

  const { startVitest } = await import("vitest/node");
  const reporters = options.reporter === "junit" ? ["default", "junit"] : ["default"];
  const vitest = await startVitest("test", [], {
    watch: false,
    config: false,
    root: options.cwd,
    // One project per suite: each may need its own server address (a contract's base path), and
    // a suite may live outside the current folder (a cache folder, /tmp), hence absolute paths.
    projects: suites.map((s) => ({
      extends: true as const,
      // Projects do not inherit the root's plugins.
      plugins: [generatorResolution([s.dir])],
      test: {
        name: s.packageName,
        root: s.dir,
        include: [s.file],
        // The package's own JavaScript (its compiled validators) goes through the plugin above like
        // its TypeScript does: vitest would otherwise hand a file under a node_modules path (the
        // cache a --spec document is generated into) to Node, which cannot resolve its imports.
        server: { deps: { inline: [new RegExp(`^${escapeRegExp(realDir(s.dir))}`)] } },
        ...(options.baseUrl ? { env: { CONTRACT_BASE_URL: suiteBaseUrl(options.baseUrl, s.dir) } } : {}),
      },
    })),
    reporters,
    ...(options.reporter === "junit" && options.output ? { outputFile: { junit: path.resolve(options.cwd, options.output) } } : {}),
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Suites against one server share its state: one suite's deletes and token invalidations
    // change what another reads. Run in parallel, how they interleave depends on the machine's
    // load, so a run would not be reproducible; one after another (in name order) it is. Against
    // the in-process mock each suite has its own server and they may run side by side.
    ...(options.baseUrl ? { fileParallelism: false } : {}),
    sequence: { sequencer: inGivenOrder(suites.map((s) => s.file)) },
  });
  const results = collectResults(vitest.state.getFiles() as unknown as TaskNode[], suites);
  await vitest.close();
  return summarize(results.cases, results.brokenFiles, suites, baseline && baselineFile ? { file: baselineFile, baseline, update: options.updateBaseline === true } : undefined);
}

function summarize(
  cases: readonly CaseResult[],
  brokenFiles: readonly { package: string; reason: string }[],
  suites: readonly Suite[],
  base: { file: string; baseline: ReturnType<typeof readBaseline>; update: boolean } | undefined,
): ContractTestResult {
  const passed = cases.filter((c) => c.state === "pass").length;
  const skipped = cases.filter((c) => c.state === "skip").length;
  const lines: string[] = [];
  lines.push(...skipReasons(cases));
  // A suite that failed to load is never a known deviation: nothing of it ran.
  for (const b of brokenFiles) lines.push(`${b.package}: the suite did not run: ${b.reason}`);
  if (!base) {
    const failed = cases.filter((c) => c.state === "fail").length + brokenFiles.length;
    lines.push(`${passed} passed, ${failed} failed, ${skipped} skipped`);
    return { passed, failed, known: 0, skipped, lines, exitCode: failed > 0 || passed === 0 ? 1 : 0 };
  }
  if (base.update) {
    const next = updatedBaseline(
      base.baseline,
      cases,
      suites.map((s) => s.packageName),
    );
    writeBaseline(base.file, next);
    const recorded = cases.filter((c) => c.state === "fail").length;
    lines.push(`baseline ${base.file}: recorded ${recorded} known deviation(s) of this run (${next.known.length} in the file)`);
    const failed = brokenFiles.length;
    lines.push(`${passed} passed, ${failed} failed, ${recorded} known, ${skipped} skipped`);
    return { passed, failed, known: recorded, skipped, lines, exitCode: failed > 0 || passed + recorded === 0 ? 1 : 0 };
  }
  const verdict: BaselineVerdict = compareWithBaseline(cases, base.baseline);
  if (verdict.fresh.length > 0) {
    lines.push(`new failures, not in the baseline ${base.file}:`);
    for (const c of verdict.fresh) lines.push(`  ${caseName(c)}`);
  }
  if (verdict.fixed.length > 0) {
    lines.push(`fixed: these baselined cases pass now (run with --update-baseline to drop them):`);
    for (const c of verdict.fixed) lines.push(`  ${caseName(c)}`);
  }
  if (verdict.known.length > 0) lines.push(`${verdict.known.length} failure(s) above are known deviations listed in ${base.file}`);
  const failed = verdict.fresh.length + brokenFiles.length;
  lines.push(`${passed} passed, ${failed} failed, ${verdict.known.length} known, ${skipped} skipped`);
  return { passed, failed, known: verdict.known.length, skipped, lines, exitCode: failed > 0 || passed + verdict.known.length === 0 ? 1 : 0 };
}

/**
 * Why cases were skipped, most frequent first: a skip is the suite declining to invent what the
 * server must give (an object to act on, credentials), and the reason names what to pass to run it.
 */
function skipReasons(cases: readonly CaseResult[], shown = 12): string[] {
  const counts = new Map<string, number>();
  for (const c of cases) if (c.state === "skip") counts.set(c.reason ?? "no reason given", (counts.get(c.reason ?? "no reason given") ?? 0) + 1);
  if (counts.size === 0) return [];
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const lines = ["skipped, and why:"];
  for (const [why, n] of sorted.slice(0, shown)) lines.push(`  ${n} × ${why}`);
  if (sorted.length > shown) lines.push(`  … ${sorted.length - shown} further reason(s), ${sorted.slice(shown).reduce((t, [, n]) => t + n, 0)} case(s)`);
  return lines;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function realDir(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}
