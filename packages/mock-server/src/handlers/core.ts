/**
 * Document 1: the app-only bearer token, the OAuth 1.0a flow and its invalidation, the stream link
 * and post lookup. Operations whose shapes the contract leaves unshown have no handler here, so the
 * generated plugin answers them 501 saying what is missing.
 */
import type { CoreHandlers } from "@devplatform/core/server";
import { ResourceNotFoundProblem } from "@devplatform/core/problems";
import type { AuthContext } from "@contractgen/runtime/server";
import { rateHeaders } from "../rate-limit.js";
import type { MockState } from "../store/state.js";
import { selectPosts } from "./field-selection.js";

/** Legacy envelopes of document 1 (`{errors:[{code, message}]}`), as fresh objects. */
const legacy = (code: number, message: string) => ({ errors: [{ code, message }] });
const INVALID_OR_EXPIRED = () => legacy(89, "Invalid or expired token");

/** The OAuth 1.0a token the request was signed with (undefined for consumer-only signatures). */
const signedToken = (auth: AuthContext | undefined): string | undefined => (auth?.scheme === "oauth1" ? auth.credential : undefined);

/** A 4XX the contract leaves unshaped (NotShownClientError): the legacy envelope, as JSON. */
function clientError(status: number, code: number, message: string) {
  return { status, body: legacy(code, message), contentType: "application/json" as const };
}

export function coreHandlers(state: MockState): Partial<CoreHandlers> {
  /** The browser step shared by authorize and authenticate. */
  const browserStep = (input: { query: { oauth_token: string; screen_name?: string } }) => {
    const record = state.tokens.requestTokens.get(input.query.oauth_token);
    if (!record) return clientError(401, 89, "the request token is unknown, expired or already exchanged");
    // screen_name prefills the login box: when it names a known user, that user signs in and approves.
    const named = input.query.screen_name === undefined ? undefined : [...state.users.values()].find((u) => u.username === input.query.screen_name);
    const user = named ?? state.users.get(state.defaultUserId);
    if (!user) return clientError(401, 89, "no user can sign in");
    const verifier = state.tokens.approve(record, user.id);
    if (record.callback === "oob") {
      // PIN mode shows the verifier on a page; the contract declares no body, so it travels in headers.
      return { status: 200, headers: { "x-oauth-token": record.token, "x-oauth-verifier": verifier } };
    }
    let target: URL;
    try {
      target = new URL(record.callback);
    } catch {
      // The contract's `format: uri` admits a few forms the WHATWG parser refuses; they cannot be redirected to.
      return clientError(400, 32, "oauth_callback cannot be redirected to");
    }
    target.searchParams.set("oauth_token", record.token);
    target.searchParams.set("oauth_verifier", verifier);
    return { status: 302, headers: { location: target.toString() } };
  };

  const invalidateAccess = (input: { auth: AuthContext | undefined }) => {
    const token = signedToken(input.auth);
    const access = token === undefined ? undefined : state.tokens.liveAccess(token);
    if (!access) return { status: 401 as const, body: INVALID_OR_EXPIRED() };
    access.invalidated = true;
    return { status: 200 as const, body: { access_token: access.token } };
  };

  return {
    createStreamLink: (input) => {
      state.streamLinks.set(input.path.webhook_id, true);
      return { status: 200, body: { data: { provisioned: true } } };
    },

    getPostsByIds: (input) => {
      const q = input.query;
      const found = q.ids.flatMap((id) => {
        const post = state.posts.get(id);
        return post ? [post] : [];
      });
      const missing = q.ids.filter((id) => !state.posts.has(id));
      const selected = selectPosts(state, found, {
        ...(q["post.fields"] ? { postFields: q["post.fields"] } : {}),
        ...(q["user.fields"] ? { userFields: q["user.fields"] } : {}),
        ...(q["media.fields"] ? { mediaFields: q["media.fields"] } : {}),
        ...(q.expansions ? { expansions: q.expansions } : {}),
      });
      // Unknown ids do not fail the lookup: they come back as resource-not-found problems beside the data.
      const errors = missing.map((id) => ({
        type: ResourceNotFoundProblem.type,
        title: "Not Found Error",
        detail: `Could not find post with ids: [${id}].`,
        parameter: "ids",
        value: id,
        resource_id: id,
        resource_type: "post" as const,
      }));
      return { status: 200, body: { ...selected, ...(errors.length > 0 ? { errors } : {}) } };
    },

    requestToken: (input) => {
      const consumerKey = (input.auth?.principal as { consumerKey?: string } | undefined)?.consumerKey ?? state.credentials.apiKey;
      const record = state.tokens.createRequestToken(consumerKey, input.query.oauth_callback);
      return {
        status: 200,
        body: { oauth_token: record.token, oauth_token_secret: record.secret, oauth_callback_confirmed: "true" },
        contentType: "application/x-www-form-urlencoded",
      };
    },

    authorize: (input) => browserStep(input),
    authenticate: (input) => browserStep(input),

    accessToken: (input) => {
      // The request must be signed with the very request token it exchanges.
      const signedWith = signedToken(input.auth);
      if (signedWith !== input.query.oauth_token) return clientError(401, 89, "oauth_token must be the request token the request is signed with");
      const result = state.tokens.exchange(input.query.oauth_token, input.query.oauth_verifier);
      if (!result.ok) return clientError(401, 89, result.reason);
      const user = state.users.get(result.access.userId);
      return {
        status: 200,
        body: { oauth_token: result.access.token, oauth_token_secret: result.access.secret, user_id: result.access.userId, screen_name: user?.username ?? "" },
        contentType: "application/x-www-form-urlencoded",
      };
    },

    invalidateAccessToken: (input) => invalidateAccess(input),
    invalidateAccessTokenJson: (input) => invalidateAccess(input),

    createBearerToken: () => {
      const verdict = state.rates.hit(`bearer-token:${state.credentials.apiKey}`, state.limits.bearerTokenRequests);
      if (!verdict.allowed) return { status: 403, body: legacy(99, "Bearer token requested too often"), headers: rateHeaders(verdict) };
      return { status: 200, body: { token_type: "bearer", access_token: state.tokens.appToken() }, headers: rateHeaders(verdict) };
    },

    // The state table gives this operation's effect but the contract shows no input: any body is accepted.
    invalidateBearerToken: () => {
      const revoked = state.tokens.invalidateAppToken();
      return { status: 200, body: revoked === undefined ? {} : { access_token: revoked } };
    },
  };
}
