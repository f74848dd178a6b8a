/**
 * OpenAPI schemas as JSON Schema 2020-12, the dialect the validators compile. OpenAPI 3.1 already
 * is; 3.0 needs `nullable` and boolean `exclusiveMinimum/Maximum` rewritten. `x-rules` entries are
 * reduced to their known fields (nothing else from the spec reaches generated code through them),
 * and `kind: schema` rules move to a sibling array the keyword compiles as subschemas.
 */
import { DISPATCH, DISPATCH_SCHEMAS, type DispatchSchema } from "./discriminator-keyword.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

const RULE_FIELDS = ["id", "message", "kind", "in", "left", "op", "right", "as", "start", "end", "max", "endDefault", "fields", "separator"];

/** Keyword holding `kind: schema` rule subschemas, index-aligned with `x-rules`. */
export const RULE_SCHEMAS = "x-rules-schemas";

export interface CleanRule {
  readonly id: string;
  readonly message: string;
  readonly kind: string;
  readonly fields: readonly string[];
  readonly [key: string]: unknown;
}

/** The property names a rule is about, for naming them in errors. */
function ruleFields(rule: Obj): string[] {
  switch (rule["kind"]) {
    case "compare":
      return [rule["left"], rule["right"]].filter((f): f is string => typeof f === "string" && f !== "$now");
    case "maxInterval":
      return [rule["start"], rule["end"]].filter((f): f is string => typeof f === "string");
    case "maxTotalItems":
      return Array.isArray(rule["fields"]) ? rule["fields"].filter((f): f is string => typeof f === "string") : [];
    case "schema": {
      const names = new Set<string>();
      const walk = (node: unknown): void => {
        if (Array.isArray(node)) node.forEach(walk);
        else if (isObj(node)) {
          if (Array.isArray(node["required"])) for (const r of node["required"]) if (typeof r === "string") names.add(r);
          if (isObj(node["properties"])) for (const k of Object.keys(node["properties"])) names.add(k);
          for (const [k, v] of Object.entries(node)) if (k !== "properties") walk(v);
        }
      };
      walk(rule["schema"]);
      return [...names];
    }
    default:
      return [];
  }
}

export function cleanRules(raw: unknown): { rules: CleanRule[]; schemas: unknown[] } {
  const rules: CleanRule[] = [];
  const schemas: unknown[] = [];
  if (!Array.isArray(raw)) return { rules, schemas };
  for (const r of raw) {
    if (!isObj(r) || typeof r["id"] !== "string" || typeof r["kind"] !== "string") continue;
    const clean: Record<string, unknown> = {};
    for (const k of RULE_FIELDS) if (k !== "fields" && r[k] !== undefined) clean[k] = structuredClone(r[k]);
    clean["message"] = typeof r["message"] === "string" ? r["message"] : `rule ${r["id"]} is violated`;
    clean["fields"] = r["kind"] === "maxTotalItems" && Array.isArray(r["fields"]) ? r["fields"].filter((f) => typeof f === "string") : ruleFields(r);
    if (r["kind"] === "maxTotalItems") clean["separator"] = typeof r["separator"] === "string" ? r["separator"] : ",";
    rules.push(clean as CleanRule);
    schemas.push(r["kind"] === "schema" && (isObj(r["schema"]) || typeof r["schema"] === "boolean") ? r["schema"] : true);
  }
  return { rules, schemas };
}

/**
 * Validators compile patterns with the `u` flag (JSON Schema regexes are Unicode-aware). Real specs
 * often write braces that are not quantifiers (`{uuid}`), legal without `u` but not with it: those
 * braces are escaped. A pattern that still does not compile is dropped rather than failing the
 * whole package; `undefined` says so.
 */
export function unicodePattern(pattern: string): string | undefined {
  const compiles = (p: string): boolean => {
    try {
      new RegExp(p, "u");
      return true;
    } catch {
      return false;
    }
  };
  if (compiles(pattern)) return pattern;
  const escaped = pattern.replace(/\\.|\{(\d+(,\d*)?)\}|[{}]/g, (m, quant: string | undefined) => (m.startsWith("\\") || quant !== undefined ? m : `\\${m}`));
  return compiles(escaped) ? escaped : undefined;
}

