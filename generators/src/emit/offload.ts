/**
 * Emitters that read nothing of their context but the model (`Emitter.modelOnly`) run, for a large
 * contract, on the types' worker thread with a clone of the model, while this thread runs the
 * others. On a 1,000-operation contract this thread is the longer of the two (it loads, builds the
 * model, diffs the release, compiles and assembles the validators), and a worker kept between runs
 * (`--watch`) diffs the release instead (`releaseOnWorker`). An emitter is pure, and a
 * structured clone keeps every value and which objects are shared, so where it ran never changes
 * its files.
 */
import { SpecError, type SpecIssue } from "../load/errors.js";
import type { OpenApiDocument } from "../load/load.js";
import type { ApiModel } from "../model/ir.js";
import type { PreviousState } from "../release.js";
import type { EmitContext, Emitter, GeneratedFile } from "./emitter.js";
import { orInline, poolOf } from "../workers/pool.js";

/**
 * From this many operations, model-only emitters run on a worker thread; below it, cloning the
 * model there costs more than the emitters take.
 * @default 100
 */
export const OFFLOAD_FROM = 100;

const OFFLOAD_MODULE = new URL("./offload.js", import.meta.url).href;

/** What the worker answers: each emitter's files by its name, or the contract issues one refused. */
export type OffloadResult = { readonly files: Readonly<Record<string, readonly GeneratedFile[]>> } | { readonly issues: readonly SpecIssue[] };

/**
 * The release diffed on the kept worker (`--watch`), before its emitters: the worker holds a clone
 * of the model it received last run for each package folder, the outline the diff starts from, and
 * this thread (the longer of the two on a large contract) is spared most of a second.
 */
export interface ReleaseRequest {
  /** The package folder, absolute: the worker keeps the last model it received for each. */
  readonly outDir: string;
  /**
   * Which run's model the release diffs against: the one that wrote the package's contract.json.
   * Undefined when no run of this process wrote it: the worker only keeps this run's model.
   */
  readonly previousRun?: number;
  /** This run, by the same count. */
  readonly run: number;
  /** The previous package's version and changelog (its contract is the model kept there). */
  readonly previous: Pick<PreviousState, "version" | "changelog">;
  readonly specVersion: string;
  readonly specPath: string;
}

/** The release, or undefined when the worker does not hold the previous run's model (this thread diffs then). */
export type ReleaseAnswer = { readonly version: string; readonly changelog: string } | undefined;

/** The model the current task received: the release task's, read by the emitters' task posted after it. */
let received: ApiModel | undefined;
/** Per package folder, the last model this worker received and which run it was (see ReleaseRequest). */
const keptModels = new Map<string, { readonly run: number; readonly model: ApiModel }>();

/** The worker's release task: keeps `model` for the emitters' task and the next run, then diffs. */
export async function releaseOnWorker(model: ApiModel, request: ReleaseRequest): Promise<ReleaseAnswer> {
  received = model;
  const last = keptModels.get(request.outDir);
  keptModels.set(request.outDir, { run: request.run, model });
  if (request.previousRun === undefined || last === undefined || last.run !== request.previousRun || request.previous.version === undefined) return undefined;
  const { release } = await import("../release.js");
  const r = release({ ...request.previous, contractOutline: last.model }, model.document as OpenApiDocument, request.specVersion, request.specPath, model);
  return { version: r.version, changelog: r.changelog };
}

/**
 * Runs the named model-only emitters, in the order given, on `model` (null: the model the release
 * task just before received): the worker's task. A SpecError (the MCP profile linter's refusal)
 * comes back as its issues, which no thread boundary loses.
 */
export async function emitModelOnly(given: ApiModel | null, names: readonly string[]): Promise<OffloadResult> {
  const model = given ?? received;
  received = undefined;
  // A worker started after the release task's ended (it failed): the calling thread runs them.
  if (model === undefined) throw new Error("no model was received for the model-only emitters");
  const { EMITTERS } = await import("./index.js");
  const files: Record<string, readonly GeneratedFile[]> = {};
  try {
    for (const name of names) {
      const emitter = EMITTERS.find((e) => e.name === name);
      if (emitter === undefined || !emitter.modelOnly) throw new Error(`${name} is no model-only emitter`);
      // A model-only emitter reads `model` alone: the rest of the context is not sent.
      files[name] = await emitter.emit({ model } as EmitContext);
    }
  } catch (err) {
    if (err instanceof SpecError) return { issues: err.issues };
    throw err;
  }
  return { files };
}

/** What runs on the worker: each model-only emitter's files by name, and the release when asked for. */
export interface Offloaded {
  readonly files: ReadonlyMap<string, Promise<readonly GeneratedFile[]>>;
  /** Undefined when not asked for, or when the worker could not diff (this thread does then). */
  readonly release?: Promise<ReleaseAnswer>;
}

/**
 * The files of the model-only ones among `emitters`, computed by one worker task, by emitter name,
 * and with `releaseRequest` (a kept worker only) the release, by a task before it; undefined when
 * they run here (a small contract, no worker threads). A failure rejects each one's promise with
 * the error the emitter would have thrown here.
 */
export function offloaded(model: ApiModel, emitters: readonly Emitter[], workers: number, keepWorkers: boolean, releaseRequest?: ReleaseRequest): Offloaded | undefined {
  // On a kept worker the release task always runs, to keep the model for the next run's diff.
  const withRelease = keepWorkers && releaseRequest !== undefined;
  const diffs = withRelease && releaseRequest.previousRun !== undefined;
  const names = emitters.filter((e) => e.modelOnly).map((e) => e.name);
  if (names.length === 0 || model.operations.length < OFFLOAD_FROM) return undefined;
  // The types' pool: one worker, beside this thread and the compile and format pool.
  const pool = poolOf(Math.min(1, workers), keepWorkers ? "large-kept" : "large");
  if (pool === undefined) return undefined;
  const here = (): Promise<OffloadResult> => emitModelOnly(model, names);
  // The model is cloned once: into the release task when there is one, which leaves it to the next.
  const diffed = withRelease ? pool.run<ReleaseAnswer>(OFFLOAD_MODULE, "releaseOnWorker", [model, releaseRequest]).catch(() => undefined) : undefined;
  const release = diffs ? diffed : undefined;
  const result = orInline(pool.run<OffloadResult>(OFFLOAD_MODULE, "emitModelOnly", [withRelease ? null : model, names]), here).catch((err: unknown) => {
    // A model holding a value no structured clone takes, or a release task that never handed the
    // model over: the emitters run here, as for a small contract.
    if (withRelease || (err instanceof Error && err.name === "DataCloneError")) return here();
    throw err;
  });
  const byName = new Map<string, Promise<readonly GeneratedFile[]>>();
  for (const name of names) {
    const files = result.then((r) => {
      if ("issues" in r) throw new SpecError(r.issues);
      return r.files[name] ?? [];
    });
    // Awaited by the pipeline in emitter order; a rejection before then is not unhandled.
    files.catch(() => undefined);
    byName.set(name, files);
  }
  return { files: byName, ...(release !== undefined ? { release } : {}) };
}
