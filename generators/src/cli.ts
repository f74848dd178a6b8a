#!/usr/bin/env node
import path from "node:path";
import { realpathSync, watch as fsWatch, type FSWatcher } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Argv } from "yargs";
import { SpecError, formatIssue } from "./load/errors.js";
import { UsageError } from "./usage-error.js";
import { quickParse, type QuickOption } from "./quick-args.js";
import { check, generate, type Reporter, type Target } from "./pipeline.js";
import { scaffoldOptions, type ScaffoldArgs } from "./scaffold/options.js";
import { TemplateError } from "./templates/template.js";

/** Process exit codes, documented in `--help` and docs/architecture.md. */
export const EXIT = {
  ok: 0,
  /** `check`: generated files differ from what the specs produce; `test`: a contract violation. */
  drift: 1,
  /** The spec is invalid: the message names file:line:col, the pointer and the fix. */
  invalidSpec: 2,
  /** Wrong command-line usage. */
  usage: 3,
  /** A bug in contractgen: please report it with the `--verbose` output. */
  internal: 4,
} as const;

const EPILOG = `Exit codes: 0 success; 1 check found drift, test found a violation, diff found breaking changes or scaffold --check found work; 2 invalid input (spec, template, unparseable handler file); 3 usage error; 4 internal error.`;

interface CommonArgs {
  spec?: string | undefined;
  out?: string | undefined;
  name?: string | undefined;
  quiet: boolean;
  verbose: boolean;
  "spec-dir"?: string | undefined;
  "packages-dir"?: string | undefined;
  scope?: string | undefined;
  config?: string | undefined;
  templates?: string | undefined;
  layout?: string | undefined;
  "cache-dir"?: string | undefined;
}

function reporter(args: Pick<CommonArgs, "quiet" | "verbose">): Reporter {
  const pad = (s: string, n: number): string => (s.length >= n ? s : s + " ".repeat(n - s.length));
  return {
    step(target, stage, ms) {
      if (!args.quiet) process.stderr.write(`${pad(target.packageName, 28)} ${pad(stage, 11)} ${ms.toFixed(0).padStart(6)} ms\n`);
    },
    info(message) {
      if (!args.quiet) process.stderr.write(`${message}\n`);
    },
    debug(message) {
      if (args.verbose) process.stderr.write(`${message}\n`);
    },
  };
}

async function targetsOf(args: CommonArgs): Promise<Target[]> {
  const { resolveTargets, TargetUsageError } = await import("./config/targets.js");
  const { ConfigError } = await import("./config/load.js");
  try {
    return (
      await resolveTargets(process.cwd(), {
        spec: args.spec,
        out: args.out,
        name: args.name,
        specDir: args["spec-dir"],
        packagesDir: args["packages-dir"],
        scope: args.scope,
        config: args.config,
        templates: args.templates,
        layout: args.layout,
      })
    ).targets;
  } catch (err) {
    throw err instanceof TargetUsageError || err instanceof ConfigError ? new UsageError(err.message) : err;
  }
}

/**
 * The options of `generate` and `check`, declared once: yargs reads them for help and validation,
 * and the fast path (see quickArgs) for the common invocations.
 */
const COMMON_OPTIONS = {
  out: { type: "string", describe: "output folder for <spec> (default: <packages-dir>/<spec name>)" },
  name: { type: "string", describe: "npm package name for <spec> (default: the spec's file name)" },
  // No yargs defaults: a flag given overrides the config file, which overrides these defaults.
  "spec-dir": { type: "string", describe: "folder of specs, one package each [default: spec]" },
  "packages-dir": { type: "string", describe: "folder the packages are written to [default: packages]" },
  scope: { type: "string", describe: "npm scope of generated packages [default: @devplatform]" },
  config: { type: "string", describe: "config file [default: contractgen.config.ts, .mjs or .json if present]" },
  templates: { type: "string", describe: "folder overriding templates/ by path (package/README.md.tpl …; docs/templates.md)" },
  layout: { type: "string", describe: "package (a package built on its own) or sources (modules for an app's src/, built by its tsconfig or bundler) [default: package]" },
  "cache-dir": { type: "string", describe: "where no-op hashes and content caches (compiled validators, formatted code) are kept; safe to delete (default: node_modules/.cache/contractgen)" },
  quiet: { type: "boolean", default: false, alias: "q", describe: "print errors only" },
  verbose: { type: "boolean", default: false, alias: "v", describe: "print details and stack traces" },
} as const satisfies Record<string, QuickOption>;

