/**
 * The mock's credential checks. By default a request needs credentials of a scheme its operation
 * accepts, of any value (as Prism checks them); with `checkCredentials` only the development
 * credentials pass, so a client's wrong key is refused as a real server would. OAuth 1.0a
 * signatures are verified either way, with the development consumer and access token.
 */
import type { SecurityVerifiers } from "../../server/core.js";

/** The credentials the mock takes. */
export interface MockCredentials {
  /** A bearer token (also OAuth 2.0 access tokens). @default "mock-bearer-token" */
  readonly bearerToken: string;
  /** The API key of `apiKey` schemes, the Basic user name and the OAuth 1.0a consumer key. @default "mock-api-key" */
  readonly apiKey: string;
  /** The Basic password and the OAuth 1.0a consumer secret. @default "mock-api-secret" */
  readonly apiSecret: string;
  /** @default "mock-access-token" */
  readonly accessToken: string;
  /** @default "mock-access-token-secret" */
  readonly accessTokenSecret: string;
}

export const DEFAULT_MOCK_CREDENTIALS: MockCredentials = Object.freeze({
  bearerToken: "mock-bearer-token",
  apiKey: "mock-api-key",
  apiSecret: "mock-api-secret",
  accessToken: "mock-access-token",
  accessTokenSecret: "mock-access-token-secret",
});

export function mockSecurity(options: { readonly checkCredentials?: boolean; readonly credentials?: Partial<MockCredentials> }): { verifiers: SecurityVerifiers; credentials: MockCredentials } {
  const given = Object.fromEntries(Object.entries(options.credentials ?? {}).filter(([, v]) => typeof v === "string" && v !== ""));
  const c: MockCredentials = { ...DEFAULT_MOCK_CREDENTIALS, ...given };
  const oauth1 = {
    consumerSecret: (key: string) => (key === c.apiKey ? c.apiSecret : undefined),
    tokenSecret: (token: string) => (token === c.accessToken ? c.accessTokenSecret : undefined),
  };
  if (options.checkCredentials !== true) {
    const any = (v: string): unknown => (v !== "" ? { development: true } : undefined);
    return { verifiers: { bearer: any, basic: (u) => any(u), apiKey: any, oauth1 }, credentials: c };
  }
  return {
    verifiers: {
      bearer: (token) => (token === c.bearerToken ? { development: true } : undefined),
      basic: (user, password) => (user === c.apiKey && password === c.apiSecret ? { development: true } : undefined),
      apiKey: (key) => (key === c.apiKey ? { development: true } : undefined),
      oauth1,
    },
    credentials: c,
  };
}
