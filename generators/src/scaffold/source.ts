/**
 * What `contractgen scaffold <package or spec>` was given: a spec (the contract package is then
 * generated into the project's `contract/` folder on every run) or a package contractgen generated
 * (the project depends on it where it is, and its `contract.json` is the contract).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import type { ApiModel } from "../model/ir.js";
import { kebabCase } from "../model/naming.js";
import { targetFor, type Target } from "../pipeline.js";

export interface ScaffoldSource {
  readonly model: ApiModel;
  readonly packageName: string;
  /** Absolute folder of the contract package. */
  readonly contractDir: string;
  /** Set when the contract package is generated into the project (spec input). */
  readonly target?: Target;
}

/** A usage problem with the source argument (exit 3). */
export class SourceError extends Error {}

function toPosix(p: string): string {
  return p.split(path.sep).join("/");
}

/** `rel` from `from` to `to`, always starting with `./` or `../` (npm's `file:` wants a path). */
export function relativePath(from: string, to: string): string {
  const rel = toPosix(path.relative(from, to));
  return rel === "" ? "." : rel.startsWith("..") ? rel : `./${rel}`;
}

export async function resolveSource(cwd: string, source: string, outDir: string, name: string | undefined): Promise<ScaffoldSource> {
  const { loadSpec } = await import("../load/load.js");
  const { buildModel } = await import("../model/build.js");
  const abs = path.resolve(cwd, source);
  if (!existsSync(abs)) throw new SourceError(`${source}: no such file or folder (give an OpenAPI document or a package contractgen generated)`);
  if (statSync(abs).isDirectory()) {
    const pkgFile = path.join(abs, "package.json");
    const contract = path.join(abs, "contract.json");
    const pkg = existsSync(pkgFile) ? (JSON.parse(readFileSync(pkgFile, "utf8")) as { name?: unknown; contractgen?: { spec?: unknown } }) : undefined;
    if (!pkg || typeof pkg.name !== "string" || typeof pkg.contractgen?.spec !== "string" || !existsSync(contract)) {
      throw new SourceError(`${source}: not a package contractgen generated (it needs package.json with a "contractgen" field and contract.json); give the spec instead`);
    }
    // The generated names come from the spec's file name; the contract snapshot stands in for the spec.
    const modelName = kebabCase(path.basename(pkg.contractgen.spec).replace(/\.(ya?ml|json)$/i, ""));
    const model = buildModel(await loadSpec(path.relative(cwd, contract) || contract, { cwd }), modelName);
    return { model, packageName: name ?? pkg.name, contractDir: abs };
  }
  const contractDir = path.join(outDir, "contract");
  const target = targetFor(cwd, source, contractDir, name);
  const model = buildModel(await loadSpec(source, { cwd }), target.name);
  return { model, packageName: target.packageName, contractDir, target };
}

/**
 * The semver range a scaffolded project asks for `@contractgen/runtime` by: `^` the version of the
 * runtime this generator runs with (the generated code it writes targets that runtime). Never a
 * path: a project must build wherever it is moved, committed or checked out.
 */
export function runtimeRange(): string {
  try {
    // The runtime's exports map lists no package.json: its entry is dist/index.js, one folder down.
    const entry = createRequire(import.meta.url).resolve("@contractgen/runtime");
    const pkg = JSON.parse(readFileSync(path.resolve(path.dirname(entry), "..", "package.json"), "utf8")) as { version?: unknown };
    if (typeof pkg.version === "string") return `^${pkg.version}`;
  } catch {
    // Not resolvable from here (an unusual install): the generator's own dependency range says the same.
  }
  const own = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { dependencies?: Record<string, string> };
  return own.dependencies?.["@contractgen/runtime"] ?? "*";
}
