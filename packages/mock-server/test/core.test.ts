/**
 * Document 1 on the mock: every row of its state table (app-only bearer token, OAuth 1.0a request →
 * access token, invalidation), the token limits, and the operations it shapes.
 */
import { describe, expect, it } from "vitest";
import { harness, type Harness } from "./support/harness.js";

const formOf = (text: string): Record<string, string> => Object.fromEntries(new URLSearchParams(text));

async function appToken(h: Harness): Promise<{ status: number; token: string | undefined; body: unknown }> {
  const res = await h.call("POST", "/oauth2/token", { form: { grant_type: "client_credentials" }, auth: { basic: [h.credentials.apiKey, h.credentials.apiSecret] } });
  return { status: res.status, token: res.body?.access_token, body: res.body };
}

/** Runs request_token → authorize → access_token and returns the access token and its secret. */
async function threeLegged(h: Harness, opts: { callback?: string; screenName?: string; step?: "authorize" | "authenticate" } = {}) {
  const requested = await h.call("POST", "/oauth/request_token", { query: { oauth_callback: opts.callback ?? "https://app.example.com/cb" }, auth: { oauth1: {} } });
  const request = formOf(requested.text);
  const approved = await h.call("GET", `/oauth/${opts.step ?? "authorize"}`, {
    query: { oauth_token: request["oauth_token"], ...(opts.screenName ? { screen_name: opts.screenName } : {}) },
    auth: { oauth1: { token: request["oauth_token"] ?? "", tokenSecret: request["oauth_token_secret"] ?? "" } },
  });
  const verifier =
    approved.status === 302 ? new URL(String(approved.headers["location"])).searchParams.get("oauth_verifier") ?? "" : String(approved.headers["x-oauth-verifier"] ?? "");
  const exchanged = await h.call("POST", "/oauth/access_token", {
    query: { oauth_token: request["oauth_token"], oauth_verifier: verifier },
    auth: { oauth1: { token: request["oauth_token"] ?? "", tokenSecret: request["oauth_token_secret"] ?? "" } },
  });
  return { requested, request, approved, verifier, exchanged, access: formOf(exchanged.text) };
}

describe("document 1 state table: the app-only bearer token", () => {
  it("no app-only bearer token outstanding: POST oauth2/token with valid Basic credentials and grant_type=client_credentials returns a token", async () => {
    const h = await harness();
    const first = await appToken(h);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ token_type: "bearer", access_token: expect.any(String) });
    const use = await h.call("POST", "/2/posts/search/webhooks/1146654567674912769", { auth: { bearer: first.token ?? "" } });
    expect(use.status).toBe(200);
  });

  it("bearer token outstanding: POST oauth2/token again returns the same token", async () => {
    const h = await harness();
    const a = await appToken(h);
    const b = await appToken(h);
    expect(b.status).toBe(200);
    expect(b.token).toBe(a.token);
  });

  it("bearer token outstanding: POST oauth2/invalidate_token invalidates it, the old token is refused with 401 code 89 and the next creation yields a different token", async () => {
    const h = await harness();
    const old = (await appToken(h)).token ?? "";
    const revoked = await h.call("POST", "/oauth2/invalidate_token", { auth: { basic: [h.credentials.apiKey, h.credentials.apiSecret] } });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ access_token: old });
    const refused = await h.call("POST", "/2/posts/search/webhooks/1", { auth: { bearer: old } });
    expect(refused.status).toBe(401);
    // createStreamLink declares the Error object for its errors: code 89 comes bare, not enveloped.
    expect(refused.body).toEqual({ code: 89, message: "Invalid or expired token" });
    const next = await appToken(h);
    expect(next.status).toBe(200);
    expect(next.token).not.toBe(old);
  });

  it("invalidate_token accepts any input the contract lets through: a JSON body or none, Basic or OAuth 1.0a", async () => {
    const h = await harness();
    await appToken(h);
    const withBody = await h.call("POST", "/oauth2/invalidate_token", { body: { access_token: "whatever", extra: [1, 2] }, auth: { basic: [h.credentials.apiKey, h.credentials.apiSecret] } });
    expect(withBody.status).toBe(200);
    const nothingOutstanding = await h.call("POST", "/oauth2/invalidate_token", { auth: { oauth1: {} } });
    expect(nothingOutstanding.status).toBe(200);
    expect(nothingOutstanding.body).toEqual({});
  });

  it("the fixed bearer token is always valid and apart from the app-only lifecycle", async () => {
    const h = await harness();
    await appToken(h);
    await h.call("POST", "/oauth2/invalidate_token", { auth: { basic: [h.credentials.apiKey, h.credentials.apiSecret] } });
    const res = await h.call("POST", "/2/posts/search/webhooks/1", { auth: { bearer: h.credentials.bearerToken } });
    expect(res.status).toBe(200);
    expect((await appToken(h)).token).not.toBe(h.credentials.bearerToken);
  });

  it("refuses wrong Basic credentials with 401 code 89", async () => {
    const h = await harness();
    const res = await h.call("POST", "/oauth2/token", { form: { grant_type: "client_credentials" }, auth: { basic: [h.credentials.apiKey, "wrong"] } });
    expect(res.status).toBe(401);
    expect(res.body.errors[0].code).toBe(89);
  });

  it("refuses any grant_type but client_credentials with a 400 invalid-request problem", async () => {
    const h = await harness();
    const res = await h.call("POST", "/oauth2/token", { form: { grant_type: "password" }, auth: { basic: [h.credentials.apiKey, h.credentials.apiSecret] } });
    expect(res.status).toBe(400);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  });
});

