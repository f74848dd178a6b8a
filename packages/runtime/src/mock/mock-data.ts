/**
 * Deterministic mock data from JSON Schema 2020-12: the same document, schema and seed give the same
 * value on every machine. Each property, item and retry draws from its own seed derived from its
 * parent's seed and its key, so changing one field of a contract leaves the others' values alone.
 *
 * A value is drafted from a flat view of the schema (mock-merge.ts), then checked: by the local
 * evaluator (schema-match.ts) for every subschema, and by the caller's `validate` hook (the
 * precompiled validators) for every named schema. A draft that fails is redrawn from a derived
 * seed, a bounded number of times, before the schema's own example is tried; when nothing fits,
 * `MockGenerationError` names the schema and the reason.
 */
import { createRng, deriveSeed, normalizeSeed, type Rng } from "../shared/prng.js";
import { sampleRegex, UnsupportedPatternError } from "./regex-sample.js";
import { createSchemaMatcher, jsonEqual, jsonTypes } from "../shared/schema-match.js";
import { checkFormat } from "../shared/format-check.js";
import { cloneMerged, emptyMerged, mergeInto, pureRef, requiredOnly, resolveIn, type MergedSchema } from "./mock-merge.js";
import { MOCK_EPOCH, formatValue, freeText, hashedValue, integerForName, mockInstant, normalizeName, objectCurrency, price, stringsForName, timeRenderings, type TimeHint } from "./mock-values.js";

export { MOCK_EPOCH, FUTURE_EPOCH, PAST_EPOCH } from "./mock-values.js";

/** A JSON Schema 2020-12 node: an object of keywords or a boolean. */
export type MockSchema = boolean | { readonly [keyword: string]: unknown };

/** The document `$ref`s resolve in, as the validators compile it: `{ components: { schemas } }`. */
export interface MockDocument {
  readonly components?: { readonly schemas?: { readonly [name: string]: MockSchema } };
  readonly [key: string]: unknown;
}

export interface MockGeneratorOptions {
  /** The schema document; `#/…` references resolve within it. */
  readonly root: MockDocument;
  /** Seed of calls that give none. @default 1 */
  readonly seed?: number;
  /**
   * The authoritative check of a draft for a referenced schema: called with the schema's name for
   * `#/components/schemas/<name>` and with the pointer for other references. Generated packages
   * pass their precompiled validators here.
   * @default every draft the local evaluator accepts passes
   */
  readonly validate?: (schema: string, value: unknown) => boolean;
  /** Drafts tried for a top-level schema (nested schemas get at most 20) before falling back to its example. @default 50 */
  readonly maxAttempts?: number;
  /** Object and array nesting past which values are minimal: optional properties omitted, arrays at `minItems`. @default 8 */
  readonly maxDepth?: number;
  /** Times one named schema may be entered within itself before its values turn minimal. @default 2 */
  readonly maxRecursion?: number;
  /** Items an array may have beyond its `minItems` (and within `maxItems`). @default 3 */
  readonly maxExtraItems?: number;
  /** Share of optional properties present, decided per property by its own seed. @default 0.7 */
  readonly optionalProbability?: number;
  /** Share of leaf values taken (and varied) from the contract's examples when there are some. @default 0.3 */
  readonly exampleProbability?: number;
  /** Drafts one top-level call may make in all, so impossible schemas fail fast. @default 200000 */
  readonly budget?: number;
  /**
   * Drafts one top-level call makes in full; past it every further value is minimal (optional
   * properties omitted, arrays at `minItems`), still valid. Bounds the time of the widest schemas
   * (DocuSign's envelope: dozens of arrays of tab objects with a hundred members each, which drawn
   * in full make millions of values) while leaving every smaller value as it was. @default 5000
   */
  readonly sizeBudget?: number;
  /**
   * Told when a schema's own example stands in for generated data (no draft passed), with why.
   * @default nothing is reported
   */
  readonly onFallback?: (schema: string, reason: string) => void;
}

export interface MockGenerateOptions {
  /** An extra check of the whole value (a response validator); rejected values are redrawn. */
  readonly accept?: (value: unknown) => boolean;
}

export interface MockGenerator {
  /** A value for a schema node, a component name (`Product`) or a pointer (`#/components/schemas/Product`). */
  generate(schema: MockSchema | string, seed?: number, options?: MockGenerateOptions): unknown;
  /** A value for `#/components/schemas/<name>`. */
  forSchema(name: string, seed?: number): unknown;
}

/** No valid value could be produced: `schema` names the schema, `reason` says what failed where. */
export class MockGenerationError extends Error {
  override readonly name = "MockGenerationError";
  constructor(
    readonly schema: string,
    readonly reason: string,
  ) {
    super(`cannot generate mock data for ${schema}: ${reason}`);
  }
}

type Result = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string; readonly final?: boolean };

