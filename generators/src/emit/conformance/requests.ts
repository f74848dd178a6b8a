/**
 * What the suite draws valid requests from: each parameter's and the body's schema as the package's
 * mock-data generator takes them, and valid values at each stated edge (a maximum, a minimum, a
 * length) that a server must accept like any other.
 */
import type { MediaContent, Operation } from "../../model/ir.js";
import { mockSchemaOf } from "../mocks.js";
import { mediaKind } from "../validators/index.js";
import { isObj, type Resolve } from "./negatives.js";

type Obj = Record<string, unknown>;

/** The body media type the suite sends: JSON first, then a form, then the first declared. */
export function bodyContent(op: Operation): MediaContent | undefined {
  const contents = op.requestBody?.contents ?? [];
  return contents.find((c) => mediaKind(c.mediaType) === "json") ?? contents.find((c) => mediaKind(c.mediaType) === "form") ?? contents[0];
}

/**
 * Each parameter's and the body's schema as mocks draw from it. `converted` keeps conversions by
 * schema object for one plan: operations share parameter schemas (GitHub: 3,526 uses, 582 objects),
 * and a conversion, only ever serialized, can be written as many times as it is used.
 */
export function requestSchemas(op: Operation, converted: Map<object, unknown> = new Map()): Obj {
  const mockSchema = (schema: unknown): unknown => {
    if (schema === null || typeof schema !== "object") return mockSchemaOf(schema);
    let out = converted.get(schema);
    if (out === undefined) converted.set(schema, (out = mockSchemaOf(schema)));
    return out;
  };
  const parameters: Obj = {};
  for (const p of op.parameters) parameters[p.name] = mockSchema(p.schema);
  const content = bodyContent(op);
  const drawable = content !== undefined && content.schema !== undefined && mediaKind(content.mediaType) !== "none";
  return {
    parameters,
    ...(drawable ? { body: { mediaType: content.mediaType, schema: mockSchema(content.schema), required: op.requestBody?.required ?? false } } : {}),
  };
}

interface Edge {
  readonly label: string;
  readonly value: unknown;
  /** The contract states no limit the value keeps within, so a refusal is no failure (only a text cut short is). */
  readonly mayRefuse?: true;
}

/** A text longer than columns commonly are (40, 255), short enough for any server to take. */
const LONG_TEXT = 300;
/** What a text with a very high stated maximum is written at: well past common cut-offs (280, 4000 characters would also do). */
const LONGER_TEXT = 1000;
/** Members that name something (a key, an address, a credential) rather than hold text a server stores as sent. */
const NAMING = /(^|_)(id|ids|key|keys|uri|url|token|verifier|secret|password)$|(Id|Ids|Key|Keys|Uri|Url|Token)$/;

/**
 * Valid values at the schema's stated edges, where no other keyword (pattern, format, enum) could
 * refuse them. For a member a write stores (`stored`), also a long text: within a stated maximum
 * too high to send whole, or, where none is stated, one a server may refuse but must not cut short.
 */
function edges(schemaIn: unknown, resolve: Resolve, stored = false): Edge[] {
  const s = resolve(schemaIn);
  if (s["enum"] !== undefined || s["const"] !== undefined) return [];
  const types = typeof s["type"] === "string" ? [s["type"]] : Array.isArray(s["type"]) ? s["type"] : [];
  const out: Edge[] = [];
  if (types.includes("integer") || types.includes("number")) {
    const multiple = typeof s["multipleOf"] === "number" ? s["multipleOf"] : undefined;
    const fits = (n: number): boolean => multiple === undefined || Number.isInteger(n / multiple);
    if (typeof s["maximum"] === "number" && fits(s["maximum"]) && Math.abs(s["maximum"]) < Number.MAX_SAFE_INTEGER) out.push({ label: `at its maximum ${s["maximum"]}`, value: s["maximum"] });
    if (typeof s["minimum"] === "number" && fits(s["minimum"]) && Math.abs(s["minimum"]) < Number.MAX_SAFE_INTEGER) out.push({ label: `at its minimum ${s["minimum"]}`, value: s["minimum"] });
  } else if (types.includes("string") && s["pattern"] === undefined && s["format"] === undefined) {
    if (typeof s["maxLength"] === "number" && s["maxLength"] > 0 && s["maxLength"] <= 10_000) out.push({ label: `at its maximum length ${s["maxLength"]}`, value: "x".repeat(s["maxLength"]) });
    else if (stored && typeof s["maxLength"] === "number" && s["maxLength"] > 10_000)
      out.push({ label: `${LONGER_TEXT} characters long, within its maximum length ${s["maxLength"]}`, value: "x".repeat(LONGER_TEXT) });
    else if (stored && s["maxLength"] === undefined && (typeof s["minLength"] !== "number" || s["minLength"] <= LONG_TEXT))
      out.push({ label: `${LONG_TEXT} characters long (the contract states no maximum)`, value: "x".repeat(LONG_TEXT), mayRefuse: true });
    if (typeof s["minLength"] === "number" && s["minLength"] > 1) out.push({ label: `at its minimum length ${s["minLength"]}`, value: "x".repeat(s["minLength"]) });
  }
  return out;
}

