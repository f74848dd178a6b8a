/**
 * Runs the Arazzo workflows stated beside a contract: each step's request is filled from the
 * workflow's inputs and earlier steps' outputs, sent, checked like every other answer (no 5xx, a
 * declared status, media type and body) and then judged by the step's success criteria. A failed
 * criterion names the workflow, the step, the condition and the value of every expression in it.
 */
import { explain, holds, parseCondition } from "../arazzo/condition.js";
import { parseJsonPath, queryJsonPath } from "../arazzo/jsonpath.js";
import { fill, parseExpression, evaluate, type ExpressionScope } from "../arazzo/expression.js";
import type { OperationCase, WorkflowPlan } from "./plan.js";
import { where, type RunContext } from "./context.js";
import { describeResponse, updateAt } from "./request.js";
import { brokenRules, exchangeOf as ruleExchange } from "./invariants.js";
import type { RawResponse } from "../client/transport.js";

type Rec = Record<string, unknown>;

let made = 0;
/** Digits only, so a workflow can also use one in a name it then looks up by a case-changed prefix. */
const uniqueValue = (): string => `${Date.now()}${String(made++ % 1000).padStart(3, "0")}`;

/** The workflow's inputs from the target's values and the defaults; the names of required ones missing. */
function inputsOf(wf: WorkflowPlan, given: Readonly<Rec>): { values: Rec; missing: string[] } {
  const values: Rec = {};
  const missing: string[] = [];
  for (const input of wf.inputs) {
    if (input.unique) values[input.name] = uniqueValue();
    else if (Object.prototype.hasOwnProperty.call(given, input.name)) values[input.name] = given[input.name];
    else if (input.default !== undefined) values[input.name] = input.default;
    else if (input.required) missing.push(input.name);
  }
  return { values, missing };
}

function exchangeOf(ctx: RunContext, op: OperationCase | undefined, values: Rec, body: unknown, res: RawResponse): NonNullable<ExpressionScope["exchange"]> {
  const part = (location: string): Rec => Object.fromEntries((op?.parameters ?? []).filter((p) => p.in === location && values[p.name] !== undefined).map((p) => [p.name, values[p.name]]));
  const last = ctx.sender.last;
  return {
    url: last?.url ?? "",
    method: last?.method ?? op?.method ?? "",
    statusCode: res.status,
    request: { header: part("header") as Record<string, string>, query: part("query"), path: part("path"), body },
    response: { header: (name) => res.headers.get(name), body: res.body },
  };
}

/** The value a regex or JSONPath criterion reads: its `context` expression, the answer's body by default. */
function contextOf(context: string | undefined, scope: ExpressionScope): unknown {
  const parsed = parseExpression(context ?? "$response.body");
  return "error" in parsed ? undefined : evaluate(parsed, scope);
}

/**
 * Runs one workflow. `skip` is called (and the run ends) when the workflow cannot run here: a
 * required input no one gave, or a step whose operation the contract leaves unspecified.
 */
