/**
 * Runs a generated conformance plan with vitest against `CONTRACT_BASE_URL` or the server a
 * `CONTRACT_TARGET` module starts (conformance-target.ts). Per operation: the contract's examples,
 * several valid requests (the examples' and ones drawn from the schemas with a seed, each accepted by
 * the package's own request validators first), boundary values, negatives, credentials and paging;
 * then state sequences. Every failure names the operation, the violation, the seed and a curl
 * command that repeats the request.
 */
import type { BoundaryCase, ConformancePlan, FilterPlan, LifecycleScenario, OperationCase, ResponseValidator, SuiteTools, TestApi } from "./plan.js";
import { positiveOrFail, reproduction, where, type RunContext } from "./context.js";
import { brokenRules, checkPagination, exchangeOf, itemKey } from "./invariants.js";
import { createSender, describeResponse, getAt, ok2xx, securityOf, updateAt, type StreamedResponse } from "./request.js";
import { runScenario } from "./sequences.js";
import { runWorkflow } from "./workflows.js";
import { requestInput } from "./synth.js";
import { resolveTarget, type ConformanceTarget } from "./target.js";
import { ObjectPool } from "./objects.js";
import { caseProbes, filterValues, innerProbes, keysOf, mayKeep, memberValues, mustKeep, shortProbes } from "./filters.js";
import { walkAll } from "./walk.js";
import { inOtherOffset } from "./zones.js";
import { subject } from "./lists.js";
import { itemsDisagree, readAgreesWithList } from "./views.js";
import { watchAnother } from "./isolation.js";
import { defaultDifferences, statedDefaults } from "./defaults.js";
import { fewerMembers } from "./fewer.js";
import { deref, itemsOf, memberNames, memberSchema, schemaAt } from "./schema-walk.js";
import { maximalRequest } from "./maximal.js";
import { cutShortMember } from "./kept-whole.js";
import { writeThroughAnother } from "./scope-writes.js";
import { listedUnderAnother } from "./list-scope.js";
import { naming, referencedLife, sendDeletedReference } from "./deleted-references.js";
import { sameValue } from "./invariants.js";
import type { MockSchema } from "../mock/mock-data.js";
import { deriveSeed } from "../shared/prng.js";
import { defaultsLost, fieldsHaveEffect, keyOf, missingAlways, objectsAt, referencesOf, selectionProblems, subsetsToAsk } from "./field-selection.js";
import { createSchemaMatcher } from "../shared/schema-match.js";
import { buildPositive } from "./synth.js";
import type { AuthConfig } from "../client/auth.js";
import type { RawResponse } from "../client/transport.js";

export type * from "./plan.js";
export { resolveTarget, type ConformanceTarget } from "./target.js";

/** Valid requests per operation: the examples' and ones drawn from the schemas. @default 3 */
function casesPerOperation(env: Readonly<Record<string, string | undefined>>): number {
  const n = Number(env["CONTRACT_CASES"] ?? 3);
  return Number.isInteger(n) && n >= 1 && n <= 50 ? n : 3;
}

function runSeed(env: Readonly<Record<string, string | undefined>>): number {
  const n = Number(env["CONTRACT_SEED"] ?? 1);
  return Number.isSafeInteger(n) ? n : 1;
}

/**
 * @param tools the package's validators and mock-data generator (a bare response validator is
 * accepted too: then only the contract's examples are sent)
 * @param root the package's mock document, where the plan's `#/components/schemas/…` resolve
 */
