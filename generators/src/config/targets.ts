/**
 * The targets of `generate`/`check`: a spec on the command line, else the config's `specs`, else
 * every spec in the spec folder. Command-line flags override the config; the config overrides the
 * defaults.
 */
import { statSync } from "node:fs";
import path from "node:path";
import { kebabCase } from "../model/naming.js";
import { discoverTargets, targetFor, type Target } from "../pipeline.js";
import { loadConfig, type LoadedConfig } from "./load.js";

export interface TargetFlags {
  readonly spec?: string | undefined;
  readonly out?: string | undefined;
  readonly name?: string | undefined;
  readonly specDir?: string | undefined;
  readonly packagesDir?: string | undefined;
  readonly scope?: string | undefined;
  /** `--config <file>`; else contractgen.config.{ts,mjs,json} in the working directory. */
  readonly config?: string | undefined;
  /** `--templates <dir>`: overrides the config's `templates`. */
  readonly templates?: string | undefined;
  /** `--layout package|sources`: overrides the config's. */
  readonly layout?: string | undefined;
}

export const DEFAULT_LAYOUT = { specDir: "spec", packagesDir: "packages", scope: "@devplatform" } as const;

export async function resolveTargets(cwd: string, flags: TargetFlags): Promise<{ targets: Target[]; config: LoadedConfig | undefined }> {
  const loaded = await loadConfig(cwd, flags.config);
  const config = loaded?.config ?? {};
  const base = loaded?.dir ?? cwd;
  const fromConfig = (p: string): string => path.relative(cwd, path.resolve(base, p)) || ".";
  const artifacts = config.artifacts;
  const templates = flags.templates ?? (config.templates !== undefined ? fromConfig(config.templates) : undefined);
  if (flags.layout !== undefined && flags.layout !== "package" && flags.layout !== "sources") throw new TargetUsageError(`--layout ${flags.layout}: give package or sources`);
  const flagLayout = flags.layout as Target["layout"];
  const refRoots = config.security?.refRoots?.map((r) => path.resolve(base, r));
  const backtrackingPatterns = config.security?.backtrackingPatterns;
  const withArtifacts = (t: Target, own?: Target["artifacts"], ownLayout?: Target["layout"]): Target => {
    const a = own ?? artifacts;
    const layout = flagLayout ?? ownLayout ?? config.layout;
    return {
      ...t,
      ...(a ? { artifacts: a } : {}),
      ...(templates !== undefined ? { templates } : {}),
      ...(layout !== undefined && layout !== "package" ? { layout } : {}),
      ...(refRoots?.length ? { refRoots } : {}),
      ...(backtrackingPatterns?.length ? { backtrackingPatterns } : {}),
    };
  };
  if (flags.spec) {
    const out = flags.out ?? path.join(flags.packagesDir ?? DEFAULT_LAYOUT.packagesDir, path.basename(flags.spec).replace(/\.(ya?ml|json)$/i, ""));
    return { targets: [withArtifacts(targetFor(cwd, flags.spec, out, flags.name))], config: loaded };
  }
  if (flags.out || flags.name) throw new TargetUsageError("--out and --name need a spec: contractgen generate <spec> --out <dir>");
  const scope = flags.scope ?? config.scope ?? DEFAULT_LAYOUT.scope;
  const packagesDir = flags.packagesDir ?? (config.packagesDir !== undefined ? fromConfig(config.packagesDir) : DEFAULT_LAYOUT.packagesDir);
  if (config.specs && flags.specDir === undefined) {
    const targets = config.specs.map((entry) => {
      const name = kebabCase(path.basename(entry.spec).replace(/\.(ya?ml|json)$/i, ""));
      const outDir = entry.out !== undefined && flags.packagesDir === undefined ? path.resolve(base, entry.out) : path.resolve(cwd, packagesDir, name);
      return withArtifacts({ specPath: fromConfig(entry.spec), outDir, packageName: entry.name ?? `${scope}/${name}`, name }, entry.artifacts, entry.layout);
    });
    return { targets, config: loaded };
  }
  const specDir = flags.specDir ?? (config.specDir !== undefined ? fromConfig(config.specDir) : DEFAULT_LAYOUT.specDir);
  if (!isDirectory(path.resolve(cwd, specDir))) {
    throw new TargetUsageError(`no spec folder ${specDir}/ in ${cwd}: give a spec (contractgen generate <spec>) or --spec-dir <folder>`);
  }
  const targets = (await discoverTargets(cwd, { specDir, packagesDir, scope })).map((t) => withArtifacts(t));
  if (targets.length === 0) throw new TargetUsageError(`no OpenAPI documents found in ${specDir}/`);
  return { targets, config: loaded };
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Wrong use of the command line or config layout (exit 3). */
export class TargetUsageError extends Error {}