export async function runWorkflow(ctx: RunContext, wf: WorkflowPlan, skip: (why: string) => void): Promise<void> {
  const { values: inputs, missing } = inputsOf(wf, ctx.target().values ?? {});
  if (missing.length > 0) {
    skip(`needs the input(s) ${missing.join(", ")}: give them with contractgen test --values '{"${missing[0]}": …}'`);
    return;
  }
  // Every other contract the workflow calls must have its server named before any step runs: sent
  // to this contract's server instead, its steps would fail for nothing.
  const sources = ctx.target().sources ?? {};
  const unplaced = [...new Set(wf.steps.flatMap((s) => (s.source !== undefined && sources[s.source.name] === undefined ? [s.source.name] : [])))];
  if (unplaced.length > 0) {
    skip(
      `its steps also call ${unplaced.map((n) => `the source ${n}`).join(" and ")}: give ${unplaced.length > 1 ? "their base URLs" : "its base URL"} with contractgen test ${unplaced.map((n) => `--source ${n}=<url>`).join(" ")} (the same URL as --base-url where one server serves both)`,
    );
    return;
  }
  const steps: Record<string, Rec> = {};
  for (const step of wf.steps) {
    const op = step.source?.operation ?? ctx.op(step.operationId);
    if (!op || op.skip !== undefined) {
      skip(`step ${step.id}: ${step.operationId} ${op?.skip ?? "is not an operation of the contract"}`);
      return;
    }
    const baseUrl = step.source !== undefined ? sources[step.source.name] : undefined;
    const scope: ExpressionScope = { inputs, steps };
    const values: Rec = {};
    for (const p of step.parameters) {
      const v = fill(p.value, scope);
      if (v !== undefined) values[p.name] = v;
    }
    // Path values the step does not give are found as every other case finds them.
    const unnamed = op.parameters.filter((p) => p.in === "path" && values[p.name] === undefined);
    if (unnamed.length > 0 && step.source !== undefined) {
      // The other contract's lists are not this suite's to search.
      skip(`step ${step.id}: ${step.operationId} needs ${unnamed.map((p) => p.name).join(", ")}, which the step does not give`);
      return;
    }
    if (unnamed.length > 0) {
      const found = await ctx.pathValues(op);
      for (const p of unnamed) if (found[p.name] !== undefined) values[p.name] = found[p.name];
    }
    let body: unknown = step.body ? fill(step.body.payload, scope) : undefined;
    for (const r of step.body?.replacements ?? []) {
      const v = fill(r.value, scope);
      body = updateAt(body, r.target, () => v);
    }
    const label = `workflow ${wf.id} (${wf.source}), step ${step.id}: ${step.source !== undefined ? `${step.source.name}'s ` : ""}${where(op)}`;
    const credentials = step.credentials === "none" ? "none" : "target";
    const res = await ctx.sender.send(op, values, body, credentials, undefined, baseUrl !== undefined ? { baseUrl } : {});
    ctx.check(res.status < 500, `${label} answered ${describeResponse(res)}: a server error`);
    if (step.source === undefined) {
      // Another contract's answers are its own suite's to judge; this one's are checked here too.
      ctx.checkShape(op, res);
      // The contract's response rules hold for every answer, a workflow's as much as a case's.
      const broken = brokenRules(op.responseRules ?? [], ruleExchange(op, values, body, res), ctx.root);
      ctx.check(broken.length === 0, `${label} answered ${describeResponse(res)}, breaking the contract's response rules: ${broken.join("; ")}`);
    }
    const here: ExpressionScope = { inputs, steps, exchange: exchangeOf(ctx, op, values, body, res) };
    for (const pre of step.preconditions ?? []) {
      const tree = parseCondition(pre);
      if (!holds(tree, here)) {
        skip(`step ${step.id}: this server does not meet the precondition "${pre}" (${explain(tree, here)})`);
        return;
      }
    }
    if (step.successCriteria.length === 0) ctx.check(res.status >= 200 && res.status < 300, `${label} answered ${describeResponse(res)}, expected a 2xx (the step states no success criteria)`);
    for (const c of step.successCriteria) {
      if (c.type === "jsonpath") {
        const subject = contextOf(c.context, here);
        // `{$…}` in the query is filled first: a query can name a value an earlier step produced.
        const query = String(fill(c.condition, here));
        const found = queryJsonPath(parseJsonPath(query), subject);
        ctx.check(found.length > 0, `${label}: ${query} selects nothing in ${c.context ?? "$response.body"} (answered ${describeResponse(res)})`);
        continue;
      }
      if (c.type === "regex") {
        const subject = contextOf(c.context, here);
        const text = typeof subject === "string" ? subject : JSON.stringify(subject ?? null);
        ctx.check(new RegExp(c.condition, "u").test(text), `${label}: ${c.context ?? "$response.body"} = ${text.slice(0, 200)} does not match /${c.condition}/ (answered ${describeResponse(res)})`);
        continue;
      }
      const tree = parseCondition(c.condition);
      ctx.check(holds(tree, here), `${label}: "${c.condition}" does not hold: ${explain(tree, here)} (answered ${describeResponse(res)})`);
    }
    const outputs: Rec = {};
    for (const [name, expr] of Object.entries(step.outputs)) outputs[name] = fill(expr, here);
    steps[step.id] = outputs;
  }
}
