/**
 * Runs a generated conformance plan with vitest: every operation's positive case, its negative
 * cases, its security cases, its examples, and the state scenarios, against `CONTRACT_BASE_URL` or
 * the module named by `CONTRACT_TARGET` (conformance-target.ts). Failure messages name the operation and the violation.
 */
import type { AuthConfig } from "./auth.js";
import { resolveTarget, type ConformanceTarget } from "./conformance-target.js";
import type { SchemeKind, SecurityAlternatives } from "./security.js";
import { createTransport, type RawResponse, type Transport } from "./transport.js";
import type { QueryParam } from "./url.js";
import type { ResponseValidation } from "./validation.js";

export interface PlanParameter {
  readonly name: string;
  readonly in: "path" | "query" | "header" | "cookie";
  readonly required: boolean;
  readonly style: string;
  readonly explode: boolean;
}

export interface NegativeCase {
  readonly label: string;
  /** The name the server's answer must carry (a parameter, or `body` plus a pointer). */
  readonly parameter: string;
  readonly in: "path" | "query" | "header" | "body";
  readonly set?: Readonly<Record<string, unknown>>;
  readonly remove?: readonly string[];
  readonly bodyRemove?: string;
  readonly bodySet?: { readonly pointer: string; readonly value: unknown };
  readonly bodyOverfill?: { readonly pointer: string; readonly count: number };
  readonly bodyPatch?: { readonly pointer: string; readonly set: Readonly<Record<string, unknown>>; readonly remove: readonly string[] };
  readonly rule?: string;
  readonly message?: string;
}

export interface OperationCase {
  readonly id: string;
  readonly method: string;
  readonly path: string;
  readonly security: readonly (readonly string[])[];
  readonly parameters: readonly PlanParameter[];
  /** Set when the contract does not show the operation: reported as skipped, with this reason. */
  readonly skip?: string;
  /** Set when no valid request can be built from the contract: why. */
  readonly missing?: string;
  readonly positive?: { readonly values: Readonly<Record<string, unknown>>; readonly body?: unknown; readonly bodyMediaType?: string };
  readonly discover?: Readonly<Record<string, { readonly operationId: string; readonly items: string; readonly field: string }>>;
  readonly negatives?: readonly NegativeCase[];
  readonly examples?: readonly { readonly status: string; readonly mediaType: string; readonly example: unknown }[];
}

export type Scenario =
  | { readonly kind: "repeatDelete"; readonly operationId: string; readonly createOperationId?: string; readonly row: string }
  | { readonly kind: "softDelete"; readonly operationId: string; readonly listOperationId: string; readonly createOperationId?: string; readonly row: string }
  | { readonly kind: "bearerLifecycle"; readonly create: string; readonly invalidate: string; readonly probe: string; readonly row: string };

export interface ConformancePlan {
  readonly package: string;
  readonly title: string;
  /** The contract declares the invalid-request problem: refusals must name the parameter. */
  readonly namesParameters: boolean;
  /** Slug of that problem type: a problem refusing a 400 must carry it (`{problem_base}/<slug>`). */
  readonly invalidRequestSlug?: string;
  readonly operations: readonly OperationCase[];
  readonly scenarios: readonly Scenario[];
}

type Fn = (context: { skip(note?: string): void }) => unknown | Promise<unknown>;
/** The part of vitest the suite uses, passed in so the runtime does not depend on vitest. */
export interface TestApi {
  describe: (name: string, fn: () => void) => void;
  it: ((name: string, fn: Fn, timeout?: number) => void) & { skip: (name: string, fn: Fn) => void };
  expect: (value: unknown, message?: string) => { toBe(v: unknown): void; toBeLessThan(v: number): void; toBeGreaterThanOrEqual(v: number): void };
  beforeAll: (fn: () => unknown, timeout?: number) => void;
  afterAll: (fn: () => unknown) => void;
}