describe("document 1 limits: bearer token requests", () => {
  it("too-frequent bearer token requests: past 300 requests in 15 minutes POST oauth2/token answers 403 with code 99", async () => {
    let now = Date.UTC(2026, 0, 1);
    const h = await harness({ now: () => now });
    for (let i = 0; i < 300; i++) expect((await appToken(h)).status).toBe(200);
    const refused = await appToken(h);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ errors: [{ code: 99, message: "Bearer token requested too often" }] });
    now += 15 * 60_000;
    expect((await appToken(h)).status).toBe(200);
  });

  it("the threshold is an option", async () => {
    const h = await harness({ limits: { bearerTokenRequests: { max: 2, windowMs: 60_000 } } });
    expect((await appToken(h)).status).toBe(200);
    expect((await appToken(h)).status).toBe(200);
    expect((await appToken(h)).status).toBe(403);
  });
});

describe("document 1 state table: the OAuth 1.0a flow", () => {
  it("request_token answers form-encoded oauth_token, oauth_token_secret and oauth_callback_confirmed=true", async () => {
    const h = await harness();
    const res = await h.call("POST", "/oauth/request_token", { query: { oauth_callback: "oob" }, auth: { oauth1: {} } });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded/);
    expect(formOf(res.text)).toEqual({ oauth_token: expect.any(String), oauth_token_secret: expect.any(String), oauth_callback_confirmed: "true" });
  });

  it("authorize approves the request token and redirects to the callback with oauth_token and oauth_verifier", async () => {
    const h = await harness();
    const flow = await threeLegged(h, { callback: "https://app.example.com/cb?state=1" });
    expect(flow.approved.status).toBe(302);
    const location = new URL(String(flow.approved.headers["location"]));
    expect(location.origin + location.pathname).toBe("https://app.example.com/cb");
    expect(location.searchParams.get("state")).toBe("1");
    expect(location.searchParams.get("oauth_token")).toBe(flow.request["oauth_token"]);
    expect(flow.verifier).toMatch(/^[0-9a-f]{32}$/);
  });

  it("in PIN mode (oob) authenticate answers 200 with the PIN in x-oauth-verifier, as the contract declares no body", async () => {
    const h = await harness();
    const flow = await threeLegged(h, { callback: "oob", step: "authenticate" });
    expect(flow.approved.status).toBe(200);
    expect(flow.approved.text).toBe("");
    expect(flow.verifier).toMatch(/^\d{7}$/);
    expect(flow.exchanged.status).toBe(200);
  });

  it("request token issued: POST oauth/access_token with the request-step token and a valid verifier issues an access token, returning user_id and screen_name", async () => {
    const h = await harness();
    const flow = await threeLegged(h);
    expect(flow.exchanged.status).toBe(200);
    expect(flow.exchanged.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded/);
    const user = h.state.users.get(h.state.defaultUserId);
    expect(flow.access).toEqual({ oauth_token: expect.any(String), oauth_token_secret: expect.any(String), user_id: user?.id, screen_name: user?.username });
    // The new access token works on the advertising APIs.
    const accounts = await h.call("GET", "/12/accounts", { auth: { oauth1: { token: flow.access["oauth_token"] ?? "", tokenSecret: flow.access["oauth_token_secret"] ?? "" } } });
    expect(accounts.status).toBe(200);
  });

  it("screen_name on the browser step picks the user who signs in", async () => {
    const h = await harness();
    const other = [...h.state.users.values()][2];
    const flow = await threeLegged(h, { screenName: other?.username ?? "" });
    expect(flow.access["user_id"]).toBe(other?.id);
    expect(flow.access["screen_name"]).toBe(other?.username);
  });

  it("access_token refuses a wrong verifier, a request token that was never authorized, and a spent request token", async () => {
    const h = await harness();
    const requested = formOf((await h.call("POST", "/oauth/request_token", { query: { oauth_callback: "oob" }, auth: { oauth1: {} } })).text);
    const signed = { oauth1: { token: requested["oauth_token"] ?? "", tokenSecret: requested["oauth_token_secret"] ?? "" } };
    const unauthorized = await h.call("POST", "/oauth/access_token", { query: { oauth_token: requested["oauth_token"], oauth_verifier: "1234567" }, auth: signed });
    expect(unauthorized.status).toBe(401);
    const flow = await threeLegged(h);
    const spent = await h.call("POST", "/oauth/access_token", {
      query: { oauth_token: flow.request["oauth_token"], oauth_verifier: flow.verifier },
      auth: { oauth1: { token: flow.request["oauth_token"] ?? "", tokenSecret: flow.request["oauth_token_secret"] ?? "" } },
    });
    expect(spent.status).toBe(401);
    expect(spent.body.errors[0].code).toBe(89);
  });

  it("access_token without oauth_verifier fails (strictly enforced)", async () => {
    const h = await harness();
    const requested = formOf((await h.call("POST", "/oauth/request_token", { query: { oauth_callback: "oob" }, auth: { oauth1: {} } })).text);
    const res = await h.call("POST", "/oauth/access_token", { query: { oauth_token: requested["oauth_token"] }, auth: { oauth1: { token: requested["oauth_token"] ?? "", tokenSecret: requested["oauth_token_secret"] ?? "" } } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].parameters).toHaveProperty("oauth_verifier");
  });

  it("access_token must be signed with the request token it exchanges", async () => {
    const h = await harness();
    const requested = formOf((await h.call("POST", "/oauth/request_token", { query: { oauth_callback: "oob" }, auth: { oauth1: {} } })).text);
    const res = await h.call("POST", "/oauth/access_token", { query: { oauth_token: requested["oauth_token"], oauth_verifier: "x" }, auth: "user" });
    expect(res.status).toBe(401);
  });

  it("a request token signs only the flow's steps: the advertising APIs refuse it", async () => {
    const h = await harness();
    const requested = formOf((await h.call("POST", "/oauth/request_token", { query: { oauth_callback: "oob" }, auth: { oauth1: {} } })).text);
    const res = await h.call("GET", "/12/accounts", { auth: { oauth1: { token: requested["oauth_token"] ?? "", tokenSecret: requested["oauth_token_secret"] ?? "" } } });
    expect(res.status).toBe(401);
    expect(res.body.errors[0].code).toBe(89);
  });

  it("refuses a bad signature and an unknown consumer key", async () => {
    const h = await harness();
    expect((await h.call("GET", "/12/accounts", { auth: { oauth1: { token: h.credentials.accessToken, tokenSecret: "wrong" } } })).status).toBe(401);
    expect((await h.call("GET", "/12/accounts", { auth: { oauth1: { consumerKey: "nobody", consumerSecret: "x", token: h.credentials.accessToken, tokenSecret: h.credentials.accessTokenSecret } } })).status).toBe(401);
  });
});

