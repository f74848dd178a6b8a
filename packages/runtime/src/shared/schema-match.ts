/**
 * A small JSON Schema 2020-12 evaluator for the mock generator: it decides which `if` branch a value
 * took, whether a `oneOf` value matches exactly one branch, whether a `not` holds, and whether a
 * draft satisfies the contract's `x-rules`, for subschemas no precompiled validator covers. It
 * answers true or false only; the precompiled validators remain the authority on named schemas.
 */
import { satisfiesRule, type RuleBody } from "./rules.js";
import { checkFormat } from "./format-check.js";
import { patternRegExp, type PatternTest } from "./pattern.js";

type Obj = Readonly<Record<string, unknown>>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** Structural equality of JSON values (object key order ignored), as `enum`, `const`, `uniqueItems` mean it. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => jsonEqual(x, bb[i]));
  }
  const ao = a as Obj;
  const bo = b as Obj;
  const keys = Object.keys(ao);
  return keys.length === Object.keys(bo).length && keys.every((k) => hasOwn(bo, k) && jsonEqual(ao[k], bo[k]));
}

/** Resolves `#/a/b` within `root` (JSON pointer, `~0`/`~1` and percent escapes); undefined when absent. */
export function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  const path = ref.slice(1);
  if (path === "") return root;
  let node: unknown = root;
  for (const raw of path.split("/").slice(1)) {
    // Most segments hold neither escapes nor `~`: they are their own text.
    let segment = raw;
    if (raw.includes("%")) {
      try {
        segment = decodeURIComponent(raw);
      } catch {
        segment = raw;
      }
    }
    if (segment.includes("~")) segment = segment.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isObj(node) && hasOwn(node, segment)) node = node[segment];
    else return undefined;
  }
  return node;
}

/** The JSON type names `value` has (`integer` values are numbers too). */
export function jsonTypes(value: unknown): string[] {
  if (value === null) return ["null"];
  if (Array.isArray(value)) return ["array"];
  switch (typeof value) {
    case "string":
      return ["string"];
    case "boolean":
      return ["boolean"];
    case "number":
      return Number.isInteger(value) ? ["integer", "number"] : ["number"];
    case "object":
      return ["object"];
    default:
      return [];
  }
}

export interface SchemaMatcherOptions {
  /** The instant `$now` stands for in `x-rules` comparisons. */
  readonly now: number;
}

export type SchemaMatcher = (schema: unknown, value: unknown) => boolean;

/** A matcher over one schema document; `$ref`s resolve within `root`. Compiled patterns are cached. */
export function createSchemaMatcher(root: unknown, options: SchemaMatcherOptions): SchemaMatcher {
  const patterns = new Map<string, PatternTest | null>();
  const regex = (p: string): PatternTest | null => {
    let r = patterns.get(p);
    if (r === undefined) {
      try {
        new RegExp(p, "u");
        // The validators' engine (RE2, linear time): a value the mock drew that misses the pattern
        // must not make the check backtrack.
        r = patternRegExp(p, "u");
      } catch {
        // The validators drop patterns that do not compile; so does this.
        r = null;
      }
      patterns.set(p, r);
    }
    return r;
  };

  const matches = (schema: unknown, value: unknown, depth: number): boolean => {
    if (schema === true || schema === undefined) return true;
    if (schema === false) return false;
    if (!isObj(schema)) return true;
    // A reference cycle that never reaches data: treat as satisfied rather than overflow.
    if (depth > 200) return true;
    const sub = (s: unknown, v: unknown): boolean => matches(s, v, depth + 1);

    if (typeof schema["$ref"] === "string" && !sub(resolvePointer(root, schema["$ref"]), value)) return false;

    const type = schema["type"];
    if (type !== undefined) {
      const types = jsonTypes(value);
      const wanted = Array.isArray(type) ? type : [type];
      if (!wanted.some((t) => typeof t === "string" && types.includes(t))) return false;
    }
    if (Array.isArray(schema["enum"]) && !schema["enum"].some((e) => jsonEqual(e, value))) return false;
    if (hasOwn(schema, "const") && !jsonEqual(schema["const"], value)) return false;

    if (typeof value === "string" && !stringOk(schema, value)) return false;
    if (typeof value === "number" && !numberOk(schema, value)) return false;
    if (Array.isArray(value) && !arrayOk(schema, value, sub)) return false;
    if (isObj(value) && !objectOk(schema, value, sub, regex)) return false;

    if (Array.isArray(schema["allOf"]) && !schema["allOf"].every((s) => sub(s, value))) return false;
    if (Array.isArray(schema["anyOf"]) && !schema["anyOf"].some((s) => sub(s, value))) return false;
    if (Array.isArray(schema["oneOf"]) && schema["oneOf"].filter((s) => sub(s, value)).length !== 1) return false;
    if (hasOwn(schema, "not") && sub(schema["not"], value)) return false;
    if (hasOwn(schema, "if")) {
      const branch = sub(schema["if"], value) ? schema["then"] : schema["else"];
      if (branch !== undefined && !sub(branch, value)) return false;
    }
    if (Array.isArray(schema["x-rules"]) && !rulesOk(schema, value, sub)) return false;
    return true;
  };

  const stringOk = (schema: Obj, value: string): boolean => {
    const length = [...value].length;
    if (typeof schema["minLength"] === "number" && length < schema["minLength"]) return false;
    if (typeof schema["maxLength"] === "number" && length > schema["maxLength"]) return false;
    if (typeof schema["pattern"] === "string") {
      const r = regex(schema["pattern"]);
      if (r && !r.test(value)) return false;
    }
    return typeof schema["format"] !== "string" || checkFormat(schema["format"], value);
  };

  const rulesOk = (schema: Obj, value: unknown, sub: (s: unknown, v: unknown) => boolean): boolean => {
    const rules = schema["x-rules"] as unknown[];
    const ruleSchemas = Array.isArray(schema["x-rules-schemas"]) ? schema["x-rules-schemas"] : [];
    return rules.every((rule, i) => {
      if (!isObj(rule)) return true;
      if (rule["kind"] === "schema") return sub(ruleSchemas[i] ?? true, value);
      return satisfiesRule(rule as unknown as RuleBody, value, options.now);
    });
  };

  return (schema, value) => matches(schema, value, 0);
}

