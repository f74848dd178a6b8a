/**
 * `x-echo`: an answer's echo of the request holds every path parameter sent, and the value sent for
 * every parameter it echoes; a batch echoing each item in a list is not judged here.
 */
import { describe, expect, it } from "vitest";
import { echoProblems } from "../src/conformance/run.js";
import type { OperationCase } from "../src/conformance/plan.js";

const op = {
  id: "listLists",
  method: "GET",
  path: "/accounts/{account_id}/lists",
  security: [],
  parameters: [
    { name: "account_id", in: "path", required: true },
    { name: "count", in: "query", required: false },
    { name: "ids", in: "query", required: false },
    { name: "x-trace", in: "header", required: false },
  ],
} as unknown as OperationCase;

const cases: { name: string; sent: Record<string, unknown>; echo: unknown; want: RegExp[] }[] = [
  { name: "everything echoed as sent", sent: { account_id: "4", count: 2 }, echo: { account_id: "4", count: 2 }, want: [] },
  { name: "a number echoed as text, a list as its comma-joined text", sent: { account_id: "4", count: 2, ids: ["a", "b"] }, echo: { account_id: "4", count: "2", ids: "a,b" }, want: [] },
  { name: "a query parameter sent and not echoed", sent: { account_id: "4", count: 2 }, echo: { account_id: "4" }, want: [/^leaves out the query parameter count$/] },
  { name: "a path parameter left out", sent: { account_id: "4", count: 2 }, echo: { count: 2 }, want: [/^leaves out the path parameter account_id$/] },
  { name: "another value echoed", sent: { account_id: "4", count: 2 }, echo: { account_id: "5", count: 2 }, want: [/^holds account_id: "5", sent "4"$/] },
  { name: "a header is not an echoed parameter", sent: { account_id: "4", "x-trace": "t" }, echo: { account_id: "4" }, want: [] },
  { name: "an echo that is a list (a batch) is not judged", sent: { account_id: "4" }, echo: [{ params: {} }], want: [] },
  { name: "no echo at all is not judged", sent: { account_id: "4" }, echo: undefined, want: [] },
];

describe("echoProblems", () => {
  it.each(cases)("$name", ({ sent, echo, want }) => {
    const got = echoProblems(op, sent, echo);
    expect(got).toHaveLength(want.length);
    want.forEach((w, i) => expect(got[i]).toMatch(w));
  });
});
