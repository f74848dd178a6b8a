import { createRequire } from "node:module";
import type { Options } from "ajv";
import { rulesKeyword, ruleSchemasKeyword } from "./keywords.js";
import { dispatchKeyword, dispatchSchemasKeyword } from "./discriminator-keyword.js";
import { hasPrototypeMemberKeys } from "../prototype-keys.js";

const require = createRequire(import.meta.url);

/** Base URI of the schema document the validators are compiled from (never fetched). */
export const ROOT_ID = "https://contractgen.invalid/schema.json";

export interface CompileInput {
  /** `{ components: { schemas } , $defs }` in JSON Schema 2020-12; refs are `#/…` within it. */
  readonly root: Record<string, unknown>;
  /** Export name → JSON pointer (with `#`) into `root`. */
  readonly exports: ReadonlyMap<string, string>;
  /** Coerce strings to declared types, split to arrays and apply defaults (for parameters and forms). */
  readonly coerce: boolean;
}

/** The body ajv evaluates for a contract schema's validator: never run, so it says so if it is. */
const STANDALONE_ONLY = 'return function standaloneOnly() { throw new Error("contractgen compiles validators for standalone output only"); }';

type AjvLike = {
  addSchema(schema: object): unknown;
  addKeyword(def: object): unknown;
  opts: Options;
};

function newAjv(coerce: boolean, ownProperties: boolean): AjvLike {
  const Ajv2020 = (require("ajv/dist/2020") as { default: new (o: Options) => AjvLike }).default;
  const addFormats = (require("ajv-formats") as { default: (ajv: AjvLike) => void }).default;
  const ajv = new Ajv2020({
    // Each referenced schema compiles to one shared function instead of a copy per use: GitHub's
    // spec went from 74 MB of validators to a fraction of that.
    inlineRefs: false,
    allErrors: true,
    strict: false,
    logger: false,
    validateFormats: true,
    // ajv turns every compiled function's source into a live function (a `new Function` parse per
    // validator); standalone output needs only the source it keeps beside it. The contract's own
    // schemas get a stub instead, which throws if anything ever ran it; meta-schemas, which ajv
    // runs to check the contract's schemas, compile as usual.
    code: { source: true, esm: true, lines: false, process: (source: string, env?: { root?: { baseId?: string } }) => (env?.root?.baseId === ROOT_ID ? STANDALONE_ONLY : source) },
    ...(coerce ? { coerceTypes: "array" as const, useDefaults: true } : {}),
    ...(ownProperties ? { ownProperties: true } : {}),
  });
  addFormats(ajv);
  ajv.addKeyword({ ...rulesKeyword });
  ajv.addKeyword({ ...ruleSchemasKeyword });
  ajv.addKeyword({ ...dispatchKeyword });
  ajv.addKeyword({ ...dispatchSchemasKeyword });
  // Annotation-only OpenAPI keywords: known to ajv so they are not mistaken for typos.
  for (const keyword of ["discriminator", "xml", "externalDocs", "example", "x-unspecified", "x-hashed", "x-values-seen", "x-legacy-values", "x-problem-type", "x-source", "x-added", "x-deprecated-at", "x-replaced-by", "x-removed", "x-sunset", "x-transitions"]) {
    ajv.addKeyword({ keyword, schemaType: undefined } as object);
  }
  return ajv;
}

/**
 * Compiles every export once, sharing referenced schemas, into one ESM module of standalone
 * validators. ajv's runtime helpers are `require`d by its output; they become ESM imports here so
 * the module loads without a CommonJS shim.
 */
export function compileStandalone(input: CompileInput): string {
  const standaloneCode = (require("ajv/dist/standalone") as { default: (ajv: AjvLike, refs: Record<string, string>) => string }).default;
  const ajv = newAjv(input.coerce, hasPrototypeMemberKeys(input.root));
  ajv.addSchema({ ...input.root, $id: ROOT_ID });
  const refs: Record<string, string> = {};
  for (const [name, pointer] of input.exports) refs[name] = `${ROOT_ID}${pointer}`;
  const code = standaloneCode(ajv, refs);
  return toEsmImports(code);
}

function toEsmImports(code: string): string {
  const modules = new Map<string, string>();
  const body = code.replace(/require\("([^"]+)"\)/g, (_m, spec: string) => {
    const file = spec.endsWith(".js") ? spec : `${spec}.js`;
    let name = modules.get(file);
    if (!name) {
      name = `__cg${modules.size}`;
      modules.set(file, name);
    }
    return name;
  });
  // ajv's helpers are CommonJS flagged __esModule: Node's ESM loader hands over module.exports as
  // the default, bundlers (Vite, esbuild) hand over exports.default. Unwrap either to module.exports.
  const imports = [...modules].map(
    ([file, name]) => `import * as ${name}ns from ${JSON.stringify(file)};\nconst ${name} = __cgInterop(${name}ns);`,
  );
  if (imports.length > 0) {
    imports.unshift("function __cgInterop(ns) { const d = ns.default; return d && typeof d === \"object\" && d.__esModule ? d : ns; }");
  }
  // Give every export a declared type, so declarations of this module do not leak ajv internals.
  const typed = body
    .replace(/^"use strict";/, "")
    .replace(/export const ([A-Za-z0-9_$]+) = ([A-Za-z0-9_$]+);/g, "export const $1: CompiledValidator = $2 as any;");
  return `import type { CompiledValidator } from "@contractgen/runtime/validation";\n${imports.join("\n")}${imports.length ? "\n" : ""}${typed}`;
}

/** Encodes a JSON pointer segment for use inside a URI fragment. */
export function pointerSegment(segment: string): string {
  return encodeURIComponent(segment.replace(/~/g, "~0").replace(/\//g, "~1"));
}
