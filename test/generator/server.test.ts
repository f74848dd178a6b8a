/**
 * The generated Fastify plugins: routing, validation with the precompiled validators, security per
 * operation, and every error in the contract's own shape. Driven through `app.inject`, which runs
 * the whole Fastify request pipeline (parsers, body limits, hooks) without a socket.
 */
import { describe, expect, it } from "vitest";
import Fastify, { type FastifyInstance } from "fastify";
import { coreServer, type CoreHandlers } from "@devplatform/core/server";
import { adsAudiencesServer } from "@devplatform/ads-audiences/server";
import { problemNotFound } from "@contractgen/runtime/server";
import { signOAuth1 } from "@contractgen/runtime";

async function coreApp(handlers: Partial<CoreHandlers>, validateResponses = true): Promise<FastifyInstance> {
  const app = Fastify();
  app.setNotFoundHandler(problemNotFound);
  await app.register(coreServer, {
    handlers,
    validateResponses,
    security: {
      bearer: (token) => (token === "good" ? { user: "u1" } : undefined),
      basic: (user, pass) => (user === "key" && pass === "secret" ? { app: "a1" } : undefined),
      oauth1: { consumerSecret: (k) => (k === "ck" ? "cs" : undefined), tokenSecret: (t) => (t === "at" ? "ats" : undefined) },
    },
  });
  return app;
}

const linked: Partial<CoreHandlers> = {
  createStreamLink: (input) => ({ status: 200, body: { data: { provisioned: input.path.webhook_id === "1234567890" } } }),
};

