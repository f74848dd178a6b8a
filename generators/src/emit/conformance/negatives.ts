/**
 * Values that break a schema in one stated way each (wrong type, enum, bounds by one, pattern,
 * length), derived from the contract so the conformance suite can check that a server refuses them.
 */
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

export interface Violation {
  /** What the value breaks, for the test name: "above its maximum 100". */
  readonly label: string;
  readonly value: unknown;
}

export type Resolve = (schema: unknown) => Obj;

function typesOf(s: Obj): string[] {
  if (typeof s["type"] === "string") return [s["type"]];
  if (Array.isArray(s["type"])) return s["type"].filter((t): t is string => typeof t === "string");
  if (Array.isArray(s["enum"])) return [...new Set(s["enum"].map((v) => (v === null ? "null" : typeof v)))];
  return [];
}

/** One violating value per constraint the schema states (for a parameter or a body property). */
export function violations(schemaIn: unknown, resolve: Resolve, asText: boolean): Violation[] {
  const s = resolve(schemaIn);
  const out: Violation[] = [];
  const types = typesOf(s);
  const item = s["type"] === "array" && s["items"] !== undefined ? resolve(s["items"]) : undefined;
  const target = item ?? s;
  const targetTypes = item ? typesOf(item) : types;
  const wrap = (v: unknown): unknown => (item ? [v] : v);

  if (targetTypes.length > 0 && targetTypes.every((t) => t === "integer" || t === "number")) {
    out.push({ label: "of the wrong type (text for a number)", value: wrap("not-a-number") });
  } else if (targetTypes.length > 0 && targetTypes.every((t) => t === "boolean")) {
    out.push({ label: "of the wrong type (not a boolean)", value: wrap("maybe") });
  } else if (!asText && targetTypes.length > 0 && targetTypes.every((t) => t === "string")) {
    out.push({ label: "of the wrong type (a number for text)", value: wrap(12345) });
  }
  if (Array.isArray(target["enum"]) && target["enum"].every((v) => typeof v === "string")) {
    out.push({ label: "outside its enum", value: wrap("NOT_A_CONTRACT_VALUE") });
  }
  if (typeof target["maximum"] === "number") out.push({ label: `above its maximum ${target["maximum"]}`, value: wrap(target["maximum"] + 1) });
  if (typeof target["minimum"] === "number") out.push({ label: `below its minimum ${target["minimum"]}`, value: wrap(target["minimum"] - 1) });
  if (typeof target["exclusiveMinimum"] === "number") out.push({ label: `at its exclusive minimum ${target["exclusiveMinimum"]}`, value: wrap(target["exclusiveMinimum"]) });
  if (typeof target["maxLength"] === "number" && target["maxLength"] < 100_000) {
    out.push({ label: `one character over its maximum length ${target["maxLength"]}`, value: wrap("x".repeat(target["maxLength"] + 1)) });
  }
  if (typeof target["minLength"] === "number" && target["minLength"] > 0) {
    out.push({ label: `one character under its minimum length ${target["minLength"]}`, value: wrap("x".repeat(target["minLength"] - 1)) });
  }
  if (typeof target["pattern"] === "string") {
    const bad = ["!", "\u0000", " ", "x".repeat(300)].find((v) => {
      try {
        return !new RegExp(target["pattern"] as string, "u").test(v);
      } catch {
        return false;
      }
    });
    if (bad !== undefined) out.push({ label: `not matching its pattern ${target["pattern"]}`, value: wrap(bad) });
  }
  if (item && typeof s["maxItems"] === "number" && s["maxItems"] <= 5000) {
    const sample = Array.isArray(s["examples"]) && Array.isArray(s["examples"][0]) ? (s["examples"][0] as unknown[])[0] : "1";
    out.push({ label: `one item over its ${s["maxItems"]}-item limit`, value: Array.from({ length: s["maxItems"] + 1 }, () => sample ?? "1") });
  }
  return out;
}

/** A value the contract states: the parameter's or schema's example, default, const or first enum value. */
export function statedValue(schemaIn: unknown, resolve: Resolve, example?: unknown): unknown {
  if (example !== undefined) return example;
  const s = resolve(schemaIn);
  if (Array.isArray(s["examples"]) && s["examples"].length > 0) return s["examples"][0];
  for (const k of ["example", "default", "const"]) if (s[k] !== undefined) return s[k];
  if (Array.isArray(s["enum"]) && s["enum"].length > 0) return s["enum"][0];
  return undefined;
}

/** A value the schema accepts, from its examples, default, const or enum; undefined when it gives none. */
export function sampleValue(schemaIn: unknown, resolve: Resolve, example?: unknown): unknown {
  if (example !== undefined) return example;
  const s = resolve(schemaIn);
  if (Array.isArray(s["examples"]) && s["examples"].length > 0) return s["examples"][0];
  if (s["example"] !== undefined) return s["example"];
  if (s["default"] !== undefined) return s["default"];
  if (s["const"] !== undefined) return s["const"];
  if (Array.isArray(s["enum"]) && s["enum"].length > 0) return s["enum"][0];
  if (s["type"] === "array" && s["items"] !== undefined) {
    const inner = sampleValue(s["items"], resolve);
    return inner === undefined ? undefined : [inner];
  }
  if (s["type"] === "boolean") return true;
  if ((s["type"] === "integer" || s["type"] === "number") && typeof s["minimum"] === "number") return s["minimum"];
  if (s["type"] === "integer" || s["type"] === "number") return 1;
  if (s["type"] === "string" && s["format"] === "date-time") return "2025-01-01T00:00:00Z";
  if (s["type"] === "string" && s["pattern"] === undefined && s["format"] === undefined) return "sample";
  return undefined;
}

export { isObj };