/** A 2020-12 copy of an OpenAPI schema (recursively), with rules prepared for the keyword. */
export function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map((s) => toJsonSchema(s));
  if (!isObj(schema)) return schema;
  const out: Obj = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "x-rules") continue;
    if (key === "patternProperties" && isObj(value)) {
      out[key] = Object.fromEntries(
        Object.entries(value).flatMap(([k, v]) => {
          const p = unicodePattern(k);
          return p === undefined ? [] : [[p, toJsonSchema(v)]];
        }),
      );
    } else if (key === "properties" || key === "$defs" || key === "dependentSchemas") {
      out[key] = isObj(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJsonSchema(v)])) : value;
    } else if (key === "example" || key === "examples" || key === "enum" || key === "const" || key === "default") {
      out[key] = value;
    } else if (key === "pattern" && typeof value === "string") {
      const p = unicodePattern(value);
      if (p !== undefined) out[key] = p;
    } else {
      // Any member name may be `__proto__` (a discriminator mapping key, say): plain assignment
      // would set the copy's prototype instead of keeping the member.
      Object.defineProperty(out, key, { value: toJsonSchema(value), enumerable: true, writable: true, configurable: true });
    }
  }
  if (Array.isArray(schema["x-rules"])) {
    const { rules, schemas } = cleanRules(schema["x-rules"]);
    if (rules.length > 0) {
      out["x-rules"] = rules;
      out[RULE_SCHEMAS] = schemas.map((s) => toJsonSchema(s));
    }
  }
  protoPropertyAsPattern(out);
  // Boolean exclusiveMinimum/Maximum is 3.0 vocabulary; 3.1 documents that still use it mean 3.0's.
  rewriteExclusive30(out);
  // `nullable` is 3.0 vocabulary, but 3.1 documents carry it too and mean the same; ajv would
  // otherwise read it as its own keyword and refuse it without `type`.
  rewriteNullable(out);
  return out;
}

/**
 * ajv leaves a property named `__proto__` out of `properties` (a guard of its own against prototype
 * pollution), so its schema would never apply and `additionalProperties: false` would refuse it. The
 * same member as the pattern `^__proto__$` is checked, counted as known, and pollutes nothing.
 */
function protoPropertyAsPattern(s: Obj): void {
  const props = s["properties"];
  if (!isObj(props) || !Object.prototype.hasOwnProperty.call(props, "__proto__")) return;
  const schema = props["__proto__"];
  const rest: Obj = {};
  for (const k of Object.keys(props)) if (k !== "__proto__") rest[k] = props[k];
  s["properties"] = rest;
  const patterns: Obj = isObj(s["patternProperties"]) ? { ...s["patternProperties"] } : {};
  patterns["^__proto__$"] = schema;
  s["patternProperties"] = patterns;
}

function rewriteExclusive30(s: Obj): void {
  if (s["exclusiveMinimum"] === true && typeof s["minimum"] === "number") {
    s["exclusiveMinimum"] = s["minimum"];
    delete s["minimum"];
  } else if (typeof s["exclusiveMinimum"] === "boolean") delete s["exclusiveMinimum"];
  if (s["exclusiveMaximum"] === true && typeof s["maximum"] === "number") {
    s["exclusiveMaximum"] = s["maximum"];
    delete s["maximum"];
  } else if (typeof s["exclusiveMaximum"] === "boolean") delete s["exclusiveMaximum"];
}

function rewriteNullable(s: Obj): void {
  if (s["nullable"] === true) {
    delete s["nullable"];
    if (typeof s["type"] === "string") s["type"] = [s["type"], "null"];
    else if (Array.isArray(s["type"]) && !s["type"].includes("null")) s["type"] = [...s["type"], "null"];
    if (Array.isArray(s["enum"]) && !s["enum"].includes(null)) s["enum"] = [...s["enum"], null];
    if (s["type"] === undefined) {
      // `nullable` next to `$ref`/`allOf` only: null or the schema.
      const inner: Obj = { ...s };
      for (const k of Object.keys(s)) delete s[k];
      s["anyOf"] = [inner, { type: "null" }];
    }
  } else if (s["nullable"] !== undefined) delete s["nullable"];
}

/** Attaches operation-level rules to the object schema of their request part. */
export function withRules(schema: Obj, rules: readonly unknown[]): Obj {
  if (rules.length === 0) return schema;
  const { rules: clean, schemas } = cleanRules(rules);
  if (clean.length === 0) return schema;
  return { ...schema, "x-rules": clean, [RULE_SCHEMAS]: schemas.map((s) => toJsonSchema(s)) };
}

