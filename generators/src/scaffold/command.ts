/**
 * `contractgen scaffold <package or spec> --out <dir>`: creates a runnable Fastify project for a
 * contract, or brings an existing one up to date without losing a line of the user's code.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, readdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { kebabCase } from "../model/naming.js";
import { check, generate, type Reporter } from "../pipeline.js";
import { TemplateError } from "../templates/template.js";
import { ScaffoldRefusal } from "./analyze.js";
import { freshTexts, loadScaffoldTemplates, projectFiles, refreshStatus, type ProjectFacts } from "./files.js";
import { planScaffold } from "./plan.js";
import { HANDLERS_DIR, reconcile, type HandlerStatus } from "./reconcile.js";
import { relativePath, resolveSource, runtimeRange, SourceError } from "./source.js";
import type { ScaffoldArgs } from "./options.js";

/** Exit codes, as the rest of the CLI uses them. */
const EXIT = { ok: 0, outstanding: 1, invalidInput: 2, usage: 3 } as const;

export interface ScaffoldOutcome {
  readonly code: number;
  /** Project-relative paths written by this run. */
  readonly written: readonly string[];
}

async function readHandlers(outDir: string): Promise<Map<string, string>> {
  const dir = path.join(outDir, HANDLERS_DIR);
  const out = new Map<string, string>();
  if (!existsSync(dir)) return out;
  for (const name of (await readdir(dir)).filter((n) => n.endsWith(".ts") && !n.endsWith(".d.ts")).sort()) {
    out.set(`${HANDLERS_DIR}/${name}`, await readFile(path.join(dir, name), "utf8"));
  }
  return out;
}

