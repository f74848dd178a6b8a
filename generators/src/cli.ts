#!/usr/bin/env node
import { UsageError } from "./usage-error.js";
import path from "node:path";
import { realpathSync, watch as fsWatch, type FSWatcher } from "node:fs";
import { fileURLToPath } from "node:url";
import yargs, { type Argv } from "yargs";
import { hideBin } from "yargs/helpers";
import { SpecError, formatIssue } from "./load/errors.js";
import { check, discoverTargets, generate, targetFor, type Reporter, type Target } from "./pipeline.js";

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

const EPILOG = `Exit codes: 0 success; 1 check found drift, test found a violation or diff found breaking changes; 2 invalid spec; 3 usage error; 4 internal error.`;

interface CommonArgs {
  spec?: string;
  out?: string;
  name?: string;
  quiet: boolean;
  verbose: boolean;
  "spec-dir": string;
  "packages-dir": string;
  scope: string;
  "cache-dir"?: string;
}

function reporter(args: CommonArgs): Reporter {
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
  const cwd = process.cwd();
  if (args.spec) {
    const out = args.out ?? path.join(args["packages-dir"], path.basename(args.spec).replace(/\.(ya?ml|json)$/i, ""));
    return [targetFor(cwd, args.spec, out, args.name)];
  }
  if (args.out || args.name) throw new UsageError("--out and --name need a spec: contractgen generate <spec> --out <dir>");
  const targets = await discoverTargets(cwd, { specDir: args["spec-dir"], packagesDir: args["packages-dir"], scope: args.scope });
  if (targets.length === 0) throw new UsageError(`no OpenAPI documents found in ${args["spec-dir"]}/`);
  return targets;
}


function common<T>(y: Argv<T>): Argv<T & CommonArgs> {
  return y
    .positional("spec", { type: "string", describe: "an OpenAPI 3.0/3.1 document (YAML or JSON); default: every spec in --spec-dir" })
    .option("out", { type: "string", describe: "output folder for <spec> (default: <packages-dir>/<spec name>)" })
    .option("name", { type: "string", describe: "npm package name for <spec> (default: the spec's file name)" })
    .option("spec-dir", { type: "string", default: "spec", describe: "folder of specs, one package each" })
    .option("packages-dir", { type: "string", default: "packages", describe: "folder the packages are written to" })
    .option("scope", { type: "string", default: "@devplatform", describe: "npm scope of generated packages" })
    .option("cache-dir", { type: "string", describe: "where no-op hashes are kept (default: node_modules/.cache/contractgen)" })
    .option("quiet", { type: "boolean", default: false, alias: "q", describe: "print errors only" })
    .option("verbose", { type: "boolean", default: false, alias: "v", describe: "print details and stack traces" }) as Argv<T & CommonArgs>;
}

async function runGenerate(args: CommonArgs & { watch: boolean; force: boolean }): Promise<number> {
  const cwd = process.cwd();
  const targets = await targetsOf(args);
  const rep = reporter(args);
  const once = async (force: boolean): Promise<readonly string[]> => {
    const cacheDir = args["cache-dir"] ? path.resolve(cwd, args["cache-dir"]) : undefined;
    const results = await generate(targets, { cwd, reporter: rep, force, ...(cacheDir ? { cacheDir } : {}) });
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

async function runTest(args: {
  "base-url"?: string | undefined;
  spec?: string[] | undefined;
  auth?: string | undefined;
  destructive: boolean;
  reporter: "default" | "junit";
  output?: string | undefined;
  "packages-dir": string;
  receiver?: string | undefined;
  "receiver-single": boolean;
  seed: number;
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
      seed: args.seed,
      write: (line) => process.stdout.write(`${line}\n`),
    });
    process.stdout.write(`${checked.passed} passed, ${checked.failed} failed\n`);
    return checked.failed > 0 || checked.passed === 0 ? EXIT.drift : EXIT.ok;
  }
  const { runContractTests } = await import("./test-command.js");
  const result = await runContractTests({
    cwd: process.cwd(),
    ...(args["base-url"] ? { baseUrl: args["base-url"] } : {}),
    ...(args.spec ? { specs: args.spec } : {}),
    ...(args.auth ? { auth: args.auth } : {}),
    destructive: args.destructive,
    reporter: args.reporter,
    ...(args.output ? { output: args.output } : {}),
    packagesDir: args["packages-dir"],
  });
  process.stdout.write(`${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped\n`);
  return result.failed > 0 || result.passed === 0 ? EXIT.drift : EXIT.ok;
}

function report(err: unknown, verbose: boolean): number {
  if (err instanceof SpecError) {
    process.stderr.write(`${err.issues.map(formatIssue).join("\n")}\n`);
    process.stderr.write(`${err.issues.length} problem(s) in the spec; nothing was written\n`);
    if (verbose && err.stack) process.stderr.write(`${err.stack}\n`);
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
      (y) =>
        common(y)
          .option("watch", { type: "boolean", default: false, alias: "w", describe: "regenerate when the spec or a file it references changes" })
          .option("force", { type: "boolean", default: false, describe: "regenerate even when nothing changed" })
          .epilog(EPILOG),
      guard(runGenerate),
    )
    .command(
      "check [spec]",
      "exit 1 and list the files when generated output differs from the specs; writes nothing",
      (y) => common(y).epilog(EPILOG),
      guard(runCheck),
    )
    .command(
      "test",
      "run the generated conformance suites against a server (default: the in-process mock); exit 1 on any violation",
      (y) =>
        y
          .option("base-url", { type: "string", describe: "the server to test, e.g. https://staging.example.com" })
          .option("spec", { type: "array", string: true, describe: "packages to test: core, ads-audiences, ads-campaigns (default: all)" })
          .option("auth", { type: "string", describe: "credentials as JSON ({bearer, basic, oauth1, clientCredentials}) or @file" })
          .option("destructive", { type: "boolean", default: false, describe: "run state scenarios that delete data or invalidate tokens on the server" })
          .option("reporter", { choices: ["default", "junit"] as const, default: "default" as const, describe: "junit also writes JUnit XML to --output" })
          .option("output", { type: "string", describe: "file for --reporter junit" })
          .option("packages-dir", { type: "string", default: "packages", describe: "folder of the generated packages" })
          .option("receiver", { type: "string", describe: "instead: check your webhook receiver at this URL with valid and invalid deliveries (docs/webhooks.md)" })
          .option("receiver-single", { type: "boolean", default: false, describe: "with --receiver: send every delivery to the URL itself, not to <url>/<delivery id>" })
          .option("seed", { type: "number", default: 1, describe: "with --receiver: seed of the generated deliveries" })
          .check((a) => (a.reporter === "junit" && !a.output ? "--reporter junit needs --output <file>" : true))
          .epilog(EPILOG),
      guard(runTest),
    )
    .command(
      "mock",
      "serve the core and both advertising APIs from one process, stateful, seeded, with development credentials",
      (y) =>
        y
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
    .demandCommand(1, "name a command: generate, check, diff, test or mock")
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
    return report(err, verbose);
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
if (invoked === fileURLToPath(import.meta.url)) void run(hideBin(process.argv));

function realpathOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}
