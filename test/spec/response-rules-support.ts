/**
 * Rows of the response-rules test: for one rule (by id), an exchange that keeps it and one that
 * breaks it, and helpers that build the common shapes of both.
 */
import type { Exchange } from "../../packages/runtime/src/conformance/invariants.js";

export interface Row {
  readonly rule: string;
  readonly keeps: Exchange;
  readonly breaks: Exchange;
}

export const exchange = (request: Partial<Exchange["request"]>, body: unknown, status = 200): Exchange => ({
  status,
  request: { path: {}, query: {}, headers: {}, ...request },
  body,
});

/** An exchange holding `values` at their pointers (`/request/path/id`, `/body/data/id` …). */
export const holding = (values: Record<string, unknown>): Exchange => {
  const ex: Record<string, unknown> = { status: 200, request: { path: {}, query: {}, headers: {} }, body: {} };
  for (const [pointer, value] of Object.entries(values)) {
    const keys = pointer.split("/").slice(1);
    let node = ex;
    keys.slice(0, -1).forEach((k) => (node = (node[k] ??= {}) as Record<string, unknown>));
    node[keys.at(-1) as string] = value;
  }
  return ex as unknown as Exchange;
};

/** An `equals` rule: kept when both pointers hold the same value, broken when they differ. */
export const equalsRow = (rule: string, left: string, right: string, value: unknown = "1720000000000000001", other: unknown = "1720000000000000009"): Row => ({
  rule,
  keeps: holding({ [left]: value, [right]: value }),
  breaks: holding({ [left]: other, [right]: value }),
});

/** A soft delete's answer: `data.deleted` is true. */
export const deletedRow = (rule: string): Row => ({ rule, keeps: holding({ "/body/data/deleted": true }), breaks: holding({ "/body/data/deleted": false }) });

/** Without `with_deleted=true`, no deleted object is answered (`data` an object, or a list when `list`). */
export const liveUnlessAskedRow = (rule: string, list: boolean): Row => {
  const data = (deleted: boolean): unknown =>
    list
      ? [
          { id: "1", deleted: false },
          { id: "2", deleted },
        ]
      : { id: "2", deleted };
  return {
    rule,
    keeps: holding({ "/request/query/with_deleted": true, "/body/data": data(true) }),
    breaks: holding({ "/body/data": data(true) }),
  };
};
