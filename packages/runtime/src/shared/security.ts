/**
 * The security vocabulary shared by the authenticator, the transport and the generated clients.
 * Kept apart from `auth.ts` so that errors can name schemes without importing the authenticator.
 */

/**
 * One authentication scheme an operation can accept.
 *
 * - `bearer`: OpenAPI `bearerAuth` (http bearer): any bearer token.
 * - `basic`: OpenAPI `basicAuth` (http basic).
 * - `oauth1`: OAuth 1.0a, HMAC-SHA1 signed (the spec's `oauth1` apiKey scheme with `x-oauth1`).
 * - `appOnly`: OAuth 2.0 app-only bearer token (`oauth2AppOnly`, client credentials flow).
 * - `userToken`: OAuth 2.0 user-context bearer token (`oauth2UserContext`).
 */
export type SchemeKind = "bearer" | "basic" | "oauth1" | "appOnly" | "userToken" | ApiKeyKind;

/**
 * An API key scheme (`type: apiKey` without `x-oauth1`), with where the key travels and under which
 * name: `apiKey:header:X-API-Key`, `apiKey:query:api_key`, `apiKey:cookie:session`.
 */
export type ApiKeyKind = `apiKey:${"header" | "query" | "cookie"}:${string}`;

/** Where an API key kind puts the key, or undefined for any other kind. */
export function apiKeyPlacement(kind: string): { readonly in: "header" | "query" | "cookie"; readonly name: string } | undefined {
  const m = /^apiKey:(header|query|cookie):(.+)$/.exec(kind);
  return m ? { in: m[1] as "header" | "query" | "cookie", name: m[2] as string } : undefined;
}

/**
 * An operation's security requirement as OpenAPI `security` states it: alternatives (OR), each a
 * list of schemes that must all apply (AND). `[]` means the operation takes no authentication; an
 * empty inner list (`[["bearer"], []]`) means authentication is optional.
 */
export type SecurityAlternatives = readonly (readonly SchemeKind[])[];

/** OpenAPI security scheme names of the contracts, mapped to the runtime's kinds. */
export const SCHEME_KIND_BY_NAME: Readonly<Record<string, SchemeKind>> = {
  bearerAuth: "bearer",
  basicAuth: "basic",
  oauth1: "oauth1",
  oauth2AppOnly: "appOnly",
  oauth2UserContext: "userToken",
};