export type ResponseValidator = (operationId: string, status: number, contentType: string | undefined, body: unknown) => ResponseValidation;

type Target = ConformanceTarget;

function pointerSegments(pointer: string): string[] {
  return pointer.split("/").slice(1).map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function getAt(value: unknown, pointer: string): unknown {
  let node = value;
  for (const seg of pointerSegments(pointer)) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[seg];
  }
  return node;
}

/** A deep copy with the value at `pointer` replaced by `f(old)`; `undefined` from f removes it. */
function updateAt(value: unknown, pointer: string, f: (old: unknown) => unknown): unknown {
  const segs = pointerSegments(pointer);
  if (segs.length === 0) return f(value);
  const copy = structuredClone(value) as Record<string, unknown>;
  let node: Record<string, unknown> = copy;
  for (const seg of segs.slice(0, -1)) {
    const next = node[seg];
    if (next === null || typeof next !== "object") return copy;
    node = next as Record<string, unknown>;
  }
  const last = segs[segs.length - 1] as string;
  const out = f(node[last]);
  if (out === undefined) delete node[last];
  else node[last] = out;
  return copy;
}

function describeResponse(r: RawResponse): string {
  const body = r.body === undefined ? "no body" : JSON.stringify(r.body).slice(0, 300);
  return `${r.status} ${r.contentType ?? "(no content type)"} ${body}`;
}

