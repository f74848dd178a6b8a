/**
 * Membership batches of document 2 (custom audiences and do-not-reach lists): all or nothing, item
 * problems reported by input index, 1500 requests per minute per user and operation.
 */
import type { AdsAudiencesHandlers } from "@devplatform/ads-audiences/server";
import { rateHeaders } from "../rate-limit.js";
import type { MockState } from "../store/state.js";
import { iso } from "../time.js";
import { echo, notFound, withAccount } from "./ads-reply.js";

export interface OperationProblem {
  /** Index of the input operation the problem concerns. */
  readonly index: number;
  readonly code: string;
  readonly message: string;
}

/** A failed batch: the contract's AdsBatchError with request-level `errors` and indexed `operation_errors`. */
export interface BatchFailure {
  readonly status: number;
  readonly body: { errors: { code: string; message: string }[]; operation_errors: OperationProblem[] };
  readonly headers?: Readonly<Record<string, string>>;
  readonly contentType: "application/json";
}

interface MembershipOperation {
  readonly operation_type: "Update" | "Delete";
  readonly params: { readonly users: readonly object[] };
}

function batchFailure(status: number, errors: BatchFailure["body"]["errors"], operationErrors: OperationProblem[], headers: Record<string, string>): BatchFailure {
  return { status, body: { errors, operation_errors: operationErrors }, headers, contentType: "application/json" };
}

/** Item-level checks the schema cannot make: an operation must name users, and each user an identifier. */
function operationProblems(operations: readonly MembershipOperation[]): OperationProblem[] {
  const problems: OperationProblem[] = [];
  operations.forEach((op, index) => {
    if (op.params.users.length === 0) problems.push({ index, code: "MISSING_USERS", message: `operation ${index} has no users` });
    op.params.users.forEach((user, u) => {
      const identifiers = Object.values(user).filter((v) => Array.isArray(v) && v.length > 0);
      if (identifiers.length === 0) problems.push({ index, code: "MISSING_USER_IDENTIFIERS", message: `user ${u} of operation ${index} has no identifier values` });
    });
  });
  return problems;
}

/** Applies the operations to a member set; returns the number of user records processed per operation. */
function apply(members: Set<string>, operations: readonly MembershipOperation[]): number[] {
  return operations.map((op) => {
    for (const user of op.params.users) {
      // One key per user object, independent of key order.
      const key = JSON.stringify(Object.entries(user).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
      if (op.operation_type === "Update") members.add(key);
      else members.delete(key);
    }
    return op.params.users.length;
  });
}

export function membershipHandlers(state: MockState): Pick<AdsAudiencesHandlers, "updateCustomAudienceUsers" | "updateDoNotReachListUsers"> {
  /** Counts the request against the 1500-per-minute limit; a refusal comes back as the failure to send. */
  const gate = (userId: string, operationId: string): { headers: Record<string, string>; refused?: BatchFailure } => {
    const verdict = state.rates.hit(`membership:${userId}:${operationId}`, state.limits.membershipRequests);
    const headers = rateHeaders(verdict);
    if (verdict.allowed) return { headers };
    return { headers, refused: batchFailure(429, [{ code: "TOO_MANY_REQUESTS", message: "membership batches are limited to this many requests per window; retry after x-rate-limit-reset" }], [], headers) };
  };

  const check = (operations: readonly MembershipOperation[], headers: Record<string, string>): BatchFailure | undefined => {
    if (operations.length === 0) return batchFailure(400, [{ code: "EMPTY_BATCH", message: "the batch holds no operations" }], [], headers);
    const problems = operationProblems(operations);
    // The batch succeeds or fails as a whole: one bad item refuses every item.
    return problems.length > 0 ? batchFailure(400, [], problems, headers) : undefined;
  };

  return {
    updateCustomAudienceUsers: withAccount(state, (input, ctx) => {
      const { headers, refused } = gate(ctx.user.id, "updateCustomAudienceUsers");
      if (refused) return refused;
      const audience = state.customAudiences.get(input.path.custom_audience_id);
      if (!audience || audience.accountId !== ctx.account.data.id) return { ...notFound("custom audience", input.path.custom_audience_id, input), headers };
      const failure = check(input.body, headers);
      if (failure) return failure;
      const processed = apply(audience.members, input.body).reduce((a, b) => a + b, 0);
      return { status: 200, body: { request: { params: echo(input) }, data: { success_count: processed, total_count: processed } }, headers };
    }),

    updateDoNotReachListUsers: withAccount(state, (input, ctx) => {
      const { headers, refused } = gate(ctx.user.id, "updateDoNotReachListUsers");
      if (refused) return refused;
      const list = state.doNotReachLists.get(ctx.account.data.id, input.path.do_not_reach_list_id);
      if (!list || list.data.deleted) return { ...notFound("do-not-reach list", input.path.do_not_reach_list_id, input), headers };
      const failure = check(input.body, headers);
      if (failure) return failure;
      const counts = apply(list.members, input.body);
      list.data.updated_at = iso(state.now());
      return {
        status: 200,
        body: {
          data: counts.map((n) => ({ success_count: n, total_count: n })),
          request: input.body.map((op) => ({
            params: { do_not_reach_list_id: input.path.do_not_reach_list_id, expires_at: op.params.expires_at, account_id: input.path.account_id },
            operation_type: op.operation_type,
          })),
        },
        headers,
      };
    }),
  };
}
