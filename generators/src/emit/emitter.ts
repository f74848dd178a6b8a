import type { ApiModel } from "../model/ir.js";
import type { PackageTemplates } from "../templates/package.js";
import type { ContentCache } from "../write/content-cache.js";

/** A file an emitter produces, relative to the package folder (forward slashes). */
export interface GeneratedFile {
  readonly path: string;
  readonly contents: string;
  /** Machine output that formatting would only slow down (compiled validators). @default true */
  readonly format?: boolean;
  /**
   * Top-level pieces of a TypeScript module (as write/format.ts cuts it: a declaration with its doc
   * comment) that the emitter laid out as prettier would: written as they are, not formatted.
   * @default none
   */
  readonly laidOut?: ReadonlySet<string>;
}

export interface EmitContext {
  readonly model: ApiModel;
  /** npm name of the package being generated (`@devplatform/core`). */
  readonly packageName: string;
  /** Every subpath export the enabled emitters add, in emitter order (`./types` → `types`). */
  readonly exports: ReadonlyMap<string, string>;
  /** Modules the barrel exports as namespaces rather than merging their names. */
  readonly namespaced: ReadonlySet<string>;
  /** Modules the barrel leaves out (reachable by their subpath only). */
  readonly unbarrelled: ReadonlySet<string>;
  /** Optional peer dependencies of every enabled emitter, sorted by name. */
  readonly optionalPeers: Readonly<Record<string, string>>;
  /** The package's version and changelog, from the changes since it was last generated. */
  readonly release: { readonly version: string; readonly changelog: string };
  /** Run-time npm dependencies of every enabled emitter, sorted by name. */
  readonly dependencies: Readonly<Record<string, string>>;
  /** What the package emitter fills: templates/package/, or the user's overrides by path. */
  readonly templates: PackageTemplates;
  /**
   * Worker threads an emitter may use for work independent of the main thread (the validators'
   * compilation); 0 keeps everything on the main thread.
   * @default `CONTRACTGEN_WORKERS`, else min(2, available cores)
   */
  readonly workers?: number;
  /**
   * Keep worker threads that would end after their task (the one printing a large contract's
   * types) for the next run: see `RunOptions.keepWorkers`. @default false
   */
  readonly keepWorkers?: boolean;
  /**
   * Where the validators emitter keeps each compiled unit by content (write/content-cache.ts),
   * already keyed to the generator and ajv versions; a hit is the code a compile would give.
   * @default no cache
   */
  readonly unitCache?: ContentCache;
}

/**
 * One artifact of a generated package. Emitters are pure: the same model gives the same files, and
 * they never read the disk or the clock. Add one by writing a module that calls `defineEmitter` and
 * listing it in emit/index.ts.
 */
export interface Emitter {
  /** Short name shown in progress lines (`types`). */
  readonly name: string;
  /** Subpath exports this artifact adds: subpath → module under src/ without extension. */
  readonly exports?: Readonly<Record<string, string>>;
  /**
   * How the package's `src/index.ts` re-exports this artifact: `star` merges its names, `namespace`
   * exports it as one object named after the module (for artifacts whose names would clash), `none`
   * leaves it to its subpath (server code a client-only consumer must not load).
   * @default "star"
   */
  readonly barrel?: "star" | "namespace" | "none";
  /**
   * Whether the artifact exists for this contract (its subpath exports are listed only then).
   * @default always
   */
  readonly applies?: (model: ApiModel) => boolean;
  /**
   * The emitter reads nothing of its context but `model`: for a large contract it runs on a worker
   * thread with a clone of the model (emit/offload.ts), beside the emitters that run here.
   * @default false
   */
  readonly modelOnly?: boolean;
  /**
   * The emitter reads `release`: when a kept worker diffs it (emit/offload.ts), the pipeline waits
   * for that answer before starting this emitter. @default false
   */
  readonly readsRelease?: boolean;
  /** npm dependencies the artifact's code imports at run time (name → semver range). */
  readonly dependencies?: Readonly<Record<string, string>>;
  /** Peer dependencies only this artifact needs; optional for the package (name → semver range). */
  readonly optionalPeers?: Readonly<Record<string, string>>;
  emit(ctx: EmitContext): readonly GeneratedFile[] | Promise<readonly GeneratedFile[]>;
}

export function defineEmitter(emitter: Emitter): Emitter {
  return emitter;
}