export function runConformance(api: TestApi, plan: ConformancePlan, validateResponse: ResponseValidator): void {
  const { describe, it, expect, beforeAll, afterAll } = api;
  let target: Target | undefined;
  const transports = new Map<string, Transport>();
  const transportFor = (auth: AuthConfig | "none" | "target"): Transport => {
    const t = target as Target;
    const key = auth === "target" ? "target" : auth === "none" ? "none" : JSON.stringify(auth);
    let tr = transports.get(key);
    if (!tr) {
      tr = createTransport({ baseUrl: t.baseUrl, auth: auth === "target" ? t.auth : auth === "none" ? {} : auth, retry: false, timeoutMs: 15_000 });
      transports.set(key, tr);
    }
    return tr;
  };
  const byId = new Map(plan.operations.map((o) => [o.id, o]));
  const discovered = new Map<string, unknown>();

  beforeAll(async () => {
    target = await resolveTarget();
  }, 60_000);
  afterAll(async () => {
    await target?.close?.();
  });

  const securityOf = (op: OperationCase): SecurityAlternatives | undefined => {
    const alts = op.security.filter((a) => a.every((k) => k !== "unsupported")) as SchemeKind[][];
    return op.security.length === 0 ? [] : alts.length > 0 ? alts : undefined;
  };

  /** Path values for an operation: discovered from its parent collection, else the plan's sample. */
  async function pathValues(op: OperationCase, depth = 0): Promise<Record<string, unknown>> {
    const values: Record<string, unknown> = {};
    for (const p of op.parameters.filter((x) => x.in === "path")) {
      const how = op.discover?.[p.name];
      const key = how ? `${how.operationId}:${how.field}` : undefined;
      if (how && key && depth < 6) {
        if (!discovered.has(key)) {
          const list = byId.get(how.operationId);
          if (list) {
            const res = await send(list, { ...(list.positive?.values ?? {}), ...(await pathValues(list, depth + 1)) }, undefined);
            const first = (getAt(res.body, how.items) as unknown[] | undefined)?.[0];
            const value = first !== null && typeof first === "object" ? (first as Record<string, unknown>)[how.field] : undefined;
            if (value !== undefined) discovered.set(key, value);
          }
        }
        if (discovered.has(key)) {
          values[p.name] = discovered.get(key);
          continue;
        }
      }
      values[p.name] = op.positive?.values[p.name] ?? "1";
    }
    return values;
  }

  function send(op: OperationCase, values: Record<string, unknown>, body: unknown, auth: AuthConfig | "none" | "target" = "target"): Promise<RawResponse> {
    const pathParams: Record<string, string | number | boolean> = {};
    const query: QueryParam[] = [];
    const headers: Record<string, string> = {};
    for (const p of op.parameters) {
      const v = values[p.name];
      if (v === undefined) continue;
      if (p.in === "path") pathParams[p.name] = v as string;
      else if (p.in === "query") query.push({ name: p.name, value: v, style: p.style as QueryParam["style"], explode: p.explode });
      else if (p.in === "header") headers[p.name] = String(v);
    }
    const security = securityOf(op);
    return transportFor(auth).request({
      method: op.method as "GET",
      path: op.path,
      pathParams,
      query,
      headers,
      ...(body !== undefined ? { body, contentType: op.positive?.bodyMediaType ?? "application/json" } : {}),
      ...(auth === "none" ? { security: [[]] } : security ? { security } : {}),
    });
  }

  const where = (op: OperationCase): string => `${op.id} (${op.method} ${op.path})`;
  const checkShape = (op: OperationCase, res: RawResponse): void => {
    const verdict = validateResponse(op.id, res.status, res.contentType, res.body);
    const why = verdict.valid ? "" : verdict.errors.map((e) => e.message).join("; ");
    expect(verdict.valid, `${where(op)} answered ${describeResponse(res)}, which breaks the contract: ${why}`).toBe(true);
  };
  /** A 401 must fit the contract when the contract declares one; when it does not, the status is all it states. */
  const check401 = (op: OperationCase, res: RawResponse): void => {
    const verdict = validateResponse(op.id, 401, res.contentType, res.body);
    const undeclared = !verdict.valid && verdict.errors.length === 1 && /status 401 is not declared/.test(verdict.errors[0]?.message ?? "");
    if (!undeclared) checkShape(op, res);
  };

  // Reads first, then writes, then the state scenarios, then plain deletes: a scenario deletes an
  // object it expects to exist, and a delete case must not remove it first.
  const order = (m: string): number => (m === "GET" ? 0 : m === "DELETE" ? 2 : 1);
  const operations = [...plan.operations].sort((a, b) => order(a.method) - order(b.method));
  const early = operations.filter((o) => o.method !== "DELETE");
  const late = operations.filter((o) => o.method === "DELETE");

  const operationCases = (op: OperationCase): void =>
      describe(op.id, () => {
        if (op.skip !== undefined) {
          it.skip(`${op.id}: skipped, ${op.skip}`, () => undefined);
          return;
        }
        for (const [i, ex] of (op.examples ?? []).entries()) {
          it(`${op.id}: example ${i + 1} of ${ex.status} ${ex.mediaType} validates`, () => {
            const status = /^\d{3}$/.test(ex.status) ? Number(ex.status) : ex.status === "default" ? 599 : Number(ex.status[0]) * 100;
            const verdict = validateResponse(op.id, status, ex.mediaType, ex.example);
            expect(verdict.valid, `${where(op)}: the contract's own example does not validate`).toBe(true);
          });
        }
        if (op.missing !== undefined || !op.positive) {
          it.skip(`${op.id}: no valid request can be built: ${op.missing ?? "no positive case"}`, () => undefined);
          return;
        }
        const positive = op.positive;
        it(`${op.id}: answers a valid request with a declared status, media type and body`, async () => {
          const res = await send(op, { ...positive.values, ...(await pathValues(op)) }, positive.body);
          expect(res.status, `${where(op)} answered ${describeResponse(res)}: a server error`).toBeLessThan(500);
          checkShape(op, res);
        });
        for (const neg of op.negatives ?? []) {
          it(`${op.id}: refuses a request ${neg.label}`, async () => {
            const values: Record<string, unknown> = { ...positive.values, ...(await pathValues(op)) };
            for (const r of neg.remove ?? []) if (neg.in !== "body") delete values[r];
            if (neg.in !== "body") Object.assign(values, neg.set ?? {});
            let body = positive.body;
            if (neg.bodyRemove) body = updateAt(body, neg.bodyRemove, () => undefined);
            if (neg.bodySet) body = updateAt(body, neg.bodySet.pointer, () => neg.bodySet?.value);
            if (neg.bodyOverfill) {
              const { pointer, count } = neg.bodyOverfill;
              body = updateAt(body, pointer, (old) => {
                const items = Array.isArray(old) ? old : [];
                return Array.from({ length: count }, (_, i) => items[i % Math.max(items.length, 1)] ?? {});
              });
            }
            if (neg.bodyPatch) {
              const patch = neg.bodyPatch;
              body = updateAt(body, patch.pointer, (old) => {
                const obj = { ...((old ?? {}) as Record<string, unknown>), ...patch.set };
                for (const r of patch.remove) delete obj[r];
                return obj;
              });
            }
            const res = await send(op, values, body);
            const refused = res.status >= 400 && res.status < 500;
            expect(refused, `${where(op)} accepted a request ${neg.label}: answered ${describeResponse(res)}, expected a 4xx refusal`).toBe(true);
            checkShape(op, res);
            // Where the contract declares the invalid-request problem, the refusal must say what to fix;
            // its media type was checked above against what the operation declares.
            const type = res.body !== null && typeof res.body === "object" ? (res.body as Record<string, unknown>)["type"] : undefined;
            if (plan.invalidRequestSlug !== undefined && res.status === 400 && typeof type === "string") {
              expect(type.endsWith(`/${plan.invalidRequestSlug}`), `${where(op)} refused ${neg.label} with problem type ${type}, expected {problem_base}/${plan.invalidRequestSlug}`).toBe(true);
            }
            if (plan.namesParameters && res.status !== 401 && res.status !== 413) {
              const text = JSON.stringify(res.body ?? "");
              const named = text.includes(JSON.stringify(neg.parameter)) || (neg.message !== undefined && text.includes(neg.message)) || text.includes(neg.parameter);
              expect(named, `${where(op)} refused ${neg.label} without naming ${neg.parameter}: ${describeResponse(res)}`).toBe(true);
            }
          });
        }
        const security = securityOf(op);
        if (security && security.length > 0 && security.every((a) => a.length > 0)) {
          it(`${op.id}: refuses a request without credentials with 401 in the contract's shape`, async () => {
            const res = await send(op, { ...positive.values, ...(await pathValues(op)) }, positive.body, "none");
            expect(res.status, `${where(op)} answered ${describeResponse(res)} without credentials, expected 401`).toBe(401);
            check401(op, res);
          });
          it(`${op.id}: refuses wrong credentials with 401 in the contract's shape`, async () => {
            const kind = security[0]?.[0];
            const t = target as Target;
            const wrong: AuthConfig =
              kind === "basic"
                ? { basic: { username: "wrong-key", password: "wrong-secret" } }
                : kind === "oauth1"
                  ? { oauth1: { consumerKey: t.auth.oauth1?.consumerKey ?? "wrong-key", consumerSecret: "wrong-secret", token: t.auth.oauth1?.token ?? "wrong-token", tokenSecret: "wrong-secret" } }
                  : { bearer: "wrong-token" };
            const res = await send(op, { ...positive.values, ...(await pathValues(op)) }, positive.body, wrong);
            expect(res.status, `${where(op)} answered ${describeResponse(res)} to wrong credentials, expected 401`).toBe(401);
            check401(op, res);
          });
        }
      });

  describe(`${plan.title}: conformance`, () => {
    for (const op of early) operationCases(op);

    if (plan.scenarios.length > 0) describe("state transitions", () => {
      for (const sc of plan.scenarios) {
        it(`${sc.row}`, async (context) => {
          const t = target as Target;
          // A live server's data is not changed unless asked (contractgen test --destructive).
          if (!t.destructive) return context.skip("changes data on the server: run with --destructive");
          if (sc.kind === "bearerLifecycle") {
            const create = byId.get(sc.create) as OperationCase;
            const basic: AuthConfig = t.auth.basic ? { basic: t.auth.basic } : {};
            const issue = async (): Promise<string> => {
              const res = await send(create, { ...(create.positive?.values ?? {}) }, create.positive?.body, basic);
              expect(res.status, `${where(create)} answered ${describeResponse(res)}`).toBe(200);
              return String((res.body as Record<string, unknown>)["access_token"]);
            };
            const first = await issue();
            expect(await issue(), `${where(create)}: a repeated request must return the same token until it is invalidated`).toBe(first);
            const inv = byId.get(sc.invalidate) as OperationCase;
            const invRes = await send(inv, {}, { access_token: first }, basic);
            expect(invRes.status, `${where(inv)} answered ${describeResponse(invRes)}`).toBeLessThan(300);
            const probe = byId.get(sc.probe) as OperationCase;
            const refused = await send(probe, { ...(probe.positive?.values ?? {}), ...(await pathValues(probe)) }, probe.positive?.body, { bearer: first });
            expect(refused.status, `${where(probe)} accepted an invalidated token: ${describeResponse(refused)}`).toBe(401);
            const second = await issue();
            expect(second !== first, `${where(create)}: after invalidation a new token must differ`).toBe(true);
            return;
          }
          const del = byId.get(sc.operationId) as OperationCase;
          const values: Record<string, unknown> = { ...(del.positive?.values ?? {}), ...(await pathValues(del)) };
          const lastParam = del.parameters.filter((p) => p.in === "path").at(-1)?.name;
          const create = sc.createOperationId !== undefined ? byId.get(sc.createOperationId) : undefined;
          if (create && lastParam) {
            // Delete an object made for the purpose, not one other cases read.
            const made = await send(create, { ...(create.positive?.values ?? {}), ...(await pathValues(create)) }, create.positive?.body);
            expect(made.status >= 200 && made.status < 300, `${where(create)} answered ${describeResponse(made)} while making an object to delete`).toBe(true);
            const data = getAt(made.body, "/data");
            const obj = (Array.isArray(data) ? data[0] : data) as Record<string, unknown> | undefined;
            values[lastParam] = obj?.["id"] ?? obj?.["media_key"] ?? values[lastParam];
          }
          discovered.clear();
          const first = await send(del, values, undefined);
          expect(first.status >= 200 && first.status < 300, `${where(del)} answered ${describeResponse(first)} to the first delete`).toBe(true);
          checkShape(del, first);
          if (sc.kind === "repeatDelete") {
            const again = await send(del, values, undefined);
            expect(again.status, `${where(del)}: a repeated delete must answer 404, answered ${describeResponse(again)}`).toBe(404);
            return;
          }
          const list = byId.get(sc.listOperationId) as OperationCase;
          const listValues = { ...(list.positive?.values ?? {}), ...(await pathValues(list)) };
          const last = del.parameters.filter((p) => p.in === "path").at(-1)?.name as string;
          const id = values[last];
          const ids = (res: RawResponse): unknown[] => ((getAt(res.body, "/data") as Record<string, unknown>[] | undefined) ?? []).map((x) => x["id"] ?? x["media_key"]);
          const hidden = await send(list, listValues, undefined);
          expect(ids(hidden).includes(id), `${where(list)} still lists ${String(id)} after ${del.id} without with_deleted=true`).toBe(false);
          const shown = await send(list, { ...listValues, with_deleted: true }, undefined);
          expect(ids(shown).includes(id), `${where(list)} does not list deleted ${String(id)} with with_deleted=true`).toBe(true);
        }, 30_000);
      }
    });

    for (const op of late) operationCases(op);
  });
}