/** Writes beside the file and renames it into place, so a crash never leaves half a file. */
async function writeAtomic(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.contractgen-tmp`;
  await writeFile(tmp, text);
  await rename(tmp, file);
}

function quoteArg(a: string): string {
  return /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;
}

/** One project, as given on the command line or by a `scaffold` entry of the config. */
interface ScaffoldJob {
  readonly source: string;
  readonly out: string;
  readonly check: boolean;
  readonly templates?: string | undefined;
  readonly name?: string | undefined;
  readonly quiet: boolean;
}

/** `contractgen scaffold [source]`: the one project named, or every `scaffold` entry of the config. */
export async function runScaffoldCommand(args: ScaffoldArgs, cwd: string, reporter: Reporter): Promise<number> {
  const { loadConfig, ConfigError } = await import("../config/load.js");
  let loaded;
  try {
    loaded = await loadConfig(cwd, args.config);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    process.stderr.write(`${e.message}\n`);
    return EXIT.usage;
  }
  const fromConfig = (p: string): string => path.relative(cwd, path.resolve(loaded?.dir ?? cwd, p)) || ".";
  const templates = args.templates ?? (loaded?.config.templates !== undefined ? fromConfig(loaded.config.templates) : undefined);
  const common = { check: args.check, templates, name: args.name, quiet: args.quiet };
  if (args.source !== undefined) {
    if (args.out === undefined) {
      process.stderr.write("scaffold <source> needs --out <dir>: the server project's folder\n");
      return EXIT.usage;
    }
    return (await runScaffold({ ...common, source: args.source, out: args.out }, cwd, reporter)).code;
  }
  const entries = loaded?.config.scaffold ?? [];
  if (entries.length === 0) {
    process.stderr.write(`name a spec or package: contractgen scaffold <source> --out <dir>${loaded ? ` (${loaded.file} has no scaffold entries)` : ""}\n`);
    return EXIT.usage;
  }
  let code: number = EXIT.ok;
  for (const e of entries) code = Math.max(code, (await runScaffold({ ...common, source: fromConfig(e.source), out: fromConfig(e.out) }, cwd, reporter)).code);
  return code;
}

export async function runScaffold(args: ScaffoldJob, cwd: string, reporter: Reporter): Promise<ScaffoldOutcome> {
  const out = (line: string): void => {
    process.stdout.write(`${line}\n`);
  };
  const err = (text: string): void => {
    process.stderr.write(`${text}\n`);
  };
  const outDir = path.resolve(cwd, args.out);
  try {
    const templates = await loadScaffoldTemplates(args.templates, cwd);
    const source = await resolveSource(cwd, args.source, outDir, args.name);
    const plan = planScaffold(source.model);
    const command = [
      "npx contractgen scaffold",
      relativePath(outDir, path.resolve(cwd, args.source)),
      "--out .",
      ...(args.templates ? ["--templates", relativePath(outDir, path.resolve(cwd, args.templates))] : []),
      ...(args.name ? ["--name", args.name] : []),
    ]
      .map((a, i) => (i === 0 ? a : a.startsWith("--") ? a : quoteArg(a)))
      .join(" ");
    const facts: ProjectFacts = {
      model: source.model,
      plan,
      packageName: source.packageName,
      projectName: kebabCase(path.basename(outDir)),
      contractDir: relativePath(outDir, source.contractDir),
      runtimeRange: runtimeRange(),
      buildsContract: source.target !== undefined,
      command,
    };
    const isNew = !existsSync(path.join(outDir, "package.json"));
    const result = reconcile(plan, await readHandlers(outDir), freshTexts(facts, templates), `${source.packageName}/server`);

    if (args.check) {
      let outstanding = 0;
      if (isNew) {
        out(`missing  ${args.out}/package.json (no project yet: run scaffold without --check)`);
        outstanding++;
      }
      for (const s of result.status) {
        if (s.state === "missing") out(`missing  ${s.file}  ${s.methodName} (${s.operationId ?? ""})`);
        if (s.state === "stale") out(`stale    ${s.file}  ${s.methodName} (its operation left the contract: delete it)`);
        if (s.state === "missing" || s.state === "stale") outstanding++;
      }
      if (source.target) {
        const [drift] = await check([source.target], { cwd, reporter: { ...reporter, step: () => undefined } });
        const d = drift?.drift;
        for (const f of [...(d?.changed ?? []), ...(d?.added ?? []), ...(d?.stale ?? [])]) {
          out(`changed  contract/${f}`);
          outstanding++;
        }
      }
      if (!args.quiet)
        err(outstanding > 0 ? `${outstanding} thing(s) to do: run \`${command}\` in ${args.out}, then implement or delete what it lists` : `${args.out} implements every operation of the contract`);
      return { code: outstanding > 0 ? EXIT.outstanding : EXIT.ok, written: [] };
    }

    // After this run, every handler the contract lists exists (as a stub when it was missing).
    const status: HandlerStatus[] = result.status.map((s) => (s.state === "missing" ? { ...s, state: "stub" } : s));
    const writes = new Map(result.writes);
    if (isNew) for (const [file, text] of projectFiles(facts, templates, status)) if (!existsSync(path.join(outDir, file))) writes.set(file, text);
    const readmePath = path.join(outDir, "README.md");
    if (!isNew && existsSync(readmePath)) {
      const readme = await readFile(readmePath, "utf8");
      const refreshed = refreshStatus(readme, status);
      if (refreshed !== readme) writes.set("README.md", refreshed);
    }
    if (source.target) await generate([source.target], { cwd, reporter: { ...reporter, step: () => undefined } });
    const written: string[] = [];
    for (const [file, text] of [...writes].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const abs = path.join(outDir, file);
      if (existsSync(abs) && (await readFile(abs, "utf8")) === text) continue;
      await writeAtomic(abs, text);
      written.push(file);
    }
    if (!args.quiet) {
      for (const m of result.newModules) out(`module   ${m}`);
      for (const a of result.added) out(`added    ${a.file}  ${a.methodName}`);
      for (const s of result.stale.filter((x) => x.markedNow)) out(`stale    ${s.file}  ${s.methodName} (marked @deprecated: its operation left the contract)`);
      for (const u of result.unmarked) out(`back     ${u.file}  ${u.methodName} (its operation is in the contract again: marker removed)`);
      for (const m of result.moved) out(`note     ${m.file}  ${m.methodName} is tagged for ${m.tagFile}; kept where it is`);
      const n = (st: HandlerStatus["state"]): number => status.filter((s) => s.state === st).length;
      err(`${args.out}: ${written.length === 0 ? "unchanged" : `${written.length} file(s) written`}; ${n("implemented")} implemented, ${n("stub")} to do, ${n("stale")} stale`);
    }
    return { code: EXIT.ok, written };
  } catch (e) {
    if (e instanceof TemplateError || e instanceof ScaffoldRefusal) {
      err(e.message);
      err(e instanceof ScaffoldRefusal ? "scaffold refused: nothing was written" : "template error: nothing was written");
      return { code: EXIT.invalidInput, written: [] };
    }
    if (e instanceof SourceError) {
      err(e.message);
      return { code: EXIT.usage, written: [] };
    }
    throw e;
  }
}
