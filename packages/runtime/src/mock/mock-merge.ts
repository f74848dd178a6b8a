/**
 * One flat view of everything a schema asks of a value, for the mock generator: `allOf` parts and
 * `$ref`s are folded in (constraints tightened, property schemas collected per name), chosen
 * `anyOf`/`oneOf` branches and `if` outcomes are merged in later the same way. Conditions a flat
 * view cannot hold (`not`, `if`, `contains`) are kept as lists and checked on the drafted value.
 */
import { jsonEqual, resolvePointer } from "../shared/schema-match.js";

type Obj = Readonly<Record<string, unknown>>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

export interface Contains {
  readonly schema: unknown;
  readonly min: number;
  readonly max: number;
}

export interface Conditional {
  readonly if: unknown;
  readonly then: unknown;
  readonly else: unknown;
}

export interface MergedSchema {
  /** Allowed JSON types; undefined when no part restricts them. */
  types: Set<string> | undefined;
  consts: unknown[];
  enums: unknown[][];
  properties: Map<string, unknown[]>;
  required: Set<string>;
  /** Properties that must stay absent (`false` schemas, other `oneOf` branches' requirements). */
  forbidden: Set<string>;
  /** Property names every `additionalProperties: false` part allows; undefined when none closes. */
  closedKeys: Set<string> | undefined;
  patternProperties: [string, unknown][];
  additional: unknown[];
  dependentRequired: Map<string, string[]>;
  minProperties: number | undefined;
  maxProperties: number | undefined;
  items: unknown[];
  prefixItems: unknown[][];
  minItems: number | undefined;
  maxItems: number | undefined;
  uniqueItems: boolean;
  contains: Contains[];
  patterns: string[];
  minLength: number | undefined;
  maxLength: number | undefined;
  formats: string[];
  minimum: number | undefined;
  maximum: number | undefined;
  exclusiveMinimum: number | undefined;
  exclusiveMaximum: number | undefined;
  multipleOf: number[];
  anyOf: unknown[][];
  oneOf: unknown[][];
  not: unknown[];
  conditionals: Conditional[];
  rules: Obj[];
  hashed: boolean;
  examples: unknown[];
  defaults: unknown[];
  /** `x-values-seen`: values the contract has observed, a good source of realistic strings. */
  seen: unknown[];
  /** Why no value can satisfy the schema, once a merge proves it. */
  impossible: string | undefined;
}

export function emptyMerged(): MergedSchema {
  return {
    types: undefined,
    consts: [],
    enums: [],
    properties: new Map(),
    required: new Set(),
    forbidden: new Set(),
    closedKeys: undefined,
    patternProperties: [],
    additional: [],
    dependentRequired: new Map(),
    minProperties: undefined,
    maxProperties: undefined,
    items: [],
    prefixItems: [],
    minItems: undefined,
    maxItems: undefined,
    uniqueItems: false,
    contains: [],
    patterns: [],
    minLength: undefined,
    maxLength: undefined,
    formats: [],
    minimum: undefined,
    maximum: undefined,
    exclusiveMinimum: undefined,
    exclusiveMaximum: undefined,
    multipleOf: [],
    anyOf: [],
    oneOf: [],
    not: [],
    conditionals: [],
    rules: [],
    hashed: false,
    examples: [],
    defaults: [],
    seen: [],
    impossible: undefined,
  };
}

/** `$ref` targets already resolved, per document: a draft resolves the same few references thousands of times. */
const resolvedIn = new WeakMap<object, Map<string, unknown>>();

/**
 * `resolvePointer(root, ref)`, remembered per document. The documents mock data is drawn from are
 * not changed while drawing (a generator's `root`), so a reference resolves to the same node.
 */
export function resolveIn(root: unknown, ref: string): unknown {
  if (root === null || typeof root !== "object") return resolvePointer(root, ref);
  let known = resolvedIn.get(root);
  if (known === undefined) resolvedIn.set(root, (known = new Map()));
  if (known.has(ref)) return known.get(ref);
  const target = resolvePointer(root, ref);
  known.set(ref, target);
  return target;
}