describe("generated server plugin", () => {
  it("routes a valid request to its handler with validated, coerced input", async () => {
    const app = await coreApp(linked);
    const res = await app.inject({ method: "POST", url: "/2/posts/search/webhooks/1234567890?post.fields=id,text", headers: { authorization: "Bearer good" } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { provisioned: true } });
  });

  it("answers 400 invalid-request problem+json naming each bad parameter", async () => {
    const app = await coreApp(linked);
    const res = await app.inject({ method: "POST", url: "/2/posts/search/webhooks/12ab", headers: { authorization: "Bearer good" } });
    expect(res.statusCode).toBe(400);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({
      type: "https://api.example.com/2/problems/invalid-request",
      status: 400,
      errors: [{ parameters: { webhook_id: ["12ab"] } }],
    });
  });

  it.each([
    ["no credentials", {}],
    ["an unknown token", { authorization: "Bearer bad" }],
    ["the wrong scheme", { authorization: "Basic a2V5OnNlY3JldA==" }],
  ])("answers 401 with code 89 for %s, in the Error object createStreamLink declares", async (_what, headers) => {
    const app = await coreApp(linked);
    const res = await app.inject({ method: "POST", url: "/2/posts/search/webhooks/1", headers });
    expect(res.statusCode).toBe(401);
    // Document 1: non-success answers of this v2 endpoint are an Error object or a Problem.
    expect(res.json()).toEqual({ code: 89, message: "Invalid or expired token" });
  });

  it("answers 401 with the legacy envelope where the operation declares it (invalidateAccessToken)", async () => {
    const app = await coreApp({ invalidateAccessToken: () => ({ status: 200, body: { access_token: "at" } }) });
    const res = await app.inject({ method: "POST", url: "/1.1/oauth/invalidate_token", headers: { authorization: "Bearer good" } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ errors: [{ code: 89, message: "Invalid or expired token" }] });
  });

  it("verifies OAuth 1.0a signatures with a timestamp window and refuses a replayed nonce", async () => {
    const app = await coreApp({ invalidateAccessToken: () => ({ status: 200, body: { access_token: "at" } }) });
    const sign = (timestamp: number, nonce: string) =>
      signOAuth1({ method: "POST", url: "http://localhost:80/1.1/oauth/invalidate_token", consumerKey: "ck", consumerSecret: "cs", token: "at", tokenSecret: "ats", timestamp, nonce }).authorization;
    const now = Math.floor(Date.now() / 1000);
    const ok = await app.inject({ method: "POST", url: "/1.1/oauth/invalidate_token", headers: { authorization: sign(now, "n1"), host: "localhost:80" } });
    expect(ok.statusCode).toBe(200);
    const replay = await app.inject({ method: "POST", url: "/1.1/oauth/invalidate_token", headers: { authorization: sign(now, "n1"), host: "localhost:80" } });
    expect(replay.statusCode).toBe(401);
    const stale = await app.inject({ method: "POST", url: "/1.1/oauth/invalidate_token", headers: { authorization: sign(now - 3600, "n2"), host: "localhost:80" } });
    expect(stale.statusCode).toBe(401);
    const tampered = sign(now, "n3").replace(/oauth_signature="[^"]+"/, 'oauth_signature="AAAA"');
    expect((await app.inject({ method: "POST", url: "/1.1/oauth/invalidate_token", headers: { authorization: tampered, host: "localhost:80" } })).statusCode).toBe(401);
  });

  it("takes OAuth 1.0a protocol parameters from the Authorization header where the contract lists them as query parameters", async () => {
    let seen: unknown;
    const app = await coreApp({
      requestToken: (input) => {
        seen = { query: input.query, oauth: input.auth?.oauthParams?.["oauth_callback"] };
        return { status: 200, body: { oauth_token: "rt", oauth_token_secret: "rts", oauth_callback_confirmed: "true" }, contentType: "application/x-www-form-urlencoded" };
      },
    });
    await app.listen({ port: 0, host: "127.0.0.1" });
    try {
      const address = app.server.address() as { port: number };
      const { createCoreClient } = await import("@devplatform/core/client");
      const client = createCoreClient({ baseUrl: `http://127.0.0.1:${address.port}`, auth: { oauth1: { consumerKey: "ck", consumerSecret: "cs" } } });
      // The generated client sends oauth_callback in the signed header (RFC 5849 §3.5.1).
      expect(await client.requestToken({ oauth_callback: "oob" })).toEqual({ oauth_token: "rt", oauth_token_secret: "rts", oauth_callback_confirmed: "true" });
      expect(seen).toMatchObject({ query: { oauth_callback: "oob" }, oauth: "oob" });
    } finally {
      await app.close();
    }
  });

  it("answers 501 problem+json for an unimplemented handler, saying what the contract leaves unshown", async () => {
    const app = await coreApp({});
    const res = await app.inject({ method: "GET", url: "/2/news/123", headers: { authorization: "Bearer good" } });
    expect(res.statusCode).toBe(501);
    expect(res.json()).toMatchObject({ type: "about:blank", status: 501 });
    expect(res.json().detail).toMatch(/not implemented: the contract does not show/);
  });

  it("answers 404 problem+json for unknown routes", async () => {
    const app = await coreApp(linked);
    const res = await app.inject({ method: "GET", url: "/nowhere" });
    expect(res.statusCode).toBe(404);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({ type: "about:blank", status: 404 });
  });

  it("answers 415 for a body in the wrong content type and 400 for malformed JSON", async () => {
    const app = await coreApp({ createBearerToken: () => ({ status: 200, body: {} }) });
    const wrong = await app.inject({
      method: "POST",
      url: "/oauth2/token",
      payload: "grant_type=client_credentials",
      headers: { "content-type": "text/plain", authorization: "Basic a2V5OnNlY3JldA==" },
    });
    expect(wrong.statusCode).toBe(415);
    expect(wrong.json().errors[0].parameters).toEqual({ "content-type": ["text/plain"] });
    const bad = await app.inject({ method: "POST", url: "/oauth2/token", payload: "{not json", headers: { "content-type": "application/json", authorization: "Basic a2V5OnNlY3JldA==" } });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers["content-type"]).toMatch(/^application\/problem\+json/);
  });

  it("answers 500 problem+json in development when a handler's reply breaks the contract", async () => {
    const app = await coreApp({ createStreamLink: () => ({ status: 200, body: { data: { provisioned: "yes" as unknown as boolean } } }) });
    const res = await app.inject({ method: "POST", url: "/2/posts/search/webhooks/1", headers: { authorization: "Bearer good" } });
    expect(res.statusCode).toBe(500);
    expect(res.json().detail).toMatch(/does not match the contract: body\/data\/provisioned must be boolean/);
  });

  it("sends Deprecation and successor Link headers on deprecated operations", async () => {
    const app = await coreApp({});
    const res = await app.inject({ method: "POST", url: "/2/account_activity/replay/webhooks/1/subscriptions/all", headers: { authorization: "Bearer good" } });
    expect(res.headers["deprecation"]).toBe(`@${Date.parse("2026-03-25T12:00:00-04:00") / 1000}`);
    expect(res.headers["link"]).toBe('</2/webhooks/replay>; rel="successor-version"');
  });

  it("answers 413 problem+json above the 5,000,000-byte membership limit", async () => {
    const app = Fastify();
    await app.register(adsAudiencesServer, { handlers: {}, security: { bearer: () => ({}) } });
    const big = JSON.stringify([{ operation_type: "Update", params: { users: [{ partner_user_id: ["x".repeat(5_000_001)] }] } }]);
    const res = await app.inject({ method: "POST", url: "/12/accounts/1/custom_audiences/2/users", payload: big, headers: { "content-type": "application/json" } });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ status: 413 });
    // The limit is the contract's, not Fastify's 1 MiB default: 2 MB passes the parser.
    const twoMb = JSON.stringify([{ operation_type: "Update", params: { users: [{ partner_user_id: ["x".repeat(2_000_000)] }] } }]);
    const under = await app.inject({ method: "POST", url: "/12/accounts/1/custom_audiences/2/users", payload: twoMb, headers: { "content-type": "application/json" } });
    expect(under.statusCode).not.toBe(413);
  });

  it("starts without compiling a schema: no route carries a Fastify schema", async () => {
    const app = await coreApp(linked);
    await app.ready();
    const routes = app.printRoutes({ includeMeta: ["schema"] });
    expect(routes).not.toMatch(/schema/);
  });
});
