import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** The module that starts the mock of the three APIs for a suite (see @contractgen/runtime's conformance-target). */
const MOCK_TARGET = "@devplatform/mock-server/target";

export interface ContractTestOptions {
  readonly cwd: string;
  /** Server to test; undefined runs against the in-process mock server. */
  readonly baseUrl?: string;
  /** Packages to test (folder names under packagesDir). @default every package with a conformance suite */
  readonly specs?: readonly string[];
  /** Credentials as the runtime's AuthConfig JSON, or `@file` holding it. @default none */
  readonly auth?: string;
  /** Let state scenarios change data on the server (deletes, token invalidation). @default false */
  readonly destructive?: boolean;
  /** `default` prints to the terminal; `junit` writes JUnit XML to `output`. @default "default" */
  readonly reporter?: "default" | "junit";
  readonly output?: string;
  /** @default "packages" */
  readonly packagesDir?: string;
}

export interface ContractTestResult {
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
}

function readAuth(auth: string | undefined, cwd: string): string | undefined {
  if (auth === undefined) return undefined;
  const text = auth.startsWith("@") ? readFileSync(path.resolve(cwd, auth.slice(1)), "utf8") : auth;
  JSON.parse(text); // a clear error now beats a confusing one inside every test
  return text;
}

/**
 * Runs the generated conformance suites with vitest: against `baseUrl` when given, else each
 * package's suite starts the in-process mock server.
 */
export async function runContractTests(options: ContractTestOptions): Promise<ContractTestResult> {
  const packagesDir = path.resolve(options.cwd, options.packagesDir ?? "packages");
  const specs = options.specs && options.specs.length > 0 ? options.specs : undefined;
  const suites = (specs ?? ["*"]).map((s) => path.join(packagesDir, s, "test", "conformance.test.ts"));
  for (const s of suites) if (!s.includes("*") && !existsSync(s)) throw new Error(`no conformance suite at ${path.relative(options.cwd, s)}: generate the package first`);

  if (options.baseUrl) process.env["CONTRACT_BASE_URL"] = options.baseUrl;
  else {
    delete process.env["CONTRACT_BASE_URL"];
    // Without a server the suites test the workspace's mock, which knows its own start-up and credentials.
    process.env["CONTRACT_TARGET"] ??= MOCK_TARGET;
  }
  const auth = readAuth(options.auth, options.cwd);
  if (auth) process.env["CONTRACT_AUTH"] = auth;
  if (options.destructive) process.env["CONTRACT_DESTRUCTIVE"] = "1";

  const { startVitest } = await import("vitest/node");
  const reporters = options.reporter === "junit" ? ["default", "junit"] : ["default"];
  const vitest = await startVitest(
    "test",
    [],
    {
      watch: false,
      config: false,
      root: options.cwd,
      include: suites.map((s) => path.relative(options.cwd, s)),
      reporters,
      ...(options.reporter === "junit" && options.output ? { outputFile: { junit: path.resolve(options.cwd, options.output) } } : {}),
      testTimeout: 60_000,
      hookTimeout: 60_000,
      pool: "forks",
    },
  );
  const files = vitest.state.getFiles();
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const walk = (tasks: readonly { type: string; mode?: string; result?: { state?: string }; tasks?: unknown[] }[]): void => {
    for (const t of tasks) {
      if (t.type === "test") {
        if (t.mode === "skip" || t.mode === "todo") skipped++;
        else if (t.result?.state === "pass") passed++;
        else if (t.result?.state === "fail") failed++;
      } else if (t.tasks) walk(t.tasks as typeof tasks);
    }
  };
  walk(files as never);
  // A file that failed to load (a broken import, the mock not starting) counts as a failure.
  failed += files.filter((f) => f.result?.state === "fail" && (f.tasks?.length ?? 0) === 0).length;
  await vitest.close();
  return { passed, failed, skipped };
}