export function cloneMerged(m: MergedSchema): MergedSchema {
  return {
    ...m,
    types: m.types ? new Set(m.types) : undefined,
    consts: [...m.consts],
    enums: [...m.enums],
    properties: new Map([...m.properties].map(([k, v]) => [k, [...v]])),
    required: new Set(m.required),
    forbidden: new Set(m.forbidden),
    closedKeys: m.closedKeys ? new Set(m.closedKeys) : undefined,
    patternProperties: [...m.patternProperties],
    additional: [...m.additional],
    dependentRequired: new Map(m.dependentRequired),
    items: [...m.items],
    prefixItems: [...m.prefixItems],
    contains: [...m.contains],
    patterns: [...m.patterns],
    formats: [...m.formats],
    multipleOf: [...m.multipleOf],
    anyOf: [...m.anyOf],
    oneOf: [...m.oneOf],
    not: [...m.not],
    conditionals: [...m.conditionals],
    rules: [...m.rules],
    examples: [...m.examples],
    defaults: [...m.defaults],
    seen: [...m.seen],
  };
}

const tighter = (a: number | undefined, b: number | undefined, pick: (x: number, y: number) => number): number | undefined => (a === undefined ? b : b === undefined ? a : pick(a, b));

/**
 * Folds `schema` into `m`. `$ref`s resolve in `root`; a reference already being folded (a cycle
 * through `allOf`) is skipped, since its constraints are already in.
 */
export function mergeInto(m: MergedSchema, schema: unknown, root: unknown, active: Set<string> = new Set()): MergedSchema {
  if (schema === true || schema === undefined) return m;
  if (schema === false) {
    m.impossible ??= "the schema is `false`";
    return m;
  }
  if (!isObj(schema)) return m;
  const s = schema;

  if (typeof s["$ref"] === "string") {
    const ref = s["$ref"];
    if (!active.has(ref)) {
      const target = resolveIn(root, ref);
      if (target === undefined) m.impossible ??= `unresolved $ref ${ref}`;
      active.add(ref);
      mergeInto(m, target, root, active);
      active.delete(ref);
    }
  }

  if (s["type"] !== undefined) {
    const list = (Array.isArray(s["type"]) ? s["type"] : [s["type"]]).filter((t): t is string => typeof t === "string");
    // `integer` is a `number`: intersecting number with integer keeps integer.
    const expand = (set: Iterable<string>): Set<string> => {
      const out = new Set(set);
      if (out.has("number")) out.add("integer");
      return out;
    };
    const next = expand(list);
    m.types = m.types === undefined ? next : new Set([...m.types].filter((t) => next.has(t)));
    if (m.types.size === 0) m.impossible ??= "its allOf parts allow no common type";
  }
  if (Object.prototype.hasOwnProperty.call(s, "const")) {
    if (m.consts.some((c) => !jsonEqual(c, s["const"]))) m.impossible ??= "two parts require different constants";
    m.consts.push(s["const"]);
  }
  if (Array.isArray(s["enum"])) m.enums.push(s["enum"]);

  if (isObj(s["properties"])) {
    for (const [k, v] of Object.entries(s["properties"])) {
      const list = m.properties.get(k) ?? [];
      list.push(v);
      m.properties.set(k, list);
    }
  }
  if (Array.isArray(s["required"])) for (const r of s["required"]) if (typeof r === "string") m.required.add(r);
  if (isObj(s["patternProperties"])) m.patternProperties.push(...Object.entries(s["patternProperties"]));
  if (s["additionalProperties"] === false || s["unevaluatedProperties"] === false) {
    const own = new Set(isObj(s["properties"]) ? Object.keys(s["properties"]) : []);
    if (s["unevaluatedProperties"] === false) for (const k of m.properties.keys()) own.add(k);
    m.closedKeys = m.closedKeys === undefined ? own : new Set([...m.closedKeys].filter((k) => own.has(k)));
  } else if (s["additionalProperties"] !== undefined && s["additionalProperties"] !== true) {
    m.additional.push(s["additionalProperties"]);
  }
  if (isObj(s["dependentRequired"])) {
    for (const [k, deps] of Object.entries(s["dependentRequired"])) {
      if (!Array.isArray(deps)) continue;
      m.dependentRequired.set(k, [...(m.dependentRequired.get(k) ?? []), ...deps.filter((d): d is string => typeof d === "string")]);
    }
  }
  m.minProperties = tighter(m.minProperties, num(s["minProperties"]), Math.max);
  m.maxProperties = tighter(m.maxProperties, num(s["maxProperties"]), Math.min);

  if (s["items"] !== undefined && s["items"] !== true) m.items.push(s["items"]);
  if (Array.isArray(s["prefixItems"])) m.prefixItems.push(s["prefixItems"]);
  m.minItems = tighter(m.minItems, num(s["minItems"]), Math.max);
  m.maxItems = tighter(m.maxItems, num(s["maxItems"]), Math.min);
  if (s["uniqueItems"] === true) m.uniqueItems = true;
  if (s["contains"] !== undefined) {
    m.contains.push({ schema: s["contains"], min: num(s["minContains"]) ?? 1, max: num(s["maxContains"]) ?? Infinity });
  }

  if (typeof s["pattern"] === "string") m.patterns.push(s["pattern"]);
  m.minLength = tighter(m.minLength, num(s["minLength"]), Math.max);
  m.maxLength = tighter(m.maxLength, num(s["maxLength"]), Math.min);
  if (typeof s["format"] === "string") m.formats.push(s["format"]);

  m.minimum = tighter(m.minimum, num(s["minimum"]), Math.max);
  m.maximum = tighter(m.maximum, num(s["maximum"]), Math.min);
  m.exclusiveMinimum = tighter(m.exclusiveMinimum, num(s["exclusiveMinimum"]), Math.max);
  m.exclusiveMaximum = tighter(m.exclusiveMaximum, num(s["exclusiveMaximum"]), Math.min);
  const mult = num(s["multipleOf"]);
  if (mult !== undefined && mult > 0) m.multipleOf.push(mult);

  if (Array.isArray(s["anyOf"])) m.anyOf.push(s["anyOf"]);
  if (Array.isArray(s["oneOf"])) m.oneOf.push(s["oneOf"]);
  if (Object.prototype.hasOwnProperty.call(s, "not")) {
    if (s["not"] === true || (isObj(s["not"]) && Object.keys(s["not"]).every((k) => !isConstraint(k)))) {
      m.impossible ??= "`not: {}` rejects every value";
    }
    m.not.push(s["not"]);
  }
  if (Object.prototype.hasOwnProperty.call(s, "if") && (s["then"] !== undefined || s["else"] !== undefined)) {
    m.conditionals.push({ if: s["if"], then: s["then"], else: s["else"] });
  }
  if (Array.isArray(s["x-rules"])) {
    for (const [i, r] of s["x-rules"].entries()) {
      if (!isObj(r)) continue;
      m.rules.push(r);
      // Schema rules are plain JSON Schema: the draft must satisfy them like `allOf` parts.
      const ruleSchemas = s["x-rules-schemas"];
      if (r["kind"] === "schema" && Array.isArray(ruleSchemas) && ruleSchemas[i] !== undefined) mergeInto(m, ruleSchemas[i], root, active);
    }
  }
  if (s["x-hashed"] !== undefined) m.hashed = true;
  if (Array.isArray(s["examples"])) m.examples.push(...s["examples"]);
  if (s["example"] !== undefined) m.examples.push(s["example"]);
  if (s["default"] !== undefined) m.defaults.push(s["default"]);
  if (Array.isArray(s["x-values-seen"])) m.seen.push(...s["x-values-seen"]);

  if (Array.isArray(s["allOf"])) for (const part of s["allOf"]) mergeInto(m, part, root, active);
  return m;
}

