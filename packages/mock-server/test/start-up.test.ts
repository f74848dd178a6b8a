/**
 * Start-up, determinism, and the mock over a real socket driven by the generated clients.
 */
import { describe, expect, it } from "vitest";
import { createCoreClient } from "@devplatform/core/client";
import { createAdsAudiencesClient } from "@devplatform/ads-audiences/client";
import { createAdsCampaignsClient } from "@devplatform/ads-campaigns/client";
import { routes as coreRoutes } from "@devplatform/core/server";
import { routes as audienceRoutes } from "@devplatform/ads-audiences/server";
import { routes as campaignRoutes } from "@devplatform/ads-campaigns/server";
import { AppOnlyTokenCache } from "@contractgen/runtime";
import { toFastifyPath } from "@contractgen/runtime/server";
import { createMockServer, createMockState, startMockServer, type MockLogEntry, type MockState } from "../src/index.js";

/** Every stored object, in a form two states can be compared by. */
function snapshot(state: MockState): string {
  const scoped = (t: { entries(): IterableIterator<[string, unknown]> }) => [...t.entries()];
  return JSON.stringify({
    users: [...state.users.values()],
    posts: [...state.posts.values()],
    accounts: [...state.accounts.values()].map((a) => ({ ...a, features: [...a.features] })),
    accountMedia: scoped(state.accountMedia),
    cards: scoped(state.cards),
    mediaLibrary: scoped(state.mediaLibrary),
    pollCards: scoped(state.pollCards),
    lineItems: scoped(state.lineItems),
    products: scoped(state.products),
    permissions: scoped(state.permissions),
    defaultUserId: state.defaultUserId,
  });
}

describe("start-up", () => {
  it("createMockServer() then app.ready() serves every operation of the three contracts", async () => {
    const started = performance.now();
    const { app } = await createMockServer();
    await app.ready();
    const ms = performance.now() - started;
    // Reported, not asserted: timings depend on the machine.
    console.info(`mock server start-up (create + ready): ${ms.toFixed(0)} ms`);
    for (const route of [...coreRoutes, ...audienceRoutes, ...campaignRoutes]) {
      expect(app.hasRoute({ method: route.method.toUpperCase() as "GET", url: toFastifyPath(route.path).url }), route.id).toBe(true);
    }
    await app.close();
  });

  it("the same seed gives the same dataset and ids; another seed gives other ids", () => {
    const a = createMockState({ seed: 7 });
    const b = createMockState({ seed: 7 });
    expect(snapshot(a)).toBe(snapshot(b));
    const c = createMockState({ seed: 8 });
    expect([...c.accounts.keys()]).not.toEqual([...a.accounts.keys()]);
  });

  it("the same seed and the same requests give the same new ids and tokens", async () => {
    const run = async () => {
      const { app, credentials } = await createMockServer({ seed: 3, now: () => Date.UTC(2026, 0, 1) });
      const basic = `Basic ${Buffer.from(`${credentials.apiKey}:${credentials.apiSecret}`).toString("base64")}`;
      const token = await app.inject({ method: "POST", url: "/oauth2/token", payload: "grant_type=client_credentials", headers: { authorization: basic, "content-type": "application/x-www-form-urlencoded" } });
      return token.json();
    };
    expect(await run()).toEqual(await run());
  });

  it("credentials can be replaced one by one", async () => {
    const { credentials } = await createMockServer({ credentials: { apiKey: "k", bearerToken: "b" } });
    expect(credentials).toEqual({ apiKey: "k", apiSecret: "mock-api-secret", accessToken: "mock-access-token", accessTokenSecret: "mock-access-token-secret", bearerToken: "b" });
  });
});

describe("startMockServer with the generated clients", () => {
  it("serves the core and both advertising APIs on one port, logging each request", async () => {
    const log: MockLogEntry[] = [];
    const server = await startMockServer({ port: 0, log: (entry) => log.push(entry) });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const { apiKey, apiSecret, accessToken, accessTokenSecret } = server.credentials;

      // The app-only token is fetched with the client credentials and cached by the client.
      const core = createCoreClient({ baseUrl: server.url, auth: { clientCredentials: { apiKey, apiSecret } } });
      const ids = [...server.state.posts.keys()].slice(0, 2);
      const posts = await core.getPostsByIds({ ids });
      expect(posts.data.map((p) => p.id)).toEqual(ids);

      const oauth1 = { consumerKey: apiKey, consumerSecret: apiSecret, token: accessToken, tokenSecret: accessTokenSecret };
      const campaigns = createAdsCampaignsClient({ baseUrl: server.url, serverVariables: { ads_sandbox_url: server.url }, auth: { oauth1 } });
      const accounts = await campaigns.listAccounts({ with_total_count: true });
      expect(accounts.total_count).toBe(3);
      const sandbox = await campaigns.createSandboxAccount({});
      expect(sandbox.data[0]?.name).toBe("Sandbox account");

      const audiences = createAdsAudiencesClient({ baseUrl: server.url, auth: { oauth1 } });
      const catalogs = await audiences.listProductCatalogs({});
      expect(catalogs.data).toHaveLength(1);

      expect(log.map((e) => [e.operationId, e.status])).toEqual([
        ["createBearerToken", 200],
        ["getPostsByIds", 200],
        ["listAccounts", 200],
        ["createSandboxAccount", 200],
        ["listProductCatalogs", 200],
      ]);
    } finally {
      await server.close();
    }
  });

  it("the runtime's app-only token cache gets, reuses and revokes the token", async () => {
    const server = await startMockServer({ port: 0 });
    try {
      const cache = new AppOnlyTokenCache({ baseUrl: server.url, credentials: { apiKey: server.credentials.apiKey, apiSecret: server.credentials.apiSecret } });
      const first = await cache.get();
      expect(server.state.tokens.outstandingAppToken).toBe(first);
      // Its revocation sends a form body the contract does not declare; the mock takes it (see client-compat.ts).
      expect(await cache.invalidate()).toBe(true);
      expect(server.state.tokens.outstandingAppToken).toBeUndefined();
      expect(await cache.get()).not.toBe(first);
    } finally {
      await server.close();
    }
  });

  it("runs the OAuth 1.0a flow end to end through the core client", async () => {
    const server = await startMockServer({ port: 0 });
    try {
      const { apiKey, apiSecret } = server.credentials;
      const core = createCoreClient({ baseUrl: server.url, auth: { oauth1: { consumerKey: apiKey, consumerSecret: apiSecret } } });
      const request = await core.requestToken({ oauth_callback: "oob" });
      expect(request.oauth_callback_confirmed).toBe("true");
      const raw = await core.raw.authorize({ oauth_token: request.oauth_token, oauth1: { token: request.oauth_token, tokenSecret: request.oauth_token_secret } });
      const verifier = raw.headers.get("x-oauth-verifier") ?? "";
      const access = await core.accessToken({ oauth_token: request.oauth_token, oauth_verifier: verifier, oauth1: { token: request.oauth_token, tokenSecret: request.oauth_token_secret } });
      expect(access.screen_name).toBe("mock_advertiser");
      const user = { oauth1: { token: access.oauth_token, tokenSecret: access.oauth_token_secret } };
      expect(await core.invalidateAccessToken(user)).toEqual({ access_token: access.oauth_token });
    } finally {
      await server.close();
    }
  });
});