export function runConformance(api: TestApi, plan: ConformancePlan, tools: SuiteTools | ResponseValidator, root: unknown = {}): void {
  const { describe, expect, beforeAll, afterAll } = api;
  /**
   * Every case, but for one that would only meet a server that stopped answering: once a request
   * got no answer, later cases first check that the server answers again, and are skipped if not.
   */
  const it = Object.assign(
    (name: string, fn: Parameters<TestApi["it"]>[1], timeout?: number): void =>
      api.it(
        name,
        async (context) => {
          if (sender.down !== undefined && !(await answers(current().baseUrl))) return context.skip(`the server stopped answering: ${sender.down}`);
          if (sender.revoked !== undefined) return context.skip(sender.revoked);
          const hadCredentials = sender.revoked === undefined;
          try {
            return await fn(context);
          } catch (error) {
            // The credentials died during this case: its failure is theirs, not the operation's.
            if (hadCredentials && sender.revoked !== undefined) return context.skip(sender.revoked);
            // An answer whose head came (2xx) but whose body never ended: a stream, not a hang.
            const open = sender.openAnswer;
            if (open !== undefined && error instanceof Error && error.name === "TimeoutError") return context.skip(open);
            throw error;
          }
        },
        timeout,
      ),
    { skip: api.it.skip },
  );
  const suiteTools: SuiteTools = typeof tools === "function" ? { validateResponse: tools } : tools;
  const env = process.env;
  const seed = runSeed(env);
  const cases = casesPerOperation(env);
  // Credentials are printed in curl commands only for a server the suite started itself (a mock).
  const reveal = !env["CONTRACT_BASE_URL"];
  let target: ConformanceTarget | undefined;
  const current = (): ConformanceTarget => {
    if (!target) throw new Error("the conformance target did not start (see the beforeAll failure)");
    return target;
  };
  const sender = createSender(current);
  const matches = createSchemaMatcher(root, { now: Date.now() });
  const byId = new Map(plan.operations.map((o) => [o.id, o]));
  /** Operations whose invalid requests were refused with a 4xx their contract does not declare. */
  const undeclared = new Set<string>();
  /** The read of the object at `path` (a GET of the same path the plan does not skip). */
  const readOf = (path: string): OperationCase | undefined => plan.operations.find((o) => o.method === "GET" && o.path === path && o.skip === undefined);
  const pool = new ObjectPool({
    op: (id) => byId.get(id),
    // A member's own path (`/posts/{post_id}/name`) is read at its object's.
    readAt: (path) => readOf(path) ?? plan.operations.find((o) => o.method === "GET" && o.path === path.replace(/(\})\/[^/{}]+$/, "$1") && o.path !== path && o.skip === undefined),
    ops: () => plan.operations,
    cloneRequest: (create, template, key, renewKey, fixed) => {
      const built = buildPositive(create, 0, seed, fixed, suiteTools, root);
      if (!built.ok) return undefined;
      const keyValue = template[key];
      // Every text that holds the listed object's key gets the new one (its name, its URL).
      const renew = (v: unknown): unknown => {
        if (typeof v !== "string" || typeof keyValue !== "string" || keyValue === "") return v;
        if (v.includes(keyValue)) return v.split(keyValue).join(renewKey(keyValue));
        // A text the key holds (the name `seeded-key` of the key `seeded-key.`) names the same object.
        if (v.length >= 3 && keyValue.includes(v)) return renewKey(v);
        return v;
      };
      const baseValues = built.request.values;
      const baseBody = built.request.body;
      const values: Record<string, unknown> = { ...baseValues };
      const copied = new Set<string>();
      for (const p of create.parameters) {
        if (p.in !== "query" || template[p.name] === undefined || template[p.name] === null) continue;
        values[p.name] = renew(template[p.name]);
        copied.add(p.name);
      }
      const isBody = create.request?.body !== undefined && baseBody !== null && typeof baseBody === "object" && !Array.isArray(baseBody);
      // Only the listed object's members, and drawn ones only where the contract requires them: a
      // drawn member is what the server refused in the first place.
      const body: Record<string, unknown> | undefined = isBody ? {} : undefined;
      if (body && create.request?.body)
        for (const [k, v] of Object.entries(template)) {
          if (v === null || memberSchema(root, create.request.body.schema, k) === undefined) continue;
          body[k] = renew(v);
          copied.add(`body/${k}`);
        }
      // A copied member the request may not carry (a read-only one the server set): back to the plain request's.
      for (let round = 0; round < 12; round++) {
        const verdict = suiteTools.validateRequest?.(create.id, requestInput(create, { ...values, ...fixed }, body ?? baseBody));
        if (!verdict || verdict.valid) return { values, body: body ?? baseBody };
        const named = verdict.problem.errors.flatMap((e) => Object.keys(e.parameters)).map((n) => (n.startsWith("body/") ? `body/${n.split("/")[1] ?? ""}` : n));
        // A required member the copy lacks: the drawn request's.
        const lacking = named.filter(
          (n) =>
            n.startsWith("body/") &&
            !copied.has(n) &&
            body !== undefined &&
            !Object.prototype.hasOwnProperty.call(body, n.slice(5)) &&
            Object.prototype.hasOwnProperty.call(baseBody as Record<string, unknown>, n.slice(5)),
        );
        for (const n of lacking) if (body) body[n.slice(5)] = (baseBody as Record<string, unknown>)[n.slice(5)];
        const culprits = named.filter((n) => copied.has(n));
        if (culprits.length === 0 && lacking.length === 0) return undefined;
        for (const n of culprits) {
          copied.delete(n);
          if (n.startsWith("body/") && body) delete body[n.slice(5)];
          else if (baseValues[n] !== undefined) values[n] = baseValues[n];
          else delete values[n];
        }
      }
      return undefined;
    },
    send: (op, values, body) => sender.send(op, values, body),
    variants: (op, req) => variantsOf(op, req.values, req.body),
    // Producers' own requests take no references: a list never waits on another list's answer.
    request: async (op, index, fixed) => {
      const built = buildPositive(op, index, seed, fixed, suiteTools, root);
      return built.ok ? { values: { ...built.request.values, ...fixed }, body: built.request.body } : undefined;
    },
    given: () => current().values ?? {},
    accepts: (op, name, value) => {
      const schema = op.request?.parameters[name];
      // Values travel as text: a listed number fits a parameter typed as text.
      return schema === undefined || matches(schema, value) || (typeof value === "number" && matches(schema, String(value)));
    },
    disposable: () => current().disposable === true,
  });

  beforeAll(async () => {
    target = await resolveTarget();
  }, 60_000);
  afterAll(async () => {
    await target?.close?.();
  });

  const check = (ok: boolean, message: string): void => {
    // The trailing newline keeps vitest's own ": expected false to be true" off the curl line.
    expect(ok, ok ? message : message + reproduction(seed, sender, reveal) + "\n").toBe(true);
  };
  const checkShape = (op: OperationCase, res: StreamedResponse): void => {
    // A stream's messages are each an answer of the declared schema.
    for (const [i, message] of (res.messages ?? [res.body]).entries()) {
      const verdict = suiteTools.validateResponse(op.id, res.status, res.contentType, message);
      const which = res.messages ? ` (message ${i + 1} of its stream)` : "";
      check(verdict.valid, `${where(op)} answered ${describeResponse(res)}${which}, which breaks the contract: ${verdict.valid ? "" : verdict.errors.map((e) => e.message).join("; ")}`);
    }
  };

  const ctx: RunContext = {
    expect,
    tools: suiteTools,
    sender,
    seed,
    root,
    readBackComplete: plan.readBackComplete === true,
    target: current,
    op: (id) => byId.get(id),
    pool,
    forget: () => pool.forget(),
    send: (op, values, body, auth, oauth1) => sender.send(op, values, body, auth, oauth1),
    positive: async (op, index, fixed = {}) => {
      const found = await pool.referenceValues(op, fixed, index);
      const refs = op.undoes !== undefined ? { query: found.query, body: { ...found.body, ...(await doFirst(op, index, fixed, found.body)) } } : found;
      // Values given with the target name parameters of any kind (`--values '{"ids": [...]}'`).
      const given = current().values ?? {};
      const named: Record<string, unknown> = {};
      for (const p of op.parameters) if (p.in !== "path" && Object.prototype.hasOwnProperty.call(given, p.name)) named[p.name] = given[p.name];
      return positiveOrFail(ctx, op, index, { ...named, ...fixed }, refs);
    },
    check,
    checkShape,
    where,
    describe: describeResponse,
    pathValues: async (op) => (await pool.pathValues(op)).values,
  };

  /**
   * `fill.count` distinct items for an array member (a query parameter, or the body array at a
   * pointer), drawn from its item schema; the body's own items come first. Undefined when the
   * schema does not give that many distinct ones.
   */
  function fillItems(op: OperationCase, fill: NonNullable<BoundaryCase["fill"]>, body: unknown): unknown[] | undefined {
    const mock = suiteTools.mock;
    if (!mock || !op.request) return undefined;
    const arraySchema = fill.name !== undefined ? op.request.parameters[fill.name] : op.request.body ? schemaAt(root, op.request.body.schema, fill.pointer ?? "") : undefined;
    const itemSchema = arraySchema === undefined ? undefined : itemsOf(root, arraySchema);
    if (itemSchema === undefined) return undefined;
    const own = fill.pointer !== undefined ? getAt(body, fill.pointer) : undefined;
    const out: unknown[] = Array.isArray(own) ? [...own] : [];
    const seen = new Set(out.map((x) => JSON.stringify(x)));
    for (let k = 0; out.length < fill.count && k < fill.count * 3; k++) {
      const v = mock(itemSchema as MockSchema, deriveSeed(seed, `${op.id}/fill/${k}`));
      const text = JSON.stringify(v);
      if (v === undefined || seen.has(text)) continue;
      seen.add(text);
      out.push(v);
    }
    return out.length === fill.count ? out : undefined;
  }

  /**
   * For an operation that undoes another's effect (`revoke` of `grant`): that one sent first on the
   * same object, and the members it sent (at any depth, by name) that `op`'s body takes, so the undo
   * has something to undo. Nothing when it was refused.
   */
  async function doFirst(op: OperationCase, index: number, fixed: Readonly<Record<string, unknown>>, refBody: Readonly<Record<string, unknown>>): Promise<Record<string, unknown>> {
    const doer = op.undoes !== undefined ? byId.get(op.undoes) : undefined;
    const ownName = op.references?.find((r) => r.own !== undefined)?.name;
    const doerOwn = doer?.references?.find((r) => r.own !== undefined)?.name;
    const value = ownName !== undefined ? refBody[ownName] : undefined;
    if (!doer || doerOwn === undefined || value === undefined || !op.request?.body) return {};
    const others = await pool.referenceValues({ ...doer, references: (doer.references ?? []).filter((r) => r.own === undefined) }, fixed, index);
    const req = positiveOrFail(ctx, doer, index, fixed, { query: others.query, body: { ...others.body, [doerOwn]: value } });
    const res = await sender.send(doer, { ...req.values, ...fixed }, req.body);
    if (!ok2xx(res)) return {};
    const leaves: Record<string, unknown> = {};
    const walk = (v: unknown, depth: number): void => {
      if (v === null || typeof v !== "object" || Array.isArray(v) || depth > 4) return;
      for (const [k, x] of Object.entries(v)) {
        if (x !== null && typeof x === "object") walk(x, depth + 1);
        else if (!Object.prototype.hasOwnProperty.call(leaves, k)) leaves[k] = x;
      }
    };
    walk(req.body, 0);
    const out: Record<string, unknown> = {};
    const bodySchema = op.request.body.schema;
    for (const [k, v] of Object.entries(leaves)) if (k !== doerOwn && k !== ownName && memberSchema(root, bodySchema, k) !== undefined) out[k] = v;
    return out;
  }

  /** The first valid request of `op` on objects the server has; undefined (and the case skipped with why) when one is unknown. */
  async function primary(op: OperationCase, skip: (why: string) => void): Promise<{ values: Record<string, unknown>; body: unknown } | undefined> {
    const found = await pool.pathValues(op);
    if (found.missing.length > 0) {
      skip(pool.explain(op, found.missing));
      return undefined;
    }
    const req = await ctx.positive(op, 0, found.values);
    return { values: { ...req.values, ...found.values }, body: req.body };
  }

  /**
   * A refusal the case expects, sent on an object of its own where the operation deletes (a server
   * that wrongly accepts must not take away what other cases use); consumed if it was deleted.
   */
  async function sendRefusable(
    op: OperationCase,
    base: Readonly<Record<string, unknown>>,
    values: Record<string, unknown>,
    body: unknown,
    auth?: AuthConfig | "none",
  ): Promise<RawResponse | { why: string }> {
    if (caseKind(op) === "write") {
      const guard = await pool.guard(op, values);
      const res = await sender.send(op, values, body, auth);
      await guard.restore(res, body);
      return res;
    }
    if (caseKind(op) !== "delete") return sender.send(op, values, body, auth);
    const on = await pool.forCase(op, "delete");
    if ("why" in on) return on;
    // Path values the case broke on purpose stay broken; the others name the case's own object.
    const own: Record<string, unknown> = { ...values };
    for (const [k, v] of Object.entries(on.values)) if (values[k] === base[k]) own[k] = v;
    const res = await sender.send(op, own, body, auth);
    await on.done(res, body);
    return res;
  }

  /** A cursor the server gives for the list `op` (smallest page size), or undefined when it has one page. */
  async function realCursor(op: OperationCase, base: Readonly<Record<string, unknown>>): Promise<string | undefined> {
    const paging = op.pagination;
    if (!paging) return undefined;
    const values: Record<string, unknown> = { ...base };
    delete values[paging.cursorParam];
    if (paging.totalCount) delete values[paging.totalCount.param];
    if (paging.pageSize) values[paging.pageSize.name] = Math.max(paging.pageSize.minimum ?? 1, 1);
    const res = await sender.send(op, values, undefined);
    const next = getAt(res.body, paging.nextPointer);
    return typeof next === "string" && next !== "" ? next : undefined;
  }

  /** Everything every answer to a valid request must keep, beyond not being a 5xx. */
  const checkAnswer = (op: OperationCase, values: Readonly<Record<string, unknown>>, body: unknown, res: RawResponse): void => {
    // A refusal where the contract declares none at all: not judged here (a schema-valid request may
    // be refused for what it refers to); the missing declaration is reported once, by the
    // operation's own case, not once per request.
    if (op.undeclaredRefusals && res.status >= 400 && res.status < 500) {
      undeclared.add(op.id);
      return;
    }
    check(res.status < 500 || (op.declaredServerErrors ?? []).includes(res.status), `${where(op)} answered ${describeResponse(res)}: a server error`);
    checkShape(op, res);
    const headers = op.responseHeaders?.[String(res.status)] ?? op.responseHeaders?.[`${String(res.status)[0]}XX`] ?? [];
    const missing = headers.filter((h) => res.headers.get(h) === null);
    check(missing.length === 0, `${where(op)} answered ${res.status} without the header(s) the contract requires: ${missing.join(", ")}`);
    if (plan.echo !== undefined && res.status >= 200 && res.status < 300) {
      const wrong = echoProblems(op, values, getAt(res.body, plan.echo));
      check(wrong.length === 0, `${where(op)} answered ${describeResponse(res)}, whose echo of the request at ${plan.echo} ${wrong.join("; ")}`);
      // A batch echoes one entry per operation (`request[]` of {params}): each holds the path's parameters as sent.
      const parent = plan.echo.split("/").slice(0, -1).join("/");
      const entries = parent !== "" && getAt(res.body, plan.echo) === undefined ? getAt(res.body, parent) : undefined;
      if (Array.isArray(entries)) {
        const pathOnly = { ...op, parameters: op.parameters.filter((p) => p.in === "path") };
        const last = `/${plan.echo.split("/").at(-1) ?? ""}`;
        const each = entries.flatMap((entry, i) => echoProblems(pathOnly, values, getAt(entry, last)).map((w) => `entry ${i} ${w}`));
        check(each.length === 0, `${where(op)} answered ${describeResponse(res)}, whose echo of each operation at ${parent}/…${last} ${each.join("; ")}`);
      }
    }
    const broken = brokenRules(op.responseRules ?? [], exchangeOf(op, values, body, res), root);
    check(broken.length === 0, `${where(op)} answered ${describeResponse(res)}, breaking the contract's response rules: ${broken.join("; ")}`);
  };

  const operationCases = (op: OperationCase): void =>
    describe(op.id, () => {
      if (op.skip !== undefined) {
        // Skipped while running, not declared skipped: the reason then reaches the report's summary.
        const why = op.skip;
        api.it(`${op.id}: skipped, ${why}`, (context) => context.skip(why));
        return;
      }
      for (const [i, ex] of (op.examples ?? []).entries()) {
        it(`${op.id}: example ${i + 1} of ${ex.status} ${ex.mediaType} validates`, () => {
          const status = /^\d{3}$/.test(ex.status) ? Number(ex.status) : ex.status === "default" ? 599 : Number(ex.status[0]) * 100;
          const verdict = suiteTools.validateResponse(op.id, status, ex.mediaType, ex.example);
          expect(verdict.valid, `${where(op)}: the contract's own example does not validate`).toBe(true);
        });
      }
      // A delete's refusals come first: its valid requests consume the objects they delete. Other
      // operations' refusals run later, together (refusalsLater): an invalid request that stops a
      // server then cannot keep the valid requests of later operations from ever being sent.
      if (refusalsLater(op)) validRequests(op);
      else {
        refusals(op);
        validRequests(op);
      }
      listCases(op);
      defaultCases(op);
      fieldSelectionCases(op);
      ownershipCases(op);
      conditionalCases(op);
      scopeCases(op);
      scopedReferenceCases(op);
      deletedReferenceCases(op);
    });

  /** Whether `op`'s refusals wait until every operation's valid requests and the state sequences ran. */
  const refusalsLater = (op: OperationCase): boolean => op.skip === undefined && !op.destructive && caseKind(op) !== "delete";
  /** Whether `refusals(op)` has any case to add (an empty group is an error to vitest). */
  const hasRefusals = (op: OperationCase): boolean => (op.negatives ?? []).length > 0 || op.undeclaredRefusals === true || credentialsRequired(op) !== undefined;

  /**
   * Where every valid request of `op` was refused (a 4xx for a rule the contract does not state),
   * the same request with fewer optional members (fewer.ts) until one is served: each answer is
   * judged like any valid request's, and the operation is reached. Runs inside the last valid
   * request's case.
   */
  /** `fewerMembers` of a request of `op`: its path values kept, body enums offered value by value. */
  function variantsOf(op: OperationCase, values: Readonly<Record<string, unknown>>, body: unknown): readonly { values: Readonly<Record<string, unknown>>; body: unknown }[] {
    const keep = new Set(op.parameters.filter((p) => p.in === "path").map((p) => p.name));
    const valid = (v: Readonly<Record<string, unknown>>, b: unknown): boolean => suiteTools.validateRequest?.(op.id, requestInput(op, v, b)).valid ?? false;
    const bodySchema = op.request?.body?.schema;
    const choices = (member: string): readonly unknown[] => {
      const s = bodySchema === undefined ? undefined : deref(root, memberSchema(root, bodySchema, member));
      const allowed = s !== null && typeof s === "object" ? (s as Record<string, unknown>)["enum"] : undefined;
      return Array.isArray(allowed) ? allowed.slice(0, 6) : [];
    };
    return fewerMembers(values, body, keep, valid, 16, choices);
  }

  async function withFewerMembers(op: OperationCase): Promise<void> {
    const before = sender.answered(op.id);
    if (before.length === 0 || before.some((a) => a.status >= 200 && a.status < 300)) return;
    if (!before.some((a) => a.status >= 400 && a.status < 500 && a.status !== 401 && a.status !== 403 && a.status !== 429)) return;
    const base = await primary(op, () => undefined);
    if (!base) return;
    for (const variant of variantsOf(op, base.values, base.body)) {
      const target = await pool.forCase(op, caseKind(op));
      if ("why" in target) return;
      const values = { ...variant.values, ...target.values };
      const res = await sender.send(op, values, variant.body);
      await target.done(res, variant.body);
      checkAnswer(op, values, variant.body, res);
      if (ok2xx(res)) return;
    }
  }

  function validRequests(op: OperationCase): void {
    for (let i = 0; i < cases; i++) {
      it(`${op.id}: answers valid request ${i + 1} with a declared status, media type and body`, async (context) => {
        if (op.flowStep !== undefined) return context.skip(`valid requests are left to a sequence: ${op.flowStep}`);
        if (op.destructive && !current().destructive) return context.skip("changes data on the server (deletes or invalidates): run with --destructive");
        // Reads take another listed object each: every one the server lists must be readable.
        const on = await pool.forCase(op, caseKind(op), caseKind(op) === "read" && op.method === "GET" ? i : 0);
        if ("why" in on) return context.skip(on.why);
        const fixed = on.values;
        const req = await ctx.positive(op, i, fixed);
        const values = { ...req.values, ...fixed };
        // A write to one object (or under it): another of its collection is read at the same path before and after it.
        const sameAt = i === 0 && op.method !== "GET" && op.method !== "DELETE" && op.destructive !== true ? readOf(op.path) : undefined;
        const witness = sameAt ? await watchAnother(ctx, op, sameAt, values) : undefined;
        const res = await sender.send(op, values, req.body);
        await witness?.after(res);
        await on.done(res, req.body);
        // Not judged: a refusal of a schema-valid request for what it refers to (an unknown id, a
        // cursor the server never gave); the edge cases and sequences below judge acceptance.
        checkAnswer(op, values, req.body, res);
        const secured = (securityOf(op) ?? []).some((alt) => alt.length > 0);
        check(!(secured && res.status === 401), `${where(op)} refused the credentials it was given: ${describeResponse(res)}`);
        // A read of objects the server itself listed (or that were named with --values), sent as
        // the contract's examples have it, must find them.
        const pathNames = op.parameters.filter((p) => p.in === "path").map((p) => p.name);
        if (i === 0 && op.method === "GET" && pathNames.length > 0 && pathNames.every((n) => fixed[n] !== undefined) && req.origin === "example") {
          // A redirect finds the object too (Discourse's `GET /t/external_id/{id}.json` declares only
          // its 301 to the topic): whether the status is declared is checkAnswer's to judge.
          check(ok2xx(res) || (res.status >= 300 && res.status < 400), `${where(op)} answered ${describeResponse(res)} reading objects the server listed itself`);
        }
        if (op.method === "GET" && ok2xx(res)) await readAgreesWithList(ctx, op, values, res);
        if (i === cases - 1 && caseKind(op) !== "delete") await withFewerMembers(op);
      });
    }
    it(`${op.id}: answers a request sending every optional member it may`, async (context) => {
      if (op.flowStep !== undefined) return context.skip(`valid requests are left to a sequence: ${op.flowStep}`);
      if (op.destructive && !current().destructive) return context.skip("changes data on the server (deletes or invalidates): run with --destructive");
      const base = await primary(op, (why) => context.skip(why));
      if (!base) return;
      // Drawn requests send some optional members only: what the answer echoes or computes from the
      // others (a second list of keywords, a filter) is otherwise never asked for.
      const members = [...op.parameters.filter((p) => p.in === "query").map((p) => p.name), ...(op.request?.body ? memberNames(root, op.request.body.schema) : [])];
      // The object the case acts on comes from `forCase` below: only the other references' values are
      // fetched here (asking for an own one would make a second object on the server for nothing).
      const others = (op.references ?? []).filter((r) => r.own === undefined);
      const refs = others.length > 0 ? await pool.referenceValues({ ...op, references: others }, base.values) : { body: {} };
      const full = maximalRequest(ctx, op, base, Object.fromEntries(members.map((m) => [m, m])), "valid", refs.body);
      if (full.added.length === 0) return context.skip("the valid requests already carry every optional member the contract's validators allow beside the others");
      const on = await pool.forCase(op, caseKind(op));
      if ("why" in on) return context.skip(on.why);
      const values = { ...full.values, ...on.values };
      const res = await sender.send(op, values, full.body);
      await on.done(res, full.body);
      checkAnswer(op, values, full.body, res);
    });
    for (const b of op.boundaries ?? []) {
      it(`${op.id}: accepts a request ${b.label}`, async (context) => {
        if (op.flowStep !== undefined) return context.skip(`valid requests are left to a sequence: ${op.flowStep}`);
        if (op.destructive && !current().destructive) return context.skip("changes data on the server (deletes or invalidates): run with --destructive");
        const base = await primary(op, (why) => context.skip(why));
        if (!base) return;
        const values: Record<string, unknown> = { ...base.values, ...(b.set ?? {}) };
        let body = b.bodySet ? updateAt(base.body, b.bodySet.pointer, () => b.bodySet?.value) : base.body;
        if (b.equal) {
          const right =
            values[b.equal.right] ??
            (op.request?.parameters[b.equal.right] && suiteTools.mock
              ? suiteTools.mock(op.request.parameters[b.equal.right] as MockSchema, deriveSeed(seed, `${op.id}/equal/${b.equal.right}`))
              : undefined);
          if (right === undefined) return context.skip(`no value of ${b.equal.right} to meet`);
          values[b.equal.right] = right;
          values[b.equal.left] = right;
        }
        // A list filter of ids met exactly: the last of its items are ids the list shows, so a
        // server that reads only the first part of the filter leaves their objects out.
        let tail: { readonly filter: FilterPlan; readonly ids: readonly unknown[] } | undefined;
        if (b.fill) {
          const items = fillItems(op, b.fill, base.body);
          if (items === undefined) return context.skip(`no ${b.fill.count} distinct items could be drawn from the contract's schema`);
          const filter = b.fill.name !== undefined && op.method === "GET" ? (op.filters ?? []).find((f) => f.param === b.fill?.name && (f.match === "in" || f.match === "equals")) : undefined;
          if (filter && filter.members.length === 1) {
            const all = await walkAll(ctx, op, broadest(op, base.values), filter.items);
            const listed = [...new Set(memberValues(filter, all.items).filter((v) => typeof v === "string" || typeof v === "number"))].slice(-2);
            if (listed.length > 0 && items.length >= listed.length + 1) {
              const drawn = items.filter((v) => !listed.some((l) => String(l) === String(v))).slice(0, items.length - listed.length);
              if (drawn.length + listed.length === items.length) {
                items.splice(0, items.length, ...drawn, ...listed);
                tail = { filter, ids: listed };
              }
            }
          }
          if (b.fill.name !== undefined) values[b.fill.name] = items;
          else body = updateAt(base.body, b.fill.pointer ?? "", () => items);
        }
        // The plain request the edge is compared with: for a date-time it did not carry, the same
        // request with one drawn from the parameter's schema, so both sides name the same instant.
        let plainValues: Record<string, unknown> = base.values;
        if (b.zone) {
          const { name, pointer } = b.zone;
          let plain = name !== undefined ? values[name] : getAt(base.body, pointer ?? "");
          const schema = name !== undefined ? op.request?.parameters[name] : undefined;
          if (plain === undefined && name !== undefined && schema !== undefined && suiteTools.mock) {
            plain = suiteTools.mock(schema as MockSchema, deriveSeed(seed, `${op.id}/zone/${name}`));
            if (typeof plain === "string" && suiteTools.validateRequest?.(op.id, requestInput(op, { ...base.values, [name]: plain }, base.body)).valid !== false)
              plainValues = { ...base.values, [name]: plain };
            else plain = undefined;
          }
          const moved = typeof plain === "string" ? inOtherOffset(plain) : undefined;
          if (moved === undefined) return context.skip(`the plain request carries no ${name ?? pointer ?? ""} date-time to write in another offset`);
          if (name !== undefined) values[name] = moved;
          else body = updateAt(base.body, pointer ?? "", () => moved);
        }
        const verdict = suiteTools.validateRequest?.(op.id, requestInput(op, values, body));
        if (verdict && !verdict.valid) return context.skip(`the edge value conflicts with another rule of the contract: ${verdict.problem.errors.map((e) => e.message).join("; ")}`);
        // Each request on an object of its own where it changes or deletes one.
        // What was last sent, the object of its own included: the answer is judged against it.
        let sent: Record<string, unknown> = values;
        const send = async (v: Record<string, unknown>, b2: unknown): Promise<RawResponse> => {
          const on = await pool.forCase(op, caseKind(op));
          if ("why" in on) {
            sent = v;
            return sender.send(op, v, b2);
          }
          const merged = { ...v, ...on.values };
          sent = merged;
          const r = await sender.send(op, merged, b2);
          await on.done(r, b2);
          return r;
        };
        const first = await send(plainValues, base.body);
        let res = await send(values, body);
        // Drawn items may be refused for what they say (a rule beyond the schema): the limit is then
        // met with the plain request's own items repeated, so only the count differs.
        if (b.fill && !ok2xx(res) && ok2xx(first)) {
          const own = b.fill.name !== undefined ? base.values[b.fill.name] : getAt(base.body, b.fill.pointer ?? "");
          if (Array.isArray(own) && own.length > 0) {
            const repeated = Array.from({ length: b.fill.count }, (_, i) => own[i % own.length]);
            const v2 = b.fill.name !== undefined ? { ...values, [b.fill.name]: repeated } : values;
            const b2 = b.fill.name !== undefined ? body : updateAt(base.body, b.fill.pointer ?? "", () => repeated);
            if (suiteTools.validateRequest?.(op.id, requestInput(op, v2, b2)).valid !== false) {
              res = await send(v2, b2);
              body = b2;
            }
          } else if (!ok2xx(res)) {
            // Drawn items may name nothing the server has (keys of uploads it never saw): with none
            // of the plain request's own to repeat, a refusal says nothing about the limit.
            return context.skip(`the ${b.fill.count} items drawn from the schema were refused (${describeResponse(res)}), and the plain request carries none of its own to repeat`);
          }
        }
        checkAnswer(op, sent, body, res);
        if (tail && ok2xx(res)) {
          const answered = getAt(res.body, tail.filter.items);
          const shown = new Set(memberValues(tail.filter, Array.isArray(answered) ? answered : []).map(String));
          const left = tail.ids.filter((id) => !shown.has(String(id)));
          check(
            left.length === 0,
            `${where(op)} with ${tail.filter.param} at its ${b.fill?.count ?? 0}-item limit, the last ${tail.ids.length} being listed ones, left out ${left.map(String).join(", ")}: a filter at its limit keeps all of its items`,
          );
        }
        // Only as strict as the plain request was, and only for a member that request already
        // carried: an edge value must fare as well as an ordinary one.
        // A limit met exactly ("at most N") must be accepted whether or not the plain request used the member.
        const carried =
          b.fill !== undefined ||
          b.equal !== undefined ||
          (b.zone !== undefined && (b.zone.name === undefined || plainValues[b.zone.name] !== undefined)) ||
          (b.set ? Object.keys(b.set).every((k) => base.values[k] !== undefined) : b.bodySet !== undefined && getAt(base.body, b.bodySet.pointer) !== undefined);
        // A text member the plain request did not carry, at its length limit: judged where the same
        // request with that member short (its first characters) is accepted, so the member itself is
        // welcome there (not one valid only for another kind) and only its length is refused.
        let control = false;
        if (!carried && ok2xx(first) && !ok2xx(res) && b.mayRefuse !== true) {
          const shorter = (v: unknown): unknown => (typeof v === "string" && v.length > 8 ? v.slice(0, 8) : undefined);
          const setShort = b.set ? Object.fromEntries(Object.entries(b.set).map(([k, v]) => [k, shorter(v)])) : undefined;
          const bodyShort = b.bodySet ? shorter(b.bodySet.value) : undefined;
          const usable = setShort ? Object.values(setShort).every((v) => v !== undefined) && b.bodySet === undefined : bodyShort !== undefined;
          if (usable && b.fill === undefined && b.equal === undefined && b.zone === undefined) {
            const cv = { ...base.values, ...(setShort ?? {}) };
            const cb = b.bodySet && bodyShort !== undefined ? updateAt(base.body, b.bodySet.pointer, () => bodyShort) : base.body;
            if (suiteTools.validateRequest?.(op.id, requestInput(op, cv, cb)).valid !== false) control = ok2xx(await send(cv, cb));
          }
        }
        if (ok2xx(first) && (carried || control) && b.mayRefuse !== true)
          check(ok2xx(res), `${where(op)} refused a request ${b.label}, which the contract allows${control ? " (it took the same member shorter)" : ""}: ${describeResponse(res)}`);
        // A write keeps a text at its length limit whole.
        const cut = ok2xx(res) && ["POST", "PUT", "PATCH"].includes(op.method) ? cutShortMember(b, res.body) : undefined;
        check(cut === undefined, `${where(op)} accepted a request ${b.label} but ${cut ?? ""}`);
      });
    }
  }

  function refusals(op: OperationCase): void {
    for (const neg of op.negatives ?? []) {
      it(`${op.id}: refuses a request ${neg.label}`, async (context) => {
        const base = await primary(op, (why) => context.skip(why));
        if (!base) return;
        const values: Record<string, unknown> = { ...base.values };
        for (const r of neg.remove ?? []) if (neg.in !== "body") delete values[r];
        if (neg.in !== "body") Object.assign(values, neg.set ?? {});
        let body = base.body;
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
        // A rule about the cursor is broken with a cursor the server gave: an invented one is refused for itself.
        const cursorParam = op.pagination?.cursorParam;
        if (cursorParam !== undefined && neg.set && Object.prototype.hasOwnProperty.call(neg.set, cursorParam)) {
          const real = await realCursor(op, base.values);
          if (real === undefined) return context.skip("the list has a single page, so no cursor from the server can break this rule");
          values[cursorParam] = real;
        }
        const res = await sendRefusable(op, base.values, values, body);
        if ("why" in res) return context.skip(res.why);
        check(res.status >= 400 && res.status < 500, `${where(op)} accepted a request ${neg.label}: answered ${describeResponse(res)}, expected a 4xx refusal`);
        // Where the contract declares no refusal at all, any 4xx is the refusal; the missing
        // declaration is reported once, by the operation's own check below.
        if (op.undeclaredRefusals) undeclared.add(op.id);
        else checkShape(op, res);
        // Where the contract declares the invalid-request problem, the refusal must say what to fix.
        const type = res.body !== null && typeof res.body === "object" ? (res.body as Record<string, unknown>)["type"] : undefined;
        if (plan.invalidRequestSlug !== undefined && res.status === 400 && typeof type === "string") {
          check(type.endsWith(`/${plan.invalidRequestSlug}`), `${where(op)} refused ${neg.label} with problem type ${type}, expected {problem_base}/${plan.invalidRequestSlug}`);
        }
        if (plan.namesParameters && res.status !== 401 && res.status !== 413) {
          const text = JSON.stringify(res.body ?? "");
          const named = text.includes(JSON.stringify(neg.parameter)) || (neg.message !== undefined && text.includes(neg.message)) || text.includes(neg.parameter);
          check(named, `${where(op)} refused ${neg.label} without naming ${neg.parameter}: ${describeResponse(res)}`);
        }
      });
    }
    if (op.undeclaredRefusals) {
      it(`${op.id}: declares how it refuses invalid requests`, (context) => {
        if (!undeclared.has(op.id)) return context.skip("no request of this run was refused");
        check(false, `${where(op)} refuses requests with 4xx answers its contract does not declare (it declares no 4xx, 4XX or default answer): declare the refusal in the contract`);
      });
    }
    const security = credentialsRequired(op);
    if (security) {
      const check401 = (res: RawResponse): void => {
        const verdict = suiteTools.validateResponse(op.id, 401, res.contentType, res.body);
        // When the contract declares no 401, the status is all it states.
        const undeclared = !verdict.valid && verdict.errors.length === 1 && /status 401 is not declared/.test(verdict.errors[0]?.message ?? "");
        if (!undeclared) checkShape(op, res);
      };
      it(`${op.id}: refuses a request without credentials with 401 in the contract's shape`, async (context) => {
        const base = await primary(op, (why) => context.skip(why));
        if (!base) return;
        const res = await sendRefusable(op, base.values, base.values, base.body, "none");
        if ("why" in res) return context.skip(res.why);
        const moot = await refusedAnyway(op, base, res);
        if (moot !== undefined) return context.skip(moot);
        check(res.status === 401, `${where(op)} answered ${describeResponse(res)} without credentials, expected 401`);
        check401(res);
      });
      // Each part of a credential wrong on its own: a server that checks only the key, or only the
      // secret, accepts one of them.
      const kind = security[0]?.[0];
      for (const variant of wrongCredentials(kind)) {
        it(`${op.id}: refuses credentials with ${variant.label} with 401 in the contract's shape`, async (context) => {
          const base = await primary(op, (why) => context.skip(why));
          if (!base) return;
          const wrong = variant.make(current().auth);
          if (wrong === undefined) return context.skip(`no ${variant.needs} were given to change one part of`);
          const res = await sendRefusable(op, base.values, base.values, base.body, wrong);
          if ("why" in res) return context.skip(res.why);
          const moot = await refusedAnyway(op, base, res);
          if (moot !== undefined) return context.skip(moot);
          const stated = variant.token === true ? plan.invalidTokens?.[kind ?? ""] : undefined;
          const status = stated?.status ?? 401;
          check(res.status === status, `${where(op)} answered ${describeResponse(res)} to credentials with ${variant.label}, expected ${status}`);
          if (status === 401) check401(res);
          // A token the scheme does not know gets the refusal the contract states (an error code).
          if (stated)
            check(
              matches(stated.schema, res.body),
              `${where(op)} answered ${describeResponse(res)} to credentials with ${variant.label}, not the refusal of an unknown token the contract states (${stated.source}): ${JSON.stringify(stated.schema)}`,
            );
        });
      }
    }
  }

  /**
   * Why a refusal of a request without (or with wrong) credentials shows nothing about them: the
   * server refuses the very same request with the right credentials too, with the same status (its
   * body or an object it names is refused first). Undefined when the refusal can be judged.
   */
  async function refusedAnyway(op: OperationCase, base: { values: Record<string, unknown>; body: unknown }, res: RawResponse): Promise<string | undefined> {
    if (res.status === 401 || res.status < 400 || res.status >= 500) return undefined;
    const withCredentials = await sendRefusable(op, base.values, base.values, base.body);
    if ("why" in withCredentials || withCredentials.status !== res.status) return undefined;
    return `the request is refused with the configured credentials too (${describeResponse(withCredentials).slice(0, 160)}), so this refusal says nothing about authentication`;
  }

  function fieldSelectionCases(op: OperationCase): void {
    const fs = op.fieldSelection;
    if (!fs) return;
    const kinds = fs.expansions?.kinds ?? [];
    const selectionParams = new Set([fs.fields, ...(fs.expansions ? [fs.expansions.param] : []), ...kinds.flatMap((k) => (k.fields !== undefined ? [k.fields] : []))]);
    /** The request without any selection, then with `extra`; its answer's primary objects and includes. */
    const ask = async (
      base: Record<string, unknown>,
      extra: Record<string, unknown>,
    ): Promise<{ res: RawResponse; sent: Record<string, unknown>; objects: Record<string, unknown>[]; includes: unknown }> => {
      const values: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(base)) if (!selectionParams.has(k)) values[k] = v;
      const sent = { ...values, ...extra };
      const res = await sender.send(op, sent, undefined);
      return { res, sent, objects: ok2xx(res) ? objectsAt(res.body, fs.objects) : [], includes: ok2xx(res) && fs.expansions ? getAt(res.body, fs.expansions.includes) : undefined };
    };
    const baseOf = async (context: { skip(note?: string): void }): Promise<{ values: Record<string, unknown>; body: unknown } | undefined> => primary(op, (why) => context.skip(why));
    it(`${op.id}: answers only the default fields (${fs.defaults.join(", ")}) and no includes when none are asked for`, async (context) => {
      const base = await baseOf(context);
      if (!base) return;
      const plain = await ask(base.values, {});
      if (!ok2xx(plain.res) || plain.objects.length === 0) return context.skip(`the request answered ${describeResponse(plain.res)}: no objects to look at`);
      const full = await ask(base.values, fs.names.length > 0 ? { [fs.fields]: fs.names } : {});
      const problems = selectionProblems(plain.objects, full.objects.length > 0 ? full.objects : plain.objects, [], fs.defaults, fs.key);
      check(problems.length === 0, `${where(op)} without ${fs.fields} answers objects that are not their defaults: ${problems.join("; ")}`);
      const inc = plain.includes;
      check(
        inc === undefined || (typeof inc === "object" && inc !== null && Object.keys(inc).length === 0),
        `${where(op)} answers includes nobody asked for: ${String(JSON.stringify(inc)).slice(0, 200)}`,
      );
    });
    if (fs.names.length > 0)
      it(`${op.id}: ${fs.fields} adds exactly the fields it names, false, 0 and empty ones too`, async (context) => {
        const base = await baseOf(context);
        if (!base) return;
        const full = await ask(base.values, { [fs.fields]: fs.names });
        if (!ok2xx(full.res) || full.objects.length === 0) return context.skip(`the request with every field answered ${describeResponse(full.res)}: no objects to look at`);
        checkAnswer(op, full.sent, undefined, full.res);
        check(fieldsHaveEffect(full.objects, fs.defaults), `${where(op)} with ${fs.fields}=${fs.names.join(",")} (every field) answers the defaults alone: the fields parameter has no effect`);
        const lacking = missingAlways(full.objects, fs.names, fs.always ?? [], fs.key);
        check(lacking.length === 0, `${where(op)} with every field: ${lacking.join("; ")}`);
        for (const asked of subsetsToAsk(fs.names, full.objects, seed)) {
          const got = await ask(base.values, { [fs.fields]: asked });
          check(ok2xx(got.res), `${where(op)} with ${fs.fields}=${asked.join(",")} answered ${describeResponse(got.res)}`);
          const problems = [...selectionProblems(got.objects, full.objects, asked, fs.defaults, fs.key), ...missingAlways(got.objects, asked, fs.always ?? [], fs.key)];
          check(problems.length === 0, `${where(op)} with ${fs.fields}=${asked.join(",")}: ${problems.join("; ")}`);
        }
      });
    for (const kind of kinds) {
      it(`${op.id}: ${fs.expansions?.param}=${kind.expansion} includes only ${kind.include}, every object referred to${kind.defaults ? `, each with its defaults (${kind.defaults.join(", ")})` : ""}${kind.fields ? ` and the ${kind.fields} asked for` : ""}`, async (context) => {
        const base = await baseOf(context);
        const exp = fs.expansions;
        if (!base || !exp) return;
        const every = await ask(base.values, fs.names.length > 0 ? { [fs.fields]: fs.names } : {});
        const referred = referencesOf(every.objects, kind.from);
        if (kind.from !== undefined && referred.length === 0) return context.skip(`no object of this request refers to any ${kind.include} (${kind.from}): give objects that do with --values`);
        const got = await ask(base.values, { [exp.param]: [kind.expansion] });
        check(ok2xx(got.res), `${where(op)} with ${exp.param}=${kind.expansion} answered ${describeResponse(got.res)}`);
        const inc = (got.includes ?? {}) as Record<string, unknown>;
        const others = Object.keys(inc).filter((k) => k !== kind.include);
        check(others.length === 0, `${where(op)} with ${exp.param}=${kind.expansion} includes ${others.join(", ")} as well, which nobody asked for`);
        const entries = Array.isArray(inc[kind.include]) ? (inc[kind.include] as unknown[]).filter((e): e is Record<string, unknown> => e !== null && typeof e === "object" && !Array.isArray(e)) : [];
        if (kind.key !== undefined && referred.length > 0) {
          const have = new Set(entries.map((e) => keyOf(e, kind.key)));
          const lacking = referred.filter((r) => !have.has(r));
          check(lacking.length === 0, `${where(op)} with ${exp.param}=${kind.expansion} does not include ${lacking.join(", ")}, which its objects refer to`);
        }
        if (kind.defaults) {
          const want = [...kind.defaults].sort().join(",");
          const wrong = entries.filter((e) => Object.keys(e).sort().join(",") !== want);
          check(
            wrong.length === 0,
            `${where(op)} with ${exp.param}=${kind.expansion} includes ${kind.include} carrying other fields than their defaults ${kind.defaults.join(", ")}: ${wrong.map((e) => Object.keys(e).join("+")).join("; ")}`,
          );
        }
        const alone = kind.fields !== undefined && kind.names && kind.names.length > 0 ? await ask(base.values, { [kind.fields]: kind.names }) : undefined;
        if (alone) {
          const stray = (alone.includes ?? {}) as Record<string, unknown>;
          check(stray[kind.include] === undefined, `${where(op)} with ${kind.fields} but no ${exp.param} includes ${kind.include}`);
        }
        if (kind.fields === undefined || !kind.names || kind.names.length === 0 || entries.length === 0) return;
        const fullInc = await ask(base.values, { [exp.param]: [kind.expansion], [kind.fields]: kind.names });
        // Every field of the included objects is asked here only: their values meet the schema too.
        checkAnswer(op, fullInc.sent, undefined, fullInc.res);
        const fullEntries = objectsAt(fullInc.includes, `/${kind.include}`);
        const baseline = kind.defaults ?? [...new Set(entries.flatMap((e) => Object.keys(e)))];
        check(
          fieldsHaveEffect(fullEntries, baseline),
          `${where(op)} with ${exp.param}=${kind.expansion} and ${kind.fields}=${kind.names.join(",")} (every field) includes ${kind.include} with no more than without it: ${kind.fields} has no effect`,
        );
        for (const asked of subsetsToAsk(kind.names, fullEntries, seed + 1)) {
          const sub = await ask(base.values, { [exp.param]: [kind.expansion], [kind.fields]: asked });
          const subEntries = objectsAt(sub.includes, `/${kind.include}`);
          const problems = [...selectionProblems(subEntries, fullEntries, asked, kind.defaults, kind.key), ...(kind.defaults ? [] : defaultsLost(subEntries, entries, kind.key))];
          check(problems.length === 0, `${where(op)} with ${exp.param}=${kind.expansion} and ${kind.fields}=${asked.join(",")}, included ${kind.include}: ${problems.join("; ")}`);
          // The primary objects keep to their own fields parameter whatever the expansion asks (unless
          // the kind shares it: included posts follow post.fields like the primary ones).
          const primaryProblems = kind.fields === fs.fields ? [] : selectionProblems(sub.objects, every.objects, [], fs.defaults, fs.key);
          check(primaryProblems.length === 0, `${where(op)} with ${kind.fields}=${asked.join(",")} changes the primary objects: ${primaryProblems.join("; ")}`);
        }
      });
    }
    // Every expansion at once: a list parameter must honour each name it holds, not the first alone.
    if (kinds.length >= 2 && fs.expansions) {
      const all = [...new Set(kinds.map((k) => k.expansion))];
      it(`${op.id}: ${fs.expansions.param} with every expansion at once (${all.join(",")}) includes each kind and every object referred to`, async (context) => {
        const base = await baseOf(context);
        const exp = fs.expansions;
        if (!base || !exp) return;
        const every = await ask(base.values, fs.names.length > 0 ? { [fs.fields]: fs.names } : {});
        const got = await ask(base.values, { [exp.param]: all });
        check(ok2xx(got.res), `${where(op)} with ${exp.param}=${all.join(",")} answered ${describeResponse(got.res)}`);
        const inc = (got.includes ?? {}) as Record<string, unknown>;
        const lacking: string[] = [];
        for (const kind of kinds) {
          if (kind.key === undefined) continue;
          const referred = referencesOf(every.objects, kind.from);
          const have = new Set(objectsAt(inc, `/${kind.include}`).map((e) => keyOf(e, kind.key)));
          for (const r of referred) if (!have.has(r)) lacking.push(`${kind.include} ${r} (${kind.expansion})`);
        }
        check(lacking.length === 0, `${where(op)} with ${exp.param}=${all.join(",")} does not include ${lacking.slice(0, 5).join(", ")}, which its objects refer to`);
        // And with every field of every kind too: the richest answer the operation gives, each value
        // of it in the contract's shape (an included author's created_at as much as the post's).
        const richest: Record<string, unknown> = { [exp.param]: all, ...(fs.names.length > 0 ? { [fs.fields]: fs.names } : {}) };
        for (const kind of kinds) if (kind.fields !== undefined && kind.names && kind.names.length > 0) richest[kind.fields] = kind.names;
        const rich = await ask(base.values, richest);
        check(ok2xx(rich.res), `${where(op)} with every expansion and every field answered ${describeResponse(rich.res)}`);
        checkAnswer(op, rich.sent, undefined, rich.res);
      });
    }
  }

  /** The object of another owner the target gives for an owned parameter (`<name>@foreign`). */
  const foreignOf = (param: string): unknown => {
    const given = current().values ?? {};
    return Object.prototype.hasOwnProperty.call(given, `${param}@foreign`) ? given[`${param}@foreign`] : undefined;
  };

  function ownershipCases(op: OperationCase): void {
    for (const param of op.owned ?? []) {
      it(`${op.id}: refuses a ${param} of another owner`, async (context) => {
        const foreign = foreignOf(param);
        if (foreign === undefined) return context.skip(`no ${param} of another owner was given: pass one with --values '{"${param}@foreign": "…"}'`);
        if (caseKind(op) === "delete" && !current().destructive) return context.skip("a wrongly accepted request would delete another owner's object: run with --destructive");
        const base = await primary(op, (why) => context.skip(why));
        if (!base) return;
        const res = await sender.send(op, { ...base.values, [param]: foreign }, base.body);
        check(res.status >= 400 && res.status < 500, `${where(op)} answered ${describeResponse(res)} for ${param} ${String(foreign)}, which belongs to another owner: expected a 4xx refusal`);
      });
    }
    for (const owned of op.listsOwned ?? []) {
      it(`${op.id}: lists no ${owned.param} of another owner`, async (context) => {
        const foreign = foreignOf(owned.param);
        if (foreign === undefined) return context.skip(`no ${owned.param} of another owner was given: pass one with --values '{"${owned.param}@foreign": "…"}'`);
        const base = await primary(op, (why) => context.skip(why));
        if (!base) return;
        const values = broadest(op, base.values);
        const all = await walkAll(ctx, op, values, owned.items);
        if (all.failed) return context.skip(`the list answered ${describeResponse(all.failed)}`);
        const shown = keysOf(all.items, owned.field).includes(String(foreign));
        check(!shown, `${where(op)} lists ${owned.param} ${String(foreign)}, which belongs to another owner`);
        // Asked for it by an id filter, the list still leaves it out.
        for (const f of (op.filters ?? []).filter((x) => x.match === "in" && x.members.includes(owned.field))) {
          const asked = await walkAll(ctx, op, { ...values, [f.param]: [foreign] }, owned.items);
          check(!keysOf(asked.items, owned.field).includes(String(foreign)), `${where(op)} with ${f.param}=${String(foreign)} lists that object of another owner`);
        }
      });
    }
  }

  /**
   * A member the contract takes only for some objects (`x-conditional`): sent for an object it is
   * not allowed for, the request is refused; where the contract's own example carries it, sent for an
   * object it is allowed for, the example is taken. Objects come from the lists that give the
   * parameter; for a `via` condition, each listed object is asked (`via`) whether it qualifies.
   */
  function conditionalCases(op: OperationCase): void {
    for (const cond of op.conditional ?? []) {
      const what = cond.field !== undefined ? `${cond.field} is ${(cond.values ?? []).join(" or ")}` : `${cond.via} lists ${String(cond.contains)}`;
      // The object the condition reads: the one a path parameter names, or the one the member itself names.
      const subject = cond.param !== undefined ? `the ${cond.param}'s` : `the object ${cond.member} names:`;
      it(`${op.id}: takes ${cond.member} only where ${subject} ${what}`, async (context) => {
        if (caseKind(op) !== "read" && !current().destructive) return context.skip("a wrongly accepted request would change a listed object: run with --destructive");
        const ref = (op.references ?? []).find((r) => r.name === cond.member);
        const sources = cond.param !== undefined ? (op.sources?.[cond.param] ?? []) : (ref?.sources ?? []);
        const list = sources.find((s) => s.kind === "list");
        if (!list || list.kind !== "list") return context.skip(`no list gives the objects to tell allowed from refused ones`);
        const listOp = byId.get(list.operationId);
        if (!listOp) return;
        const own = await pool.pathValues(op);
        const parents = await pool.pathValues(listOp, own.values);
        if (parents.missing.length > 0) return context.skip(pool.explain(listOp, parents.missing));
        const listed = await walkAll(ctx, listOp, parents.values, list.items);
        const candidates = listed.items
          .filter((it): it is Record<string, unknown> => it !== null && typeof it === "object" && !Array.isArray(it) && (it as Record<string, unknown>)["deleted"] !== true)
          .slice(0, 12);
        const qualifies = async (item: Record<string, unknown>): Promise<boolean | undefined> => {
          if (cond.field !== undefined) return (cond.values ?? []).some((v) => sameValue(item[cond.field as string], v));
          const via = cond.via !== undefined ? byId.get(cond.via) : undefined;
          if (!via || cond.param === undefined) return undefined;
          const viaValues = { ...(await pool.pathValues(via, { [cond.param]: item[list.field] })).values, [cond.param]: item[list.field] };
          const res = await sender.send(via, viaValues, undefined);
          if (!ok2xx(res)) return undefined;
          const held = getAt(res.body, cond.items ?? "/data");
          return Array.isArray(held) && held.some((h) => sameValue(h, cond.contains));
        };
        let allowed: Record<string, unknown> | undefined;
        let refused: Record<string, unknown> | undefined;
        for (const item of candidates) {
          const q = await qualifies(item);
          if (q === true) allowed ??= item;
          if (q === false) refused ??= item;
          if (allowed && refused) break;
        }
        if (!refused) return context.skip(`no listed object is one ${cond.member} is refused for (${candidates.length} looked at)`);
        const setMember = (req: { values: Record<string, unknown>; body: unknown }, value: unknown): { values: Record<string, unknown>; body: unknown } =>
          cond.in === "query"
            ? { values: { ...req.values, [cond.member]: value }, body: req.body }
            : { values: req.values, body: { ...((req.body ?? {}) as Record<string, unknown>), [cond.member]: value } };
        const dropMember = (req: { values: Record<string, unknown>; body: unknown }): { values: Record<string, unknown>; body: unknown } => {
          if (cond.in === "query") {
            const values = { ...req.values };
            delete values[cond.member];
            return { values, body: req.body };
          }
          const body = { ...((req.body ?? {}) as Record<string, unknown>) };
          delete body[cond.member];
          return { values: req.values, body };
        };
        const valid = (req: { values: Record<string, unknown>; body: unknown }): boolean => suiteTools.validateRequest?.(op.id, requestInput(op, req.values, req.body)).valid !== false;
        /** The request for `item` with the member, and the same without it (undefined where it cannot go without). */
        const build = async (
          item: Record<string, unknown>,
        ): Promise<{ with: { values: Record<string, unknown>; body: unknown }; without?: { values: Record<string, unknown>; body: unknown } } | undefined> => {
          const key = item[list.field];
          const known = cond.param !== undefined ? { [cond.param]: key } : {};
          const fixed = { ...(await pool.pathValues(op, known)).values, ...known };
          const req = await ctx.positive(op, 0, fixed);
          const base = { values: { ...req.values, ...fixed }, body: req.body };
          let value: unknown = key;
          if (cond.param !== undefined) {
            // The member's value in the object's own scope: a listed one where it names another object.
            const refs = await pool.referenceValues(op, fixed);
            value = cond.in === "query" ? (refs.query[cond.member] ?? base.values[cond.member]) : (refs.body[cond.member] ?? (base.body as Record<string, unknown> | undefined)?.[cond.member]);
            if (value === undefined) {
              const schema = cond.in === "query" ? op.request?.parameters[cond.member] : op.request?.body ? memberSchema(root, op.request.body.schema, cond.member) : undefined;
              value = schema !== undefined && suiteTools.mock ? suiteTools.mock(schema as MockSchema, deriveSeed(seed, `${op.id}/conditional/${cond.member}`)) : undefined;
            }
          }
          if (value === undefined) return undefined;
          const withIt = setMember(base, value);
          if (!valid(withIt)) return undefined;
          const without = dropMember(base);
          return { with: withIt, ...(valid(without) ? { without } : {}) };
        };
        const send = async (req: { values: Record<string, unknown>; body: unknown }): Promise<RawResponse> => {
          const res = await sender.send(op, req.values, req.body);
          pool.forget();
          return res;
        };
        const onRefused = await build(refused);
        if (!onRefused) return context.skip(`no valid request with ${cond.member} could be built`);
        // The refusal must be the member's: the same request without it (or, where it cannot go
        // without, with an allowed object instead) is taken.
        if (onRefused.without) {
          const plain = await send(onRefused.without);
          if (!ok2xx(plain)) return context.skip(`the request without ${cond.member} is refused too (${describeResponse(plain).slice(0, 160)}): the member's refusal would say nothing`);
        } else {
          const onAllowed = allowed ? await build(allowed) : undefined;
          const plain = onAllowed ? await send(onAllowed.with) : undefined;
          if (!plain || !ok2xx(plain)) return context.skip(`no request with an allowed object is taken, so a refusal would say nothing${plain ? ` (${describeResponse(plain).slice(0, 160)})` : ""}`);
        }
        const res = await send(onRefused.with);
        check(
          res.status >= 400 && res.status < 500,
          `${where(op)} took ${cond.member} where ${subject} ${what.replace(/ is | lists /, (m) => (m === " is " ? " is not " : " does not list "))} (${String(refused[list.field])}): answered ${describeResponse(res)}, expected a 4xx refusal`,
        );
        if (allowed && cond.param !== undefined) {
          const onAllowed = await build(allowed);
          if (!onAllowed?.without) return;
          const plain = await send(onAllowed.without);
          if (!ok2xx(plain)) return;
          const taken = await send(onAllowed.with);
          check(ok2xx(taken), `${where(op)} refused ${cond.member} where ${subject} ${what} (${String(allowed[list.field])}), taking the same request without it: ${describeResponse(taken)}`);
        }
      });
    }
  }

  /**
   * An object of one parent is not reached through another (`/accounts/{a}/lists/{l}`: a list of
   * account A is not found, read, changed or deleted through account B). Only where the object is
   * known to be the parent's: listed under it, made under it by the contract's create (for cases
   * that change or delete, which act on an object made for them), or given with it; and where a
   * second parent is listed.
   */
  function scopeCases(op: OperationCase): void {
    const names = op.parameters.filter((p) => p.in === "path").map((p) => p.name);
    const child = names.at(-1);
    const parent = names.at(-2);
    if (child === undefined || parent === undefined || !["GET", "DELETE", "PUT", "PATCH"].includes(op.method)) return;
    const childList = (op.sources?.[child] ?? []).find((s) => s.kind === "list");
    const parentList = (op.sources?.[parent] ?? []).find((s) => s.kind === "list");
    // The children's own collection under the parent (`…/{account_id}/lists` for `…/lists/{id}`):
    // a list elsewhere that only mentions the key (a link object) says nothing of who owns it.
    const collection = op.path.slice(0, op.path.lastIndexOf("/"));
    const listedUnder = childList?.kind === "list" && byId.get(childList.operationId)?.path === collection && collection.includes(`{${parent}}`);
    // A create at the collection's own path makes the object under the parent the path names.
    const creates = (op.sources?.[child] ?? []).filter((s) => s.kind === "create" && byId.get(s.operationId)?.path === collection);
    const madeUnder = caseKind(op) !== "read" && collection.includes(`{${parent}}`) && creates.length > 0;
    // A PUT or PATCH may create what its path names (RFC 9110 §9.3.4, RFC 5789 §2): through another
    // parent it is refused only where the key is the server's to give, never a name a client sends
    // (PowerDNS's PUT …/zones/{zone_id}/metadata/{metadata_kind} sets that kind on any zone).
    if ((op.method === "PUT" || op.method === "PATCH") && (creates.length === 0 || creates.some((s) => s.kind === "create" && s.request !== undefined))) {
      writeScopeCase(op, child, parent, parentList);
      return;
    }
    // Or both given together with the target (`--values`): a team names an object and its parent as a pair.
    const givenPair = (): boolean => {
      const given = current().values ?? {};
      return Object.prototype.hasOwnProperty.call(given, child) && Object.prototype.hasOwnProperty.call(given, parent);
    };
    if (!parentList || parentList.kind !== "list" || (!listedUnder && !madeUnder && childList !== undefined)) return;
    if (op.method === "GET" && listedUnder && childList?.kind === "list") listScopeCase(op, child, parent, parentList, childList, creates);
    it(`${op.id}: does not reach a ${child} through another ${parent}`, async (context) => {
      if (op.method === "DELETE" && !current().destructive) return context.skip("a wrongly accepted delete would remove an object: run with --destructive");
      if (!listedUnder && !madeUnder && !givenPair())
        return context.skip(`no ${child} is known to belong to a ${parent}: no list of them under it, no create there, and none given with one (--values)`);
      const on = await pool.forCase(op, caseKind(op));
      if ("why" in on) return context.skip(on.why);
      const other = await otherParent(op, on.values, parent, child, parentList, listedUnder ? childList : undefined);
      if (typeof other !== "string") return context.skip(other.why);
      const req = await ctx.positive(op, 0, on.values);
      const res = await sender.send(op, { ...req.values, ...on.values, [parent]: other }, req.body);
      // A delete may answer 2xx for what the other parent never held (deletes are idempotent, and
      // PowerDNS answers 200 deleting a metadata kind a zone lacks): where the object can be looked
      // at through its own parent, what is judged is that it is still there.
      const kept = op.method === "DELETE" && ok2xx(res) ? await stillHeld(op, on.values, child, parent, listedUnder ? childList : undefined) : undefined;
      if (kept !== undefined) {
        if (!kept) await on.done(res, req.body);
        check(
          kept,
          `${where(op)} deleted ${child} ${String(on.values[child])} of ${parent} ${String(on.values[parent])} through ${parent} ${other} (answered ${describeResponse(res)}): it is gone from ${parent} ${String(on.values[parent])}`,
        );
        return;
      }
      if (ok2xx(res)) await on.done(res, req.body);
      check(
        res.status >= 400 && res.status < 500,
        `${where(op)} reached ${child} ${String(on.values[child])} of ${parent} ${String(on.values[parent])} through ${parent} ${other}: answered ${describeResponse(res)}, expected a 4xx refusal`,
      );
      // Where the contract declares no refusal at all, the missing declaration is reported once, by
      // the operation's own check, as for invalid requests.
      if (res.status >= 400 && res.status < 500 && op.undeclaredRefusals) undeclared.add(op.id);
    });
  }

  type ListSource = Extract<NonNullable<OperationCase["sources"]>[string][number], { kind: "list" }>;
  type Source = NonNullable<OperationCase["sources"]>[string][number];

  /** The children's lists that have their case (one per list, though several operations address its items). */
  const listScoped = new Set<string>();

  /**
   * A list under one parent shows none of another's children (list-scope.ts): judged on an object
   * the contract's create made for the case, with a key the server minted (every create of the
   * child's collection answers the key; none takes it from the request).
   */
  function listScopeCase(op: OperationCase, child: string, parent: string, parentList: ListSource, childList: ListSource, creates: readonly Source[]): void {
    const children = byId.get(childList.operationId);
    const parents = byId.get(parentList.operationId);
    if (!children || !parents || listScoped.has(children.id)) return;
    if (creates.length === 0 || creates.some((s) => s.kind !== "create" || s.request !== undefined)) return;
    listScoped.add(children.id);
    it(`${children.id}: lists no ${child} made under another ${parent}`, async (context) => {
      const made = await pool.fresh(op, false);
      if ("why" in made) return context.skip(made.why);
      if (!made.made) return context.skip(`the suite made no ${child} of its own to look for`);
      const verdict = await listedUnderAnother(
        ctx,
        {
          parent,
          child,
          children: { op: children, items: childList.items, field: childList.field },
          parents: { op: parents, items: parentList.items, field: parentList.field },
          parentsAt: (await pool.pathValues(parents)).values,
        },
        made.values,
      );
      if (verdict && "why" in verdict) return context.skip(verdict.why);
      check(verdict === undefined, verdict?.failure ?? "");
    });
  }

  /**
   * Whether the object `own` names is still held under its own parent: read through the GET of the
   * same path (a soft delete's mark counts as gone), else found in its parent's list of children;
   * undefined where neither can tell.
   */
  async function stillHeld(op: OperationCase, own: Readonly<Record<string, unknown>>, child: string, parent: string, childList: ListSource | undefined): Promise<boolean | undefined> {
    const read = readOf(op.path);
    if (read) {
      const values = { ...(await ctx.positive(read, 0, own)).values, ...own };
      const r = await sender.send(read, values, undefined);
      if (r.status === 404 || r.status === 410) return false;
      if (!ok2xx(r)) return undefined;
      const soft = plan.scenarios.find((sc): sc is LifecycleScenario => sc.kind === "lifecycle" && sc.delete === op.id)?.soft;
      return !(soft !== undefined && subject(r.body, own[child])?.[soft.field] === true);
    }
    const listOp = childList ? byId.get(childList.operationId) : undefined;
    if (!childList || !listOp) return undefined;
    const walked = await walkAll(ctx, listOp, { ...(await pool.pathValues(listOp)).values, [parent]: own[parent] }, childList.items);
    return walked.complete ? keysOf(walked.items, childList.field).includes(String(own[child])) : undefined;
  }

  /** The list of `child` keys under `parent` (`…/{parent}/things` for `…/{parent}/things/{child}`), where the contract has one. */
  function childListUnder(op: OperationCase, child: string, parent: string): ListSource | undefined {
    const collection = op.path.slice(0, op.path.lastIndexOf("/"));
    const found = (op.sources?.[child] ?? []).find((s) => s.kind === "list" && byId.get(s.operationId)?.path === collection && collection.includes(`{${parent}}`));
    return found?.kind === "list" ? found : undefined;
  }

  /**
   * Another listed `parent` to try `child` through: one whose own list of children (where the
   * contract has one) does not hold the same key. A key the client chooses (a label's name, a
   * metadata kind) may name an object of its own under each parent, and an object two parents
   * share is rightly reached through either.
   */
  async function otherParent(
    op: OperationCase,
    own: Readonly<Record<string, unknown>>,
    parent: string,
    child: string,
    parentList: ListSource,
    childList: ListSource | undefined,
  ): Promise<string | { why: string }> {
    const listOp = byId.get(parentList.operationId);
    if (!listOp) return { why: `no list of ${parent} to find another in` };
    const listed = await walkAll(ctx, listOp, (await pool.pathValues(listOp)).values, parentList.items);
    const others = keysOf(listed.items, parentList.field).filter(
      (k) => k !== String(own[parent]) && !k.startsWith("{") && (op.request?.parameters[parent] === undefined || matches(op.request.parameters[parent], k)),
    );
    if (others.length === 0) return { why: `only one ${parent} is listed: no other to try` };
    const childOp = childList ? byId.get(childList.operationId) : undefined;
    if (!childList || !childOp) return others[0] as string;
    const start = (await pool.pathValues(childOp)).values;
    for (const other of others.slice(0, 4)) {
      const under = await walkAll(ctx, childOp, { ...start, [parent]: other }, childList.items);
      if (!under.complete) continue;
      if (!keysOf(under.items, childList.field).includes(String(own[child]))) return other;
    }
    return { why: `each other ${parent} tried lists a ${child} ${String(own[child])} of its own (or could not be listed)` };
  }

  /**
   * Where a PUT or PATCH may create what its path names, a write through another parent is judged
   * by what it does to the object under its own (scope-writes.ts), not by its status.
   */
  function writeScopeCase(op: OperationCase, child: string, parent: string, parentList: NonNullable<OperationCase["sources"]>[string][number] | undefined): void {
    const read = readOf(op.path);
    if (!parentList || parentList.kind !== "list") return;
    it(`${op.id}: does not change a ${child} of one ${parent} through another`, async (context) => {
      if (!current().disposable) return context.skip(`a write through another ${parent} may make an object under it: run against a throw-away server with --disposable`);
      const on = await pool.forCase(op, caseKind(op));
      if ("why" in on) return context.skip(on.why);
      const other = await otherParent(op, on.values, parent, child, parentList, childListUnder(op, child, parent));
      if (typeof other !== "string") return context.skip(other.why);
      const why = await writeThroughAnother(ctx, op, read, { ...(await pool.pathValues(read ?? op)).values, ...on.values }, parent, child, other, on.done);
      if (why !== undefined) return context.skip(why);
    });
  }

  /**
   * `x-scoped` references: a member naming an object of the path's parent (a media library item of
   * the path's account) is refused a value listed under another parent and not under its own.
   */
  function scopedReferenceCases(op: OperationCase): void {
    for (const ref of op.references ?? []) {
      const by = ref.scopedBy;
      if (by === undefined) continue;
      const parentList = (op.sources?.[by] ?? []).find((s): s is ListSource => s.kind === "list");
      // The lists that show the named objects under a parent: their keys are that parent's.
      const under = ref.sources.filter((s): s is ListSource => s.kind === "list" && (byId.get(s.operationId)?.path.includes(`{${by}}`) ?? false));
      it(`${op.id}: refuses a ${ref.name} of another ${by}`, async (context) => {
        if (op.destructive && !current().destructive) return context.skip("changes data on the server (deletes or invalidates): run with --destructive");
        if (!parentList || under.length === 0) return context.skip(`no list shows ${ref.name} values under a ${by}`);
        const on = await pool.forCase(op, caseKind(op));
        if ("why" in on) return context.skip(on.why);
        const other = await otherParent(op, on.values, by, ref.name, parentList, undefined);
        if (typeof other !== "string") return context.skip(other.why);
        const keysUnder = async (parentValue: unknown): Promise<Set<string>> => {
          const out = new Set<string>();
          for (const source of under) {
            const listOp = byId.get(source.operationId);
            if (!listOp) continue;
            const walked = await walkAll(ctx, listOp, { ...(await pool.pathValues(listOp)).values, [by]: parentValue }, source.items);
            for (const k of keysOf(walked.items, source.field)) if (!k.startsWith("{")) out.add(k);
          }
          return out;
        };
        const own = await keysUnder(on.values[by]);
        const foreign = [...(await keysUnder(other))].find((k) => !own.has(k));
        if (foreign === undefined) return context.skip(`no ${ref.name} is listed under ${by} ${other} that is not also ${String(on.values[by])}'s`);
        const { values, body } = naming(await ctx.positive(op, 0, on.values), on.values, ref, foreign);
        const verdict = suiteTools.validateRequest?.(op.id, requestInput(op, values, body));
        if (verdict && !verdict.valid) return context.skip(`the contract's own validators refuse ${ref.name} ${foreign} beside the other values`);
        const res = await sender.send(op, values, body);
        await on.done(res, body);
        check(
          res.status >= 400 && res.status < 500,
          `${where(op)} took ${ref.name} ${foreign}, listed under ${by} ${other}, for ${by} ${String(on.values[by])}: answered ${describeResponse(res)}, expected a 4xx refusal`,
        );
        if (res.status >= 400 && res.status < 500 && op.undeclaredRefusals) undeclared.add(op.id);
      });
    }
  }

  /** A member naming another object is refused a key of one the suite made and deleted (deleted-references.ts). */
  function deletedReferenceCases(op: OperationCase): void {
    for (const ref of op.references ?? []) {
      const life = referencedLife(ref, plan.scenarios);
      if (!life || ref.outlivesDelete === true) continue;
      it(`${op.id}: refuses ${ref.name} naming a deleted object`, async (context) => {
        if (!current().destructive) return context.skip("deletes an object it makes: run with --destructive");
        const outcome = await sendDeletedReference(
          {
            ctx,
            forCase: (o, kind) => pool.forCase(o, kind),
            caseKind,
            valid: (o, values, body) => suiteTools.validateRequest?.(o.id, requestInput(o, values, body)).valid ?? true,
          },
          op,
          ref,
          life,
        );
        if (outcome !== "refused") return context.skip(outcome);
        if (op.undeclaredRefusals) undeclared.add(op.id);
      });
    }
  }

  /** A read asked without a parameter answers as asked with the parameter's stated default (defaults.ts). */
  function defaultCases(op: OperationCase): void {
    for (const d of statedDefaults(op)) {
      const shown = JSON.stringify(d.value);
      it(`${op.id}: answers alike without ${d.name} and with ${d.name}=${shown}, its stated default`, async (context) => {
        if (op.flowStep !== undefined) return context.skip(`valid requests are left to a sequence: ${op.flowStep}`);
        const base = await primary(op, (why) => context.skip(why));
        if (!base) return;
        const without: Record<string, unknown> = { ...base.values };
        delete without[d.name];
        const withIt = { ...without, [d.name]: d.value };
        const verdict = suiteTools.validateRequest?.(op.id, requestInput(op, withIt, undefined));
        if (verdict !== undefined && !verdict.valid) return context.skip(`the contract's own validators refuse ${d.name}=${shown} beside the other values`);
        const plain = await sender.send(op, without, undefined);
        if (!ok2xx(plain)) return context.skip(`the read without ${d.name} answered ${describeResponse(plain)}`);
        const stated = await sender.send(op, withIt, undefined);
        const again = await sender.send(op, without, undefined);
        check(ok2xx(stated), `${where(op)} answered ${describeResponse(stated)} to ${d.name}=${shown}, its stated default, and 2xx without it`);
        if (!ok2xx(again)) return context.skip(`the same read without ${d.name} answered ${describeResponse(again)} the second time`);
        const differences = defaultDifferences(plain.body, again.body, stated.body, d.name, op.pagination ? [op.pagination.nextPointer] : []);
        check(differences.length === 0, `${where(op)} answers otherwise without ${d.name} than with ${d.name}=${shown}, its stated default: ${differences.join("; ")}`);
      });
    }
  }

  /** Optional boolean query flags of a list that default to false (`with_deleted`, `include_legacy_cards`): set, they may widen it. */
  function wideningFlags(op: OperationCase, except: string): string[] {
    const total = op.pagination?.totalCount?.param;
    return op.parameters
      .filter((p) => p.in === "query" && !p.required && p.name !== except && p.name !== total)
      .filter((p) => {
        const schema = deref(root, op.request?.parameters[p.name]);
        if (schema === null || typeof schema !== "object") return false;
        const s = schema as Record<string, unknown>;
        return s["type"] === "boolean" && (s["default"] === undefined || s["default"] === false);
      })
      .map((p) => p.name);
  }

  /**
   * Filters asked together keep what every one of them matches (an AND): two filters with values
   * from one listed object, then from two different ones. A list that applies only the first, or
   * either, keeps objects the other does not match; one that drops matches leaves some out.
   */
  function combinedFiltersCase(op: OperationCase): void {
    const optional = (op.filters ?? []).filter((f) => !op.parameters.some((p) => p.name === f.param && p.required));
    if (optional.length < 2) return;
    const names = optional.map((f) => f.param);
    it(`${op.id}: filters asked together (${names.join(", ")}) keep only the objects every one matches`, async (context) => {
      const base = await primary(op, (why) => context.skip(why));
      if (!base) return;
      const values = broadest(op, base.values);
      const all = await walkAll(ctx, op, values, optional[0]?.items);
      if (all.failed) return context.skip(`the unfiltered list answered ${describeResponse(all.failed)}`);
      if (all.items.length < 2) return context.skip("the unfiltered list holds fewer than two objects, so no two filters can be told apart");
      const valueFor = (f: (typeof optional)[number], item: unknown, others: Readonly<Record<string, unknown>>): unknown => {
        const asArray = takesList(op, f.param);
        return filterValues(f, [item], asArray).find((v) => suiteTools.validateRequest?.(op.id, requestInput(op, { ...values, ...others, [f.param]: v }, undefined)).valid !== false);
      };
      let judged = 0;
      for (let i = 0; i + 1 < optional.length && judged < 3; i++) {
        const [f1, f2] = [optional[i], optional[i + 1]] as [(typeof optional)[number], (typeof optional)[number]];
        // One object gives both values; then two objects, one each (the AND is then told from an OR).
        const pairs: [unknown, unknown][] = [
          [all.items[0], all.items[0]],
          [all.items[0], all.items[all.items.length - 1]],
        ];
        for (const [a, b] of pairs) {
          const v1 = valueFor(f1, a, {});
          const v2 = v1 === undefined ? undefined : valueFor(f2, b, { [f1.param]: v1 });
          if (v1 === undefined || v2 === undefined) continue;
          const asked = { ...values, [f1.param]: v1, [f2.param]: v2 };
          const got = await walkAll(ctx, op, asked, f1.items);
          if (got.failed) continue;
          judged++;
          const both = (it: unknown): boolean => mustKeep(f1, it, v1) && mustKeep(f2, it, v2);
          const extra = got.items.filter((it) => !(mayKeep(f1, it, v1) && mayKeep(f2, it, v2)));
          check(
            extra.length === 0,
            `${where(op)} with ${f1.param}=${JSON.stringify(v1)} and ${f2.param}=${JSON.stringify(v2)} lists objects one of them does not match: ${keysOf(extra, f1.key).slice(0, 5).join(", ")}`,
          );
          if (all.complete && got.complete) {
            const have = new Set(keysOf(got.items, f1.key));
            const missing = keysOf(all.items.filter(both), f1.key).filter((k) => !have.has(k));
            check(
              missing.length === 0,
              `${where(op)} with ${f1.param}=${JSON.stringify(v1)} and ${f2.param}=${JSON.stringify(v2)} leaves out objects both match, which the unfiltered list shows: ${missing.slice(0, 5).join(", ")}`,
            );
          }
        }
      }
      if (judged === 0) return context.skip("no listed object gives values for two filters that the contract accepts together, or the list refused them");
    });
  }

  function listCases(op: OperationCase): void {
    /** A filtered list shows each object it keeps as the unfiltered one does (walked again only when they differ, to leave out what moves). */
    const sameItems = async (op: OperationCase, values: Record<string, unknown>, all: readonly unknown[], narrow: readonly unknown[], filter: FilterPlan, asked: string): Promise<void> => {
      const keys = (items: readonly unknown[]): string[] => keysOf(items, filter.key);
      if (itemsDisagree(all, narrow, all, keys).length === 0) return;
      const again = await walkAll(ctx, op, values, filter.items);
      const diff = itemsDisagree(all, narrow, again.items, keys);
      check(diff.length === 0, `${where(op)} with ${asked} shows objects otherwise than the unfiltered list: ${diff.slice(0, 5).join("; ")}`);
    };
    for (const filter of op.filters ?? []) {
      it(`${op.id}: ${filter.param} keeps exactly the listed objects it matches (${filter.match}${filter.caseInsensitive ? ", any case" : ""} on ${filter.members.join(", ")})`, async (context) => {
        const base = await primary(op, (why) => context.skip(why));
        if (!base) return;
        // The list as broad as it comes: its required members and path values only.
        const values = broadest(op, base.values);
        // A filter the list requires cannot be left out: what it answers must match the value it was asked with.
        if (op.parameters.some((p) => p.name === filter.param && p.required)) {
          const asked = values[filter.param];
          const got = await walkAll(ctx, op, values, filter.items);
          if (got.failed) return context.skip(`the list answered ${describeResponse(got.failed)}`);
          const extra = got.items.filter((it) => !mayKeep(filter, it, asked));
          check(extra.length === 0, `${where(op)} with ${filter.param}=${JSON.stringify(asked)} lists objects it does not match: ${keysOf(extra, filter.key).slice(0, 5).join(", ")}`);
          return;
        }
        const all = await walkAll(ctx, op, values, filter.items);
        if (all.failed) return context.skip(`the unfiltered list answered ${describeResponse(all.failed)}`);
        if (all.items.length === 0) return context.skip("the unfiltered list is empty, so there is nothing to filter");
        const asArray = takesList(op, filter.param);
        const fits = (v: unknown): boolean => {
          const verdict = suiteTools.validateRequest?.(op.id, requestInput(op, { ...values, [filter.param]: v }, undefined));
          return verdict === undefined || verdict.valid;
        };
        const candidates = [
          ...filterValues(filter, all.items, asArray).filter(fits).slice(0, 3),
          ...[...innerProbes(filter, all.items), ...caseProbes(filter, all.items), ...shortProbes(filter, all.items)].filter(fits),
        ];
        if (candidates.length === 0) return context.skip(`no listed object gives a ${filter.param} value the contract accepts`);
        for (const value of candidates) {
          const filtered = await walkAll(ctx, op, { ...values, [filter.param]: value }, filter.items);
          check(filtered.failed === undefined, `${where(op)} with ${filter.param}=${JSON.stringify(value)} answered ${filtered.failed ? describeResponse(filtered.failed) : ""}`);
          const extra = filtered.items.filter((it) => !mayKeep(filter, it, value));
          check(extra.length === 0, `${where(op)} with ${filter.param}=${JSON.stringify(value)} lists objects it does not match: ${keysOf(extra, filter.key).slice(0, 5).join(", ")}`);
          if (all.complete && filtered.complete) {
            const got = new Set(keysOf(filtered.items, filter.key));
            const missing = keysOf(
              all.items.filter((it) => mustKeep(filter, it, value)),
              filter.key,
            ).filter((k) => !got.has(k));
            check(missing.length === 0, `${where(op)} with ${filter.param}=${JSON.stringify(value)} leaves out objects it matches, which the unfiltered list shows: ${missing.slice(0, 5).join(", ")}`);
          }
          await sameItems(op, values, all.items, filtered.items, filter, `${filter.param}=${JSON.stringify(value)}`);
        }
        // A flag that widens the list (deleted objects, legacy kinds) widens what the filter keeps
        // from, not what it keeps: the first value again with each such flag set.
        const value = candidates[0];
        for (const flag of wideningFlags(op, filter.param).slice(0, 3)) {
          const wide = { ...values, [flag]: true, [filter.param]: value };
          if (suiteTools.validateRequest?.(op.id, requestInput(op, wide, undefined)).valid === false) continue;
          const filtered = await walkAll(ctx, op, wide, filter.items);
          if (filtered.failed) continue;
          const extra = filtered.items.filter((it) => !mayKeep(filter, it, value));
          check(extra.length === 0, `${where(op)} with ${filter.param}=${JSON.stringify(value)} and ${flag}=true lists objects it does not match: ${keysOf(extra, filter.key).slice(0, 5).join(", ")}`);
          await sameItems(op, values, all.items, filtered.items, filter, `${filter.param}=${JSON.stringify(value)} and ${flag}=true`);
        }
      });
    }
    combinedFiltersCase(op);
    const paging = op.pagination;
    if (paging) {
      it(`${op.id}: pages never exceed their size, the walk ends without repeats, and total_count counts what it found`, async (context) => {
        const base = await primary(op, (why) => context.skip(why));
        if (!base) return;
        const values: Record<string, unknown> = { ...base.values };
        delete values[paging.cursorParam];
        if (paging.totalCount) delete values[paging.totalCount.param];
        const size = Math.max(paging.pageSize?.minimum ?? 1, Math.min(paging.pageSize?.maximum ?? 2, 2));
        if (paging.pageSize) values[paging.pageSize.name] = size;
        const probe = await sender.send(op, values, undefined);
        if (!ok2xx(probe)) return context.skip(`the list answered ${probe.status} to the first page, so there is nothing to walk`);
        const problems = await checkPagination(
          paging,
          paging.pageSize ? size : Number.MAX_SAFE_INTEGER,
          async (cursor, withTotal, pageSize) => {
            const v = {
              ...values,
              ...(cursor !== undefined ? { [paging.cursorParam]: cursor } : {}),
              ...(withTotal && paging.totalCount ? { [paging.totalCount.param]: true } : {}),
              ...(pageSize !== undefined && paging.pageSize ? { [paging.pageSize.name]: pageSize } : {}),
            };
            const res = await sender.send(op, v, undefined);
            if (ok2xx(res)) checkAnswer(op, v, undefined, res);
            return res;
          },
          undefined,
          (whole, walked) => itemsDisagree(whole, walked, whole, (items) => items.map(itemKey)),
        );
        check(problems.length === 0, `${where(op)} breaks its paging contract: ${problems.join("; ")}`);
      }, 60_000);
    }
  }

  // Reads first, then writes, then the workflows and state sequences, then plain deletes: a sequence
  // deletes what it made, and a delete case must not remove what other cases read.
  const order = (o: OperationCase): number => (o.destructive ? 2 : o.method === "GET" ? 0 : 1);
  const operations = [...plan.operations].sort((a, b) => order(a) - order(b));

  describe(`${plan.title}: conformance`, () => {
    for (const op of operations.filter((o) => !o.destructive)) operationCases(op);

    // The workflows stated beside the contract first: they read the server's own data, which the
    // state sequences may then change (on a throw-away target, delete).
    const workflows = plan.workflows ?? [];
    if (workflows.length > 0)
      describe("workflows", () => {
        for (const wf of workflows) {
          it(`${wf.id}: ${wf.summary}`, async (context) => {
            if (wf.changesData && !current().destructive) return context.skip("changes data on the server: run with --destructive");
            let skipped: string | undefined;
            await runWorkflow(ctx, wf, (why) => {
              skipped = why;
            });
            if (skipped !== undefined) context.skip(skipped);
          }, 60_000);
        }
      });

    const scenarioCase = (sc: (typeof plan.scenarios)[number]): void =>
      it(
        sc.row,
        async (context) => {
          // A live server's data is not changed unless asked (contractgen test --destructive).
          if (!current().destructive) return context.skip("changes data on the server: run with --destructive");
          let skipped: string | undefined;
          await runScenario(ctx, sc, (why) => {
            skipped = why;
          });
          if (skipped !== undefined) context.skip(skipped);
        },
        60_000,
      );
    // A deletion the contract cannot make an object for takes a given or listed one: it runs after
    // the refusals, so the cases before it still find that object.
    const deletions = plan.scenarios.filter((sc) => sc.kind === "deletion");
    const sequences = plan.scenarios.filter((sc) => sc.kind !== "deletion");
    if (sequences.length > 0)
      describe("state sequences", () => {
        for (const sc of sequences) scenarioCase(sc);
      });

    // Invalid requests after every valid one: a server that an invalid request stops (etcd's alarm
    // action outside its enum) has answered everything else first.
    const refusing = operations.filter((op) => refusalsLater(op) && hasRefusals(op));
    if (refusing.length > 0)
      describe("refusals", () => {
        for (const op of refusing) describe(op.id, () => refusals(op));
      });
    if (deletions.length > 0)
      describe("deletions", () => {
        for (const sc of deletions) scenarioCase(sc);
      });

    for (const op of operations.filter((o) => o.destructive)) operationCases(op);

    const limited = plan.operations.filter((o) => o.rateLimit !== undefined && o.skip === undefined && o.rateLimit.requests <= RATE_CHECK_MAX);
    const frequent = plan.operations.filter((o) => o.frequency !== undefined && o.skip === undefined);
    if (limited.length > 0 || frequent.length > 0)
      describe("rate limits", () => {
        for (const op of limited) rateLimitCase(op);
        for (const op of frequent) frequencyCase(op);
      });
  });

  /**
   * Requests made too often are refused as the contract states (`x-limits` kind frequency): sent
   * until one is refused (at most FREQUENCY_MAX), that refusal has the stated status and error code.
   */
  function frequencyCase(op: OperationCase): void {
    const f = op.frequency as NonNullable<OperationCase["frequency"]>;
    it(`${op.id}: refuses requests made too often with ${f.status}${f.code !== undefined ? ` and code ${f.code}` : ""}`, async (context) => {
      if (!current().rateLimits) return context.skip("spends the server's quota: run with --rate-limits against a server whose quotas are fresh and no one else uses");
      const base = await primary(op, (why) => context.skip(why));
      if (!base) return;
      let refusal: RawResponse | undefined;
      for (let i = 0; i < FREQUENCY_MAX && refusal === undefined; i++) {
        const res = await sender.send(op, base.values, base.body, "target", undefined, { noRetry: true });
        if (!ok2xx(res)) refusal = res;
      }
      if (refusal === undefined) return context.skip(`${FREQUENCY_MAX} requests in a row were all taken: this server's "too often" lies beyond them`);
      check(
        refusal.status === f.status && (f.code === undefined || String(errorCode(refusal.body)) === String(f.code)),
        `${where(op)} refused a request made too often with ${describeResponse(refusal)}, expected ${f.status}${f.code !== undefined ? ` with code ${f.code}` : ""}`,
      );
    }, 120_000);
  }

  /**
   * The stated limit, driven to its end after every other case: the server must serve the requests
   * the limit has left and refuse the next with a 4xx. What is left is the stated number less this
   * run's earlier requests: those served (2xx) surely counted; those refused (a 4xx other than 401
   * or 429) may have, depending on where the server counts, so they widen the range by their number.
   * Only with fresh quotas (--rate-limits): on a server others use, or whose window opened before the
   * run, no count is exact.
   */
  function rateLimitCase(op: OperationCase): void {
    const limit = op.rateLimit as NonNullable<OperationCase["rateLimit"]>;
    const when = limit.when ?? {};
    const label =
      Object.keys(when).length > 0
        ? ` (requests with ${Object.entries(when)
            .map(([k, v]) => `${k}=${String(v)}`)
            .join(", ")})`
        : "";
    it(`${op.id}: serves exactly ${limit.requests} requests per ${limit.windowMs / 60_000} min${label}, then refuses`, async (context) => {
      if (!current().rateLimits) return context.skip("spends the server's quota: run with --rate-limits against a server whose quotas are fresh and no one else uses");
      if (op.destructive && !current().destructive) return context.skip("changes data on the server (deletes or invalidates): run with --destructive");
      const base = await primary(op, (why) => context.skip(why));
      if (!base) return;
      const values = { ...base.values, ...when };
      const matches = (v: Readonly<Record<string, unknown>>): boolean => Object.entries(when).every(([k, x]) => v[k] === x || String(v[k]) === String(x));
      const earlier = sender.answered(op.id).filter((r) => matches(r.values));
      const served = earlier.filter((r) => r.status >= 200 && r.status < 300).length;
      const maybe = earlier.filter((r) => r.status >= 400 && r.status < 500 && r.status !== 401 && r.status !== 429).length;
      const first = earlier[0]?.at ?? Date.now();
      const most = limit.requests - served;
      const least = Math.max(0, most - maybe);
      let accepted = 0;
      let refusal: RawResponse | undefined;
      for (let i = 0; i <= most && refusal === undefined; i++) {
        const res = await sender.send(op, values, base.body, "target", undefined, { noRetry: true });
        if (ok2xx(res)) accepted++;
        else refusal = res;
      }
      if (Date.now() - first >= limit.windowMs) return context.skip("the run took longer than the window, so the count is not exact");
      // Not served at all, and not for its rate (an object an earlier case deleted): nothing to count.
      if (refusal !== undefined && accepted === 0 && refusal.status !== 429 && least > 0)
        return context.skip(`the request is not served at the end of the run (${describeResponse(refusal)}), so the quota cannot be measured`);
      const expected = least === most ? `${most}` : `${least} to ${most}`;
      check(
        accepted >= least && accepted <= most,
        `${where(op)} served ${accepted} request(s)${label} where ${expected} were left of the stated ${limit.requests} (this run was served ${served} before${maybe > 0 ? ` and refused ${maybe}` : ""})`,
      );
      check(
        refusal !== undefined && refusal.status >= 400 && refusal.status < 500,
        `${where(op)} did not refuse a request${label} beyond the stated ${limit.requests} within the window: ${refusal ? describeResponse(refusal) : "it was served"}`,
      );
    }, 120_000);
  }
}

