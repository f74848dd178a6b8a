import type { ApiModel, Operation } from "../../model/ir.js";
import { relationsOf, type Relations } from "../../model/relations.js";
import { schemaResolver } from "../../model/schema-resolve.js";
import { defineEmitter } from "../emitter.js";
import { tsHeader } from "../header.js";
import { literal, prettyLiteral, raw, stringLiteral, ts } from "../ts.js";
import { mediaKind } from "../validators/index.js";
import { bodyNegatives } from "./body-negatives.js";
import { frequencyLimit, paginationPlan, rateLimit, responseHeaders, responseRules } from "./invariants.js";
import { filterPlans } from "./filters.js";
import { fieldSelectionPlan } from "./field-selection.js";
import { isObj, sampleValue, statedValue, violations, type Resolve } from "./negatives.js";
import { boundaries, bodyContent, requestSchemas } from "./requests.js";
import { breakRules } from "./rules.js";
import { indexOperations, type OperationIndex } from "./operation-index.js";
import { scenarios } from "./sequences.js";
import { acceptOf, wireOf } from "./wire.js";

type Obj = Record<string, unknown>;

/**
 * Makes the positive query meet the operation's own rules: an interval ending "now" by default gets
 * an explicit end within its limit; "one of these is required" gets its first member.
 */
function satisfyQueryRules(op: Operation, values: Obj, resolve: Resolve): void {
  const params = new Map(op.parameters.map((p) => [p.name, p]));
  for (const rule of op.rules) {
    if ((rule.in ?? "query") !== "query") continue;
    if (rule.kind === "maxInterval" && typeof values[rule.start] === "string" && values[rule.end] === undefined && params.has(rule.end)) {
      const start = Date.parse(values[rule.start] as string);
      if (!Number.isNaN(start)) values[rule.end] = new Date(start + 3_600_000).toISOString().replace(".000Z", "Z");
    }
    if (rule.kind === "schema" && isObj(rule.schema) && Array.isArray(rule.schema["anyOf"])) {
      const alternatives = rule.schema["anyOf"].map((b) => resolve(b)["required"]).filter(Array.isArray) as string[][];
      const met = alternatives.some((names) => names.every((n) => values[n] !== undefined));
      const first = alternatives[0]?.[0];
      if (!met && first !== undefined && params.has(first)) {
        const p = params.get(first);
        const v = p ? sampleValue(p.schema, resolve, p.example) : undefined;
        if (v !== undefined) values[first] = v;
      }
    }
  }
}

/** A DELETE, or an operation the contract's state tables move into a deleted, invalidated or revoked state. */
function destroys(index: OperationIndex, op: Operation): boolean {
  return op.method === "delete" || index.destroying.has(op.id);
}

/**
 * Why valid requests of a token flow's step cannot be sent with the suite's own credentials: the
 * step needs the flow's tokens (a request token and its verifier), or it would revoke the very
 * credentials the suite runs with. The flow's sequence exercises it.
 */
function flowStep(model: ApiModel, index: OperationIndex, op: Operation): string | undefined {
  const oauth1 = model.securitySchemes.find((s) => s.oauth1?.flow !== undefined && Object.values(s.oauth1.flow).includes(op.id));
  if (oauth1) return `a step of the OAuth 1.0a flow of ${oauth1.name}: it needs the flow's own tokens, and the flow's sequence exercises it`;
  if (op.method !== "delete" && destroys(index, op)) return "it invalidates the credentials it is sent with: the state sequences exercise it with credentials made for the purpose";
  return undefined;
}

/**
 * `owned`: path parameters naming objects that must be the authenticated user's (`x-owned`);
 * `listsOwned`: for a list that gives such keys, the parameter and where its keys are.
 */
function ownershipOf(op: Operation, relations: Relations, model: ApiModel): Obj {
  const owned = op.parameters.filter((p) => p.in === "path" && p.x?.["x-owned"] === true).map((p) => p.name);
  const lists: Obj[] = [];
  const seen = new Set<string>();
  for (const other of model.operations) {
    for (const p of other.parameters) {
      if (p.in !== "path" || p.x?.["x-owned"] !== true) continue;
      for (const s of relations.pathSources.get(other.id)?.[p.name] ?? []) {
        const key = `${p.name}:${s.kind === "list" ? s.field : ""}`;
        if (s.kind === "list" && s.operationId === op.id && !seen.has(key)) {
          seen.add(key);
          lists.push({ param: p.name, items: s.items, field: s.field });
        }
      }
    }
  }
  return { ...(owned.length > 0 ? { owned } : {}), ...(lists.length > 0 ? { listsOwned: lists } : {}) };
}