describe("document 1 state table: invalidating an access token", () => {
  it.each(["/1.1/oauth/invalidate_token", "/1.1/oauth/invalidate_token.json"])(
    "access token valid: POST %s signed with that access token invalidates it; later use gives 401 code 89 and creating again yields a different token",
    async (path) => {
      const h = await harness();
      const first = await threeLegged(h);
      const auth = { oauth1: { token: first.access["oauth_token"] ?? "", tokenSecret: first.access["oauth_token_secret"] ?? "" } };
      const res = await h.call("POST", path, { auth });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ access_token: first.access["oauth_token"] });
      const later = await h.call("GET", "/12/accounts", { auth });
      expect(later.status).toBe(401);
      expect(later.body).toEqual({ errors: [{ code: 89, message: "Invalid or expired token" }] });
      // Invalidating again is a later use too.
      expect((await h.call("POST", path, { auth })).status).toBe(401);
      const again = await threeLegged(h);
      expect(again.access["oauth_token"]).not.toBe(first.access["oauth_token"]);
    },
  );

  it("the fixed access token can be invalidated too, and is then refused", async () => {
    const h = await harness();
    expect((await h.call("POST", "/1.1/oauth/invalidate_token", { auth: "user" })).status).toBe(200);
    const res = await h.call("GET", "/12/accounts", { auth: "user" });
    expect(res.status).toBe(401);
  });

  it("an access token is a user-context bearer token until it is invalidated", async () => {
    const h = await harness();
    const flow = await threeLegged(h);
    const token = flow.access["oauth_token"] ?? "";
    expect((await h.call("GET", "/2/posts", { query: { ids: [...h.state.posts.keys()].slice(0, 1) }, auth: { bearer: token } })).status).toBe(200);
    await h.call("POST", "/1.1/oauth/invalidate_token", { auth: { oauth1: { token, tokenSecret: flow.access["oauth_token_secret"] ?? "" } } });
    const later = await h.call("GET", "/2/posts", { query: { ids: [...h.state.posts.keys()].slice(0, 1) }, auth: { bearer: token } });
    expect(later.status).toBe(401);
    expect(later.body.errors[0].code).toBe(89);
  });
});