/** The error code an answer carries: `code`, or the first of `errors[]`'s. */
function errorCode(body: unknown): unknown {
  if (body === null || typeof body !== "object") return undefined;
  const b = body as Record<string, unknown>;
  if (b["code"] !== undefined) return b["code"];
  const first = Array.isArray(b["errors"]) ? (b["errors"][0] as Record<string, unknown> | undefined) : undefined;
  return first?.["code"];
}

/** What a case of `op` does to the object its path names: reads it, changes it, or deletes it. */
function caseKind(op: OperationCase): "read" | "write" | "delete" {
  // Only a path that ends in a parameter names one object; a DELETE or PUT on a collection's own path
  // changes what the collection holds, as the body says.
  if (!op.path.endsWith("}")) return "read";
  return op.method === "DELETE" ? "delete" : op.method === "PUT" || op.method === "PATCH" ? "write" : "read";
}

/** Whether anything answers at `baseUrl` (any status), within two seconds. */
async function answers(baseUrl: string): Promise<boolean> {
  try {
    await fetch(baseUrl, { method: "GET", redirect: "manual", signal: AbortSignal.timeout(2_000) });
    return true;
  } catch {
    return false;
  }
}

/** Requests a frequency case sends at most before it gives up finding the limit. @default 400 */
const FREQUENCY_MAX = 400;