const SCHEMA_REF = /^#\/components\/schemas\/([^/]+)$/;

/** The component name a `#/components/schemas/<name>` reference names. */
function componentName(ref: unknown): string | undefined {
  const m = typeof ref === "string" ? SCHEMA_REF.exec(ref) : null;
  return m
    ? decodeURIComponent(m[1] as string)
        .replace(/~1/g, "/")
        .replace(/~0/g, "~")
    : undefined;
}

export const DATA_KEYWORDS: ReadonlySet<string> = new Set(["enum", "const", "default", "example", "examples", "x-rules", DISPATCH]);

/** Extension keywords whose values are subschemas the validators apply. */
const SCHEMA_EXTENSIONS: ReadonlySet<string> = new Set([RULE_SCHEMAS, DISPATCH_SCHEMAS]);

/** Whether a keyword's value is data (or an extension's) rather than subschemas: a `$ref` inside it is no reference. */
export const isData = (keyword: string): boolean => DATA_KEYWORDS.has(keyword) || (keyword.startsWith("x-") && !SCHEMA_EXTENSIONS.has(keyword));

/** Placeholders mapping keys may be written with, and what they stand for in the validators. */
export interface DiscriminatorOptions {
  /**
   * The default of root `x-problem-base`: a mapping key `{problem_base}/<slug>` also selects its
   * branch when the value carries this base (`https://…/problems/<slug>`), which is what servers
   * send. The key as written keeps selecting it too.
   */
  readonly problemBase?: string;
}

/**
 * Discriminators as validation: in every schema of a compiled document (in place), unions with a
 * discriminator dispatch on it, and base schemas hold payloads to the subtype they name. Only the
 * validators do this; other readers of `toJsonSchema` output see the unions as written.
 */
export function applyDiscriminators(components: Record<string, unknown>, others: readonly unknown[] = [], options: DiscriminatorOptions = {}): void {
  // A union that now dispatches no longer has its `oneOf`: without this record it would look like an
  // inheritance base too, and every mapped branch would be checked a second time.
  const unions = new WeakSet<Obj>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (isObj(node)) {
      for (const [k, v] of Object.entries(node)) if (!DATA_KEYWORDS.has(k)) walk(v);
      if (dispatchUnion(node, options)) unions.add(node);
    }
  };
  for (const c of Object.values(components)) walk(c);
  others.forEach(walk);
  dispatchInheritance(components, options, unions);
}

const PROBLEM_BASE = "{problem_base}";

/** The values a mapping key stands for: itself, and with `{problem_base}` filled in when known. */
function keyValues(key: string, options: DiscriminatorOptions): string[] {
  const base = options.problemBase;
  return base !== undefined && key.includes(PROBLEM_BASE) ? [key, key.split(PROBLEM_BASE).join(base)] : [key];
}

/**
 * Value → target, grouped by target in first-seen order: one case per target, so a schema two
 * values select is compiled into the dispatch once. A value already taken keeps its first target.
 */
function groupCases(pairs: Iterable<readonly [string, string]>): Map<string, string[]> {
  const seen = new Set<string>();
  const byTarget = new Map<string, string[]>();
  for (const [value, target] of pairs) {
    if (seen.has(value)) continue;
    seen.add(value);
    const values = byTarget.get(target);
    if (values) values.push(value);
    else byTarget.set(target, [value]);
  }
  return byTarget;
}

/** The `allOf` member that dispatches on `propertyName`: one subschema per case, then `fallback`. */
function dispatchMember(propertyName: string, cases: readonly { values: string[]; name: string; schema: unknown }[], fallback: unknown): Obj {
  const dispatch: DispatchSchema = { propertyName, cases: cases.map(({ values, name }) => ({ values, name })) };
  return { [DISPATCH]: dispatch, [DISPATCH_SCHEMAS]: [...cases.map((c) => c.schema), fallback] };
}

/**
 * `oneOf`/`anyOf` with a discriminator: the discriminator value picks the branch (OpenAPI §4.8.25),
 * so a payload whose value is a mapping key (or, implicitly, a branch's schema name) is validated
 * against that branch alone. Without that, branches that do not pin the property themselves can
 * both match and `oneOf` fails. Any other value falls back to the union as JSON Schema reads it.
 */
