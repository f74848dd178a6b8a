/**
 * openapi-typescript and TypeScript, loaded as CommonJS.
 *
 * Both ship CommonJS (openapi-typescript's `dist/**.cjs` is the same source built twice; its
 * version is pinned, and types-ast.ts already follows its internals, so the files named below are
 * known). Imported as ES modules, Node first tests TypeScript's 9 MB `typescript.js` for module
 * syntax and scans it for its exports before it runs it: about 1.5 s of CPU at every process start,
 * against 0.4 s for `require`. And openapi-typescript's entry point loads Redocly's whole linter
 * (0.6 s), which only the pass the types emitter skips (types-ast.ts) reads, so the modules that
 * pass does not need are required one by one. In a `--watch` process this changes little (modules
 * load once, though GitHub's types print on a worker started afresh each run); in a fresh
 * `contractgen generate` it is most of the types stage.
 */
import { createRequire } from "node:module";
import { requireCached } from "../code-cache.js";

const require = createRequire(import.meta.url);

type OpenapiTypescript = typeof import("openapi-typescript");

/**
 * TypeScript's compiler API (the `typescript` package openapi-typescript prints with), through the
 * build's V8 code cache (code-cache.ts).
 */
export function typescript(): typeof import("typescript") {
  return requireCached("typescript") as typeof import("typescript");
}

/** The parts of openapi-typescript that build and print the AST, without its Redocly entry point. */
export function openapiTypescriptParts(): Pick<OpenapiTypescript, "transformSchema" | "scanDiscriminators" | "resolveRef" | "astToString"> {
  // First, so openapi-typescript's own require("typescript") finds the cached instance.
  typescript();
  const utils = require("openapi-typescript/dist/lib/utils.cjs") as Pick<OpenapiTypescript, "scanDiscriminators" | "resolveRef">;
  const print = require("openapi-typescript/dist/lib/ts.cjs") as Pick<OpenapiTypescript, "astToString">;
  const transformSchema = require("openapi-typescript/dist/transform/index.cjs") as OpenapiTypescript["transformSchema"];
  return { transformSchema, scanDiscriminators: utils.scanDiscriminators, resolveRef: utils.resolveRef, astToString: print.astToString };
}

/** openapi-typescript's `openapiTS` (with its Redocly pass), from the same CommonJS build as the parts above. */
export function openapiTS(): OpenapiTypescript["default"] {
  typescript();
  return (require("openapi-typescript") as { default: OpenapiTypescript["default"] }).default;
}
