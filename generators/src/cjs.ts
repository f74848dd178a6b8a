/**
 * CommonJS packages the generator loads through `require`. An ESM `import` of a CommonJS module
 * makes Node scan its source for export names (cjs-module-lexer) and detect its format first; for
 * TypeScript's 9 MB bundle that costs more than loading it (import ~1.3 s against require ~0.45 s
 * in a fresh process on this machine under load). openapi-typescript ships a CommonJS build too,
 * which requires TypeScript the cheap way; its ESM build would import it.
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** The `typescript` package. */
export function typescript(): typeof import("typescript") {
  return require("typescript") as typeof import("typescript");
}

/** The `openapi-typescript` package (its CommonJS build: the same API and code as the ESM one). */
export function openapiTypescript(): typeof import("openapi-typescript") {
  return require("openapi-typescript") as typeof import("openapi-typescript");
}
