/**
 * OpenAPI schemas as JSON Schema 2020-12, the dialect the validators compile. OpenAPI 3.1 already
 * is; 3.0 needs `nullable` and boolean `exclusiveMinimum/Maximum` rewritten. `x-rules` entries are
 * reduced to their known fields (nothing else from the spec reaches generated code through them),
 * and `kind: schema` rules move to a sibling array the keyword compiles as subschemas.
 */
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
  const escaped = pattern.replace(/\\.|\{(\d+(,\d*)?)\}|[{}]/g, (m, quant: string | undefined) =>
    m.startsWith("\\") || quant !== undefined ? m : `\\${m}`,
  );
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
      out[key] = toJsonSchema(value);
    }
  }
  if (Array.isArray(schema["x-rules"])) {
    const { rules, schemas } = cleanRules(schema["x-rules"]);
    if (rules.length > 0) {
      out["x-rules"] = rules;
      out[RULE_SCHEMAS] = schemas.map((s) => toJsonSchema(s));
    }
  }
  // Boolean exclusiveMinimum/Maximum is 3.0 vocabulary; 3.1 documents that still use it mean 3.0's.
  rewriteExclusive30(out);
  // `nullable` is 3.0 vocabulary, but 3.1 documents carry it too and mean the same; ajv would
  // otherwise read it as its own keyword and refuse it without `type`.
  rewriteNullable(out);
  return out;
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
