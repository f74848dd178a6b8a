/**
 * Emitters that read nothing of their context but the model (`Emitter.modelOnly`) run, for a large
 * contract, on the types' worker thread with a clone of the model, while this thread runs the
 * others (those marked `offloadWhenKept`, the client and server, only when that worker is kept
 * between runs). On a 1,000-operation contract this thread is the longer of the two (it loads, builds the
 * model, diffs the release, compiles and assembles the validators). An emitter is pure, and a
 * structured clone keeps every value and which objects are shared, so where it ran never changes
 * its files.
 */
import { SpecError, type SpecIssue } from "../load/errors.js";
import type { ApiModel } from "../model/ir.js";
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
 * Runs the named model-only emitters, in the order given, on `model`: the worker's task. A
 * SpecError (the MCP profile linter's refusal) comes back as its issues, which no thread boundary
 * loses.
 */
export async function emitModelOnly(model: ApiModel, names: readonly string[]): Promise<OffloadResult> {
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

/**
 * The files of the model-only ones among `emitters`, computed by one worker task, by emitter name;
 * undefined when they run here (a small contract, no worker threads). A failure rejects each one's
 * promise with the error the emitter would have thrown here.
 */
export function offloaded(model: ApiModel, emitters: readonly Emitter[], workers: number, keepWorkers: boolean): ReadonlyMap<string, Promise<readonly GeneratedFile[]>> | undefined {
  const names = emitters.filter((e) => e.modelOnly && (keepWorkers || !e.offloadWhenKept)).map((e) => e.name);
  if (names.length === 0 || model.operations.length < OFFLOAD_FROM) return undefined;
  // The types' pool: one worker, beside this thread and the compile and format pool.
  const pool = poolOf(Math.min(1, workers), keepWorkers ? "large-kept" : "large");
  if (pool === undefined) return undefined;
  const here = (): Promise<OffloadResult> => emitModelOnly(model, names);
  const result = orInline(pool.run<OffloadResult>(OFFLOAD_MODULE, "emitModelOnly", [model, names]), here).catch((err: unknown) => {
    // A model holding a value no structured clone takes: the emitters run here, as for a small contract.
    if (err instanceof Error && err.name === "DataCloneError") return here();
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
  return byName;
}