/** `conditional`: request members the contract allows only for some objects (`x-conditional`). */
function conditionalOf(op: Operation): Obj {
  const out: Obj[] = [];
  for (const c of op.conditional ?? []) {
    const when = isObj(c["allowedWhen"]) ? c["allowedWhen"] : undefined;
    const member = typeof c["member"] === "string" ? c["member"] : undefined;
    if (!when || member === undefined) continue;
    const where = op.parameters.some((p) => p.name === member && p.in === "query") ? "query" : "body";
    out.push({
      member,
      in: where,
      ...(typeof when["param"] === "string" ? { param: when["param"] } : {}),
      ...(typeof when["field"] === "string" && Array.isArray(when["in"]) ? { field: when["field"], values: when["in"] } : {}),
      ...(typeof when["via"] === "string" && when["contains"] !== undefined
        ? { via: when["via"], contains: when["contains"], items: typeof when["items"] === "string" ? when["items"] : "/data" }
        : {}),
    });
  }
  return out.length > 0 ? { conditional: out } : {};
}

/** `outstanding`: the most objects a create may hold at once (`x-limits` kind outstanding). */
function outstandingOf(op: Operation): { outstanding?: number } {
  const max = op.limits.find((l) => l.kind === "outstanding" && typeof l.max === "number")?.max;
  return op.method === "post" && max !== undefined ? { outstanding: max } : {};
}

/** `declaredServerErrors`: 5xx statuses the contract names by their code. */
function serverErrorsOf(op: Operation): Obj {
  const codes = op.responses
    .map((r) => r.status)
    .filter((s) => /^5\d\d$/.test(s))
    .map(Number);
  return codes.length > 0 ? { declaredServerErrors: codes } : {};
}

/** The contract declares some refusal of `op`: a 4xx, `4XX` or `default` answer. */
function declaresRefusal(op: Operation): boolean {
  return op.responses.some((r) => r.status === "default" || /^4/.test(r.status));
}

function operationPlan(model: ApiModel, index: OperationIndex, relations: Relations, op: Operation, resolve: Resolve, converted: Map<object, unknown>): Obj {
  const wire = wireOf(model, op);
  const parameters = wire.parameters;
  const flow = flowStep(model, index, op);
  const base = {
    ...wire,
    ...(destroys(index, op) ? { destructive: true } : {}),
    ...(flow !== undefined ? { flowStep: flow } : {}),
  };
  if (op.unspecified !== undefined) return { ...base, skip: `the contract does not show this operation's shape: ${op.unspecified}` };

  const values: Obj = {};
  for (const p of op.parameters) {
    if (!p.required && p.in !== "path") continue;
    // A path id is taken only from what the contract states (an example): a made-up one names no object.
    const v = p.in === "path" ? statedValue(p.schema, resolve, p.example) : sampleValue(p.schema, resolve, p.example);
    if (v !== undefined) values[p.name] = v;
  }
  satisfyQueryRules(op, values, resolve);
  const bodyMedia = bodyContent(op);
  const body = bodyMedia ? (bodyMedia.examples[0] ?? sampleValue(bodyMedia.schema, resolve)) : undefined;

  const negatives: Obj[] = [];
  const sent = new Set(parameters.map((p) => p.name));
  for (const p of op.parameters) {
    if (p.in === "cookie" || !sent.has(p.name)) continue;
    if (p.required && p.in !== "path") negatives.push({ label: `without its required ${p.in} parameter ${p.name}`, parameter: p.name, in: p.in, remove: [p.name] });
    // Header values are free text on the wire: only their presence is checked here.
    if (p.in === "header") continue;
    for (const v of violations(p.schema, resolve, true)) negatives.push({ label: `with ${p.name} ${v.label}`, parameter: p.name, in: p.in, set: { [p.name]: v.value } });
  }
  for (const br of breakRules(
    op.rules.filter((r) => (r.in ?? "query") === "query"),
    resolve,
  )) {
    negatives.push({
      label: `breaking rule ${br.rule}`,
      parameter: Object.keys(br.set)[0] ?? br.remove[0] ?? "query",
      in: "query",
      set: br.set,
      remove: br.remove,
      rule: br.rule,
      message: br.message,
    });
  }
  if (bodyMedia?.schema !== undefined && mediaKind(bodyMedia.mediaType) === "json") negatives.push(...bodyNegatives(op, bodyMedia.schema, resolve));

  const examples = op.responses.flatMap((r) => r.contents.flatMap((c) => c.examples.map((example) => ({ status: r.status, mediaType: c.mediaType, example }))));
  const pagination = paginationPlan(op, resolve);
  const rules = responseRules(op);
  const headers = responseHeaders(op);
  const filters = filterPlans(op, resolve);
  const fieldSelection = fieldSelectionPlan(op, resolve);
  const rate = rateLimit(op);
  return {
    ...base,
    positive: { values, ...(body !== undefined ? { body, bodyMediaType: bodyMedia?.mediaType } : {}) },
    request: requestSchemas(op, converted),
    ...(relations.pathSources.has(op.id) ? { sources: relations.pathSources.get(op.id) } : {}),
    ...(relations.references.has(op.id) ? { references: relations.references.get(op.id) } : {}),
    ...(relations.undoes.has(op.id) ? { undoes: relations.undoes.get(op.id) } : {}),
    ...(declaresRefusal(op) ? {} : { undeclaredRefusals: true }),
    // A 2xx answer that is a stream of JSON messages, one per line: each message is judged alone.
    ...(op.stream === "ndjson" || op.streamMedia?.framing === "ndjson" ? { stream: "ndjson" as const } : {}),
    ...outstandingOf(op),
    ...acceptOf(op),
    ...serverErrorsOf(op),
    negatives,
    boundaries: boundaries(op, resolve, model.readBackComplete === true),
    examples,
    ...(pagination ? { pagination } : {}),
    ...(rules.length > 0 ? { responseRules: rules } : {}),
    ...(headers ? { responseHeaders: headers } : {}),
    ...(filters.length > 0 ? { filters } : {}),
    ...(fieldSelection ? { fieldSelection } : {}),
    ...(op.echoParams ? { echoParams: op.echoParams } : {}),
    ...ownershipOf(op, relations, model),
    ...conditionalOf(op),
    ...(rate ? { rateLimit: rate } : {}),
    ...(frequencyLimit(op) ? { frequency: frequencyLimit(op) } : {}),
  };
}

