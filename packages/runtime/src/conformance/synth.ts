/**
 * Positive requests from the contract's schemas: parameters and bodies drawn by the package's seeded
 * mock-data generator, kept only when the package's own request validators accept them, so a case
 * the server refuses is the server's deviation and never the suite's guess.
 */
import type { OperationCase, SuiteTools } from "./plan.js";
import type { MockSchema } from "../mock/mock-data.js";
import { createRng, deriveSeed } from "../shared/prng.js";
import { resolvePointer } from "../shared/schema-match.js";
import type { RequestInput } from "../shared/validation.js";

export interface PositiveRequest {
  readonly values: Readonly<Record<string, unknown>>;
  readonly body: unknown;
  /** `example`: the plan's request from the contract's examples; `schema`: drawn with `seed`. */
  readonly origin: "example" | "schema";
  readonly seed?: number;
}

export type Built = { readonly ok: true; readonly request: PositiveRequest } | { readonly ok: false; readonly why: string };

/** The request as the package's validators take it. */
export function requestInput(op: OperationCase, values: Readonly<Record<string, unknown>>, body: unknown): RequestInput {
  const path: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  const headers: Record<string, unknown> = {};
  for (const p of op.parameters) {
    const v = values[p.name];
    if (v === undefined) continue;
    if (p.in === "path") path[p.name] = v;
    else if (p.in === "query") query[p.name] = v;
    else if (p.in === "header") headers[p.name] = Array.isArray(v) ? v.map(String).join(",") : String(v);
  }
  const mediaType = op.request?.body?.mediaType ?? op.positive?.bodyMediaType;
  return { path, query, headers, ...(body !== undefined ? { body, ...(mediaType !== undefined ? { contentType: mediaType } : {}) } : {}) };
}

type Obj = Readonly<Record<string, unknown>>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** The members `schema` marks readOnly at its top level (through `$ref` and `allOf`): a server sets them, a client does not send them. */
function readOnlyMembers(schema: unknown, root: unknown, depth = 0): Set<string> {
  const out = new Set<string>();
  if (!isObj(schema) || depth > 8) return out;
  if (typeof schema["$ref"] === "string") for (const n of readOnlyMembers(resolvePointer(root, schema["$ref"]), root, depth + 1)) out.add(n);
  if (Array.isArray(schema["allOf"])) for (const part of schema["allOf"]) for (const n of readOnlyMembers(part, root, depth + 1)) out.add(n);
  if (isObj(schema["properties"])) {
    for (const [name, prop] of Object.entries(schema["properties"])) {
      const p = isObj(prop) && typeof prop["$ref"] === "string" ? resolvePointer(root, prop["$ref"]) : prop;
      if (isObj(p) && p["readOnly"] === true) out.add(name);
    }
  }
  return out;
}

/**
 * A valid positive request for `op`: index 0 is the plan's example-based request when the
 * validators accept it; every other index (and index 0 without one) is drawn from the schemas with a
 * seed derived from `seed`, the operation and the index. `fixed` values (discovered path ids) win.
 */
export function buildPositive(
  op: OperationCase,
  index: number,
  seed: number,
  fixed: Readonly<Record<string, unknown>>,
  tools: SuiteTools,
  root: unknown,
  fixedBody: Readonly<Record<string, unknown>> = {},
  refQuery: Readonly<Record<string, unknown>> = {},
): Built {
  // Drawn members naming other objects take the values the server listed instead.
  const withRefs = (body: unknown): unknown => {
    if (!isObj(body)) return body;
    const out: Record<string, unknown> = { ...body };
    // The member naming the object an RPC-style operation acts on is sent even where it is optional.
    // So are the members an undo takes from what it undoes (`undoes`: the caller gives only members the body has).
    const own = new Set((op.references ?? []).filter((r) => r.own !== undefined && r.in === "body").map((r) => r.name));
    for (const [k, v] of Object.entries(fixedBody)) if (Object.prototype.hasOwnProperty.call(out, k) || own.has(k) || op.undoes !== undefined) out[k] = v;
    return out;
  };
  const valid = (values: Readonly<Record<string, unknown>>, body: unknown): string | undefined => {
    if (!tools.validateRequest) return undefined;
    const verdict = tools.validateRequest(op.id, requestInput(op, values, body));
    return verdict.valid ? undefined : verdict.problem.errors.map((e) => e.message).join("; ");
  };
  const example = op.positive;
  let why = "";
  if (index === 0 && example) {
    const values = { ...example.values, ...fixed };
    // The contract's own example names its objects: it is sent as stated (drawn requests take listed ones).
    const body = example.body;
    const problem = valid(values, body);
    if (problem === undefined) return { ok: true, request: { values, body, origin: "example" } };
    why = `the contract's examples: ${problem}`;
  }
  const request = op.request;
  const mock = tools.mock;
  if (!request || !mock) return { ok: false, why: why || "the package lends the suite no mock-data generator" };
  for (let attempt = 0; attempt < 12; attempt++) {
    const s = deriveSeed(seed, `${op.id}#${index}#${attempt}`);
    const rng = createRng(s);
    const values: Record<string, unknown> = {};
    try {
      for (const p of op.parameters) {
        if (fixed[p.name] !== undefined) {
          values[p.name] = fixed[p.name];
          continue;
        }
        // A cursor is the server's to give: an invented one only tests the server's refusal.
        if (p.name === op.pagination?.cursorParam) continue;
        const schema = request.parameters[p.name];
        // Optional parameters come and go with the seed; later attempts send fewer of them.
        const include = p.required || p.in === "path" || rng.chance(attempt < 6 ? 0.5 : 0.15);
        if (!include) continue;
        if (schema === undefined) {
          if (example?.values[p.name] !== undefined) values[p.name] = example.values[p.name];
          continue;
        }
        // A member naming another object takes one the server listed, not a drawn one.
        values[p.name] = refQuery[p.name] ?? mock(schema, deriveSeed(s, p.name));
      }
      let body: unknown = example?.body;
      if (request.body) {
        const drawn = mock(request.body.schema as MockSchema, deriveSeed(s, "body"));
        if (isObj(drawn)) {
          const readOnly = readOnlyMembers(request.body.schema, root);
          body = withRefs(Object.fromEntries(Object.entries(drawn).filter(([k]) => !readOnly.has(k))));
        } else body = drawn;
      }
      const problem = valid(values, body);
      if (problem === undefined) return { ok: true, request: { values, body, origin: "schema", seed: s } };
      why = problem;
    } catch (err) {
      why = (err as Error).message;
    }
  }
  return { ok: false, why };
}