/** Rate limits above this many requests are not driven to their end (it would take too long). @default 2000 */
const RATE_CHECK_MAX = 2000;

/**
 * How an answer's echo of the request (`x-echo`) differs from what was sent: a path or query
 * parameter sent and left out (of those the operation's own `x-echo` names, where it names some), or
 * a parameter echoed with another value. Nothing where the echo is not an object (a batch echoing
 * each item in a list).
 */
export function echoProblems(op: OperationCase, values: Readonly<Record<string, unknown>>, echo: unknown): string[] {
  if (echo === null || typeof echo !== "object" || Array.isArray(echo)) return [];
  const echoed = echo as Record<string, unknown>;
  const out: string[] = [];
  for (const p of op.parameters) {
    const sent = values[p.name];
    if ((p.in !== "path" && p.in !== "query") || sent === undefined) continue;
    if (!Object.prototype.hasOwnProperty.call(echoed, p.name)) {
      if (op.echoParams === undefined || op.echoParams.includes(p.name)) out.push(`leaves out the ${p.in} parameter ${p.name}`);
      continue;
    }
    if (!sameValue(echoed[p.name], sent)) out.push(`holds ${p.name}: ${JSON.stringify(echoed[p.name])}, sent ${JSON.stringify(sent)}`);
  }
  return out;
}

