/** Programmatic API of contractgen: the same pipeline the CLI runs. */
export { generate, check, render, discoverTargets, targetFor } from "./pipeline.js";
export type { Target, Reporter, RunOptions, TargetResult, ProjectLayout } from "./pipeline.js";
export { loadSpec } from "./load/load.js";
export type { LoadedSpec } from "./load/load.js";
export { SpecError, formatIssue } from "./load/errors.js";
export type { SpecIssue } from "./load/errors.js";
export { buildModel } from "./model/build.js";
export type * from "./model/ir.js";
export { EMITTERS } from "./emit/index.js";
export { defineEmitter } from "./emit/emitter.js";
export type { Emitter, GeneratedFile, EmitContext } from "./emit/emitter.js";
export * from "./diff/index.js";
