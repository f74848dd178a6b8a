/**
 * Answers shared by the two advertising contracts: the `{request:{params}, data}` envelope, the
 * error body (the documents show none, so this one is ours: `{errors:[{code, message}], request}`,
 * the shape the batch errors are described with), authentication of the user behind the token, and
 * the account check every account path makes.
 */
import type { AuthContext } from "@contractgen/runtime/server";
import { openObject, type OpenObject } from "../open-object.js";
import { paginate } from "../paging.js";
import { rateHeaders } from "../rate-limit.js";
import type { AccountRecord, MockUser } from "../store/records.js";
import type { MockState } from "../store/state.js";

export interface AdsErrorItem {
  /** A word for advertising errors; the legacy integer code 89 for an invalid user token. */
  readonly code: string | number;
  readonly message: string;
  readonly parameter?: string;
}

/** The echoed parameters: an open object in the contract (see open-object.ts). */
export type EchoedParams = OpenObject;

export interface AdsErrorBody {
  readonly errors: AdsErrorItem[];
  readonly request: { readonly params: EchoedParams };
}

/** An error answer. Both advertising contracts declare their 4XX bodies as application/json only. */
export interface AdsFailure {
  readonly status: number;
  readonly body: AdsErrorBody;
  readonly headers?: Readonly<Record<string, string>>;
  readonly contentType: "application/json";
}

export interface EchoInput {
  readonly path: object;
  readonly query: object;
}

/** `request.params`: the path and query values as validated (lists as arrays, numbers as numbers). */
export function echo(input: EchoInput): EchoedParams {
  return openObject({ ...input.path, ...input.query });
}

export function adsError(status: number, code: string, message: string, input?: EchoInput, headers?: Readonly<Record<string, string>>): AdsFailure {
  return {
    status,
    body: { errors: [{ code, message }], request: { params: input ? echo(input) : {} } },
    contentType: "application/json",
    ...(headers ? { headers } : {}),
  };
}

export const notFound = (what: string, id: string, input: EchoInput): AdsFailure => adsError(404, "NOT_FOUND", `${what} ${id} was not found`, input);
export const invalid = (message: string, input: EchoInput): AdsFailure => adsError(400, "INVALID_PARAMETER", message, input);

/** The answer to a request whose OAuth 1.0a token is not a user's access token. */
export function unauthorized(): AdsFailure {
  return { status: 401, body: { errors: [{ code: 89, message: "Invalid or expired token" }], request: { params: {} } }, contentType: "application/json" };
}

/** The user behind the request's access token, or undefined for consumer-only and request tokens. */
export function userOf(state: MockState, auth: AuthContext | undefined): MockUser | undefined {
  const token = auth?.credential;
  if (token === undefined) return undefined;
  const access = state.tokens.liveAccess(token);
  return access ? state.users.get(access.userId) : undefined;
}

export interface AdsContext {
  readonly user: MockUser;
}

export interface AccountContext extends AdsContext {
  readonly account: AccountRecord;
}

type Reply<R> = R | Promise<R>;

/** Runs `fn` for the authenticated user; answers 401 for requests without one. */
export function withUser<I extends { readonly auth: AuthContext | undefined }, R>(
  state: MockState,
  fn: (input: I, ctx: AdsContext) => Reply<R>,
): (input: I) => Promise<R | AdsFailure> {
  return async (input) => {
    const user = userOf(state, input.auth);
    if (!user) return unauthorized();
    return fn(input, { user });
  };
}

/**
 * Runs `fn` for an account associated with the authenticated user. Unknown and deleted accounts
 * answer 404; accounts of other users 403 (the account "must be associated with the authenticated
 * user").
 */
export function withAccount<I extends { readonly auth: AuthContext | undefined; readonly path: { readonly account_id: string }; readonly query: object }, R>(
  state: MockState,
  fn: (input: I, ctx: AccountContext) => Reply<R>,
  options: { readonly allowDeleted?: (input: I) => boolean } = {},
): (input: I) => Promise<R | AdsFailure> {
  return withUser(state, (input: I, { user }) => {
    const id = input.path.account_id;
    const account = state.accounts.get(id);
    if (!account || (account.data.deleted && !(options.allowDeleted?.(input) ?? false))) return notFound("account", id, input);
    if (!account.userIds.includes(user.id)) return adsError(403, "UNAUTHORIZED_ACCOUNT_ACCESS", `account ${id} is not associated with the authenticated user`, input);
    return fn(input, { user, account });
  });
}

/** Soft-deleted rows stay out of lists unless `with_deleted=true`. */
export function visible<T extends { readonly deleted: boolean }>(rows: readonly T[], withDeleted: boolean | undefined): T[] {
  return withDeleted === true ? [...rows] : rows.filter((r) => !r.deleted);
}

/** Case-insensitive name prefix filter (`q`). */
export function namePrefix<T extends { readonly name?: string | null }>(rows: readonly T[], q: string | undefined): T[] {
  if (q === undefined || q === "") return [...rows];
  const needle = q.toLowerCase();
  return rows.filter((r) => (r.name ?? "").toLowerCase().startsWith(needle));
}

export interface ListQuery {
  readonly count?: number;
  readonly cursor?: string;
  readonly with_total_count?: boolean;
}

export interface ListReply<T> {
  readonly status: 200;
  readonly body: { request: { params: EchoedParams }; data: T[]; next_cursor: string | null; total_count?: number };
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * One page of `rows` in the list envelope. `with_total_count=true` adds `total_count` and counts
 * against its own lower limit (200 per 15 minutes, per user and operation).
 */
export function listReply<T>(
  state: MockState,
  ctx: AdsContext,
  operationId: string,
  input: EchoInput & { readonly query: ListQuery },
  rows: readonly T[],
  defaultCount: number,
): ListReply<T> | AdsFailure {
  let headers: Record<string, string> | undefined;
  // The contract's x-rules say this too, but the generated validator checks the rule before it
  // coerces "true" to a boolean, so it never fires on a real query string.
  if (input.query.with_total_count === true && input.query.cursor !== undefined) return invalid("with_total_count=true cannot be combined with cursor", input);
  if (input.query.with_total_count === true) {
    const verdict = state.rates.hit(`total-count:${ctx.user.id}:${operationId}`, state.limits.totalCountRequests);
    headers = rateHeaders(verdict);
    if (!verdict.allowed) return adsError(429, "TOO_MANY_REQUESTS", "with_total_count requests are limited to this many per window; retry after x-rate-limit-reset", input, headers);
  }
  const result = paginate(rows, input.query.count ?? defaultCount, input.query.cursor);
  if (!result.ok) return invalid(result.message, input);
  const body = {
    request: { params: echo(input) },
    data: result.page.data,
    next_cursor: result.page.next_cursor,
    ...(input.query.with_total_count === true ? { total_count: rows.length } : {}),
  };
  return { status: 200, body, ...(headers ? { headers } : {}) };
}

/** The one-object envelope. */
export function one<T>(input: EchoInput, data: T): { readonly status: 200; readonly body: { request: { params: EchoedParams }; data: T } } {
  return { status: 200, body: { request: { params: echo(input) }, data } };
}

/** Keeps rows whose id is in `ids` when the filter is given. */
export function byIds<T>(rows: readonly T[], ids: readonly string[] | undefined, idOf: (row: T) => string): T[] {
  if (ids === undefined) return [...rows];
  const wanted = new Set(ids);
  return rows.filter((r) => wanted.has(idOf(r)));
}
