/**
 * What the suite checks on answers beyond their schemas: the paging contract from `x-pagination`,
 * the response `x-rules`, and the headers a response declares as required.
 */
import type { Operation } from "../../model/ir.js";
import { mockSchemaOf } from "../mocks.js";
import { isObj, type Resolve } from "./negatives.js";

type Obj = Record<string, unknown>;

/** `x-pagination` as the runtime walks it; undefined when the operation cannot be walked with a query cursor. */
export function paginationPlan(op: Operation, resolve: Resolve): Obj | undefined {
  const p = op.pagination;
  if (!p || op.method !== "get" || op.unspecified !== undefined) return undefined;
  const param = (name: string | undefined) => (name === undefined ? undefined : op.parameters.find((x) => x.name === name && x.in === "query"));
  if (!param(p.request)) return undefined;
  const size = param(p.pageSize);
  const sizeSchema = size ? resolve(size.schema) : undefined;
  const raw = p as unknown as Obj;
  const total = isObj(raw["totalCount"]) ? raw["totalCount"] : undefined;
  const totalParam = total && typeof total["request"] === "string" && param(total["request"]) ? total["request"] : undefined;
  return {
    cursorParam: p.request,
    nextPointer: p.response,
    items: p.items ?? "/data",
    ...(size
      ? {
          pageSize: {
            name: size.name,
            ...(typeof sizeSchema?.["minimum"] === "number" ? { minimum: sizeSchema["minimum"] } : {}),
            ...(typeof sizeSchema?.["maximum"] === "number" ? { maximum: sizeSchema["maximum"] } : {}),
          },
        }
      : {}),
    ...(totalParam !== undefined && typeof total?.["response"] === "string" ? { totalCount: { param: totalParam, pointer: total["response"] } } : {}),
  };
}

const RESPONSE_KINDS = new Set(["equals", "count", "compare", "schema", "offset", "template", "pairs"]);

/** The response `x-rules` of every status, each tagged with the status it covers. */
export function responseRules(op: Operation): Obj[] {
  const out: Obj[] = [];
  for (const r of op.responses) {
    for (const rule of r.rules ?? []) {
      const raw: Obj = { ...rule };
      if (typeof raw["kind"] !== "string" || !RESPONSE_KINDS.has(raw["kind"])) continue;
      const { source: _source, description: _description, schema, ...rest } = raw;
      out.push({ ...rest, status: r.status, ...(schema !== undefined ? { schema: mockSchemaOf(schema) } : {}) });
    }
  }
  return out;
}

/** Required response headers per status (lower case, as fetch reports them). */
export function responseHeaders(op: Operation): Obj | undefined {
  const out: Obj = {};
  for (const r of op.responses) {
    const names = r.headers.filter((h) => h.required).map((h) => h.name.toLowerCase());
    if (names.length > 0) out[r.status] = names;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** `x-limits` kind frequency: requests made too often are refused with this status (and error code). */
export function frequencyLimit(op: Operation): Obj | undefined {
  const limit = op.limits.find((l) => l.kind === "frequency" && typeof l.status === "number");
  return limit ? { status: limit.status, ...(typeof limit.code === "number" ? { code: limit.code } : {}) } : undefined;
}

/** ISO 8601 durations of days, hours, minutes and seconds (`PT15M`, `P1D`), in milliseconds. */
function durationMs(text: string): number | undefined {
  const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(text);
  if (!m || text === "P" || text === "PT") return undefined;
  const [d, h, min, sec] = [m[1], m[2], m[3], m[4]].map((x) => Number(x ?? 0)) as [number, number, number, number];
  return ((d * 24 + h) * 60 + min) * 60_000 + sec * 1000;
}

/**
 * The operation's stated rate limit (`x-limits` kind rate), when the suite can drive it: a count per
 * window, and for a limit on some requests only (`when: with_total_count=true`) the query values
 * that make a request count.
 */
export function rateLimit(op: Operation): Obj | undefined {
  const limit = op.limits.find((l) => l.kind === "rate" && typeof l.requests === "number" && typeof l.window === "string" && l.per === undefined);
  if (!limit) return undefined;
  const windowMs = durationMs(limit.window as string);
  if (windowMs === undefined) return undefined;
  const when: Obj = {};
  for (const part of (limit.when ?? "").split(/[&,]/).filter((p) => p.trim() !== "")) {
    const [name, raw] = part.split("=").map((x) => x.trim()) as [string, string | undefined];
    const param = op.parameters.find((p) => p.name === name && p.in === "query");
    // A condition the suite cannot state as a query value leaves the limit unchecked.
    if (!param || raw === undefined) return undefined;
    when[name] = raw === "true" ? true : raw === "false" ? false : /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
  }
  return { requests: limit.requests, windowMs, ...(Object.keys(when).length > 0 ? { when } : {}) };
}