const GENERATE_OPTIONS = {
  ...COMMON_OPTIONS,
  watch: { type: "boolean", default: false, alias: "w", describe: "regenerate when the spec or a file it references changes" },
  force: { type: "boolean", default: false, describe: "regenerate even when nothing changed" },
} as const satisfies Record<string, QuickOption>;

const SPEC_POSITIONAL = { type: "string", describe: "an OpenAPI 3.0/3.1 document (YAML or JSON); default: every spec in --spec-dir" } as const;

type QuickCommand = { readonly command: "generate"; readonly args: CommonArgs & { watch: boolean; force: boolean } } | { readonly command: "check"; readonly args: CommonArgs };

/** `generate [spec]` or `check [spec]` with only the declared options, each at most once; else undefined. */
function quickArgs(argv: readonly string[]): QuickCommand | undefined {
  const [command, ...rest] = argv;
  if (command === "generate") {
    const parsed = quickParse(rest, GENERATE_OPTIONS, 1);
    return parsed && { command, args: { ...parsed.values, spec: parsed.positionals[0] } };
  }
  if (command === "check") {
    const parsed = quickParse(rest, COMMON_OPTIONS, 1);
    return parsed && { command, args: { ...parsed.values, spec: parsed.positionals[0] } };
  }
  return undefined;
}

function common<T>(y: Argv<T>): Argv<T & CommonArgs> {
  return y.positional("spec", SPEC_POSITIONAL).options(COMMON_OPTIONS) as unknown as Argv<T & CommonArgs>;
}

async function runGenerate(args: CommonArgs & { watch: boolean; force: boolean }): Promise<number> {
  const cwd = process.cwd();
  const targets = await targetsOf(args);
  const rep = reporter(args);
  const once = async (force: boolean): Promise<readonly string[]> => {
    const cacheDir = args["cache-dir"] ? path.resolve(cwd, args["cache-dir"]) : undefined;
    const results = await generate(targets, { cwd, reporter: rep, force, ...(cacheDir ? { cacheDir } : {}), ...(args.watch ? { keepWorkers: true } : {}) });
    return results.flatMap((r) => r.sources);
  };
  if (!args.watch) {
    await once(args.force);
    return EXIT.ok;
  }
  return watchLoop(once, rep, args.force);
}

/** Regenerates when any file a spec was read from changes; debounced, and failures keep watching. */
async function watchLoop(run: (force: boolean) => Promise<readonly string[]>, rep: Reporter, force: boolean): Promise<number> {
  let watchers: FSWatcher[] = [];
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  const arm = (files: readonly string[]): void => {
    for (const w of watchers) w.close();
    // Watch folders, not files: editors save by replacing the file, which ends a file watch.
    const byDir = new Map<string, Set<string>>();
    for (const f of files) {
      const set = byDir.get(path.dirname(f)) ?? new Set<string>();
      set.add(path.basename(f));
      byDir.set(path.dirname(f), set);
    }
    watchers = [...byDir].map(([dir, names]) =>
      fsWatch(dir, (_event, filename) => {
        if (filename && names.has(filename.toString())) schedule();
      }),
    );
  };
  let lastSources: readonly string[] = [];
  const cycle = async (f: boolean): Promise<void> => {
    running = true;
    try {
      lastSources = await run(f);
    } catch (err) {
      report(err, false);
    } finally {
      running = false;
    }
    arm(lastSources);
    rep.info("watching for changes (Ctrl-C to stop)");
    if (again) {
      again = false;
      schedule();
    }
  };
  const schedule = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      if (running) again = true;
      else void cycle(false);
    }, 150);
  };
  await cycle(force);
  if (lastSources.length === 0) {
    // The first run failed before reading any file list: watch the spec folders we were given.
    rep.info("initial generation failed; fix the spec and save to retry");
  }
  return new Promise<number>(() => undefined);
}

