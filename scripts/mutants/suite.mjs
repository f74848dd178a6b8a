// @ts-check
/**
 * Black-box runs of the generated conformance suites against a build of the mock: the mock is
 * started as its own process on a free loopback port (fresh, so disposable), `contractgen test --destructive --disposable` runs a
 * package's suite against it with the mock's credentials, and the JUnit report says which cases
 * failed.
 */
import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseJUnit } from "./junit.mjs";
import { ROOT } from "./patch.mjs";
import { run, start } from "./processes.mjs";

const LAUNCHER = path.join(path.dirname(fileURLToPath(import.meta.url)), "launch-mock.mjs");
const CLI = path.join(ROOT, "generators/dist/cli.js");

/** The mock's default credentials, for every scheme the three contracts use. */
export const MOCK_AUTH = JSON.stringify({
  bearer: "mock-bearer-token",
  basic: { username: "mock-api-key", password: "mock-api-secret" },
  oauth1: { consumerKey: "mock-api-key", consumerSecret: "mock-api-secret", token: "mock-access-token", tokenSecret: "mock-access-token-secret" },
});

/**
 * @typedef {{ ok: true; exitCode: number | null; summary: string; cases: import("./junit.mjs").TestCase[]; ms: number }
 *   | { ok: false; reason: string }} SuiteRun
 */

/** The packages with a generated conformance suite. */
export function suitePackages() {
  const dir = path.join(ROOT, "packages");
  return readdirSync(dir)
    .filter((name) => existsSync(path.join(dir, name, "test/conformance.test.ts")))
    .sort();
}

/**
 * Runs every package's suite, each against a mock process of its own: the suites change the
 * server's state (the core suite's invalidateAccessToken case invalidates the OAuth 1.0a token the
 * advertising suites sign with), so sharing one server would make verdicts depend on timing.
 * @param {string} entry the build's dist/index.js
 * @param {string} reportPrefix JUnit reports go to `<prefix>.<package>.xml`
 * @returns {Promise<SuiteRun>}
 */
export async function runSuites(entry, reportPrefix) {
  const started = performance.now();
  /** @type {import("./junit.mjs").TestCase[]} */
  const cases = [];
  const totals = [0, 0, 0];
  let exitCode = 0;
  for (const pkg of suitePackages()) {
    const one = await runSuite(entry, pkg, `${reportPrefix}.${pkg}.xml`);
    if (!one.ok) return { ok: false, reason: `${pkg}: ${one.reason}` };
    cases.push(...one.cases);
    const counts = /(\d+) passed, (\d+) failed, (\d+) skipped/.exec(one.summary);
    for (let i = 0; i < 3; i++) totals[i] = (totals[i] ?? 0) + Number(counts?.[i + 1] ?? 0);
    if (one.exitCode !== 0) exitCode = one.exitCode ?? 4;
  }
  return { ok: true, exitCode, summary: `${totals[0]} passed, ${totals[1]} failed, ${totals[2]} skipped`, cases, ms: performance.now() - started };
}

/**
 * The source descriptions of the repository's workflow documents (spec/*.arazzo.yaml): the mock
 * serves the three contracts at one address, so a workflow step calling another contract goes there too.
 */
const SOURCES = ["core", "adsAudiences", "adsCampaigns"];

/**
 * @param {string} entry
 * @param {string} pkg
 * @param {string} reportFile
 * @returns {Promise<SuiteRun>}
 */
async function runSuite(entry, pkg, reportFile) {
  const started = performance.now();
  const mock = await start(process.execPath, [LAUNCHER, entry], { cwd: ROOT, ready: /^listening (http:\/\/127\.0\.0\.1:\d+) (\{.*\})$/m, timeoutMs: 60_000 });
  if (!mock.ok) return { ok: false, reason: `the mock did not start: ${mock.reason}` };
  try {
    rmSync(reportFile, { force: true });
    const url = mock.match[1] ?? "";
    const r = await run(
      process.execPath,
      [
        CLI,
        "test",
        "--base-url",
        url,
        "--spec",
        pkg,
        "--destructive",
        "--disposable",
        "--rate-limits",
        "--auth",
        MOCK_AUTH,
        ...SOURCES.flatMap((name) => ["--source", `${name}=${url}`]),
        "--reporter",
        "junit",
        "--output",
        reportFile,
      ],
      {
        cwd: ROOT,
        timeoutMs: 600_000,
        env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1", CONTRACT_VALUES: mock.match[2] ?? "{}" },
      },
    );
    if (r.timedOut) return { ok: false, reason: "the suite did not finish within 10 minutes" };
    if (!existsSync(reportFile)) return { ok: false, reason: `no report (exit ${r.code}): ${r.output.slice(-500)}` };
    const summary = /(\d+ passed, \d+ failed, \d+ skipped)/.exec(r.output)?.[1] ?? "";
    return { ok: true, exitCode: r.code, summary, cases: parseJUnit(readFileSync(reportFile, "utf8")), ms: performance.now() - started };
  } finally {
    await mock.stop();
  }
}
