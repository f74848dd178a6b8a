/**
 * Credential checks for the generated plugins. Document 1 names the schemes; which credentials are
 * valid is the mock's state: fixed credentials from the options plus the tokens it has issued.
 */
import type { SecurityVerifiers } from "@contractgen/runtime/server";
import type { MockState } from "../store/state.js";

export type BearerPrincipal =
  | { readonly kind: "fixed" }
  | { readonly kind: "app"; readonly apiKey: string }
  | { readonly kind: "user"; readonly userId: string };

function bearer(state: MockState, token: string): BearerPrincipal | undefined {
  if (token === state.credentials.bearerToken) return { kind: "fixed" };
  if (state.tokens.isLiveAppToken(token)) return { kind: "app", apiKey: state.credentials.apiKey };
  // A user's access token from the OAuth flow is a user-context bearer as well.
  const access = state.tokens.liveAccess(token);
  return access ? { kind: "user", userId: access.userId } : undefined;
}

const consumerSecret = (state: MockState) => (key: string) => (key === state.credentials.apiKey ? state.credentials.apiSecret : undefined);

/**
 * The core API: bearer tokens, Basic app credentials, and OAuth 1.0a where request tokens sign the
 * flow's own steps and access tokens everything after.
 */
export function coreSecurity(state: MockState): SecurityVerifiers {
  return {
    bearer: (token) => bearer(state, token),
    basic: (username, password) =>
      username === state.credentials.apiKey && password === state.credentials.apiSecret ? { kind: "app", apiKey: username } : undefined,
    oauth1: {
      consumerSecret: consumerSecret(state),
      tokenSecret: (token) => state.tokens.liveAccess(token)?.secret ?? state.tokens.requestTokens.get(token)?.secret,
    },
  };
}

/** The advertising APIs: OAuth 1.0a signed with a live access token (request tokens are refused). */
export function adsSecurity(state: MockState): SecurityVerifiers {
  return {
    oauth1: {
      consumerSecret: consumerSecret(state),
      tokenSecret: (token) => state.tokens.liveAccess(token)?.secret,
    },
  };
}
