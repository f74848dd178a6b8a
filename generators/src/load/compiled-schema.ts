/**
 * The loader's own JSON Schema checks (the official OpenAPI schemas, JSON Schema 2020-12's
 * meta-schema), compiled by ajv to standalone code that is kept between processes. Compiling them
 * took half a second of every fresh `contractgen generate`; evaluating the kept code takes a
 * hundredth of that. The function used is always the one evaluated from the standalone code, on a
 * cold run too, so a kept entry and a fresh compile give the same checks by construction; the key
 * holds the schema, the ajv class and its options, and the store namespaces it by the generator
 * and ajv versions (pipeline.ts). An entry that does not evaluate is compiled again.
 */
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import type { ValidateFunction } from "ajv";
import type { TextStore } from "./parse-cache.js";

const require = createRequire(import.meta.url);

/** What compiling a schema needs: an ajv instance made with `code: { source: true }` and the schema's validator from it. */
export interface Compile {
  /** Names the ajv class and anything about its setup that the schema and options do not say. */
  readonly kind: string;
  readonly schema: object;
  readonly options: object;
  /** Compiles with an ajv instance of `kind`, constructed with `options` plus `code.source`. */
  compile(): { ajv: unknown; validate: ValidateFunction };
}

/** The validator for `c`, from the store's standalone code when it holds it, else compiled (and kept). */
export function compiledSchema(c: Compile, store: TextStore | undefined): ValidateFunction {
  const key = createHash("sha256").update(`ajv-standalone\0${c.kind}\0${JSON.stringify(c.options)}\0${JSON.stringify(c.schema)}`).digest("hex");
  const kept = store?.get(key);
  if (kept !== undefined) {
    const validate = evaluate(kept);
    if (validate) return validate;
  }
  const { ajv, validate } = c.compile();
  const standaloneCode = (require("ajv/dist/standalone") as { default: (ajv: unknown, v: ValidateFunction) => string }).default;
  const code = standaloneCode(ajv, validate);
  const evaluated = evaluate(code);
  // Standalone code that does not evaluate here is ajv's bug; the compiled function still checks.
  if (!evaluated) return validate;
  store?.set(key, code);
  return evaluated;
}

/** The validator a CommonJS standalone module exports, or undefined when the code fails to run. */
function evaluate(code: string): ValidateFunction | undefined {
  try {
    const module = { exports: {} as { default?: unknown } };
    // The code requires ajv's runtime helpers, resolved from the generator's own installation.
    new Function("module", "exports", "require", code)(module, module.exports, require);
    const validate = module.exports.default ?? module.exports;
    return typeof validate === "function" ? (validate as ValidateFunction) : undefined;
  } catch {
    return undefined;
  }
}