// Keywords that constrain a value; a schema with none of them accepts everything.
const ANNOTATIONS = new Set([
  "description",
  "title",
  "examples",
  "example",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$comment",
  "$id",
  "$schema",
  "$anchor",
  "discriminator",
  "xml",
  "externalDocs",
]);

function isConstraint(key: string): boolean {
  return !ANNOTATIONS.has(key) && !key.startsWith("x-");
}

/** True when a schema constrains nothing (`{}`, `true`, only annotations). */
export function acceptsAnything(schema: unknown): boolean {
  return schema === true || schema === undefined || (isObj(schema) && Object.keys(schema).every((k) => !isConstraint(k)));
}

/** `{ $ref }` (plus annotations) only: the generator checks such a schema against its named validator. */
export function pureRef(schema: unknown): string | undefined {
  if (!isObj(schema) || typeof schema["$ref"] !== "string") return undefined;
  return Object.keys(schema).every((k) => k === "$ref" || !isConstraint(k)) ? schema["$ref"] : undefined;
}

/** A schema made of `required` only, as `oneOf` branches that pick which property is present. */
export function requiredOnly(schema: unknown): readonly string[] | undefined {
  if (!isObj(schema) || !Array.isArray(schema["required"])) return undefined;
  const keys = Object.keys(schema).filter(isConstraint);
  return keys.length === 1 ? schema["required"].filter((r): r is string => typeof r === "string") : undefined;
}
