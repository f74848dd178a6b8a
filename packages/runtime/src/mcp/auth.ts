/**
 * Credentials for an MCP server, the contract's way: one environment variable (or flag) per piece of
 * each security scheme, gathered into the runtime's `AuthConfig`, so every tool authenticates as its
 * operation requires (the authenticator picks the scheme per call; client credentials go through
 * the runtime's app-only token cache).
 */
import type { AuthConfig } from "../client/auth.js";

/** The variables read, after `<PREFIX>_` (`CORE_BEARER_TOKEN`). */
export const CREDENTIAL_VARIABLES = {
  bearerToken: "BEARER_TOKEN",
  username: "USERNAME",
  password: "PASSWORD",
  apiKey: "API_KEY",
  apiSecret: "API_SECRET",
  accessToken: "ACCESS_TOKEN",
  accessTokenSecret: "ACCESS_TOKEN_SECRET",
} as const;

export type CredentialName = keyof typeof CREDENTIAL_VARIABLES;
export type Credentials = Partial<Record<CredentialName, string>>;

/** `<PREFIX>_<NAME>` values of `env`, for the credential names above. */
export function credentialsFromEnv(prefix: string, env: Readonly<Record<string, string | undefined>>): Credentials {
  const out: Credentials = {};
  for (const [key, suffix] of Object.entries(CREDENTIAL_VARIABLES) as [CredentialName, string][]) {
    const v = env[`${prefix}_${suffix}`];
    if (v !== undefined && v !== "") out[key] = v;
  }
  return out;
}

/**
 * The runtime's auth configuration from credentials:
 * - bearer token → `bearer` (OAuth 2.0 user-context or app-only tokens, plain bearer schemes);
 * - API key and secret → `clientCredentials` (app-only token fetched and cached), the OAuth 1.0a
 *   consumer, and Basic when no username is given (document 1: the key is the Basic user name);
 * - access token and secret → the OAuth 1.0a user context;
 * - username and password → Basic.
 */
export function authFromCredentials(c: Credentials): AuthConfig {
  const basic = c.username !== undefined ? { username: c.username, password: c.password ?? "" } : c.apiKey !== undefined ? { username: c.apiKey, password: c.apiSecret ?? "" } : undefined;
  const keyed = c.apiKey !== undefined && c.apiSecret !== undefined;
  return {
    ...(c.bearerToken !== undefined ? { bearer: c.bearerToken } : {}),
    ...(basic ? { basic } : {}),
    ...(keyed
      ? {
          clientCredentials: { apiKey: c.apiKey as string, apiSecret: c.apiSecret as string },
          oauth1: {
            consumerKey: c.apiKey as string,
            consumerSecret: c.apiSecret as string,
            ...(c.accessToken !== undefined ? { token: c.accessToken } : {}),
            ...(c.accessTokenSecret !== undefined ? { tokenSecret: c.accessTokenSecret } : {}),
          },
        }
      : {}),
  };
}

/**
 * Credentials a single HTTP request carries (`Authorization: Bearer …` or `Basic …`), laid over the
 * server's own: over Streamable HTTP each user calls the API with their own permissions.
 */
export function authFromHeader(header: string | undefined, base: AuthConfig): AuthConfig {
  if (header === undefined) return base;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (bearer) return { ...base, bearer: bearer[1] as string };
  const basic = /^Basic\s+(\S+)\s*$/i.exec(header);
  if (basic) {
    const text = Buffer.from(basic[1] as string, "base64").toString("utf8");
    const i = text.indexOf(":");
    if (i > 0) return { ...base, basic: { username: text.slice(0, i), password: text.slice(i + 1) } };
  }
  return base;
}