describe("document 1 operations", () => {
  it("createStreamLink answers data.provisioned", async () => {
    const h = await harness();
    const res = await h.call("POST", "/2/posts/search/webhooks/1146654567674912769", { query: { "post.fields": ["id", "text"] }, auth: { bearer: h.credentials.bearerToken } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { provisioned: true } });
    expect(h.state.streamLinks.get("1146654567674912769")).toBe(true);
  });

  it("getPostsByIds returns stored posts with their default fields id and text only", async () => {
    const h = await harness();
    const ids = [...h.state.posts.keys()].slice(0, 3);
    const res = await h.call("GET", "/2/posts", { query: { ids }, auth: { bearer: h.credentials.bearerToken } });
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: { id: string }) => p.id)).toEqual(ids);
    for (const post of res.body.data) expect(Object.keys(post).sort()).toEqual(["id", "text"]);
    expect(res.body.includes).toBeUndefined();
  });

  it("getPostsByIds adds requested fields and puts expanded media in includes with their own fields", async () => {
    const h = await harness();
    const withMedia = [...h.state.posts.values()].find((p) => p.attachments?.media_keys?.length);
    const res = await h.call("GET", "/2/posts", {
      query: { ids: [withMedia?.id ?? ""], "post.fields": ["created_at", "attachments"], expansions: ["attachments.media_keys"], "media.fields": ["public_metrics", "duration_ms"] },
      auth: { bearer: h.credentials.bearerToken },
    });
    expect(res.body.data[0]).toEqual({ id: withMedia?.id, text: withMedia?.text, created_at: withMedia?.created_at, attachments: withMedia?.attachments });
    expect(res.body.includes.media[0]).toEqual({ media_key: withMedia?.attachments?.media_keys?.[0], type: "video", public_metrics: { view_count: expect.any(Number) }, duration_ms: expect.any(Number) });
  });

  it("getPostsByIds reports unknown ids as resource-not-found problems beside the data", async () => {
    const h = await harness();
    const res = await h.call("GET", "/2/posts", { query: { ids: ["42"] }, auth: { bearer: h.credentials.bearerToken } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], errors: [expect.objectContaining({ type: "https://api.example.com/2/problems/resource-not-found", resource_id: "42", resource_type: "post", parameter: "ids" })] });
  });

  it("x-unspecified operations answer 501 problem+json saying what the contract leaves unshown", async () => {
    const h = await harness();
    const res = await h.call("GET", "/2/posts/search/recent", { auth: "user" });
    expect(res.status).toBe(501);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.body.detail).toMatch(/searchRecentPosts is not implemented: the contract does not show its shape \(Parameters \(including the query\) and response shape are not shown\.\)/);
  });

  it("deprecated operations send a Deprecation header", async () => {
    const h = await harness();
    const res = await h.call("POST", "/2/account_activity/replay/webhooks/1/subscriptions/all", { auth: { bearer: h.credentials.bearerToken } });
    expect(res.headers["deprecation"]).toBe(`@${Date.parse("2026-03-25T12:00:00-04:00") / 1000}`);
  });

  it("unknown routes answer 404 problem+json", async () => {
    const h = await harness();
    const res = await h.call("GET", "/nowhere", { auth: "none" });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ type: "about:blank", status: 404 });
  });
});
