/**
 * Facts an answer must keep beyond its schema: the contract's response `x-rules` (counts that agree,
 * echoed values, ordered times) and the paging contract of `x-pagination` (a page never exceeds its
 * size, walking every page ends without duplicates, the last cursor is null, `total_count` appears
 * exactly when asked for and counts what the walk found).
 */
import type { OperationCase, PaginationPlan, ResponseRule } from "./plan.js";
import { requestInput } from "./synth.js";
import { getAt, hasAt } from "./request.js";
import type { MockSchema } from "../mock/mock-data.js";
import { createSchemaMatcher, jsonEqual } from "../shared/schema-match.js";
import { fillTemplate, offsetEnd } from "../shared/derived.js";

/** What a response rule reads: the answer beside the request that produced it. */
export interface Exchange {
  readonly status: number;
  readonly request: {
    readonly path: Readonly<Record<string, unknown>>;
    readonly query: Readonly<Record<string, unknown>>;
    readonly headers: Readonly<Record<string, unknown>>;
    readonly body?: unknown;
  };
  readonly body: unknown;
}

/** What response rules read: the answer beside the request `values` and `body` of `op` made. */
export function exchangeOf(op: OperationCase, values: Readonly<Record<string, unknown>>, body: unknown, res: { readonly status: number; readonly body: unknown }): Exchange {
  const input = requestInput(op, values, body);
  return { status: res.status, request: { path: input.path ?? {}, query: (input.query ?? {}) as Record<string, unknown>, headers: input.headers ?? {}, body }, body: res.body };
}

export function ruleCovers(rule: ResponseRule, status: number): boolean {
  if (rule.status === "default") return status >= 200 && status < 300;
  if (/^[1-5]XX$/i.test(rule.status)) return Math.floor(status / 100) === Number(rule.status[0]);
  return Number(rule.status) === status;
}

/** Request values are text on the wire: `"5"` and `5` are the same echoed value, as are `"a,b"` and `["a","b"]`. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (jsonEqual(a, b)) return true;
  const scalar = (v: unknown): boolean => typeof v === "string" || typeof v === "number" || typeof v === "boolean";
  if (scalar(a) && scalar(b)) return String(a) === String(b);
  if (Array.isArray(a) && typeof b === "string") return a.map(String).join(",") === b;
  if (Array.isArray(b) && typeof a === "string") return b.map(String).join(",") === a;
  return false;
}

function asComparable(v: unknown, as: "number" | "date-time"): number | undefined {
  if (as === "number") return typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" && !Number.isNaN(Number(v)) ? Number(v) : undefined;
  if (typeof v !== "string") return undefined;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : t;
}

/** Where a rule's pointers are read: the exchange, or each item of the array at `each`. */
interface Scope {
  /** Prefix naming the item in a message (`/body/data/3: `), empty for the exchange. */
  readonly label: string;
  at(pointer: string): unknown;
  has(pointer: string): boolean;
}

/**
 * The exchange alone, or one scope per item of the array at `each`. In an item's scope a pointer
 * is relative to the item, and one written `#/…` still reads the exchange (the request's path
 * parameter every listed item must carry).
 */