async function runCheck(args: CommonArgs): Promise<number> {
  const results = await check(await targetsOf(args), { cwd: process.cwd(), reporter: reporter(args) });
  let drifted = 0;
  for (const r of results) {
    const d = r.drift;
    if (!d) continue;
    const rel = (f: string): string => path.relative(process.cwd(), path.join(r.target.outDir, f)) || f;
    for (const f of d.changed) process.stdout.write(`changed  ${rel(f)}\n`);
    for (const f of d.added) process.stdout.write(`missing  ${rel(f)}\n`);
    for (const f of d.stale) process.stdout.write(`stale    ${rel(f)}\n`);
    drifted += d.changed.length + d.added.length + d.stale.length;
  }
  if (drifted > 0) {
    process.stderr.write(`${drifted} generated file(s) differ from the specs: run \`contractgen generate\` and commit the result\n`);
    return EXIT.drift;
  }
  if (!args.quiet) process.stderr.write(`${results.length} package(s) match their specs\n`);
  return EXIT.ok;
}

async function runMock(args: {
  spec?: string[] | undefined;
  stateless: boolean;
  "check-credentials": boolean;
  "packages-dir"?: string | undefined;
  port: number;
  host: string;
  seed: number;
  quiet: boolean;
  "api-key"?: string | undefined;
  "api-secret"?: string | undefined;
  "access-token"?: string | undefined;
  "access-token-secret"?: string | undefined;
  "bearer-token"?: string | undefined;
  deliveries: boolean;
  "deliver-to"?: string | undefined;
}): Promise<number> {
  const credentials = {
    ...(args["api-key"] ? { apiKey: args["api-key"] } : {}),
    ...(args["api-secret"] ? { apiSecret: args["api-secret"] } : {}),
    ...(args["access-token"] ? { accessToken: args["access-token"] } : {}),
    ...(args["access-token-secret"] ? { accessTokenSecret: args["access-token-secret"] } : {}),
    ...(args["bearer-token"] ? { bearerToken: args["bearer-token"] } : {}),
  };
  if (args.spec && args.spec.length > 0) {
    if (args.deliveries || args["deliver-to"] !== undefined) throw new UsageError("--deliveries and --deliver-to serve the three APIs' webhooks: leave out --spec");
    const { startSpecMock } = await import("./mock-command.js");
    await startSpecMock({
      specs: args.spec,
      cwd: process.cwd(),
      ...(args["packages-dir"] !== undefined ? { packagesDir: path.resolve(args["packages-dir"]) } : {}),
      port: args.port,
      host: args.host,
      seed: args.seed,
      log: !args.quiet,
      stateless: args.stateless,
      checkCredentials: args["check-credentials"],
      credentials,
      reporter: reporter({ quiet: args.quiet, verbose: false }),
    });
    return new Promise<number>(() => undefined);
  }
  if (args.stateless || args["check-credentials"]) throw new UsageError("--stateless and --check-credentials go with --spec: the three APIs' own mock is always stateful and checks its credentials");
  const { startMock } = await import("./mock-command.js");
  await startMock({
    port: args.port,
    host: args.host,
    seed: args.seed,
    log: !args.quiet,
    deliveries: args.deliveries,
    ...(args["deliver-to"] !== undefined ? { deliverTo: args["deliver-to"] } : {}),
    credentials: {
      ...(args["api-key"] ? { apiKey: args["api-key"] } : {}),
      ...(args["api-secret"] ? { apiSecret: args["api-secret"] } : {}),
      ...(args["access-token"] ? { accessToken: args["access-token"] } : {}),
      ...(args["access-token-secret"] ? { accessTokenSecret: args["access-token-secret"] } : {}),
      ...(args["bearer-token"] ? { bearerToken: args["bearer-token"] } : {}),
    },
  });
  // Serve until interrupted.
  return new Promise<number>(() => undefined);
}

