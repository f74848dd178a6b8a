/**
 * Semantics of the `x-rules` kinds that JSON Schema cannot express (see spec/vocabulary.schema.yaml).
 * Pure functions over plain data, so the same code backs the spec tests, the generated validators
 * and the mock server. A rule never makes a field required: a missing operand passes.
 */

export type CompareOp = "<" | "<=" | ">" | ">=";

export interface CompareRule {
  readonly kind: "compare";
  readonly left: string;
  readonly op: CompareOp;
  readonly right: string;
  readonly as: "number" | "date-time" | "price";
}

export interface MaxIntervalRule {
  readonly kind: "maxInterval";
  readonly start: string;
  readonly end: string;
  /** ISO 8601 duration limited to days, hours, minutes and seconds, e.g. `P7D`. */
  readonly max: string;
  readonly endDefault?: "$now";
}

export interface MaxTotalItemsRule {
  readonly kind: "maxTotalItems";
  readonly fields: readonly string[];
  readonly max: number;
  /** @default "," */
  readonly separator?: string;
}

export interface SchemaRule {
  readonly kind: "schema";
  readonly schema: Record<string, unknown>;
}

export type RuleBody = CompareRule | MaxIntervalRule | MaxTotalItemsRule | SchemaRule;
export type Rule = RuleBody & {
  readonly id: string;
  readonly message: string;
  readonly in?: "query" | "body" | "path" | "header";
};

export const NOW = "$now";

const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

function field(data: Record<string, unknown>, name: string): unknown {
  return hasOwn(data, name) ? data[name] : undefined;
}

/** `"12.99 USD"` → amount and currency; undefined when the text is not a price. */
export function parsePrice(value: unknown): { amount: number; currency: string } | undefined {
  if (typeof value !== "string") return undefined;
  const m = /^(\d+(?:\.\d+)?) ([A-Z]{3})$/.exec(value);
  if (!m) return undefined;
  return { amount: Number(m[1]), currency: m[2] as string };
}

function toComparable(value: unknown, as: CompareRule["as"], now: number): number | undefined {
  if (value === NOW) return now;
  if (as === "number") {
    const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
    return typeof n === "number" && Number.isFinite(n) ? n : undefined;
  }
  if (as === "date-time") {
    if (typeof value !== "string") return undefined;
    const t = Date.parse(value);
    return Number.isNaN(t) ? undefined : t;
  }
  return parsePrice(value)?.amount;
}

/** ISO 8601 duration (days and time parts only) to milliseconds; undefined when unsupported. */
export function durationMs(iso: string): number | undefined {
  const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(iso);
  if (!m || iso === "P" || iso.endsWith("T")) return undefined;
  const [d, h, min, s] = [m[1], m[2], m[3], m[4]].map((x) => (x === undefined ? 0 : Number(x)));
  return ((((d as number) * 24 + (h as number)) * 60 + (min as number)) * 60 + (s as number)) * 1000;
}

function countItems(value: unknown, separator: string): number {
  if (Array.isArray(value)) return value.length;
  if (typeof value !== "string" || value === "") return 0;
  return value.split(separator).filter((part) => part.trim() !== "").length;
}

/**
 * True when `data` satisfies the rule. `kind: schema` rules are plain JSON Schema and are checked by
 * the schema validator itself, so they pass here.
 */
export function satisfiesRule(rule: RuleBody, data: unknown, now: number = Date.now()): boolean {
  if (data === null || typeof data !== "object" || Array.isArray(data)) return true;
  const obj = data as Record<string, unknown>;
  switch (rule.kind) {
    case "compare": {
      const leftRaw = rule.left === NOW ? NOW : field(obj, rule.left);
      const rightRaw = rule.right === NOW ? NOW : field(obj, rule.right);
      if (leftRaw === undefined || rightRaw === undefined) return true;
      if (rule.as === "price") {
        const l = parsePrice(leftRaw);
        const r = parsePrice(rightRaw);
        // Amounts in different currencies cannot be ordered; the document states no conversion.
        if (!l || !r || l.currency !== r.currency) return true;
      }
      const l = toComparable(leftRaw, rule.as, now);
      const r = toComparable(rightRaw, rule.as, now);
      if (l === undefined || r === undefined) return true;
      switch (rule.op) {
        case "<":
          return l < r;
        case "<=":
          return l <= r;
        case ">":
          return l > r;
        case ">=":
          return l >= r;
      }
      return true;
    }
    case "maxInterval": {
      const max = durationMs(rule.max);
      const startRaw = field(obj, rule.start);
      if (max === undefined || typeof startRaw !== "string") return true;
      const start = Date.parse(startRaw);
      const endRaw = field(obj, rule.end);
      const end = typeof endRaw === "string" ? Date.parse(endRaw) : rule.endDefault === NOW ? now : Number.NaN;
      if (Number.isNaN(start) || Number.isNaN(end)) return true;
      return end - start <= max;
    }
    case "maxTotalItems": {
      const sep = rule.separator ?? ",";
      const total = rule.fields.reduce((sum, name) => sum + countItems(field(obj, name), sep), 0);
      return total <= rule.max;
    }
    case "schema":
      return true;
  }
}
