/**
 * `contractgen.config.ts` (or `.json`): what a project generates and scaffolds. Imported by config
 * files as `import { defineConfig } from "contractgen/config"`, so it stays free of the generator.
 */
import type { ArtifactName } from "../emit/artifacts.js";

export type { ArtifactName } from "../emit/artifacts.js";

/** One spec and the package it becomes. */
export interface SpecEntry {
  /** The OpenAPI document (YAML or JSON), relative to the config file. */
  readonly spec: string;
  /** Folder of the generated package, relative to the config file. @default "<packagesDir>/<spec file name>" */
  readonly out?: string;
  /** npm name of the package. @default "<scope>/<spec file name>" */
  readonly name?: string;
  /** Artifacts of this package (what they import comes with them). @default the config's `artifacts` */
  readonly artifacts?: readonly ArtifactName[];
  /**
   * `package`: a package built on its own (package.json, tsconfig, dist/). `sources`: modules to
   * place in an application's source folder (`src/api`) and build with its own tsconfig or bundler
   * (docs/configuration.md). @default the config's `layout`
   */
  readonly layout?: Layout;
}

/** How generated code is laid out: a package of its own, or sources inside an application. */
export type Layout = "package" | "sources";

/** A server project `contractgen scaffold` creates and keeps in step with its contract. */
export interface ScaffoldEntry {
  /** The spec, or a package contractgen generated, relative to the config file. */
  readonly source: string;
  /** The project folder, relative to the config file. */
  readonly out: string;
}

/**
 * What a contract may do beyond contractgen's safe defaults (docs/security.md). Each entry widens
 * what a spec from another repository can make generated code do, so each is named one by one.
 */
export interface SecurityConfig {
  /**
   * Folders, relative to the config file, that `$ref`s may read files from besides the root spec's
   * own folder (and its subfolders). A `$ref` to any other file is refused with its file:line:col.
   * @default []
   */
  readonly refRoots?: readonly string[];
  /**
   * Patterns, exactly as the spec writes them, that RE2 cannot express (backreferences, lookahead,
   * lookbehind) and that validators may still run, on the backtracking `RegExp` and only for values
   * of at most 256 characters (a longer value does not match). Any other such pattern is refused at
   * generation with its file:line:col.
   * @default []
   */
  readonly backtrackingPatterns?: readonly string[];
}

export interface ContractgenConfig {
  /** npm scope of generated package names. @default "@devplatform" */
  readonly scope?: string;
  /** Folder whose top-level specs each become a package, when `specs` is not given. @default "spec" */
  readonly specDir?: string;
  /** Folder packages are generated into, when an entry has no `out`. @default "packages" */
  readonly packagesDir?: string;
  /** The specs and where their packages go. @default every spec at the top of `specDir` */
  readonly specs?: readonly SpecEntry[];
  /** Artifacts every package gets (a client-only package: `["client"]`). @default every artifact */
  readonly artifacts?: readonly ArtifactName[];
  /** Layout of every entry that does not give its own. @default "package" */
  readonly layout?: Layout;
  /** Folder of templates overriding the built-in ones by path (scaffold). @default the built-in templates */
  readonly templates?: string;
  /** Server projects for `contractgen scaffold` without arguments. @default [] */
  readonly scaffold?: readonly ScaffoldEntry[];
  /** Exceptions to the defaults that keep hostile specs and requests harmless. @default none */
  readonly security?: SecurityConfig;
}

/** Types a config (`export default defineConfig({ … })`); returns it unchanged. */
export function defineConfig(config: ContractgenConfig): ContractgenConfig {
  return config;
}
