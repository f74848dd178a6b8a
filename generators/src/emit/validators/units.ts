/**
 * Compile units: a validators module is compiled schema by schema instead of as one document.
 *
 * Each unit is one schema of the document (a named component, an operation's body, response or
 * parameters) with every `$ref` inside it rewritten to the unit-ref keyword (keywords.ts), which
 * calls the referenced unit's validator through a variable of its own. A unit's code therefore
 * depends on its own schema and nothing else: it can be compiled on any thread, in any order, and
 * kept in a content-addressed cache (its key is the hash of the rewritten schema and the compile
 * options), which is what makes regeneration after a one-schema change cheap. The module wrapper
 * (`assembleModule`) binds the variables once every unit exists, so references may form cycles.
 */
import { createHash } from "node:crypto";
import { DATA_KEYWORDS, isData } from "./json-schema.js";
import { UNIT_REF } from "./keywords.js";
import { SCHEMA_MAPS } from "../../load/schema-keywords.js";
import { findRepeats, type SharedRepeats } from "./repeats.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** One schema to compile alone. */
export interface Unit {
  /** Canonical JSON pointer (with `#`) of the schema in the document. */
  readonly pointer: string;
  /** The schema with cross-unit `$ref`s rewritten to `{ [UNIT_REF]: "cgref_<n>" }`. */
  readonly schema: unknown;
  /** Pointer of the unit each `cgref_<n>` names, by n. */
  readonly refs: readonly string[];
  /** Content hash of `schema` (the compile options are added by the caller). */
  readonly hash: string;
  /** Length of `schema` as JSON: what the compile pool balances its batches by. */
  readonly size: number;
}

/** What compiling one unit gives: code whose top-level names are its own, and its root function. */
export interface UnitCode {
  /** Statements (ajv standalone output, exports removed, runtime helpers as `__cg_*` names). */
  readonly code: string;
  /** The name of the unit's validator in `code`. */
  readonly root: string;
  /** Runtime modules `code` uses, by the `__cg_*` name it uses for each. */
  readonly requires: Readonly<Record<string, string>>;
}

/** Keywords that document rather than validate: they are left out of the unit so its hash does not change with prose. */
const PROSE = new Set(["description", "title", "$comment"]);

/**
 * Examples document too, whatever their shape: ajv compiles no code for them, but checks a unit
 * against the meta-schema, which refuses `examples` that is no array (codat.io's 3.1 schemas carry
 * OpenAPI's `examples` map there). The whole-document compile never checked a nested schema so.
 */
const EXAMPLES = new Set(["example", "examples"]);

/** Whether this document can be split: keywords that look across `$ref` boundaries or rebase refs need the whole document in one compile. */
export function splittable(root: unknown): boolean {
  let ok = true;
  const walk = (node: unknown): void => {
    if (!ok) return;
    if (Array.isArray(node)) node.forEach(walk);
    else if (isObj(node)) {
      for (const [k, v] of Object.entries(node)) {
        if (DATA_KEYWORDS.has(k)) continue;
        if (k === "unevaluatedProperties" || k === "unevaluatedItems" || k === "$dynamicRef" || k === "$recursiveRef" || k === "$id" || k === "$anchor" || k === "$dynamicAnchor") {
          ok = false;
          return;
        }
        if (k === "$ref" && typeof v === "string" && !v.startsWith("#")) {
          ok = false;
          return;
        }
        walk(v);
      }
    }
  };
  walk(root);
  return ok;
}

