/** Options of the mock server and the defaults the documents leave to us. */
import type { RateRule } from "./rate-limit.js";

/** The credentials the mock accepts besides the tokens it issues itself. */
export interface MockCredentials {
  /** API key: Basic user name and OAuth 1.0a consumer key. @default "mock-api-key" */
  readonly apiKey: string;
  /** API key secret: Basic password and OAuth 1.0a consumer secret. @default "mock-api-secret" */
  readonly apiSecret: string;
  /** An OAuth 1.0a access token of the seeded advertiser, valid from the start. @default "mock-access-token" */
  readonly accessToken: string;
  /** @default "mock-access-token-secret" */
  readonly accessTokenSecret: string;
  /**
   * A bearer token that is always valid. It is not the app-only token: POST /oauth2/token issues
   * generated tokens and invalidating those never touches this one.
   * @default "mock-bearer-token"
   */
  readonly bearerToken: string;
}

export const DEFAULT_CREDENTIALS: MockCredentials = {
  apiKey: "mock-api-key",
  apiSecret: "mock-api-secret",
  accessToken: "mock-access-token",
  accessTokenSecret: "mock-access-token-secret",
  bearerToken: "mock-bearer-token",
};

/** Request limits. The documents state the advertising ones; the token one is our choice. */
export interface MockLimits {
  /**
   * POST /oauth2/token answers 403 with code 99 past this many requests per app and window.
   * Document 1 says only "requests made too often"; the number is this mock's choice, in the
   * platform's usual 15-minute window. It was 20, which a development mock cannot afford: one run
   * of the conformance suites asks for 4 tokens (the positive case and the token lifecycle), so the
   * sixth run against one `contractgen mock` process failed. 300 leaves room for 75 runs.
   * @default { max: 300, windowMs: 900_000 }
   */
  readonly bearerTokenRequests: RateRule;
  /** Membership batches, per user and operation (document 2). @default { max: 1500, windowMs: 60_000 } */
  readonly membershipRequests: RateRule;
  /** Requests with with_total_count=true, per user and operation (documents 2 and 3). @default { max: 200, windowMs: 900_000 } */
  readonly totalCountRequests: RateRule;
}

export const DEFAULT_LIMITS: MockLimits = {
  bearerTokenRequests: { max: 300, windowMs: 15 * 60_000 },
  membershipRequests: { max: 1500, windowMs: 60_000 },
  totalCountRequests: { max: 200, windowMs: 15 * 60_000 },
};

/** One answered request, as the `log` option receives it. */
export interface MockLogEntry {
  /** The contract's operationId, or `-` for a path no operation answers. */
  readonly operationId: string;
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly ms: number;
}

export interface MockServerOptions {
  /** Seed of the dataset, ids and tokens: the same seed gives the same data. @default 1 */
  readonly seed?: number;
  /** Credentials replacing the defaults, each on its own. @default DEFAULT_CREDENTIALS */
  readonly credentials?: Partial<MockCredentials>;
  /**
   * The mock's clock in milliseconds: timestamps, poll closing and rate windows follow it. OAuth
   * 1.0a timestamps are still checked against the real clock, since clients sign with it.
   * @default Date.now
   */
  readonly now?: () => number;
  /** Called once per answered request. @default undefined (no logging) */
  readonly log?: (entry: MockLogEntry) => void;
  /** Limits replacing the defaults, each on its own. @default DEFAULT_LIMITS */
  readonly limits?: Partial<MockLimits>;
  /**
   * Check every reply against the contract and answer 500 when one does not fit. The mock exists to
   * speak the contract, so this stays on unless a benchmark wants it off.
   * @default true
   */
  readonly validateResponses?: boolean;
  /**
   * Development only: serve `POST /__mock/deliveries`, which sends the core API's webhook
   * deliveries, built from the mocks, to a receiver on a loopback address (body: `{ url,
   * deliveryId?, eventType?, single?, seed? }`; see docs/webhooks.md). Off by default: the route is
   * not part of any contract.
   * @default false
   */
  readonly deliveries?: boolean;
}

export interface StartMockServerOptions extends MockServerOptions {
  /** 0 picks a free port. @default 4010 */
  readonly port?: number;
  /** @default "127.0.0.1" */
  readonly host?: string;
}
