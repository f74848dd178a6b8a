/**
 * Errors in the contract's own shapes. The server core answers invalid requests, missing
 * credentials and unknown objects with problems; an operation may declare another status for them
 * (422 for invalid input) and another body (`{code, message}`, `{error: {…}}`). The mock answers
 * the status the operation declares and a body of the declared schema: the problem itself where
 * the schema takes it, else the contract's example or seeded data with the problem's detail put in
 * the body's message member, so the answer still says what to fix.
 */
import type { ErrorShaper, ServerError } from "../../server/core.js";
import { deriveSeed } from "../../shared/prng.js";
import { sentMediaType, type Answers, type Chosen } from "./answers.js";
import { isRec } from "./pointer.js";
import type { MockSchema } from "../mock-data.js";

const PROBLEM = "application/problem+json";

/** Members an error object states its message in, best first. */
const MESSAGE_MEMBERS = ["detail", "message", "error_description", "description", "error", "msg", "reason", "title", "errorMessage", "error_message", "text"];

/**
 * The status an error goes out with: the one the server chose where the operation declares it (by
 * code or range), else for a refused request (400, 413, 415) 400 where declared, else the
 * operation's refusal status (the mock table's: 422, a validation error's), else the chosen one
 * (`default` covers it, or nothing does).
 */
export function declaredErrorStatus(answers: Answers, operationId: string, status: number, refusals: Readonly<Record<string, number>> = {}): number {
  if (answers.declares(operationId, status)) return status;
  if (status === 400 || status === 413 || status === 415) {
    if (answers.declares(operationId, 400)) return 400;
    const refusal = Object.prototype.hasOwnProperty.call(refusals, operationId) ? refusals[operationId] : undefined;
    if (refusal !== undefined) return refusal;
  }
  return status;
}

/** Puts `detail` into the body's message member (at the top or one level down) when the schema still takes it. */
function withDetail(body: unknown, detail: string, accepts: (b: unknown) => boolean): unknown {
  if (!isRec(body)) return typeof body === "string" && accepts(detail) ? detail : body;
  const places: Record<string, unknown>[] = [body];
  for (const v of Object.values(body)) {
    if (isRec(v)) places.push(v);
    else if (Array.isArray(v) && isRec(v[0])) places.push(v[0]);
  }
  for (const place of places) {
    for (const name of MESSAGE_MEMBERS) {
      if (typeof place[name] !== "string") continue;
      const was = place[name];
      place[name] = detail;
      if (accepts(body)) return body;
      place[name] = was;
    }
  }
  return body;
}

/** An error body of the declared response `chosen` that says `detail`. */
export function errorBody(answers: Answers, operationId: string, chosen: Chosen, problem: Readonly<Record<string, unknown>>, seed: number): { body: unknown; contentType: string } {
  const type = chosen.plan.contentType;
  if (type === undefined) return { body: undefined, contentType: "application/json" };
  const accepts = (b: unknown): boolean => answers.valid(operationId, chosen, b);
  const asProblem = { ...problem, status: chosen.status };
  if (accepts(asProblem)) return { body: asProblem, contentType: sentMediaType(type, asProblem) };
  const base = answers.body(operationId, chosen, { seed: deriveSeed(seed, `error:${chosen.status}`) });
  const fallback = base.valid ? base : answers.body(operationId, chosen);
  const detail = typeof problem["detail"] === "string" ? problem["detail"] : String(problem["title"] ?? "error");
  const body = withDetail(fallback.body, detail, accepts);
  return { body, contentType: sentMediaType(type, body) };
}

/** The engine's `shapeError` for the server core. */
export function errorShaper(answers: Answers, seed: number, refusals: Readonly<Record<string, number>> = {}, invalidToken?: { readonly status: number; readonly schema: MockSchema }): ErrorShaper {
  return (error: ServerError) => {
    if (error.operationId === undefined) return undefined;
    // Credentials refused: the refusal the contract states for a token it does not know, drawn to
    // meet both that statement and the operation's declared answer for its status.
    const stated = error.status === 401 && invalidToken ? answers.forStatus(error.operationId, invalidToken.status) : undefined;
    if (stated && invalidToken) {
      const schema = { allOf: [stated.plan.schema ?? {}, invalidToken.schema] } as MockSchema;
      const drawn = answers.draw(schema, deriveSeed(seed, "invalid-token"), (b) => answers.valid(error.operationId as string, stated, b));
      const type = stated.plan.contentType;
      if (drawn.valid && type !== undefined) return { status: stated.status, body: drawn.body, contentType: sentMediaType(type, drawn.body) };
    }
    const status = declaredErrorStatus(answers, error.operationId, error.status, refusals);
    const chosen = answers.forStatus(error.operationId, status);
    // Nothing declared for it: the server's problem is as good as any answer (and better than the
    // server core's fallbacks, which are this repository's own APIs' legacy envelopes).
    if (!chosen) return { status, body: { ...error.problem, status }, contentType: PROBLEM };
    const out = errorBody(answers, error.operationId, chosen, error.problem, seed);
    return { status, body: out.body, contentType: out.contentType };
  };
}
