import type { ApiModel } from "../model/ir.js";

/** A file an emitter produces, relative to the package folder (forward slashes). */
export interface GeneratedFile {
  readonly path: string;
  readonly contents: string;
  /** Machine output that formatting would only slow down (compiled validators). @default true */
  readonly format?: boolean;
}

export interface EmitContext {
  readonly model: ApiModel;
  /** npm name of the package being generated (`@devplatform/core`). */
  readonly packageName: string;
  /** Every subpath export the enabled emitters add, in emitter order (`./types` → `types`). */
  readonly exports: ReadonlyMap<string, string>;
  /** Run-time npm dependencies of every enabled emitter, sorted by name. */
  readonly dependencies: Readonly<Record<string, string>>;
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
  /** npm dependencies the artifact's code imports at run time (name → semver range). */
  readonly dependencies?: Readonly<Record<string, string>>;
  emit(ctx: EmitContext): readonly GeneratedFile[] | Promise<readonly GeneratedFile[]>;
}

export function defineEmitter(emitter: Emitter): Emitter {
  return emitter;
}