/** JSON-pointer segments of `#/a/b`, %- and ~-decoded. */
function segments(pointer: string): string[] {
  const body = pointer.replace(/^#/, "");
  if (body === "") return [];
  return body
    .slice(1)
    .split("/")
    .map((s) => {
      let decoded = s;
      try {
        decoded = decodeURIComponent(s);
      } catch {
        // A segment that is not valid %-encoding is taken as written.
      }
      return decoded.replace(/~1/g, "/").replace(/~0/g, "~");
    });
}

/** Encodes a JSON pointer segment for use inside a URI fragment. */
export function pointerSegment(segment: string): string {
  return encodeURIComponent(segment.replace(/~/g, "~0").replace(/\//g, "~1"));
}

/** One spelling per location, so `#/a%20b` and `#/a b` are one unit. */
export function canonicalPointer(pointer: string): string {
  return `#${segments(pointer)
    .map((s) => `/${pointerSegment(s)}`)
    .join("")}`;
}

function resolve(root: unknown, pointer: string): unknown {
  let node = root;
  for (const s of segments(pointer)) {
    if (Array.isArray(node) && /^\d+$/.test(s)) node = node[Number(s)];
    else if (isObj(node) && Object.prototype.hasOwnProperty.call(node, s)) node = node[s];
    else throw new Error(`the validators' schema document has no ${pointer} (a $ref points there)`);
  }
  return node;
}

/** Sets a member as an own property, also when it is named `__proto__`. */
function put(target: Obj, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/**
 * A unit's copy by the schema object it was made from. A unit depends on that object alone, so the
 * two modules of one run (strict and coerced, which share every component schema) copy and hash
 * each shared schema once.
 */
export type UnitCopies = WeakMap<object, Omit<Unit, "pointer">>;

/** How a module is split. */
export interface SplitOptions {
  /**
   * Subschemas whose JSON is at least this long and that occur more than once in the module become
   * units of their own, compiled once and called from each place (repeats.ts); 0 shares none.
   * @default 0
   */
  readonly shareRepeatsFrom?: number;
}

/** Where shared repeats' units sit: the document has no such member, so no unit of it has such a pointer. */
const REPEAT_POINTER = "#/x-contractgen-repeat/";

/**
 * Splits the document into units, starting from the exported pointers and following `$ref`s.
 * Units come in discovery order (exports first, in their order), then the shared repeats in the
 * order the units first name them, so the module is deterministic.
 */
export function splitUnits(root: unknown, exported: Iterable<string>, copies?: UnitCopies, options: SplitOptions = {}): Unit[] {
  const units: Unit[] = [];
  const seen = new Set<string>();
  const queue: string[] = [];
  const enqueue = (pointer: string): string => {
    const key = canonicalPointer(pointer);
    if (!seen.has(key)) {
      seen.add(key);
      queue.push(key);
    }
    return key;
  };
  for (const p of exported) enqueue(p);
  for (let i = 0; i < queue.length; i++) {
    const pointer = queue[i] as string;
    const node = resolve(root, pointer);
    const known = copies !== undefined && typeof node === "object" && node !== null ? copies.get(node) : undefined;
    if (known !== undefined) {
      // The copy's references, in the order it met them: the same units join the queue in the same order.
      for (const target of known.refs) enqueue(target);
      units.push({ pointer, ...known });
      continue;
    }
    const { refs, nameOf } = refNames();
    const copy = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(copy);
      if (!isObj(node)) return node;
      const out: Obj = {};
      for (const [k, v] of Object.entries(node)) {
        // A unit-ref keyword written in the spec would name a variable of the generated module.
        if ((PROSE.has(k) && typeof v === "string") || EXAMPLES.has(k) || k === UNIT_REF) continue;
        if (k === "$ref" && typeof v === "string") {
          out[UNIT_REF] = nameOf(enqueue(v));
          continue;
        }
        if (SCHEMA_MAPS.has(k) && isObj(v)) {
          // Member names, not keywords: a property called "$ref" or "title" is a schema like any other.
          const map: Obj = {};
          for (const [name, sub] of Object.entries(v)) put(map, name, copy(sub));
          put(out, k, map);
          continue;
        }
        // Data (enum, const, examples…) and extensions are carried as they are: a `$ref` inside them
        // is not a reference. The extensions that hold subschemas (rules, discriminator dispatch) are schemas.
        put(out, k, isData(k) ? v : copy(v));
      }
      return out;
    };
    const unit = hashed(copy(node), refs);
    if (copies !== undefined && typeof node === "object" && node !== null) copies.set(node, unit);
    units.push({ pointer, ...unit });
  }
  const from = options.shareRepeatsFrom ?? 0;
  const shared = from > 0 ? findRepeats(units, from) : undefined;
  if (shared === undefined) return units;
  // A repeat's unit comes after the units, in the order they (or repeats before it) first name it.
  const repeats: { readonly schema: unknown; readonly refs: readonly string[] }[] = [];
  const pointers = new Map<number, string>();
  const pointerOf = (repeat: number, schema: unknown, refs: readonly string[]): string => {
    let pointer = pointers.get(repeat);
    if (pointer === undefined) {
      pointers.set(repeat, (pointer = `${REPEAT_POINTER}${pointers.size}`));
      repeats.push({ schema, refs });
    }
    return pointer;
  };
  const out = units.map((unit) => (shared.holds(unit.schema) ? { pointer: unit.pointer, ...withRepeats(unit.schema, unit.refs, shared, pointerOf) } : unit));
  for (let i = 0; i < repeats.length; i++) {
    const { schema, refs } = repeats[i] as (typeof repeats)[number];
    out.push({ pointer: `${REPEAT_POINTER}${i}`, ...withRepeats(schema, refs, shared, pointerOf) });
  }
  return out;
}

/** A unit's reference names: `cgref_<n>` for the n-th distinct target it meets, and the targets in that order. */
function refNames(): { readonly refs: string[]; readonly nameOf: (target: string) => string } {
  const refs: string[] = [];
  const names = new Map<string, string>();
  const nameOf = (target: string): string => {
    let name = names.get(target);
    if (name === undefined) {
      name = `cgref_${refs.length}`;
      names.set(target, name);
      refs.push(target);
    }
    return name;
  };
  return { refs, nameOf };
}

/** A unit from its copied schema and the targets its `cgref_<n>` names: with its hash and size. */
function hashed(schema: unknown, refs: readonly string[]): Omit<Unit, "pointer"> {
  const json = JSON.stringify(schema);
  return { schema, refs, hash: createHash("sha256").update(json).digest("hex"), size: json.length };
}

/**
 * A unit's schema (or a repeat's, with the refs of the unit it was found in) again, each repeat
 * inside it (not its own root) replaced by a reference to the repeat's unit, and its references
 * renamed `cgref_<n>` in the order it now meets their targets.
 */
function withRepeats(schema: unknown, oldRefs: readonly string[], shared: SharedRepeats, pointerOf: (repeat: number, schema: unknown, refs: readonly string[]) => string): Omit<Unit, "pointer"> {
  const { refs, nameOf } = refNames();
  const rename = (node: unknown, root: boolean): unknown => {
    if (Array.isArray(node)) return node.map((n) => rename(n, false));
    if (!isObj(node)) return node;
    const repeat = root ? undefined : shared.repeatOf(node);
    if (repeat !== undefined) return { [UNIT_REF]: nameOf(pointerOf(repeat, node, oldRefs)) };
    const out: Obj = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === UNIT_REF && typeof v === "string") out[UNIT_REF] = nameOf(refTarget(v, oldRefs));
      else if (SCHEMA_MAPS.has(k) && isObj(v)) {
        const map: Obj = {};
        for (const [name, sub] of Object.entries(v)) put(map, name, rename(sub, false));
        put(out, k, map);
      } else put(out, k, isData(k) ? v : rename(v, false));
    }
    return out;
  };
  return hashed(rename(schema, true), refs);
}

/** The target a unit's `cgref_<n>` names. */
export function refTarget(name: string, refs: readonly string[]): string {
  const target = refs[Number(name.slice("cgref_".length))];
  if (target === undefined) throw new Error(`a validator unit names ${name}, which it does not define`);
  return target;
}

/** The `__cg_*` name generated code uses for a runtime module (`ajv/dist/runtime/equal` → `__cg_ajv_dist_runtime_equal`). */
export function requireName(specifier: string): string {
  return `__cg_${specifier.replace(/\.js$/, "").replace(/[^A-Za-z0-9]/g, "_")}`;
}

/**
 * ajv's `require("…")` calls in standalone code → the `__cg_*` names, with every module used (by
 * name) added to `requires`.
 */
export function nameRequires(code: string, requires: Map<string, string> | Record<string, string>): string {
  return code.replace(/require\("([^"]+)"\)/g, (_m, specifier: string) => {
    const name = requireName(specifier);
    if (requires instanceof Map) requires.set(name, specifier);
    else requires[name] = specifier;
    return name;
  });
}