async function runMcp(args: {
  spec: string;
  "base-url"?: string | undefined;
  transport: "stdio" | "http";
  port: number;
  host: string;
  profile: string;
  tools?: string[] | undefined;
  tags?: string[] | undefined;
  "read-only": boolean;
  discovery: boolean;
  "max-answer-chars"?: number | undefined;
  "server-name"?: string | undefined;
  "bearer-token"?: string | undefined;
  "api-key"?: string | undefined;
  "api-secret"?: string | undefined;
  "access-token"?: string | undefined;
  "access-token-secret"?: string | undefined;
  username?: string | undefined;
  password?: string | undefined;
}): Promise<number> {
  const { startMcp } = await import("./mcp-command.js");
  const { PROFILES } = await import("@contractgen/runtime/mcp-profiles");
  const profile = PROFILES.find((p) => p === args.profile);
  if (!profile) throw new UsageError(`unknown --profile ${args.profile}; use one of ${PROFILES.join(", ")}`);
  const list = (v: string[] | undefined): string[] | undefined =>
    v
      ? v
          .flatMap((x) => x.split(","))
          .map((x) => x.trim())
          .filter(Boolean)
      : undefined;
  const tools = list(args.tools);
  const tags = list(args.tags);
  const flag = (name: keyof typeof args): string | undefined => (typeof args[name] === "string" ? (args[name] as string) : undefined);
  const credentials = Object.fromEntries(
    (
      [
        ["bearerToken", flag("bearer-token")],
        ["apiKey", flag("api-key")],
        ["apiSecret", flag("api-secret")],
        ["accessToken", flag("access-token")],
        ["accessTokenSecret", flag("access-token-secret")],
        ["username", flag("username")],
        ["password", flag("password")],
      ] as const
    ).filter(([, v]) => v !== undefined),
  );
  await startMcp({
    spec: args.spec,
    ...(args["base-url"] !== undefined ? { baseUrl: args["base-url"] } : {}),
    transport: args.transport,
    port: args.port,
    host: args.host,
    profile,
    ...(tools ? { tools } : {}),
    ...(tags ? { tags } : {}),
    readOnly: args["read-only"],
    discovery: args.discovery,
    ...(args["max-answer-chars"] !== undefined ? { maxAnswerChars: args["max-answer-chars"] } : {}),
    ...(args["server-name"] !== undefined ? { serverName: args["server-name"] } : {}),
    credentials,
    cwd: process.cwd(),
    env: process.env,
  });
  // Serve until the client disconnects (stdio) or the process is interrupted.
  return new Promise<number>(() => undefined);
}