/**
 * The offset a date-time is written in for the "same instant" edge: RFC 3339 lets a client name any
 * offset, and a half-hour one shows a server that drops the offset or echoes it where answers are UTC.
 */
const ZONE = "+05:30";
const isDateTime = (s: Obj): boolean => s["format"] === "date-time" && (s["type"] === undefined || s["type"] === "string" || (Array.isArray(s["type"]) && s["type"].includes("string")));

/** One valid request per stated edge of a parameter or a top-level body member, and each "at most N" limit at N. */
export function boundaries(op: Operation, resolve: Resolve, readBackComplete = false): Obj[] {
  const out: Obj[] = [];
  // A long text is asked of writes only, and only where the contract says what its objects store
  // (`x-read-back-complete`): elsewhere a text member may name something (a kernel spec by its
  // name), and an invented one is no valid request.
  const stores = readBackComplete && (op.method === "post" || op.method === "put" || op.method === "patch");
  for (const p of op.parameters) {
    if (p.in === "cookie" || p.in === "path") continue;
    for (const e of edges(p.schema, resolve, stores && p.in === "query" && !NAMING.test(p.name)))
      out.push({ label: `with ${p.name} ${e.label}`, in: p.in, set: { [p.name]: e.value }, ...(e.mayRefuse ? { mayRefuse: true } : {}) });
    const s = resolve(p.schema);
    if (isDateTime(s)) out.push({ label: `with ${p.name} at the same instant in another UTC offset (${ZONE})`, in: p.in, zone: { name: p.name } });
    // "Up to 200 ids": a list of exactly that many is as valid as a list of one.
    if (p.in === "query" && s["type"] === "array" && typeof s["maxItems"] === "number" && s["maxItems"] > 1 && s["maxItems"] <= 5000) {
      out.push({ label: `with ${p.name} at its ${s["maxItems"]}-item limit`, in: "query", fill: { name: p.name, count: s["maxItems"] } });
    }
  }
  // An inclusive comparison between two query members ("at most the total") holds at equality.
  for (const rule of op.rules) {
    const r = rule as unknown as Obj;
    if (r["kind"] !== "compare" || (r["in"] ?? "query") !== "query" || (r["op"] !== "<=" && r["op"] !== ">=")) continue;
    const left = r["left"];
    const right = r["right"];
    if (typeof left !== "string" || typeof right !== "string" || right.startsWith("$")) continue;
    if (!op.parameters.some((p) => p.name === left && p.in === "query") || !op.parameters.some((p) => p.name === right && p.in === "query")) continue;
    out.push({ label: `with ${left} equal to ${right} (rule ${String(r["id"])} at its edge)`, in: "query", equal: { left, right } });
  }
  const batch = op.limits.find((l) => l.kind === "batchItems");
  if (batch?.pointer !== undefined && batch.max !== undefined && batch.max > 1 && batch.max <= 5000) {
    out.push({ label: `with exactly its ${batch.max}-item batch limit`, in: "body", fill: { pointer: batch.pointer, count: batch.max } });
  }
  const content = bodyContent(op);
  if (content?.schema !== undefined && mediaKind(content.mediaType) === "json") {
    const root = resolve(content.schema);
    const props = isObj(root["properties"]) ? root["properties"] : {};
    for (const [name, schema] of Object.entries(props)) {
      const prop = resolve(schema);
      if (prop["readOnly"] === true) continue;
      for (const e of edges(prop, resolve, stores && !NAMING.test(name)))
        out.push({ label: `with body member ${name} ${e.label}`, in: "body", bodySet: { pointer: `/${name}`, value: e.value }, ...(e.mayRefuse ? { mayRefuse: true } : {}) });
      if (isDateTime(prop)) out.push({ label: `with body member ${name} at the same instant in another UTC offset (${ZONE})`, in: "body", zone: { pointer: `/${name}` } });
    }
  }
  return out;
}