/** ESM imports binding each `__cg_*` name to its module, sorted by name (empty when none). */
export function esmImports(requires: ReadonlyMap<string, string>): string {
  const imports = [...requires].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (imports.length === 0) return "";
  // ajv's helpers are CommonJS flagged __esModule: Node's ESM loader hands over module.exports as
  // the default, bundlers (Vite, esbuild) hand over exports.default. Unwrap either to module.exports.
  const lines = ['function __cgInterop(ns) { const d = ns.default; return d && typeof d === "object" && d.__esModule ? d : ns; }'];
  imports.forEach(([name, specifier], i) => {
    // The runtime's modules are named by their package subpaths; ajv's by file.
    const file = specifier.endsWith(".js") || specifier.startsWith("@contractgen/runtime/") ? specifier : `${specifier}.js`;
    lines.push(`import * as __cgm${i} from ${JSON.stringify(file)};`, `const ${name} = __cgInterop(__cgm${i});`);
  });
  return `${lines.join("\n")}\n`;
}

/**
 * One JavaScript ESM module from compiled units: the runtime imports, each unit in its own closure
 * (its names cannot collide with another's), the links between units, then the exports. Its types
 * are declared apart (`compiledDeclarations`), so type-checkers never parse the module.
 */
export function assembleModule(units: readonly Unit[], codes: readonly UnitCode[], exports: ReadonlyMap<string, string>): string {
  const index = new Map(units.map((u, i) => [u.pointer, i]));
  const requires = new Map<string, string>();
  for (const c of codes) for (const [name, specifier] of Object.entries(c.requires)) requires.set(name, specifier);
  const parts: string[] = [esmImports(requires)];
  parts.push(`const __cgU = new Array(${units.length});\nconst __cgL = [];\n`);
  units.forEach((unit, i) => {
    const code = codes[i] as UnitCode;
    const links = unit.refs.map((target, n) => `cgref_${n} = __cgU[${index.get(target) as number}];`).join(" ");
    const head = unit.refs.length > 0 ? `let ${unit.refs.map((_t, n) => `cgref_${n}`).join(", ")}; __cgL.push(() => { ${links} }); ` : "";
    parts.push(`__cgU[${i}] = (() => { ${head}${code.code}\nreturn ${code.root}; })();\n`);
  });
  parts.push("for (const link of __cgL) link();\n");
  for (const [name, pointer] of exports) parts.push(`export const ${name} = __cgU[${index.get(canonicalPointer(pointer)) as number}];\n`);
  return parts.join("");
}

/**
 * The declaration file beside a compiled module: every export is a `CompiledValidator`, so the
 * module's ajv internals never reach a type-checker (which would otherwise parse megabytes of
 * generated JavaScript for every program that imports the package's client).
 */
export function compiledDeclarations(exports: Iterable<string>): string {
  const lines = ['import type { CompiledValidator } from "@contractgen/runtime/validation";'];
  for (const name of exports) lines.push(`export declare const ${name}: CompiledValidator;`);
  return `${lines.join("\n")}\n`;
}
