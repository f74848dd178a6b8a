/**
 * The mock server as a conformance target: the generated suites load this module by name (the
 * `CONTRACT_TARGET` environment variable) when no `CONTRACT_BASE_URL` is given, so the runtime that
 * runs them never needs to know this server, its start-up or its credentials.
 */
import type { AuthConfig } from "@contractgen/runtime/auth";
import { DEFAULT_CREDENTIALS, type MockCredentials } from "./options.js";
import { startMockServer } from "./server.js";

/** The runtime's client credentials for the mock's fixed ones: every scheme the three contracts use. */
export function mockAuth(c: MockCredentials = DEFAULT_CREDENTIALS): AuthConfig {
  return {
    bearer: c.bearerToken,
    basic: { username: c.apiKey, password: c.apiSecret },
    oauth1: { consumerKey: c.apiKey, consumerSecret: c.apiSecret, token: c.accessToken, tokenSecret: c.accessTokenSecret },
  };
}

/** A fresh in-process mock on a free loopback port: each suite gets its own state. */
export async function startTarget(): Promise<{ baseUrl: string; auth: AuthConfig; destructive: boolean; close(): Promise<void> }> {
  const server = await startMockServer({ port: 0 });
  return { baseUrl: server.url, auth: mockAuth(), destructive: true, close: () => server.close() };
}