function scopesOf(each: string | undefined, exchange: Exchange): Scope[] {
  const whole: Scope = { label: "", at: (p) => getAt(exchange, p.replace(/^#/, "")), has: (p) => hasAt(exchange, p.replace(/^#/, "")) };
  if (each === undefined) return [whole];
  const items = getAt(exchange, each);
  return (Array.isArray(items) ? items : []).map((item, i) => ({
    label: `${each}/${i}: `,
    at: (p) => (p.startsWith("#") ? whole.at(p) : getAt(item, p)),
    has: (p) => (p.startsWith("#") ? whole.has(p) : hasAt(item, p)),
  }));
}

/**
 * The rules `exchange` breaks, each as `id: message (what was seen)`. `root` is the package's mock
 * document, where a `schema` rule's `$ref`s to components resolve.
 */
export function brokenRules(rules: readonly ResponseRule[], exchange: Exchange, root: unknown = {}): string[] {
  const out: string[] = [];
  const matcher = createSchemaMatcher(root, { now: Date.now() });
  for (const rule of rules) {
    if (!ruleCovers(rule, exchange.status)) continue;
    const seen = (what: string): void => void out.push(`${rule.id}: ${rule.message} (${what})`);
    switch (rule.kind) {
      case "equals":
        for (const { label, at, has } of scopesOf(rule.each, exchange)) {
          if (!has(rule.left) || !has(rule.right)) continue;
          const l = at(rule.left);
          const r = at(rule.right);
          if (!sameValue(l, r)) seen(`${label}${rule.left} is ${JSON.stringify(l)}, ${rule.right} is ${JSON.stringify(r)}`);
        }
        break;
      case "count": {
        // The number at `field`, or the length of the array there, against the length of `of`.
        const at = getAt(exchange, rule.field);
        const n = Array.isArray(at) ? at.length : at;
        const list = getAt(exchange, rule.of);
        if (n === undefined || !Array.isArray(list)) break;
        if (n !== list.length) seen(`${rule.field} ${Array.isArray(at) ? "holds" : "is"} ${JSON.stringify(n)}, ${rule.of} holds ${list.length}`);
        break;
      }
      case "compare":
        for (const { label, at } of scopesOf(rule.each, exchange)) {
          const l = asComparable(at(rule.left), rule.as);
          const r = asComparable(at(rule.right), rule.as);
          if (l === undefined || r === undefined) continue;
          const holds = rule.op === "<" ? l < r : rule.op === "<=" ? l <= r : rule.op === ">" ? l > r : l >= r;
          if (!holds) seen(`${label}${rule.left} ${JSON.stringify(at(rule.left))} is not ${rule.op} ${rule.right} ${JSON.stringify(at(rule.right))}`);
        }
        break;
      case "offset":
        for (const { label, at } of scopesOf(rule.each, exchange)) {
          const end = asComparable(at(rule.field), "date-time");
          const want = offsetEnd(at(rule.from), at(rule.by), rule.unit);
          if (end === undefined || want === undefined) continue;
          if (end !== want) seen(`${label}${rule.field} is ${JSON.stringify(at(rule.field))}, expected ${new Date(want).toISOString()} (${rule.from} plus ${Number(at(rule.by))} ${rule.unit}s)`);
        }
        break;
      case "schema":
        if (!matcher(rule.schema as MockSchema, exchange)) seen("the answer and its request do not fit the rule's schema");
        break;
      case "template": {
        // Each item of `each` (or the exchange itself): the text at `field` is the template filled from the same item.
        const scopes = rule.each !== undefined ? getAt(exchange, rule.each) : [exchange];
        for (const [i, scope] of (Array.isArray(scopes) ? scopes : []).entries()) {
          if (!hasAt(scope, rule.field)) continue;
          const filled = fillTemplate(rule.template, scope);
          const got = getAt(scope, rule.field);
          if (filled !== undefined && got !== filled) seen(`${rule.each !== undefined ? `${rule.each}/${i}` : ""}${rule.field} is ${JSON.stringify(got)}, expected ${JSON.stringify(filled)}`);
        }
        break;
      }
      case "pairs": {
        // Item i of `field` answers item i of `of`: the request's order is kept.
        const answered = getAt(exchange, rule.field);
        const sent = getAt(exchange, rule.of);
        if (!Array.isArray(answered) || !Array.isArray(sent)) break;
        if (answered.length !== sent.length) {
          seen(`${rule.field} has ${answered.length} items for the ${sent.length} of ${rule.of}`);
          break;
        }
        for (let i = 0; i < sent.length; i++) {
          for (const [left, right] of rule.pairs) {
            if (!hasAt(answered[i], left) || !hasAt(sent[i], right)) continue;
            const l = getAt(answered[i], left);
            const r = getAt(sent[i], right);
            if (!sameValue(l, r)) {
              seen(`item ${i}: ${rule.field}/${i}${left} is ${JSON.stringify(l)}, ${rule.of}/${i}${right} is ${JSON.stringify(r)}`);
              i = sent.length;
              break;
            }
          }
        }
        break;
      }
    }
  }
  return out;
}

/** One page as the walk saw it. */
export interface Page {
  readonly status: number;
  readonly body: unknown;
}

/** A stable identity for a listed item: its `id` (or first `*_id`/`*_key`), else the whole item. */
export function itemKey(item: unknown): string {
  if (item !== null && typeof item === "object" && !Array.isArray(item)) {
    const rec = item as Record<string, unknown>;
    const key = "id" in rec ? "id" : Object.keys(rec).find((k) => /(_id|_key)$/.test(k));
    if (key !== undefined && (typeof rec[key] === "string" || typeof rec[key] === "number")) return String(rec[key]);
  }
  return JSON.stringify(item);
}

/**
 * Walks every page of a paginated list and returns each broken paging fact. `fetchPage(cursor,
 * withTotal, pageSize)` sends the list request with the page size `size` unless told another. Bounded: a walk longer than
 * `maxPages` pages is itself reported (a cursor that never ends).
 */
export async function checkPagination(
  plan: PaginationPlan,
  size: number,
  fetchPage: (cursor: string | undefined, withTotal: boolean, pageSize?: number) => Promise<Page>,
  maxPages = 60,
  /** How the items one large page holds differ from the same items found walking small pages (each as `key: difference`). */
  differ?: (whole: readonly unknown[], walked: readonly unknown[]) => string[],
): Promise<string[]> {
  const problems: string[] = [];
  const seen = new Map<string, number>();
  // One page as large as the contract allows tells how long the walk should be: a long list gets a
  // bound that fits it instead of failing as a cursor that never ends.
  const largest = plan.pageSize?.maximum;
  const whole = largest !== undefined && largest > size ? await fetchPage(undefined, false, largest) : undefined;
  const wholeItems = whole && whole.status >= 200 && whole.status < 300 ? getAt(whole.body, plan.items) : undefined;
  if (Array.isArray(wholeItems) && wholeItems.length < (largest ?? 0)) maxPages = Math.max(maxPages, Math.ceil(wholeItems.length / size) + 5);
  let cursor: string | undefined;
  let walked = 0;
  const walkedItems: unknown[] = [];
  let pages = 0;
  let first: Page | undefined;
  for (;;) {
    const page = await fetchPage(cursor, false);
    pages++;
    if (page.status < 200 || page.status >= 300) {
      problems.push(`page ${pages} answered ${page.status}`);
      return problems;
    }
    first ??= page;
    const items = getAt(page.body, plan.items);
    if (!Array.isArray(items)) {
      problems.push(`page ${pages} has no item list at ${plan.items}`);
      return problems;
    }
    if (items.length > size) problems.push(`page ${pages} holds ${items.length} items, more than the ${size} asked for with ${plan.pageSize?.name ?? "its page size"}`);
    walkedItems.push(...items);
    for (const item of items) {
      const key = itemKey(item);
      const at = seen.get(key);
      if (at !== undefined) problems.push(`item ${key} appears on page ${at} and again on page ${pages}`);
      else seen.set(key, pages);
    }
    // A cursor promises a further page: one that then turns out empty means the last page's cursor was not null.
    if (items.length === 0 && pages > 1) problems.push(`page ${pages - 1} gave a next cursor, but the page it leads to is empty: the last page's cursor must be null`);
    walked += items.length;
    const next = getAt(page.body, plan.nextPointer);
    if (plan.totalCount && hasAt(page.body, plan.totalCount.pointer)) {
      problems.push(`page ${pages} carries ${plan.totalCount.pointer} although ${plan.totalCount.param} was not set`);
    }
    if (next === null || next === undefined || next === "") {
      if (next === undefined && hasAt(first.body, plan.nextPointer)) problems.push(`the last page leaves out ${plan.nextPointer} instead of null`);
      break;
    }
    if (typeof next !== "string") {
      problems.push(`${plan.nextPointer} is ${JSON.stringify(next)}, not a cursor`);
      break;
    }
    if (items.length === 0) {
      if (pages === 1) problems.push(`page ${pages} is empty yet gives a next cursor`);
      break;
    }
    if (next === cursor) {
      problems.push(`page ${pages} gives back the cursor it was asked with: the walk would never end`);
      break;
    }
    if (pages >= maxPages) {
      problems.push(`still not at the last page after ${maxPages} pages of ${size}`);
      return problems;
    }
    cursor = next;
  }
  // The walk in small pages must find what one page large enough to hold everything holds.
  if (largest !== undefined && largest > size && walked <= largest) {
    const items = wholeItems;
    if (Array.isArray(items)) {
      const once = new Set(items.map(itemKey));
      const missed = [...once].filter((k) => !seen.has(k));
      const extra = [...seen.keys()].filter((k) => !once.has(k));
      if (missed.length > 0) problems.push(`walking pages of ${size} never reached ${missed.slice(0, 5).join(", ")}, which one page of ${largest} holds`);
      if (extra.length > 0) problems.push(`walking pages of ${size} found ${extra.slice(0, 5).join(", ")}, which one page of ${largest} does not hold`);
      const otherwise = differ?.(items, walkedItems) ?? [];
      if (otherwise.length > 0) problems.push(`walking pages of ${size} shows objects otherwise than one page of ${largest}: ${otherwise.slice(0, 5).join("; ")}`);
    }
  }
  if (plan.totalCount) {
    const counted = await fetchPage(undefined, true);
    const total = getAt(counted.body, plan.totalCount.pointer);
    if (counted.status >= 200 && counted.status < 300) {
      if (typeof total !== "number") problems.push(`${plan.totalCount.param}=true gave no number at ${plan.totalCount.pointer}`);
      else if (total !== walked) problems.push(`${plan.totalCount.pointer} is ${total}, but walking every page found ${walked} items`);
    } else problems.push(`${plan.totalCount.param}=true answered ${counted.status}`);
  }
  return problems;
}