/** The list request as broad as it comes: only `values`' required members and path values (a drawn filter could hide objects). */
function broadest(op: OperationCase, values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of op.parameters) if ((p.required || p.in === "path") && values[p.name] !== undefined) out[p.name] = values[p.name];
  return out;
}

/** The parameter takes a list of values (its schema is an array). */
function takesList(op: OperationCase, param: string): boolean {
  return op.request?.parameters[param] !== undefined && JSON.stringify(op.request.parameters[param]).includes('"array"');
}

/** `op`'s security where every alternative needs credentials (so a request without them must be refused). */
function credentialsRequired(op: OperationCase): ReturnType<typeof securityOf> {
  const security = securityOf(op);
  return security !== undefined && security.length > 0 && security.every((a) => a.length > 0) ? security : undefined;
}

/** Wrong credentials for a scheme, one part at a time: each variant keeps every other part right. */
function wrongCredentials(kind: string | undefined): { label: string; needs: string; token?: boolean; make: (auth: AuthConfig) => AuthConfig | undefined }[] {
  const spoil = (v: string): string => `${v}-wrong`;
  if (kind === "basic")
    return [
      { label: "a wrong user name (right password)", needs: "Basic credentials", make: (a) => (a.basic ? { basic: { ...a.basic, username: spoil(a.basic.username) } } : undefined) },
      { label: "a wrong password (right user name)", needs: "Basic credentials", make: (a) => (a.basic ? { basic: { ...a.basic, password: spoil(a.basic.password) } } : undefined) },
    ];
  if (kind === "oauth1") {
    const part = (label: string, key: "consumerKey" | "consumerSecret" | "token" | "tokenSecret") => ({
      label,
      needs: "OAuth 1.0a credentials",
      // Only a wrong token is a token the server does not know; a wrong secret is a bad signature.
      token: key === "token",
      make: (a: AuthConfig): AuthConfig | undefined => (a.oauth1 ? { oauth1: { ...a.oauth1, [key]: spoil(a.oauth1[key] ?? "") } } : undefined),
    });
    return [
      part("a wrong consumer key (right secrets)", "consumerKey"),
      part("a wrong consumer secret (right key and token)", "consumerSecret"),
      part("a wrong access token (right consumer)", "token"),
      part("a wrong token secret (right token)", "tokenSecret"),
    ];
  }
  // A single secret wrong, and the right one cut short by one character: a server comparing only a
  // prefix (or only the length of what was sent) accepts the latter.
  const single = (what: string, needs: string, wrong: string, read: (a: AuthConfig) => unknown, make: (v: string) => AuthConfig) => [
    { label: `a wrong ${what}`, needs, token: true, make: () => make(wrong) },
    {
      label: `the right ${what} cut short by one character`,
      needs,
      token: true,
      make: (a: AuthConfig): AuthConfig | undefined => {
        const v = read(a);
        return typeof v === "string" && v.length > 1 ? make(v.slice(0, -1)) : undefined;
      },
    },
  ];
  if (kind !== undefined && kind.startsWith("apiKey:"))
    return single(
      "API key",
      "API keys",
      "wrong-api-key",
      (a) => a.apiKey,
      (apiKey) => ({ apiKey }),
    );
  return single(
    "bearer token",
    "bearer tokens",
    "wrong-token",
    (a) => a.bearer,
    (bearer) => ({ bearer }),
  );
}
