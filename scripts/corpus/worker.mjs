// One corpus worker (a child process of run.mjs). For each batch it is sent, it runs
// `contractgen generate <spec> --out <dir>/pN --force -q` per spec through the CLI's own `main` (the
// same argument parsing, error reporting and exit codes as the command, without a Node start-up per
// spec), then type-checks every package that generated with one `tsc --noEmit` over the batch.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const TSC = path.join(ROOT, "node_modules/typescript/bin/tsc");
const { main } = await import(pathToFileURL(path.join(ROOT, "generators/dist/cli.js")).href);

const send = (msg) => new Promise((resolve) => process.send(msg, resolve));

let stray = [];
process.on("unhandledRejection", (err) => stray.push(`unhandled rejection: ${err?.stack ?? String(err)}`));
process.on("uncaughtException", (err) => stray.push(`uncaught exception: ${err?.stack ?? String(err)}`));

/** Runs the CLI in-process with its stdout/stderr captured. */
async function runCli(argv) {
  let output = "";
  const capture = (chunk, encoding, cb) => {
    output += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    if (typeof encoding === "function") encoding();
    else if (typeof cb === "function") cb();
    return true;
  };
  const out = process.stdout.write;
  const err = process.stderr.write;
  process.stdout.write = capture;
  process.stderr.write = capture;
  stray = [];
  let code;
  try {
    code = await main(argv);
  } catch (e) {
    // main reports every error itself; anything reaching here is a crash of the front end.
    output += `main threw: ${e?.stack ?? String(e)}\n`;
    code = 4;
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
  if (stray.length > 0) {
    output += stray.join("\n");
    if (code === 0) code = 4;
  }
  return { code, output };
}

/** tsc diagnostics grouped by package folder (`p3`); lines outside any package under "". */
function diagnosticsByPackage(text) {
  const byPkg = new Map();
  let current;
  for (const line of text.split("\n")) {
    const m = /^(p\d+)\/[^\n]*?\(\d+,\d+\): error (TS\d+: .*)$/.exec(line);
    if (m) {
      current = m[1];
      const list = byPkg.get(current) ?? [];
      list.push(line);
      byPkg.set(current, list);
    } else if (/error TS\d+/.test(line)) {
      current = "";
      byPkg.set("", [...(byPkg.get("") ?? []), line]);
    } else if (line.startsWith(" ") && current !== undefined) {
      const list = byPkg.get(current);
      list[list.length - 1] += `\n${line}`;
    }
  }
  return byPkg;
}

/** The generated packages' own compiler options (minus emit settings), over every package given. */
function runTsc(dir, folders) {
  const own = JSON.parse(readFileSync(path.join(dir, folders[0], "tsconfig.json"), "utf8"));
  const { rootDir: _rootDir, outDir: _outDir, declaration: _d, declarationMap: _dm, sourceMap: _sm, ...options } = own.compilerOptions;
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { ...options, noEmit: true }, include: folders.map((f) => `${f}/src/**/*.ts`) }));
  const r = spawnSync(process.execPath, ["--max-old-space-size=6144", TSC, "-p", ".", "--pretty", "false"], {
    cwd: dir,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  return { status: r.status, signal: r.signal, output: `${r.stdout ?? ""}${r.stderr ?? ""}` };
}

/** Type-checks the packages together; when tsc fails without naming a package, each one alone. */
function typecheck(dir, folders) {
  if (folders.length === 0) return { results: new Map(), ms: 0 };
  const t = performance.now();
  const results = new Map();
  const run = runTsc(dir, folders);
  const byPkg = diagnosticsByPackage(run.output);
  if (run.status === 0) for (const f of folders) results.set(f, { ok: true });
  else if (!byPkg.has("") && byPkg.size > 0) {
    for (const f of folders) results.set(f, byPkg.has(f) ? { ok: false, diagnostics: byPkg.get(f) } : { ok: true });
  } else if (folders.length > 1) {
    for (const f of folders) results.set(f, typecheck(dir, [f]).results.get(f));
  } else {
    const why = run.signal ? `tsc was killed (${run.signal})` : run.output.trim() || `tsc exited with ${run.status}`;
    results.set(folders[0], { ok: false, diagnostics: [why] });
  }
  return { results, ms: performance.now() - t };
}

process.on("message", async (batch) => {
  if (batch.type === "exit") process.exit(0);
  const { id, dir, specs, keep } = batch;
  mkdirSync(dir, { recursive: true });
  const generated = [];
  for (const spec of specs) {
    await send({ type: "start", batch: id, name: spec.name });
    const folder = `p${spec.index}`;
    const argv = ["generate", spec.file, "--out", path.join(dir, folder), "--name", `@corpus/${folder}`, "--force", "--cache-dir", path.join(dir, ".cache"), "--quiet"];
    const t = performance.now();
    const { code, output } = await runCli(argv);
    const ms = performance.now() - t;
    if (code === 0) generated.push(folder);
    await send({ type: "generated", batch: id, name: spec.name, code, output, ms });
  }
  await send({ type: "typecheck", batch: id, count: generated.length });
  const { results, ms } = typecheck(dir, generated);
  await send({ type: "typechecked", batch: id, ms, results: Object.fromEntries(results) });
  if (!keep) rmSync(dir, { recursive: true, force: true });
  await send({ type: "done", batch: id, rss: process.memoryUsage().rss });
});

await send({ type: "ready" });