const PLAN_DECLARATION = "export const plan: ConformancePlan = ";

/** Plans up to this many characters of JSON stay object literals (readable in a review); larger ones are parsed. */
const PLAN_LITERAL_LIMIT = 1_000_000;

/**
 * `test/conformance.test.ts` and its plan: the vitest suite that checks a server against the
 * contract, generated from the IR. Cases are data (`test/conformance.plan.ts`); the runtime harness
 * runs them against `CONTRACT_BASE_URL` or the server a `CONTRACT_TARGET` module starts.
 */
export const conformanceEmitter = defineEmitter({
  name: "conformance",
  modelOnly: true,
  emit({ model }) {
    const resolve = schemaResolver(model);
    const index = indexOperations(model);
    const relations = relationsOf(model);
    const invalid = model.problems.find((p) => p.slug === "invalid-request");
    const converted = new Map<object, unknown>();
    const plan = {
      package: model.name,
      title: model.info.title,
      namesParameters: invalid !== undefined,
      ...(invalid !== undefined ? { invalidRequestSlug: invalid.slug } : {}),
      ...(model.echo ? { echo: model.echo.pointer } : {}),
      ...(model.readBackComplete ? { readBackComplete: true } : {}),
      ...invalidTokens(model),
      operations: model.operations.map((op) => operationPlan(model, index, relations, op, resolve, converted)),
      scenarios: scenarios(model, resolve),
      ...(model.workflows && model.workflows.length > 0 ? { workflows: model.workflows } : {}),
    };
    // A large contract's plan is a JSON string, parsed on import: as an object literal of thousands
    // of operations tsc would infer a type for every member and run out of memory (GitHub's did).
    const json = JSON.stringify(plan);
    // Laid out here as prettier would (ts-layout.ts): formatting this one literal took a quarter of
    // prettier's time on the repository's specs.
    const laidOut = json.length > PLAN_LITERAL_LIMIT ? undefined : prettyLiteral(plan, { column: PLAN_DECLARATION.length, tail: 1 });
    const value = json.length > PLAN_LITERAL_LIMIT ? ts`JSON.parse(${stringLiteral(json)}) as ConformancePlan` : (laidOut ?? literal(plan));
    const planCode = ts`import type { ConformancePlan } from "@contractgen/runtime/conformance";

/** Every case the conformance suite runs, derived from the contract. */
${raw(PLAN_DECLARATION)}${value};
`;
    const suite = ts`import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runConformance } from "@contractgen/runtime/conformance";
import { validateRequest, validateResponse } from "../src/validators.js";
import { mockValue } from "../src/mocks.js";
import { mockDocument } from "../compiled/mocks.data.js";
import { plan } from "./conformance.plan.js";

// Against CONTRACT_BASE_URL (contractgen test --base-url), or the server the CONTRACT_TARGET module
// starts. Requests are drawn from the schemas with CONTRACT_SEED (contractgen test --seed).
runConformance(
  { afterAll, beforeAll, describe, expect, it },
  plan,
  { validateRequest: validateRequest as never, validateResponse: validateResponse as never, mock: mockValue },
  mockDocument(),
);
`;
    return [
      { path: "test/conformance.plan.ts", contents: tsHeader(model) + planCode.text, ...(laidOut ? { format: false } : {}) },
      { path: "test/conformance.test.ts", contents: tsHeader(model) + suite.text },
    ];
  },
});

/** `x-invalid-token` of each scheme kind that states one: how a token the scheme does not know is refused. */
function invalidTokens(model: ApiModel): { invalidTokens?: Record<string, { status: number; schema: unknown; source: string }> } {
  const out: Record<string, { status: number; schema: unknown; source: string }> = {};
  for (const s of model.securitySchemes) if (s.kind !== undefined && s.invalidToken !== undefined && out[s.kind] === undefined) out[s.kind] = { ...s.invalidToken };
  return Object.keys(out).length > 0 ? { invalidTokens: out } : {};
}