function numberOk(schema: Obj, value: number): boolean {
  const n = (k: string): number | undefined => (typeof schema[k] === "number" ? (schema[k] as number) : undefined);
  const min = n("minimum");
  const max = n("maximum");
  const xmin = n("exclusiveMinimum");
  const xmax = n("exclusiveMaximum");
  if (min !== undefined && value < min) return false;
  if (max !== undefined && value > max) return false;
  if (xmin !== undefined && value <= xmin) return false;
  if (xmax !== undefined && value >= xmax) return false;
  const m = n("multipleOf");
  if (m !== undefined && m > 0 && !isMultipleOf(value, m)) return false;
  return typeof schema["format"] !== "string" || checkFormat(schema["format"], value);
}

/** The validators' own test: the quotient must be an integer exactly, without tolerance. */
export function isMultipleOf(value: number, m: number): boolean {
  const q = value / m;
  return Number.isFinite(q) && Number.parseInt(String(q), 10) === q;
}

function arrayOk(schema: Obj, value: readonly unknown[], sub: (s: unknown, v: unknown) => boolean): boolean {
  if (typeof schema["minItems"] === "number" && value.length < schema["minItems"]) return false;
  if (typeof schema["maxItems"] === "number" && value.length > schema["maxItems"]) return false;
  const prefix = Array.isArray(schema["prefixItems"]) ? schema["prefixItems"] : [];
  for (let i = 0; i < Math.min(prefix.length, value.length); i++) if (!sub(prefix[i], value[i])) return false;
  if (schema["items"] !== undefined) {
    for (let i = prefix.length; i < value.length; i++) if (!sub(schema["items"], value[i])) return false;
  }
  if (schema["uniqueItems"] === true) {
    for (let i = 0; i < value.length; i++) for (let j = i + 1; j < value.length; j++) if (jsonEqual(value[i], value[j])) return false;
  }
  if (schema["contains"] !== undefined) {
    const count = value.filter((v) => sub(schema["contains"], v)).length;
    const minC = typeof schema["minContains"] === "number" ? schema["minContains"] : 1;
    if (count < minC) return false;
    if (typeof schema["maxContains"] === "number" && count > schema["maxContains"]) return false;
  }
  return true;
}

function objectOk(schema: Obj, value: Obj, sub: (s: unknown, v: unknown) => boolean, regex: (p: string) => PatternTest | null): boolean {
  const keys = Object.keys(value);
  if (Array.isArray(schema["required"]) && !schema["required"].every((r) => typeof r !== "string" || hasOwn(value, r))) return false;
  if (typeof schema["minProperties"] === "number" && keys.length < schema["minProperties"]) return false;
  if (typeof schema["maxProperties"] === "number" && keys.length > schema["maxProperties"]) return false;
  const props = isObj(schema["properties"]) ? schema["properties"] : {};
  const patternProps = isObj(schema["patternProperties"]) ? Object.entries(schema["patternProperties"]) : [];
  for (const key of keys) {
    let known = false;
    if (hasOwn(props, key)) {
      known = true;
      if (!sub(props[key], value[key])) return false;
    }
    for (const [p, s] of patternProps) {
      if (regex(p)?.test(key)) {
        known = true;
        if (!sub(s, value[key])) return false;
      }
    }
    if (!known && schema["additionalProperties"] !== undefined && !sub(schema["additionalProperties"], value[key])) return false;
    if (schema["propertyNames"] !== undefined && !sub(schema["propertyNames"], key)) return false;
  }
  if (isObj(schema["dependentRequired"])) {
    for (const [key, deps] of Object.entries(schema["dependentRequired"])) {
      if (hasOwn(value, key) && Array.isArray(deps) && !deps.every((d) => typeof d !== "string" || hasOwn(value, d))) return false;
    }
  }
  if (isObj(schema["dependentSchemas"])) {
    for (const [key, s] of Object.entries(schema["dependentSchemas"])) if (hasOwn(value, key) && !sub(s, value)) return false;
  }
  return true;
}