async function runTest(args: {
  "base-url"?: string | undefined;
  spec?: string[] | undefined;
  auth?: string | undefined;
  values?: string | undefined;
  source?: string[] | undefined;
  destructive: boolean;
  disposable: boolean;
  "rate-limits": boolean;
  seed?: number | undefined;
  baseline?: string | undefined;
  "update-baseline": boolean;
  reporter: "default" | "junit";
  output?: string | undefined;
  "packages-dir": string;
  quiet: boolean;
  verbose: boolean;
  receiver?: string | undefined;
  "receiver-single": boolean;
}): Promise<number> {
  if (args.receiver !== undefined) {
    // Checking a webhook receiver is its own run: the deliveries go out, no API is called.
    const { runReceiverCheck } = await import("./receiver-check-command.js");
    const checked = await runReceiverCheck({
      cwd: process.cwd(),
      url: args.receiver,
      ...(args.spec ? { specs: args.spec } : {}),
      packagesDir: args["packages-dir"],
      single: args["receiver-single"],
      seed: args.seed ?? 1,
      write: (line) => process.stdout.write(`${line}\n`),
    });
    process.stdout.write(`${checked.passed} passed, ${checked.failed} failed\n`);
    return checked.failed > 0 || checked.passed === 0 ? EXIT.drift : EXIT.ok;
  }
  const { runContractTests, ContractTestUsageError } = await import("./test-command.js");
  const { BaselineError } = await import("./contract-test/baseline.js");
  try {
    const result = await runContractTests({
      cwd: process.cwd(),
      ...(args["base-url"] ? { baseUrl: args["base-url"] } : {}),
      ...(args.spec ? { specs: args.spec } : {}),
      ...(args.auth ? { auth: args.auth } : {}),
      ...(args.values ? { values: args.values } : {}),
      ...(args.source ? { sources: args.source } : {}),
      destructive: args.destructive,
      disposable: args.disposable,
      rateLimits: args["rate-limits"],
      ...(args.seed !== undefined ? { seed: args.seed } : {}),
      ...(args.baseline ? { baseline: args.baseline } : {}),
      updateBaseline: args["update-baseline"],
      reporter: args.reporter,
      ...(args.output ? { output: args.output } : {}),
      packagesDir: args["packages-dir"],
      progress: reporter({ quiet: args.quiet, verbose: args.verbose }),
    });
    process.stdout.write(result.lines.map((l) => `${l}\n`).join(""));
    return result.exitCode === 0 ? EXIT.ok : EXIT.drift;
  } catch (err) {
    if (err instanceof ContractTestUsageError || err instanceof BaselineError) throw new UsageError(err.message);
    throw err;
  }
}

function report(err: unknown, verbose: boolean): number {
  if (err instanceof SpecError) {
    process.stderr.write(`${err.issues.map(formatIssue).join("\n")}\n`);
    process.stderr.write(`${err.issues.length} problem(s) in the spec; nothing was written\n`);
    if (verbose && err.stack) process.stderr.write(`${err.stack}\n`);
    return EXIT.invalidSpec;
  }
  if (err instanceof TemplateError) {
    process.stderr.write(`${err.message}\ntemplate error: nothing was written\n`);
    return EXIT.invalidSpec;
  }
  if (err instanceof UsageError) {
    process.stderr.write(`${err.message}\n`);
    return EXIT.usage;
  }
  process.stderr.write(`contractgen: internal error: ${(err as Error)?.message ?? String(err)}\n`);
  process.stderr.write(verbose ? `${(err as Error)?.stack ?? ""}\n` : "run again with --verbose for the stack trace, and report it\n");
  return EXIT.internal;
}