function dispatchUnion(s: Obj, options: DiscriminatorOptions): boolean {
  const disc = s["discriminator"];
  const key = s["oneOf"] !== undefined ? "oneOf" : s["anyOf"] !== undefined ? "anyOf" : undefined;
  if (!key || !isObj(disc) || typeof disc["propertyName"] !== "string") return false;
  const branches = s[key];
  if (!Array.isArray(branches) || branches.length === 0 || !branches.every((b) => isObj(b) && componentName(b["$ref"]) !== undefined)) return false;
  const property = disc["propertyName"];
  const targets: [string, string][] = [];
  const keys = new Set<string>();
  const mapping = isObj(disc["mapping"]) ? disc["mapping"] : {};
  for (const [value, ref] of Object.entries(mapping)) {
    if (componentName(ref) === undefined) return false;
    keys.add(value);
  }
  // Keys as written first, so a filled-in placeholder never takes a value a key names itself.
  for (const [value, ref] of Object.entries(mapping)) targets.push([value, ref as string]);
  for (const [value, ref] of Object.entries(mapping)) {
    for (const v of keyValues(value, options)) if (!keys.has(v)) targets.push([v, ref as string]);
  }
  const mapped = new Set(Object.values(mapping));
  for (const b of branches as Obj[]) {
    const ref = b["$ref"] as string;
    const name = componentName(ref) as string;
    if (!mapped.has(ref) && !keys.has(name)) targets.push([name, ref]);
  }
  const cases = [...groupCases(targets)].map(([ref, values]) => ({ values, name: componentName(ref) as string, schema: { $ref: ref } }));
  const union = { [key]: branches };
  delete s[key];
  s["allOf"] = [...(Array.isArray(s["allOf"]) ? s["allOf"] : []), dispatchMember(property, cases, union)];
  return true;
}

/**
 * A base schema with a discriminator and no union (`Pet` with `petType`, extended by `Cat: allOf
 * [Pet, …]`): a payload validated as the base is also held to the subtype its discriminator value
 * names — explicitly mapped, or implicitly a schema whose `allOf` extends the base by its own name.
 * Only the subtype's own part is added, so validating the subtype (which includes the base) does not
 * loop. Values that name no subtype are left to the base. Works on the compiled components in place.
 */
function dispatchInheritance(components: Record<string, unknown>, options: DiscriminatorOptions, unions: WeakSet<Obj>): void {
  for (const [base, schema] of Object.entries(components)) {
    if (!isObj(schema) || unions.has(schema) || !isObj(schema["discriminator"]) || typeof schema["discriminator"]["propertyName"] !== "string") continue;
    if (schema["oneOf"] !== undefined || schema["anyOf"] !== undefined) continue;
    const property = schema["discriminator"]["propertyName"];
    const extendsBase = (node: unknown): boolean => isObj(node) && Array.isArray(node["allOf"]) && node["allOf"].some((b) => isObj(b) && componentName(b["$ref"]) === base);
    const targets: [string, string][] = [];
    const keys = new Set<string>();
    const mapping = isObj(schema["discriminator"]["mapping"]) ? schema["discriminator"]["mapping"] : {};
    const mappedPairs: [string, string][] = [];
    for (const [value, ref] of Object.entries(mapping)) {
      const name = componentName(ref);
      if (name !== undefined && name !== base && components[name] !== undefined) mappedPairs.push([value, name]);
    }
    for (const [value] of mappedPairs) keys.add(value);
    targets.push(...mappedPairs);
    for (const [value, name] of mappedPairs) for (const v of keyValues(value, options)) if (!keys.has(v)) targets.push([v, name]);
    const mapped = new Set(mappedPairs.map(([, name]) => name));
    for (const [name, sub] of Object.entries(components)) {
      if (name !== base && !mapped.has(name) && !keys.has(name) && extendsBase(sub)) targets.push([name, name]);
    }
    if (targets.length === 0) continue;
    const reaches = (node: unknown, seen: Set<string>): boolean => {
      if (!isObj(node)) return false;
      const name = componentName(node["$ref"]);
      if (name === base) return true;
      if (name !== undefined) {
        if (seen.has(name)) return false;
        seen.add(name);
        return reaches(components[name], seen);
      }
      return Array.isArray(node["allOf"]) && node["allOf"].some((b) => reaches(b, seen));
    };
    // The subtype without the branches that lead back to the base.
    const own = (node: unknown, seen: Set<string>): unknown => {
      if (!isObj(node)) return node;
      const name = componentName(node["$ref"]);
      if (name === base) return {};
      if (name !== undefined) {
        if (seen.has(name) || !reaches(components[name], new Set())) return node;
        return own(components[name], new Set([...seen, name]));
      }
      if (!Array.isArray(node["allOf"])) return node;
      return { ...node, allOf: node["allOf"].map((b) => (reaches(b, new Set()) ? own(b, seen) : b)) };
    };
    const cases = [...groupCases(targets)].map(([name, values]) => ({
      values,
      name,
      schema: own({ $ref: `#/components/schemas/${encodeURIComponent(name.replace(/~/g, "~0").replace(/\//g, "~1"))}` }, new Set()),
    }));
    // Values that name no subtype are held to the base alone: the fallback accepts.
    schema["allOf"] = [...(Array.isArray(schema["allOf"]) ? schema["allOf"] : []), dispatchMember(property, cases, true)];
  }
}

