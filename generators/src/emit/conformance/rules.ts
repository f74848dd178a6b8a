/**
 * Inputs that break one `x-rules` entry each, for the conformance suite's negative cases: values to
 * set (and names to remove) on an object that otherwise satisfies its schema.
 */
import { isObj, sampleValue, type Resolve } from "./negatives.js";

export interface RuleBreak {
  readonly rule: string;
  readonly message: string;
  readonly set: Readonly<Record<string, unknown>>;
  readonly remove: readonly string[];
}

type Obj = Record<string, unknown>;

const DAY = 86_400_000;
const iso = (ms: number): string => new Date(ms).toISOString().replace(".000Z", "Z");
const BASE = Date.UTC(2025, 0, 1);

function durationMs(d: string): number {
  const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(d);
  if (!m) return 0;
  const [dd, h, mm, s] = [m[1], m[2], m[3], m[4]].map((x) => Number(x ?? 0)) as [number, number, number, number];
  return (((dd * 24 + h) * 60 + mm) * 60 + s) * 1000;
}

/** The instance an object must take to satisfy `schema` (required fields with const/enum values). */
function satisfy(schema: unknown, resolve: Resolve): Obj {
  const s = resolve(schema);
  const out: Obj = {};
  const props = isObj(s["properties"]) ? s["properties"] : {};
  const required = Array.isArray(s["required"]) ? s["required"].filter((r): r is string => typeof r === "string") : [];
  for (const name of required) {
    const p = resolve(props[name] ?? {});
    out[name] = p["const"] ?? (Array.isArray(p["enum"]) ? p["enum"][0] : undefined) ?? sampleValue(p, resolve) ?? "x";
  }
  return out;
}

function breakSchemaRule(schema: Obj, resolve: Resolve): { set: Obj; remove: string[] } | undefined {
  if (schema["not"] !== undefined) return { set: satisfy(schema["not"], resolve), remove: [] };
  if (schema["if"] !== undefined && schema["then"] !== undefined) {
    const then = resolve(schema["then"]);
    const remove = Array.isArray(then["required"]) ? then["required"].filter((r): r is string => typeof r === "string") : [];
    if (remove.length > 0) return { set: satisfy(schema["if"], resolve), remove };
  }
  if (Array.isArray(schema["anyOf"])) {
    const names = schema["anyOf"].flatMap((b) => {
      const r = resolve(b)["required"];
      return Array.isArray(r) ? r.filter((x): x is string => typeof x === "string") : [];
    });
    if (names.length > 0) return { set: {}, remove: names };
  }
  if (isObj(schema["dependentRequired"])) {
    const [name, needs] = Object.entries(schema["dependentRequired"])[0] ?? [];
    if (name !== undefined && Array.isArray(needs)) return { set: { [name]: "x" }, remove: needs.filter((n): n is string => typeof n === "string") };
  }
  return undefined;
}

/** One breaking input per rule this object's rules list; rules it cannot derive are left out. */
export function breakRules(rules: readonly unknown[], resolve: Resolve): RuleBreak[] {
  const out: RuleBreak[] = [];
  for (const raw of rules) {
    if (!isObj(raw) || typeof raw["id"] !== "string") continue;
    const r = raw as Obj & { id: string };
    const base = { rule: r.id, message: typeof r["message"] === "string" ? r["message"] : r.id };
    const kind = r["kind"];
    if (kind === "compare" && typeof r["left"] === "string" && typeof r["right"] === "string") {
      const lessWanted = r["op"] === "<" || r["op"] === "<=";
      // Make left the larger when the rule wants it smaller, and the other way round.
      const [big, small] = r["as"] === "price" ? ["20.00 USD", "10.00 USD"] : r["as"] === "date-time" ? [iso(BASE + 2 * DAY), iso(BASE)] : [2000, 1000];
      const set: Obj = {};
      if (r["left"] !== "$now") set[r["left"]] = lessWanted ? big : small;
      if (r["right"] !== "$now") set[r["right"]] = lessWanted ? small : big;
      if (r["right"] === "$now") set[r["left"] as string] = lessWanted ? iso(Date.UTC(2999, 0, 1)) : iso(BASE);
      out.push({ ...base, set, remove: [] });
    } else if (kind === "maxInterval" && typeof r["start"] === "string" && typeof r["end"] === "string" && typeof r["max"] === "string") {
      out.push({ ...base, set: { [r["start"]]: iso(BASE), [r["end"]]: iso(BASE + durationMs(r["max"]) + DAY) }, remove: [] });
    } else if (kind === "maxTotalItems" && Array.isArray(r["fields"]) && typeof r["max"] === "number") {
      const [first] = r["fields"] as string[];
      if (first !== undefined) out.push({ ...base, set: { [first]: Array.from({ length: r["max"] + 1 }, (_, i) => `k${i}`) }, remove: [] });
    } else if (kind === "schema" && isObj(r["schema"])) {
      const broken = breakSchemaRule(r["schema"], resolve);
      if (broken) out.push({ ...base, ...broken });
    }
  }
  return out;
}