const ok = (value: unknown): Result => ({ ok: true, value });
const fail = (reason: string, final = false): Result => ({ ok: false, reason, final });

interface Ctx {
  readonly depth: number;
  /** Property name the value is for (array items: the singular of the array's name). */
  readonly name: string | undefined;
  /** Seed of the enclosing object: shared by siblings (one currency, ordered times). */
  readonly objectSeed: number;
  /** Values the contract's examples give at this position. */
  readonly pool: readonly unknown[];
  readonly hint: TimeHint | undefined;
  readonly hashed: boolean;
  readonly minimal: boolean;
  readonly path: string;
}

class BudgetExceeded extends Error {}

type Obj = Readonly<Record<string, unknown>>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** `#/components/schemas/<name>` for a name, the pointer itself for a pointer. */
export function schemaRef(nameOrPointer: string): string {
  if (nameOrPointer.startsWith("#")) return nameOrPointer;
  return `#/components/schemas/${encodeURIComponent(nameOrPointer.replace(/~/g, "~0").replace(/\//g, "~1"))}`;
}

function componentName(ref: string): string | undefined {
  const m = /^#\/components\/schemas\/([^/]+)$/.exec(ref);
  if (!m) return undefined;
  let segment = m[1] as string;
  try {
    segment = decodeURIComponent(segment);
  } catch {
    // Not percent-encoded: the segment is the name.
  }
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** `product_ids` → `product_id`, `categories` → `category`: the name heuristics of one item. */
function singular(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  if (/ies$/.test(name)) return name.slice(0, -3) + "y";
  if (/[^s]s$/.test(name)) return name.slice(0, -1);
  return name;
}

function examplesOf(schema: unknown): unknown[] {
  if (!isObj(schema)) return [];
  return [...(Array.isArray(schema["examples"]) ? schema["examples"] : []), ...(schema["example"] !== undefined ? [schema["example"]] : [])];
}

/** A deterministic generator of valid mock data over one schema document. */
export function createMockGenerator(options: MockGeneratorOptions): MockGenerator {
  const root = options.root;
  const defaultSeed = normalizeSeed(options.seed ?? 1);
  const hook = options.validate;
  const maxAttempts = Math.max(1, options.maxAttempts ?? 50);
  const nestedAttempts = Math.min(maxAttempts, 20);
  const maxDepth = options.maxDepth ?? 8;
  const maxRecursion = options.maxRecursion ?? 2;
  const maxExtraItems = options.maxExtraItems ?? 3;
  const optionalProbability = options.optionalProbability ?? 0.7;
  const exampleProbability = options.exampleProbability ?? 0.3;
  const budget = options.budget ?? 200_000;
  const sizeBudget = options.sizeBudget ?? 5000;
  // `$now` in x-rules is the fixed epoch here; times that must follow it come from a far window.
  const match = createSchemaMatcher(root, { now: MOCK_EPOCH });

  let drafts = 0;
  const refDepth = new Map<string, number>();
  /** Property schemas of the document that admit no value, and those that admit some. */
  const impossibleSchemas = new WeakMap<object, boolean>();
  const mergedSchemas = new WeakMap<object, MergedSchema>();

  const hookAccepts = (ref: string, value: unknown): boolean => (hook ? hook(componentName(ref) ?? ref, value) : true);

  function gen(schema: unknown, seed: number, ctx: Ctx): Result {
    const ref = pureRef(schema);
    if (ref !== undefined) return genRef(ref, seed, ctx);
    const attempts = ctx.depth === 0 ? maxAttempts : nestedAttempts;
    let reason = `no draft satisfies the schema at ${ctx.path || "/"}`;
    for (let a = 0; a < attempts; a++) {
      const r = produce(schema, a === 0 ? seed : deriveSeed(seed, `retry:${a}`), ctx);
      if (!r.ok) {
        reason = r.reason;
        if (r.final) return r;
        continue;
      }
      if (match(schema, r.value)) return r;
    }
    return fail(reason);
  }

  function genRef(ref: string, seed: number, ctx: Ctx): Result {
    const target = resolveIn(root, ref);
    const label = componentName(ref) ?? ref;
    if (target === undefined) return fail(`${ref} does not resolve`, true);
    const entered = refDepth.get(ref) ?? 0;
    // Minimal values end every cycle that optional properties or nullable types allow; a cycle
    // through required properties never ends, and says so instead of overflowing the stack.
    if (entered >= maxRecursion + 3) return fail(`${label} contains itself through required properties at every level`, true);
    refDepth.set(ref, entered + 1);
    try {
      const inner: Ctx = { ...ctx, minimal: ctx.minimal || entered >= maxRecursion };
      const attempts = ctx.depth === 0 ? maxAttempts : nestedAttempts;
      let reason = `no draft passes the validator of ${label}`;
      let final = false;
      for (let a = 0; a < attempts; a++) {
        const r = produce(target, a === 0 ? seed : deriveSeed(seed, `retry:${a}`), inner);
        if (!r.ok) {
          reason = r.reason;
          final = r.final === true;
          if (final) break;
          continue;
        }
        if (match(target, r.value) && hookAccepts(ref, r.value)) return r;
      }
      for (const example of examplesOf(target)) {
        if (match(target, example) && hookAccepts(ref, example)) {
          options.onFallback?.(label, reason);
          return ok(structuredClone(example));
        }
      }
      return fail(reason.startsWith(`${label}`) ? reason : `${label}: ${reason}`, final);
    } finally {
      refDepth.set(ref, entered);
    }
  }

  /**
   * The flat view of a schema of the document, merged once and kept: drafting reads it, and only
   * choosing `anyOf`/`oneOf` branches changes it, so a view with branches is handed out as a copy.
   */
  function mergedView(schema: unknown): MergedSchema {
    if (!isObj(schema)) return mergeInto(emptyMerged(), schema, root);
    let m = mergedSchemas.get(schema);
    if (m === undefined) {
      m = mergeInto(emptyMerged(), schema, root);
      mergedSchemas.set(schema, m);
    }
    return m.anyOf.length > 0 || m.oneOf.length > 0 ? cloneMerged(m) : m;
  }

  /** One draft: merge, choose branches, draft by type, settle `if` conditions. Not yet checked. */
  function produce(schema: unknown, seed: number, given: Ctx): Result {
    if (++drafts > budget) throw new BudgetExceeded();
    if (given.depth > maxDepth + 40) return fail(`${given.path}: nesting never ends`, true);
    // Past the size budget the rest of the value is as small as its schema allows.
    const ctx = drafts > sizeBudget && !given.minimal ? { ...given, minimal: true } : given;
    const m = mergedView(schema);
    if (m.impossible !== undefined) return fail(`${ctx.path || "/"}: ${m.impossible}`, true);
    // A failure proven for one seed holds for all only when the seed chose nothing here.
    const seeded = m.anyOf.some((b) => b.length > 1) || m.oneOf.some((b) => b.length > 1) || (m.types?.size ?? 0) > 1 || m.conditionals.length > 0;
    const chosen = chooseBranches(m, seed, ctx);
    if (chosen !== undefined) return fail(chosen);
    const first = draft(m, seed, ctx);
    if (!first.ok && first.final && seeded) return fail(first.reason);
    if (!first.ok || m.conditionals.length === 0) return first;
    // The branch each `if` took on the first draft is merged in and the value drafted again from
    // the same seed, so it keeps its other choices and now meets the `then`/`else` as well.
    const settled = cloneMerged(m);
    settled.conditionals = [];
    for (const c of m.conditionals) {
      if (match(c.if, first.value)) {
        mergeInto(settled, c.if, root);
        if (c.then !== undefined) mergeInto(settled, c.then, root);
      } else {
        settled.not.push(c.if);
        if (c.else !== undefined) mergeInto(settled, c.else, root);
      }
    }
    if (settled.impossible !== undefined) return fail(`${ctx.path || "/"}: ${settled.impossible}`);
    const again = chooseBranches(settled, seed, ctx);
    return again === undefined ? draft(settled, seed, ctx) : fail(again);
  }

  /** Merges one branch of every `anyOf`/`oneOf`; returns why when the choice cannot work. */
  function chooseBranches(m: MergedSchema, seed: number, ctx: Ctx): string | undefined {
    for (let round = 0; round < 16 && (m.anyOf.length > 0 || m.oneOf.length > 0); round++) {
      const anyOfs = m.anyOf.splice(0);
      const oneOfs = m.oneOf.splice(0);
      anyOfs.forEach((branches, i) => {
        mergeInto(m, branches[branchIndex(branches, deriveSeed(seed, `anyOf:${round}:${i}`), ctx)], root);
      });
      oneOfs.forEach((branches, i) => {
        const pick = branchIndex(branches, deriveSeed(seed, `oneOf:${round}:${i}`), ctx);
        mergeInto(m, branches[pick], root);
        // Branches that differ only by which property is required: the others' must stay absent.
        branches.forEach((b, k) => {
          if (k === pick) return;
          for (const r of requiredOnly(b) ?? []) if (!m.required.has(r)) m.forbidden.add(r);
        });
      });
    }
    return m.impossible === undefined ? undefined : `${ctx.path || "/"}: the chosen branches conflict (${m.impossible})`;
  }

  function branchIndex(branches: readonly unknown[], seed: number, ctx: Ctx): number {
    const rng = createRng(seed);
    if (ctx.minimal && rng.chance(0.8)) {
      // At the depth limit the smallest branch is the likeliest to end the recursion.
      let best = 0;
      let bestSize = Infinity;
      branches.forEach((b, i) => {
        const size = JSON.stringify(b ?? null).length;
        if (size < bestSize) [best, bestSize] = [i, size];
      });
      return best;
    }
    return rng.int(0, branches.length - 1);
  }

  function draft(m: MergedSchema, seed: number, ctx: Ctx): Result {
    const rng = createRng(deriveSeed(seed, "draft"));
    if (m.consts.length > 0) return ok(structuredClone(m.consts[0]));
    if (m.enums.length > 0) {
      const [first, ...rest] = m.enums;
      const candidates = (first ?? []).filter((v) => rest.every((e) => e.some((x) => jsonEqual(x, v))) && leafOk(m, v));
      if (candidates.length === 0) return fail(`${ctx.path || "/"}: no enum value satisfies the other constraints`);
      return ok(structuredClone(rng.pick(candidates)));
    }
    const type = chooseType(m, rng, ctx);
    switch (type) {
      case "null":
        return ok(null);
      case "boolean":
        return draftBoolean(m, rng, ctx);
      case "integer":
      case "number":
        return draftNumber(m, seed, ctx, type === "integer");
      case "string":
        return draftString(m, seed, ctx);
      case "array":
        return draftArray(m, seed, ctx);
      case "object":
        return draftObject(m, seed, ctx);
      default:
        return fail(`${ctx.path || "/"}: unknown type ${type}`, true);
    }
  }

  function chooseType(m: MergedSchema, rng: Rng, ctx: Ctx): string {
    const hasObject = m.properties.size > 0 || m.required.size > 0 || m.closedKeys !== undefined || m.additional.length > 0 || m.minProperties !== undefined || m.patternProperties.length > 0;
    const hasArray = m.items.length > 0 || m.prefixItems.length > 0 || m.contains.length > 0 || m.minItems !== undefined || m.maxItems !== undefined;
    const hasString = m.patterns.length > 0 || m.minLength !== undefined || m.maxLength !== undefined || m.hashed || ctx.hashed;
    const hasNumber = m.minimum !== undefined || m.maximum !== undefined || m.exclusiveMinimum !== undefined || m.exclusiveMaximum !== undefined || m.multipleOf.length > 0;
    let types = m.types ? [...m.types] : [];
    if (types.length === 0) {
      if (hasObject) return "object";
      if (hasArray) return "array";
      if (hasString) return "string";
      if (hasNumber) return "number";
      // A schema that says nothing: a short string is the most useful "anything".
      return ctx.minimal ? "null" : rng.pick(["string", "string", "integer", "boolean"]);
    }
    if (types.includes("null") && types.length > 1) {
      if (ctx.minimal || rng.chance(0.15)) return "null";
      types = types.filter((t) => t !== "null");
    }
    for (const [wanted, has] of [
      ["object", hasObject],
      ["array", hasArray],
      ["string", hasString],
    ] as const) {
      if (has && types.includes(wanted)) return wanted;
    }
    if (hasNumber && types.includes("number")) return "number";
    if (hasNumber && types.includes("integer")) return "integer";
    return rng.pick(types);
  }

  /** Constraints a leaf value can be checked against without its context. */
  function leafOk(m: MergedSchema, v: unknown): boolean {
    if (m.types && !jsonTypes(v).some((t) => m.types?.has(t))) return false;
    if (m.consts.some((c) => !jsonEqual(c, v))) return false;
    if (m.enums.some((e) => !e.some((x) => jsonEqual(x, v)))) return false;
    if (typeof v === "string") {
      const length = [...v].length;
      if (m.minLength !== undefined && length < m.minLength) return false;
      if (m.maxLength !== undefined && length > m.maxLength) return false;
      if (!m.patterns.every((p) => match({ pattern: p }, v))) return false;
    }
    if (typeof v === "number") {
      if (m.minimum !== undefined && v < m.minimum) return false;
      if (m.maximum !== undefined && v > m.maximum) return false;
      if (m.exclusiveMinimum !== undefined && v <= m.exclusiveMinimum) return false;
      if (m.exclusiveMaximum !== undefined && v >= m.exclusiveMaximum) return false;
      if (!m.multipleOf.every((x) => match({ multipleOf: x }, v))) return false;
    }
    if (!m.formats.every((f) => checkFormat(f, v))) return false;
    return m.not.every((n) => !match(n, v));
  }

  function poolOf(m: MergedSchema, ctx: Ctx): unknown[] {
    return [...m.examples, ...m.defaults, ...ctx.pool];
  }

  function draftBoolean(m: MergedSchema, rng: Rng, ctx: Ctx): Result {
    // Soft deletion flags: live objects are the useful default.
    if (ctx.name !== undefined && /^(is_)?deleted$/.test(normalizeName(ctx.name)) && leafOk(m, false)) return ok(false);
    const pool = poolOf(m, ctx).filter((v): v is boolean => typeof v === "boolean");
    if (pool.length > 0 && rng.chance(exampleProbability)) return ok(rng.pick(pool));
    return ok(rng.chance(0.5));
  }

  function draftNumber(m: MergedSchema, seed: number, ctx: Ctx, integer: boolean): Result {
    const rng = createRng(deriveSeed(seed, "number"));
    const fits = (v: number): boolean => Number.isFinite(v) && (!integer || Number.isInteger(v)) && leafOk(m, v);
    // Example numbers are used as they are: codes and statuses must not drift to unknown values.
    const pool = poolOf(m, ctx).filter((v): v is number => typeof v === "number");
    if (pool.length > 0 && rng.chance(exampleProbability)) {
      const picked = rng.pick(pool);
      if (fits(picked)) return ok(picked);
    }
    if (integer) {
      const named = integerForName(ctx.name, rng);
      if (named !== undefined && fits(named)) return ok(named);
    }
    let lo = m.minimum ?? -Infinity;
    let hi = m.maximum ?? Infinity;
    if (m.exclusiveMinimum !== undefined) lo = Math.max(lo, integer ? Math.floor(m.exclusiveMinimum) + 1 : m.exclusiveMinimum);
    if (m.exclusiveMaximum !== undefined) hi = Math.min(hi, integer ? Math.ceil(m.exclusiveMaximum) - 1 : m.exclusiveMaximum);
    if (integer) [lo, hi] = [Math.ceil(lo), Math.floor(hi)];
    if (m.formats.includes("int32")) [lo, hi] = [Math.max(lo, -2147483648), Math.min(hi, 2147483647)];
    if (lo === -Infinity && hi === Infinity) [lo, hi] = [0, 1000];
    else if (lo === -Infinity) lo = hi >= 1000 ? 0 : hi - 1000;
    else if (hi === Infinity) hi = lo + 1000;
    if (lo > hi) return fail(`${ctx.path || "/"}: the numeric range is empty`, true);
    const step = m.multipleOf[0];
    const candidates: number[] = [];
    if (step !== undefined) {
      const kLo = Math.ceil(lo / step);
      const kHi = Math.floor(hi / step);
      if (kLo > kHi) return fail(`${ctx.path || "/"}: no multiple of ${step} in range`, true);
      for (let i = 0; i < 4; i++) {
        const k = rng.int(kLo, Math.min(kHi, kLo + 1_000_000));
        // Decimals from the step's own text: exact, where a logarithm could differ in the last bit.
        const decimals = (/\.(\d+)$/.exec(String(step))?.[1] ?? "").length;
        candidates.push(k * step, Number((k * step).toFixed(Math.min(decimals, 20))));
      }
      candidates.push(0, kLo * step);
    } else if (integer) {
      for (let i = 0; i < 4; i++) candidates.push(rng.int(lo, hi));
      candidates.push(lo, hi);
    } else {
      for (let i = 0; i < 4; i++) {
        const v = lo + rng.next() * (hi - lo);
        candidates.push(Math.round(v * 100) / 100, v);
      }
      candidates.push(lo, hi, (lo + hi) / 2);
    }
    const found = candidates.find(fits);
    return found === undefined ? fail(`${ctx.path || "/"}: no number fits ${describeNumber(m)}`) : ok(found);
  }

  function draftString(m: MergedSchema, seed: number, ctx: Ctx): Result {
    const rng = createRng(deriveSeed(seed, "string"));
    const instant = (): number => mockInstant(ctx.name, ctx.objectSeed, deriveSeed(seed, "time"), ctx.hint);
    const minLength = m.minLength ?? 0;
    const maxLength = m.maxLength ?? Infinity;
    // A string of format int64 or int32 holds a number of that range (a 19-digit id drawn by its
    // name may exceed 2^63 - 1, which the server cannot read).
    const bits = m.formats.includes("int32") ? 31 : m.formats.includes("int64") ? 63 : undefined;
    const inRange = (v: string): boolean => bits === undefined || (/^-?\d{1,20}$/.test(v) && BigInt(v) <= 2n ** BigInt(bits) - 1n && BigInt(v) >= -(2n ** BigInt(bits)));
    const fits = (v: string): boolean => inRange(v) && leafOk(m, v);
    const fitted = (v: string): string[] => {
      const chars = [...v];
      return chars.length > maxLength ? [v, chars.slice(0, maxLength).join("").trimEnd()] : [v];
    };
    const attempt = (values: Iterable<string | undefined>): string | undefined => {
      for (const raw of values) {
        if (raw === undefined) continue;
        for (const v of fitted(raw)) if (fits(v)) return v;
      }
      return undefined;
    };

    if (m.hashed || ctx.hashed) {
      const found = attempt([hashedValue(rng, ctx.name)]);
      if (found !== undefined) return ok(found);
    }
    const pool = [...poolOf(m, ctx), ...m.seen].filter((v): v is string => typeof v === "string");
    if (pool.length > 0 && ctx.hint === undefined && rng.chance(exampleProbability)) {
      const picked = rng.pick(pool);
      const found = attempt([varyString(picked, rng), picked]);
      if (found !== undefined) return ok(found);
    }
    const nameCtx = { objectSeed: ctx.objectSeed, instant };
    const byName = attempt(stringsForName(ctx.name, rng, nameCtx));
    if (byName !== undefined) return ok(byName);
    const byFormat = attempt(m.formats.flatMap((f) => (f === "date-time" ? timeRenderings(instant()) : [formatValue(f, rng, { ...(ctx.name !== undefined ? { name: ctx.name } : {}), instant })])));
    if (byFormat !== undefined) return ok(byFormat);
    const shaped = attempt(shapedByPattern(m, rng, instant, ctx.objectSeed));
    if (shaped !== undefined) return ok(shaped);
    // The contract's own values read better than raw pattern samples.
    const fromPool = m.patterns.length > 0 ? attempt(pool.flatMap((p) => [varyString(p, rng), p])) : undefined;
    if (fromPool !== undefined) return ok(fromPool);
    let unsupported: string | undefined;
    for (const p of m.patterns) {
      for (let i = 0; i < 8; i++) {
        let sample: string;
        try {
          sample = sampleRegex(p, createRng(deriveSeed(seed, `pattern:${p}:${i}`)), { minLength, maxLength });
        } catch (e) {
          if (!(e instanceof UnsupportedPatternError)) throw e;
          unsupported = e.message;
          break;
        }
        const found = attempt([sample]);
        if (found !== undefined) return ok(found);
      }
    }
    const last = attempt([...pool, ...(m.patterns.length === 0 ? [freeText(rng, minLength, maxLength), freeText(rng, minLength, maxLength)] : [])]);
    if (last !== undefined) return ok(last);
    const why = unsupported ?? `no candidate fits ${describeString(m)}`;
    return fail(`${ctx.path || "/"}: ${why}`);
  }

  function draftArray(m: MergedSchema, seed: number, ctx: Ctx): Result {
    const rng = createRng(deriveSeed(seed, "array"));
    const min = m.minItems ?? 0;
    const max = m.maxItems ?? Infinity;
    const containsMin = m.contains.reduce((sum, c) => sum + c.min, 0);
    const itemSchema: unknown = m.items.length === 0 ? true : m.items.length === 1 ? m.items[0] : { allOf: m.items };
    const prefixLength = Math.max(0, ...m.prefixItems.map((p) => p.length));
    const schemaAt = (i: number): unknown => {
      if (i >= prefixLength) return itemSchema;
      const parts = m.prefixItems.map((p) => p[i]).filter((s) => s !== undefined);
      return parts.length === 1 ? parts[0] : { allOf: parts };
    };
    const lower = Math.max(min, containsMin);
    const target = ctx.minimal ? lower : Math.max(lower, rng.int(min, Math.min(max, min + maxExtraItems)));
    if (target > max) return fail(`${ctx.path || "/"}: contains needs ${target} items, maxItems is ${max}`, true);
    const pool = poolOf(m, ctx).flatMap((v) => (Array.isArray(v) ? v : []));
    const itemCtx = (i: number): Ctx => ({
      depth: ctx.depth + 1,
      name: singular(ctx.name),
      objectSeed: ctx.objectSeed,
      pool,
      hint: ctx.hint,
      hashed: ctx.hashed || m.hashed,
      minimal: ctx.minimal || ctx.depth + 1 >= maxDepth,
      path: `${ctx.path}/${i}`,
    });
    const out: unknown[] = [];
    const fitsArray = (v: unknown): boolean => {
      if (m.uniqueItems && out.some((x) => jsonEqual(x, v))) return false;
      return m.contains.every((c) => c.max === Infinity || out.filter((x) => match(c.schema, x)).length + (match(c.schema, v) ? 1 : 0) <= c.max);
    };
    for (const [ci, c] of m.contains.entries()) {
      for (let j = 0; j < c.min; j++) {
        const r = gen({ allOf: [schemaAt(out.length), c.schema] }, deriveSeed(seed, `contains:${ci}:${j}`), itemCtx(out.length));
        if (!r.ok) return fail(r.reason, r.final);
        out.push(r.value);
      }
    }
    let misses = 0;
    while (out.length < target && misses < 8) {
      const i = out.length;
      const r = gen(schemaAt(i), misses === 0 ? deriveSeed(seed, i) : deriveSeed(seed, `${i}:${misses}`), itemCtx(i));
      if (r.ok && fitsArray(r.value)) {
        out.push(r.value);
        misses = 0;
      } else {
        misses++;
        if (!r.ok && out.length < min && r.final) return fail(r.reason, true);
      }
    }
    if (out.length < min) return fail(`${ctx.path || "/"}: only ${out.length} of ${min} items could be generated`);
    if (m.contains.length > 0) shuffle(out, rng);
    return ok(out);
  }

  function draftObject(m: MergedSchema, seed: number, ctx: Ctx): Result {
    const keys = [...m.properties.keys(), ...[...m.required].filter((k) => !m.properties.has(k))];
    const { hints, alwaysInclude } = ruleHints(m);
    const patternMatches = (key: string): unknown[] => m.patternProperties.filter(([p]) => match({ pattern: p }, key)).map(([, s]) => s);
    const schemasFor = (key: string): unknown[] => {
      const own = [...(m.properties.get(key) ?? []), ...patternMatches(key)];
      return own.length > 0 ? own : m.additional.length > 0 ? m.additional : [true];
    };
    const never = new Map<string, boolean>();
    const isNever = (key: string): boolean => {
      let v = never.get(key);
      if (v === undefined) {
        const schemas = schemasFor(key);
        // One schema object answers the same every time: remembered across drafts.
        const only = schemas.length === 1 && isObj(schemas[0]) ? schemas[0] : undefined;
        v = only !== undefined ? impossibleSchemas.get(only) : undefined;
        if (v === undefined) {
          v = mergeInto(emptyMerged(), { allOf: schemas }, root).impossible !== undefined;
          if (only !== undefined) impossibleSchemas.set(only, v);
        }
        never.set(key, v);
      }
      return v;
    };
    const allowed = (key: string): boolean => !m.forbidden.has(key) && (m.closedKeys === undefined || m.closedKeys.has(key) || patternMatches(key).length > 0) && !isNever(key);

    const include = new Set<string>();
    for (const key of keys) {
      const required = m.required.has(key);
      if (!allowed(key)) {
        if (required) return fail(`${ctx.path || "/"}: required property ${key} cannot be present`);
        continue;
      }
      const optionalIn = !ctx.minimal && createRng(deriveSeed(seed, `?${key}`)).next() < optionalProbability;
      if (required || alwaysInclude.has(key) || optionalIn) include.add(key);
    }
    for (let changed = true, rounds = 0; changed && rounds < 32; rounds++) {
      changed = false;
      for (const key of [...include]) {
        for (const dep of m.dependentRequired.get(key) ?? []) {
          if (include.has(dep)) continue;
          if (allowed(dep)) include.add(dep);
          else if (!m.required.has(key)) include.delete(key);
          else return fail(`${ctx.path || "/"}: ${key} requires ${dep}, which cannot be present`);
          changed = true;
        }
      }
    }
    const extras: string[] = [];
    if (m.minProperties !== undefined) {
      for (const key of keys) if (include.size < m.minProperties && allowed(key)) include.add(key);
      for (let n = 1; include.size + extras.length < m.minProperties && m.closedKeys === undefined && n < 1000; n++) {
        const key = `extra_${n}`;
        if (!include.has(key) && allowed(key)) extras.push(key);
      }
    }
    if (m.maxProperties !== undefined) {
      for (const key of [...keys].reverse()) if (include.size > m.maxProperties && !m.required.has(key)) include.delete(key);
    }
    const pool = poolOf(m, ctx).filter(isObj);
    const out: Record<string, unknown> = {};
    for (const key of [...keys.filter((k) => include.has(k)), ...extras]) {
      const schemas = schemasFor(key);
      const child: unknown = schemas.length === 1 ? schemas[0] : { allOf: schemas };
      const childCtx: Ctx = {
        depth: ctx.depth + 1,
        name: key,
        objectSeed: seed,
        pool: pool.filter((e) => Object.prototype.hasOwnProperty.call(e, key)).map((e) => e[key]),
        hint: hints.get(key),
        hashed: false,
        minimal: ctx.minimal || ctx.depth + 1 >= maxDepth,
        path: `${ctx.path}/${key}`,
      };
      const r = gen(child, deriveSeed(seed, key), childCtx);
      if (!r.ok) {
        // An optional property that cannot be generated is left out; a required one cannot be.
        if (m.required.has(key)) return fail(r.reason, r.final);
        continue;
      }
      // A `__proto__` key must become an own property, not the object's prototype.
      if (key === "__proto__") Object.defineProperty(out, key, { value: r.value, enumerable: true, writable: true, configurable: true });
      else out[key] = r.value;
    }
    return ok(out);
  }

  return {
    generate(schema, seed, generateOptions = {}) {
      const start = seed === undefined ? defaultSeed : normalizeSeed(seed);
      const label = typeof schema === "string" ? schema : "the given schema";
      const node: unknown = typeof schema === "string" ? { $ref: schemaRef(schema) } : schema;
      const accept = generateOptions.accept;
      drafts = 0;
      refDepth.clear();
      const ctx: Ctx = { depth: 0, name: undefined, objectSeed: start, pool: [], hint: undefined, hashed: false, minimal: false, path: "" };
      let reason = "no draft satisfies the schema";
      try {
        for (let a = 0; a < (accept ? maxAttempts : 1); a++) {
          const r = gen(node, a === 0 ? start : deriveSeed(start, `accept:${a}`), ctx);
          if (!r.ok) {
            reason = r.reason;
            break;
          }
          if (!accept || accept(r.value)) return r.value;
          reason = "no draft passes the caller's check";
        }
      } catch (e) {
        if (!(e instanceof BudgetExceeded)) throw e;
        reason = `gave up after ${budget} drafts`;
      }
      const ref = pureRef(node);
      const target = ref === undefined ? node : resolveIn(root, ref);
      for (const example of [...examplesOf(node), ...examplesOf(target)]) {
        if (match(node, example) && (ref === undefined || hookAccepts(ref, example)) && (!accept || accept(example))) {
          options.onFallback?.(label, reason);
          return structuredClone(example);
        }
      }
      throw new MockGenerationError(label, reason);
    },
    forSchema(name, seed) {
      return this.generate(name, seed);
    },
  };
}

/** Hints the object's `x-rules` give its fields: which side of `$now` a time falls on, what to include. */
function ruleHints(m: MergedSchema): { hints: Map<string, TimeHint>; alwaysInclude: Set<string> } {
  const hints = new Map<string, TimeHint>();
  const alwaysInclude = new Set<string>();
  for (const r of m.rules) {
    if (r["kind"] === "compare" && r["as"] === "date-time") {
      const [left, right, op] = [r["left"], r["right"], r["op"]];
      const later = op === ">" || op === ">=";
      if (right === "$now" && typeof left === "string") hints.set(left, later ? "future" : "past");
      if (left === "$now" && typeof right === "string") hints.set(right, later ? "past" : "future");
    }
    // With the end missing the rule measures up to the clock; giving the end keeps data clock-free.
    if (r["kind"] === "maxInterval" && r["endDefault"] === "$now" && typeof r["end"] === "string") alwaysInclude.add(r["end"]);
  }
  return { hints, alwaysInclude };
}

/** Examples vary so mock data looks like the contract's without repeating it: ids and times shift. */
function varyString(example: string, rng: Rng): string {
  const money = /^\d+(\.\d+)? ([A-Z]{3})$/.exec(example);
  if (money) return price(rng, money[2] as string);
  if (/^\d{6,}$/.test(example)) {
    const keep = Math.ceil(example.length / 2);
    let tail = "";
    for (let i = keep; i < example.length; i++) tail += String(rng.int(0, 9));
    return example.slice(0, keep) + tail;
  }
  const t = /^\d{4}-\d{2}-\d{2}T/.test(example) ? Date.parse(example) : Number.NaN;
  if (!Number.isNaN(t)) {
    const shifted = timeRenderings(t + rng.int(-30, 30) * 86_400_000 + rng.int(0, 86_399) * 1000);
    const same = shifted.find((s) => s.length === example.length && s.slice(-1) === example.slice(-1));
    if (same !== undefined) return same;
  }
  return example;
}

/** Candidates for patterns that describe times, ranges of times or prices, before raw sampling. */
function shapedByPattern(m: MergedSchema, rng: Rng, instant: () => number, objectSeed: number): string[] {
  const out: string[] = [];
  const joined = m.patterns.join("\n");
  if (/\\d\{4\}-\\d\{2\}-\\d\{2\}/.test(joined)) {
    const start = instant();
    const startForms = timeRenderings(start);
    out.push(...startForms);
    if (joined.includes("/")) {
      const endForms = timeRenderings(start + rng.int(1, 14) * 86_400_000);
      startForms.forEach((s, i) => out.push(`${s}/${endForms[i] as string}`));
    }
  }
  if (/\[A-Z\]\{3\}/.test(joined) && /\[0-9\]|\\d/.test(joined)) out.push(price(rng, objectCurrency(objectSeed)));
  return out;
}

function shuffle<T>(items: T[], rng: Rng): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
}

function describeString(m: MergedSchema): string {
  const parts: string[] = [];
  if (m.patterns.length > 0) parts.push(`pattern ${m.patterns.map((p) => `/${p}/`).join(" and ")}`);
  if (m.formats.length > 0) parts.push(`format ${m.formats.join(", ")}`);
  if (m.minLength !== undefined) parts.push(`minLength ${m.minLength}`);
  if (m.maxLength !== undefined) parts.push(`maxLength ${m.maxLength}`);
  if (m.not.length > 0) parts.push(`${m.not.length} not condition(s)`);
  return parts.join(", ") || "the string constraints";
}

function describeNumber(m: MergedSchema): string {
  const parts = Object.entries({ minimum: m.minimum, maximum: m.maximum, exclusiveMinimum: m.exclusiveMinimum, exclusiveMaximum: m.exclusiveMaximum })
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k} ${String(v)}`);
  if (m.multipleOf.length > 0) parts.push(`multipleOf ${m.multipleOf.join(", ")}`);
  return parts.join(", ") || "the numeric constraints";
}