/**
 * `readOnly` and `writeOnly` as OpenAPI defines them (§4.8.24): a required `readOnly` property is
 * required in responses only, a required `writeOnly` one in requests only. Component schemas that
 * (through references) require such a property get a request view under `#/x-request/schemas` and a
 * response view under `#/x-response/schemas` that drop it from `required`; the request and response
 * schemas given are rewritten in place to use the views. A property that is present anyway is not
 * refused. Returns the extra root members, empty when no schema needs a view.
 */
export function directionalViews(components: Record<string, unknown>, requests: readonly unknown[], responses: readonly unknown[]): Obj {
  const out: Obj = {};
  const plan = [
    { flag: "readOnly", key: "x-request", roots: requests },
    { flag: "writeOnly", key: "x-response", roots: responses },
  ] as const;
  for (const { flag, key, roots } of plan) {
    const flagged = (prop: unknown): boolean =>
      isObj(prop) &&
      (prop[flag] === true ||
        (["allOf", "anyOf", "oneOf"] as const).some((k) => Array.isArray(prop[k]) && (prop[k] as unknown[]).some(flagged)) ||
        (componentName(prop["$ref"]) !== undefined && isObj(components[componentName(prop["$ref"]) as string]) && (components[componentName(prop["$ref"]) as string] as Obj)[flag] === true));
    const walk = (node: unknown, visit: (o: Obj) => void): void => {
      if (Array.isArray(node)) node.forEach((n) => walk(n, visit));
      else if (isObj(node)) {
        visit(node);
        for (const [k, v] of Object.entries(node)) if (!DATA_KEYWORDS.has(k)) walk(v, visit);
      }
    };
    const relaxes = (o: Obj): boolean => Array.isArray(o["required"]) && isObj(o["properties"]) && o["required"].some((r) => typeof r === "string" && flagged((o["properties"] as Obj)[r]));
    // Components that relax a requirement themselves, then everything that reaches them.
    const relaxed = new Set<string>();
    const refs = new Map<string, Set<string>>();
    for (const [name, schema] of Object.entries(components)) {
      const targets = new Set<string>();
      let own = false;
      walk(schema, (o) => {
        if (relaxes(o)) own = true;
        const ref = componentName(o["$ref"]);
        if (ref !== undefined) targets.add(ref);
      });
      refs.set(name, targets);
      if (own) relaxed.add(name);
    }
    for (let grew = relaxed.size > 0; grew;) {
      grew = false;
      for (const [name, targets] of refs) {
        if (!relaxed.has(name) && [...targets].some((t) => relaxed.has(t))) {
          relaxed.add(name);
          grew = true;
        }
      }
    }
    if (relaxed.size === 0) continue;
    const view = (o: Obj): void => {
      const ref = componentName(o["$ref"]);
      if (ref !== undefined && relaxed.has(ref)) o["$ref"] = `#/${key}/schemas/${encodeURIComponent(ref.replace(/~/g, "~0").replace(/\//g, "~1"))}`;
      if (relaxes(o)) {
        const props = o["properties"] as Obj;
        o["required"] = (o["required"] as unknown[]).filter((r) => !(typeof r === "string" && flagged(props[r])));
      }
    };
    const schemas: Obj = {};
    for (const name of relaxed) {
      const copy = structuredClone(components[name]);
      walk(copy, view);
      schemas[name] = copy;
    }
    for (const root of roots) walk(root, view);
    out[key] = { schemas };
  }
  return out;
}
