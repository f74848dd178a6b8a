/**
 * Arazzo runtime expressions, simple conditions and JSONPath criteria, as the generated suites
 * evaluate them: given an exchange, want a value or a verdict. Hostile strings included.
 */
import { describe, expect, it } from "vitest";
import { ConditionSyntaxError, explain, holds, parseCondition } from "../../packages/runtime/src/arazzo/condition.js";
import { fill, parseExpression, evaluate, type ExpressionScope } from "../../packages/runtime/src/arazzo/expression.js";
import { JsonPathSyntaxError, parseJsonPath, queryJsonPath } from "../../packages/runtime/src/arazzo/jsonpath.js";

const scope: ExpressionScope = {
  inputs: { account_id: "18ce54d4x5t", run: "1234", __proto__x: "p" },
  steps: { create: { id: "42", obj: { a: [1, 2] } } },
  exchange: {
    url: "http://127.0.0.1:1/12/accounts",
    method: "POST",
    statusCode: 201,
    request: { header: { "X-Trace": "t-1" }, query: { q: "Ab" }, path: { account_id: "18ce54d4x5t" }, body: { name: "n" } },
    response: {
      header: (n) => (n.toLowerCase() === "content-type" ? "application/json" : null),
      body: { data: { id: "42", entity_status: "PAUSED", deleted: false, count: "7", items: [{ id: "a" }, { id: "b", tag: "x" }], "a/b": 1, "m~n": 2 } },
    },
  },
};

describe("runtime expressions", () => {
  it.each([
    { given: "$statusCode", want: 201 },
    { given: "$method", want: "POST" },
    { given: "$url", want: "http://127.0.0.1:1/12/accounts" },
    { given: "$response.body#/data/id", want: "42" },
    { given: "$response.body#/data/items/1/id", want: "b" },
    { given: "$response.body#/data/a~1b", want: 1 },
    { given: "$response.body#/data/m~0n", want: 2 },
    { given: "$response.body#/data/missing/deeper", want: undefined },
    { given: "$response.header.Content-Type", want: "application/json" },
    { given: "$request.header.x-trace", want: "t-1" },
    { given: "$request.query.q", want: "Ab" },
    { given: "$request.path.account_id", want: "18ce54d4x5t" },
    { given: "$request.body#/name", want: "n" },
    { given: "$inputs.account_id", want: "18ce54d4x5t" },
    { given: "$steps.create.outputs.id", want: "42" },
    { given: "$steps.create.outputs.obj#/a/1", want: 2 },
    { given: "$steps.later.outputs.id", want: undefined },
    { given: "$inputs.constructor", want: undefined },
  ])("$given → $want", ({ given, want }) => {
    const parsed = parseExpression(given);
    expect("error" in parsed).toBe(false);
    expect(evaluate(parsed as Exclude<typeof parsed, { error: string }>, scope)).toEqual(want);
  });

  it.each([
    { given: "$response.query.x", error: "a response has no query" },
    { given: "$response.body.data", error: "takes a JSON pointer after #" },
    { given: "$response.body#data", error: "must start with /" },
    { given: "$workflows.other.outputs.x", error: "not supported" },
    { given: "$request.header", error: "needs a name" },
    { given: "$nonsense", error: "is not a runtime expression" },
  ])("refuses $given", ({ given, error }) => {
    const parsed = parseExpression(given);
    expect("error" in parsed && parsed.error).toContain(error);
  });

  it("fills whole expressions with their value and embedded ones with their text, keeping other strings as they are", () => {
    expect(fill({ id: "$steps.create.outputs.id", name: "wf-{$inputs.run}-x", list: ["$inputs.run"], plain: "$ 5 off", braces: "{not an expr}" }, scope)).toEqual({
      id: "42",
      name: "wf-1234-x",
      list: ["1234"],
      plain: "$ 5 off",
      braces: "{not an expr}",
    });
    // A member whose expression names nothing is left out rather than sent as undefined.
    expect(fill({ gone: "$steps.later.outputs.id" }, scope)).toEqual({});
  });
});

describe("simple conditions", () => {
  it.each([
    { given: "$statusCode == 201", want: true },
    { given: "$statusCode == '201'", want: true },
    { given: "$statusCode >= 200 && $statusCode < 300", want: true },
    { given: "$statusCode >= 400 && $statusCode < 500", want: false },
    { given: "$response.body#/data/entity_status == 'paused'", want: true },
    { given: "$response.body#/data/deleted == false", want: true },
    { given: "$response.body#/data/deleted == null", want: false },
    { given: "$response.body#/data/missing == null", want: true },
    { given: "$response.body#/data/count > 6", want: true },
    { given: "$response.body#/data/items[1]['tag'] == 'x'", want: true },
    { given: "!($statusCode == 201) || $response.body#/data/id == $steps.create.outputs.id", want: true },
    { given: "$response.body#/data/missing < 1", want: false },
    { given: "'it''s' == 'IT''S'", want: true },
  ])("$given → $want", ({ given, want }) => {
    expect(holds(parseCondition(given), scope)).toBe(want);
  });

  it.each(["$statusCode ==", "($statusCode == 1", "$statusCode == 'open", "$statusCode === 1 ; rm -rf /", "$response.query.x == 1", "1 == 1 2"])(
    "refuses %s with the offset of what is wrong",
    (given) => {
      let err: unknown;
      try {
        parseCondition(given);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConditionSyntaxError);
      expect((err as ConditionSyntaxError).at).toBeGreaterThanOrEqual(0);
    },
  );

  it("explains a failed condition with the value of every expression in it", () => {
    const tree = parseCondition("$statusCode == 200 && $response.body#/data/entity_status == 'ACTIVE'");
    expect(holds(tree, scope)).toBe(false);
    expect(explain(tree, scope)).toBe('$statusCode = 201, $response.body#/data/entity_status = "PAUSED"');
  });
});

describe("JSONPath criteria", () => {
  const body = (scope.exchange as NonNullable<ExpressionScope["exchange"]>).response.body;
  it.each([
    { given: "$.data.items[?@.id == 'b']", want: 1 },
    { given: "$.data.items[?@.id == 'c']", want: 0 },
    { given: "$.data.items[*].id", want: 2 },
    { given: "$.data.items[-1].tag", want: 1 },
    { given: "$['data']['a/b']", want: 1 },
    { given: "$.data.items[?@.tag]", want: 1 },
    { given: "$.data.items[?!@.tag]", want: 1 },
    { given: "$[?count($.data.items[?@.id == 'a']) == 1 && count($.data.items[?@.id == 'z']) == 0]", want: 1 },
    { given: "$[?length($.data.items) == 3]", want: 0 },
    { given: "$.data.items[?@.id == 'a' || @.id == 'b']", want: 2 },
  ])("$given selects $want", ({ given, want }) => {
    expect(queryJsonPath(parseJsonPath(given), body).length).toBe(want);
  });

  it.each(["$..id", "data.items", "$.data[?@.id == 'x'", "$.data[?@.id == 'x]"])("refuses %s", (given) => {
    expect(() => parseJsonPath(given)).toThrow(JsonPathSyntaxError);
  });
});