export async function main(argv: string[]): Promise<number> {
  let code: number = EXIT.ok;
  const verbose = argv.includes("--verbose") || argv.includes("-v");
  // `generate` and `check` with plain options skip yargs: loading it and building its help text
  // cost about a third of a no-op run. Anything else (help, a typo, --no-x) goes through yargs.
  const quick = quickArgs(argv);
  if (quick) {
    try {
      return quick.command === "generate" ? await runGenerate(quick.args) : await runCheck(quick.args);
    } catch (err) {
      return report(err, verbose);
    }
  }
  const { default: yargs } = await import("yargs");
  const guard =
    <A>(fn: (args: A) => Promise<number>) =>
    async (args: A): Promise<void> => {
      try {
        code = await fn(args);
      } catch (err) {
        code = report(err, verbose);
      }
    };
  const parser = yargs(argv)
    .scriptName("contractgen")
    .usage("$0 <command> [options]")
    .command(
      "generate [spec]",
      "generate packages from specs (every spec in --spec-dir, or <spec> into --out)",
      (y) => (common(y).options({ watch: GENERATE_OPTIONS.watch, force: GENERATE_OPTIONS.force }) as unknown as Argv<CommonArgs & { watch: boolean; force: boolean }>).epilog(EPILOG),
      guard(runGenerate),
    )
    .command("check [spec]", "exit 1 and list the files when generated output differs from the specs; writes nothing", (y) => common(y).epilog(EPILOG), guard(runCheck))
    .command(
      "test",
      "run the generated conformance suites against a server (default: the in-process mock); exit 1 on any violation",
      (y) =>
        y
          .option("base-url", { type: "string", describe: "the server to test, e.g. https://staging.example.com" })
          .option("spec", {
            type: "array",
            string: true,
            describe: "what to test: a package under --packages-dir (core), a generated package folder, or an OpenAPI document (generated first) (default: every package)",
          })
          .option("auth", { type: "string", describe: "credentials as JSON ({bearer, basic, oauth1, clientCredentials, apiKey}) or @file" })
          .option("destructive", { type: "boolean", default: false, describe: "run state scenarios that delete data or invalidate tokens on the server" })
          .option("disposable", { type: "boolean", default: false, describe: "the server's data is throw-away: cases may delete listed objects the contract cannot make" })
          .option("rate-limits", {
            type: "boolean",
            default: false,
            describe: "drive each stated rate limit to its end: the server must admit exactly that many requests (only for fresh quotas no one else uses)",
          })
          .option("values", { type: "string", describe: 'JSON (or @file) of parameter values for objects no list operation gives, e.g. {"account_id":"…"} (CONTRACT_VALUES)' })
          .option("source", {
            type: "array",
            string: true,
            describe: "<name>=<url>: the server of another contract a workflow's steps call (its Arazzo source description), e.g. core=https://api.example.com (CONTRACT_SOURCES)",
          })
          .option("seed", { type: "number", describe: "seed of the synthesized requests (CONTRACT_SEED); the same seed sends the same cases [1]" })
          .option("baseline", { type: "string", describe: "JSON file of known deviations: those are reported as known, only new failures fail the run" })
          .option("update-baseline", { type: "boolean", default: false, describe: "write --baseline from this run's failures" })
          .option("reporter", { choices: ["default", "junit"] as const, default: "default" as const, describe: "junit also writes JUnit XML to --output" })
          .option("output", { type: "string", describe: "file for --reporter junit" })
          .option("packages-dir", { type: "string", default: "packages", describe: "folder of the generated packages" })
          .option("quiet", { type: "boolean", default: false, alias: "q", describe: "no progress lines while generating a document given to --spec" })
          .option("verbose", { type: "boolean", default: false, alias: "v", describe: "print details and stack traces" })
          .option("receiver", { type: "string", describe: "instead: check your webhook receiver at this URL with valid and invalid deliveries (docs/webhooks.md)" })
          .option("receiver-single", { type: "boolean", default: false, describe: "with --receiver: send every delivery to the URL itself, not to <url>/<delivery id>" })
          .check((a) => (a.reporter === "junit" && !a.output ? "--reporter junit needs --output <file>" : true))
          .check((a) => {
            const bad = (a.source ?? []).find((s) => !/^[A-Za-z0-9_.-]+=\S+$/.test(s));
            return bad === undefined ? true : `--source ${bad}: give <name>=<url>, e.g. core=https://api.example.com`;
          })
          .check((a) => (a.seed !== undefined && !Number.isSafeInteger(a.seed) ? `--seed ${String(a.seed)}: give an integer` : true))
          .check((a) => (a["update-baseline"] && !a.baseline ? "--update-baseline needs --baseline <file>: the file to write" : true))
          .epilog(EPILOG),
      guard(runTest),
    )
    .command(
      "mock",
      "serve any contract (--spec: documents or generated packages), stateful where the contract implies it, validated, seeded; without --spec, this repository's three APIs",
      (y) =>
        y
          .option("spec", {
            type: "array",
            string: true,
            describe: "what to serve: OpenAPI 3.0/3.1 or Swagger 2.0 documents (generated first) or generated package folders (a name under --packages-dir); several at once",
          })
          .option("stateless", { type: "boolean", default: false, describe: "with --spec: keep no state (answers from examples and seeded data only)" })
          .option("check-credentials", { type: "boolean", default: false, describe: "with --spec: take only the development credentials (by default any credential of the right scheme)" })
          .option("packages-dir", { type: "string", default: "packages", describe: "folder of the generated packages --spec names" })
          .option("port", { type: "number", default: 4010, describe: "port to listen on (0: any free port)" })
          .option("host", { type: "string", default: "127.0.0.1", describe: "address to listen on" })
          .option("seed", { type: "number", default: 1, describe: "seed of the deterministic dataset" })
          .option("api-key", { type: "string", describe: "API key (Basic user, OAuth 1.0a consumer key) [mock-api-key]" })
          .option("api-secret", { type: "string", describe: "API key secret [mock-api-secret]" })
          .option("access-token", { type: "string", describe: "OAuth 1.0a access token [mock-access-token]" })
          .option("access-token-secret", { type: "string", describe: "OAuth 1.0a access token secret [mock-access-token-secret]" })
          .option("bearer-token", { type: "string", describe: "fixed bearer token, always valid [mock-bearer-token]" })
          .option("quiet", { type: "boolean", default: false, alias: "q", describe: "do not log requests" })
          .option("deliveries", { type: "boolean", default: false, describe: "development: serve POST /__mock/deliveries, which sends webhook deliveries to a loopback receiver" })
          .option("deliver-to", { type: "string", describe: "development: send every core webhook delivery to this loopback receiver once listening" })
          .epilog(EPILOG),
      guard(runMock),
    )
    .command(
      "mcp",
      "serve a generated package's tools to AI assistants over MCP (stdio or Streamable HTTP); calls the in-process mock unless --base-url is given",
      (y) =>
        y
          .option("spec", { type: "string", demandOption: true, describe: "the package: a folder, a name under packages/ (core), or an installed package name" })
          .option("base-url", { type: "string", describe: "the API to call (default: the mock server, started in-process with its development credentials)" })
          .option("transport", { choices: ["stdio", "http"] as const, default: "stdio" as const, describe: "stdio for local assistants; http for Streamable HTTP on --host:--port/mcp" })
          .option("port", { type: "number", default: 3333, describe: "port for --transport http (0: any free port)" })
          .option("host", { type: "string", default: "127.0.0.1", describe: "address for --transport http" })
          .option("profile", { type: "string", default: "standard", describe: "shape tools for a client: standard, claude, claude-code, cursor, openai, gemini" })
          .option("tools", { type: "array", string: true, describe: "offer only these tools (names or operationIds; comma-separated or repeated)" })
          .option("tags", { type: "array", string: true, describe: "offer only operations with one of these tags" })
          .option("read-only", { type: "boolean", default: false, describe: "offer only operations that change nothing (GET, HEAD, OPTIONS)" })
          .option("discovery", { type: "boolean", default: false, describe: "offer three tools (search, describe, invoke) instead of one per operation" })
          .option("max-answer-chars", { type: "number", describe: "trim answers longer than this at element boundaries [50000]" })
          .option("server-name", { type: "string", describe: "the name announced to clients (they prefix tool names with it) [the package's short name]" })
          .option("bearer-token", { type: "string", describe: "bearer token [env <PREFIX>_BEARER_TOKEN]" })
          .option("api-key", { type: "string", describe: "API key: client credentials, OAuth 1.0a consumer key, Basic user [env <PREFIX>_API_KEY]" })
          .option("api-secret", { type: "string", describe: "API key secret [env <PREFIX>_API_SECRET]" })
          .option("access-token", { type: "string", describe: "OAuth 1.0a access token [env <PREFIX>_ACCESS_TOKEN]" })
          .option("access-token-secret", { type: "string", describe: "OAuth 1.0a access token secret [env <PREFIX>_ACCESS_TOKEN_SECRET]" })
          .option("username", { type: "string", describe: "Basic user name [env <PREFIX>_USERNAME]" })
          .option("password", { type: "string", describe: "Basic password [env <PREFIX>_PASSWORD]" })
          .epilog(`Credentials are read from <PREFIX>_* environment variables (CORE_BEARER_TOKEN for core); flags win. ${EPILOG}`),
      guard(runMcp),
    )
    .command(
      "diff <old-spec> <new-spec>",
      "classify every change between two versions of a contract and the semver bump it implies; exit 1 on breaking changes",
      (y) =>
        y
          .positional("old-spec", { type: "string", demandOption: true, describe: "the contract before the change (YAML or JSON; multi-file allowed)" })
          .positional("new-spec", { type: "string", demandOption: true, describe: "the contract after the change" })
          .option("allow-breaking", { type: "boolean", default: false, describe: "exit 0 even when there are breaking changes" })
          .option("format", { choices: ["text", "json"] as const, default: "text" as const, describe: "text for people, json for tools" })
          .epilog(EPILOG),
      guard(async (args: { "old-spec": string; "new-spec": string; "allow-breaking": boolean; format: "text" | "json" }) => {
        const { runDiffCommand } = await import("./diff/command.js");
        return runDiffCommand({ old: args["old-spec"], new: args["new-spec"], allowBreaking: args["allow-breaking"], format: args.format, cwd: process.cwd() });
      }),
    )
    .command(
      "scaffold [source]",
      "create a runnable server project for a contract, or add handlers for new operations to one (docs/implementing-the-api.md)",
      (y) => scaffoldOptions(y).epilog(EPILOG),
      guard(async (args: ScaffoldArgs) => (await import("./scaffold/command.js")).runScaffoldCommand(args, process.cwd(), reporter({ quiet: args.quiet, verbose }))),
    )
    .command(
      "init",
      "write a commented contractgen.config.ts listing the specs in spec/ (docs/configuration.md)",
      (y) => y.option("templates", { type: "string", describe: "folder overriding the config template (config/contractgen.config.ts.tpl)" }).epilog(EPILOG),
      guard(async (args: { templates?: string | undefined }) => {
        const { TemplateError } = await import("./templates/template.js");
        const r = await (await import("./config/init.js")).initConfig(process.cwd(), args.templates).catch((e: unknown) => {
          if (e instanceof TemplateError) throw new UsageError(`${e.message}\ntemplate error: nothing was written`);
          throw e;
        });
        if (r.existing) throw new UsageError(`${r.existing} exists already; edit it (docs/configuration.md)`);
        process.stderr.write(`wrote ${r.written ?? ""} (${r.specs} spec(s) found in spec/)\n`);
        return EXIT.ok;
      }),
    )
    .demandCommand(1, "name a command: generate, check, diff, test, mock, mcp, scaffold or init")
    .strict()
    .epilog(EPILOG)
    .help()
    .alias("help", "h")
    .version(false)
    .wrap(100)
    .exitProcess(false)
    .fail((msg, err) => {
      // Throwing stops yargs before it runs a command with arguments it rejected.
      throw err ?? new UsageError(`${msg}\nrun contractgen --help for usage`);
    });
  try {
    await parser.parseAsync();
  } catch (err) {
    // A command's failed .check() rejects the parse with its message, a bare string: the user's usage.
    return report(typeof err === "string" ? new UsageError(`${err}\nrun contractgen --help for usage`) : err, verbose);
  }
  return code;
}

/** Runs the CLI with `argv` (without node and the script) and sets the process exit code. */
export async function run(argv: string[]): Promise<void> {
  // A dependency that throws from a callback of its own escapes every await: report it as the
  // internal error it is, with the documented exit code, instead of Node's crash and stack trace.
  const escaped = (err: unknown): void => {
    process.exitCode = report(err, argv.includes("--verbose"));
    process.exit();
  };
  process.on("uncaughtException", escaped);
  process.on("unhandledRejection", escaped);
  try {
    process.exitCode = await main(argv);
  } catch (err) {
    process.exitCode = report(err, argv.includes("--verbose"));
  }
}

// `node generators/dist/cli.js …` runs it directly; the installed command goes through bin/contractgen.js,
// which calls run() itself. Comparing real paths keeps an import of this module from running the CLI.
const invoked = process.argv[1] ? realpathOrSelf(process.argv[1]) : "";
if (invoked === fileURLToPath(import.meta.url)) void run(process.argv.slice(2));

function realpathOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}
