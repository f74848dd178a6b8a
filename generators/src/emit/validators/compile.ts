import { createRequire } from "node:module";
import type { Options } from "ajv";
import { rulesKeyword, ruleSchemasKeyword, unitRefKeyword } from "./keywords.js";
import { dispatchKeyword, dispatchSchemasKeyword } from "./discriminator-keyword.js";
import { esmImports, nameRequires, type UnitCode } from "./units.js";
import { hasPrototypeMemberKeys } from "../prototype-keys.js";
import { patternRegExp } from "@contractgen/runtime/pattern";

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
  /**
   * Whether `root` names a prototype member anywhere (`hasPrototypeMemberKeys`), when the caller
   * knows it already. @default computed from `root`
   */
  readonly ownProperties?: boolean;
}

/** The body ajv evaluates for a contract schema's validator: never run, so it says so if it is. */
const STANDALONE_ONLY = 'return function standaloneOnly() { throw new Error("contractgen compiles validators for standalone output only"); }';

type AjvLike = {
  addSchema(schema: object): unknown;
  addKeyword(def: object): unknown;
  compile(schema: object): unknown;
  removeSchema(schema: object): unknown;
  opts: Options;
  scope: unknown;
};

/** The contract's schemas: the whole document (ROOT_ID) or a unit (no $id); ajv's meta-schemas have their own ids. */
const isContractSchema = (baseId: string | undefined): boolean => baseId === ROOT_ID || !baseId;

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
    // ajv's name optimiser (`code.optimize`) was half the CPU of compiling GitHub's validators; it
    // only drops dead stores (the source grows ~11%), which V8 drops at run time as well: the
    // validations-per-second bench measured no difference beyond its noise.
    // ajv turns every compiled function's source into a live function (a `new Function` parse per
    // validator); standalone output needs only the source it keeps beside it. The contract's own
    // schemas get a stub instead, which throws if anything ever ran it; meta-schemas, which ajv
    // runs to check the contract's schemas, compile as usual.
    // Every contract pattern runs on RE2 (linear time) through the runtime's engine, which the
    // standalone code imports (`patternRegExp.code`): a request cannot make it backtrack.
    code: {
      source: true,
      esm: true,
      lines: false,
      optimize: false,
      regExp: patternRegExp,
      process: (source: string, env?: { root?: { baseId?: string } }) => (isContractSchema(env?.root?.baseId) ? STANDALONE_ONLY : source),
    },
    ...(coerce ? { coerceTypes: "array" as const, useDefaults: true } : {}),
    ...(ownProperties ? { ownProperties: true } : {}),
  });
  addFormats(ajv);
  ajv.addKeyword({ ...rulesKeyword });
  ajv.addKeyword({ ...ruleSchemasKeyword });
  ajv.addKeyword({ ...unitRefKeyword });
  ajv.addKeyword({ ...dispatchKeyword });
  ajv.addKeyword({ ...dispatchSchemasKeyword });
  // Annotation-only OpenAPI keywords: known to ajv so they are not mistaken for typos.
  for (const keyword of [
    "discriminator",
    "xml",
    "externalDocs",
    "example",
    "x-unspecified",
    "x-hashed",
    "x-values-seen",
    "x-legacy-values",
    "x-problem-type",
    "x-source",
    "x-added",
    "x-deprecated-at",
    "x-replaced-by",
    "x-removed",
    "x-sunset",
    "x-transitions",
  ]) {
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
  const ajv = newAjv(input.coerce, input.ownProperties ?? hasPrototypeMemberKeys(input.root));
  ajv.addSchema({ ...input.root, $id: ROOT_ID });
  const refs: Record<string, string> = {};
  for (const [name, pointer] of input.exports) refs[name] = `${ROOT_ID}${pointer}`;
  const code = standaloneCode(ajv, refs);
  return toEsmImports(code);
}

/** One unit's schema as the compile pool carries it. */
export interface UnitInput {
  readonly schema: unknown;
  readonly pointer: string;
  /** Length of the schema as JSON (batches are balanced by it). */
  readonly size: number;
}

export interface UnitsInput {
  readonly units: readonly UnitInput[];
  /** Coerce strings to declared types, split to arrays and apply defaults. */
  readonly coerce: boolean;
  /** Some schema of the module names a member like `__proto__`: look members up as own properties. */
  readonly ownProperties: boolean;
}

/** ajv's prefixes for module-level names (its `EXT_SCOPE_NAMES`). */
const SCOPE_PREFIXES = ["validate", "serialize", "parse", "wrapper", "root", "schema", "keyword", "pattern", "formats", "validate$data", "func", "obj", "Error"];

const ajvs = new Map<string, AjvLike>();

/**
 * Compiles units one by one on one ajv instance. Before each, the instance gets a fresh name scope,
 * so a unit's code names (validate0, schema0…) restart at zero: the code of a unit is the same
 * whatever was compiled before it, on whichever thread, which is what lets it be cached by content.
 */
export function compileUnits(input: UnitsInput): UnitCode[] {
  const { ValueScope } = require("ajv/dist/compile/codegen") as { ValueScope: new (o: object) => unknown };
  const standaloneCode = (require("ajv/dist/standalone") as { default: (ajv: AjvLike, fn: unknown) => string }).default;
  const key = `${input.coerce}/${input.ownProperties}`;
  let ajv = ajvs.get(key);
  if (!ajv) {
    ajvs.set(key, (ajv = newAjv(input.coerce, input.ownProperties)));
    // ajv compiles its meta-schemas on the first compile, into the scope of the moment: done here,
    // once, so that no unit's names depend on being the first one an instance compiled.
    const warmUp = { type: "object" };
    ajv.compile(warmUp);
    ajv.removeSchema(warmUp);
  }
  const prefixes = new Set(SCOPE_PREFIXES);
  return input.units.map(({ schema, pointer }) => {
    // No $id: a unit's code must depend on its schema only (it is cached by content), not on where it sits.
    const sch = { ...(schema as object) };
    ajv.scope = new ValueScope({ scope: {}, prefixes, es5: false, lines: false });
    let source: string;
    try {
      source = standaloneCode(ajv, ajv.compile(sch));
    } catch (err) {
      throw new Error(`cannot compile a validator for ${pointer}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    } finally {
      ajv.removeSchema(sch);
    }
    return unitCode(source);
  });
}

/** ajv's single-function standalone output → a unit: its exports dropped, its requires named. */
function unitCode(source: string): UnitCode {
  const head = /^"use strict";export const validate = ([A-Za-z0-9_$]+);export default [A-Za-z0-9_$]+;/.exec(source);
  if (!head) throw new Error("ajv's standalone output has an unexpected shape");
  const requires: Record<string, string> = {};
  const code = nameRequires(source.slice(head[0].length), requires);
  return { code, root: head[1] as string, requires };
}

/** A whole-document compile's CommonJS requires as ESM imports; the module is plain JavaScript (its types are declared apart, units.ts `compiledDeclarations`). */
function toEsmImports(code: string): string {
  const requires = new Map<string, string>();
  const body = nameRequires(code, requires).replace(/^"use strict";/, "");
  return `${esmImports(requires)}${body}`;
}
