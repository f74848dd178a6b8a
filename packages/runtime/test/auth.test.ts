import { afterEach, describe, expect, it } from "vitest";
import { Authenticator, type AuthConfig, type SecurityAlternatives } from "../src/client/auth.js";
import { AuthConfigError } from "../src/client/errors.js";
import { InMemoryNonceStore, verifyOAuth1, type OAuth1Verification } from "../src/oauth1/index.js";
import { ApiError } from "../src/shared/problem.js";
import { createTransport } from "../src/client/transport.js";
import { basicCredentials, json, startServer, type TestServer } from "./support/server.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Answers every request with what the server saw of its Authorization header. */
async function echoServer(): Promise<TestServer> {
  server = await startServer((req, res) => json(res, 200, { authorization: req.headers.authorization ?? null }));
  return server;
}

async function authorizationSent(auth: AuthConfig, security?: SecurityAlternatives): Promise<unknown> {
  const s = server ?? (await echoServer());
  const transport = createTransport({ baseUrl: s.url, auth, retry: false });
  const res = await transport.request({ method: "GET", path: "/2/users/me", ...(security ? { security } : {}) });
  return (res.body as { authorization: string | null }).authorization;
}

describe("headers as the server receives them", () => {
  it("bearer: Authorization: Bearer <token>", async () => {
    expect(await authorizationSent({ bearer: "AAAA%2Ftoken" }, [["bearer"]])).toBe("Bearer AAAA%2Ftoken");
  });

  it("bearer from a function, called for every request so tokens can rotate", async () => {
    let n = 0;
    const bearer = async () => `token-${++n}`;
    expect(await authorizationSent({ bearer }, [["userToken"]])).toBe("Bearer token-1");
    expect(await authorizationSent({ bearer }, [["userToken"]])).toBe("Bearer token-2");
  });

  it("basic: base64 of user:password, UTF-8", async () => {
    const header = await authorizationSent({ basic: { username: "api-key", password: "sécret:with:colons" } }, [["basic"]]);
    expect(header).toBe(`Basic ${Buffer.from("api-key:sécret:with:colons", "utf8").toString("base64")}`);
    expect(basicCredentials(header as string)).toBe("api-key:sécret:with:colons");
  });

  it("no header for an operation without security, even when credentials are configured", async () => {
    expect(await authorizationSent({ bearer: "t" }, [])).toBeNull();
  });

  it("optional security ([[scheme], []]) sends credentials when configured and nothing otherwise", async () => {
    expect(await authorizationSent({ bearer: "t" }, [["bearer"], []])).toBe("Bearer t");
    expect(await authorizationSent({}, [["bearer"], []])).toBeNull();
  });
});

describe("OAuth 1.0a, verified by the server with verifyOAuth1", () => {
  const consumer = { consumerKey: "ck-123", consumerSecret: "cs-456" };
  const access = { token: "at-789", tokenSecret: "ats-000" };
  const secrets = { consumer: { "ck-123": "cs-456" } as Record<string, string>, token: { "at-789": "ats-000", "rt-1": "rts-1" } as Record<string, string> };

  async function verifyingServer(): Promise<{ results: OAuth1Verification[]; url: string }> {
    const results: OAuth1Verification[] = [];
    const nonces = new InMemoryNonceStore();
    server = await startServer(async (req, res) => {
      const form = req.headers["content-type"]?.startsWith("application/x-www-form-urlencoded") ? new URLSearchParams(req.body) : undefined;
      const result = await verifyOAuth1({
        method: req.method,
        url: `${server?.url}${req.path}`,
        ...(form ? { form } : {}),
        authorization: req.headers.authorization,
        lookupConsumerSecret: (key) => secrets.consumer[key],
        lookupTokenSecret: (token) => secrets.token[token],
        nonces,
      });
      results.push(result);
      if (!result.ok) return json(res, 401, { errors: [{ code: 32, message: result.reason }] });
      if (req.path.startsWith("/oauth/request_token")) {
        res.writeHead(200, { "content-type": "application/x-www-form-urlencoded" });
        return res.end("oauth_token=rt-1&oauth_token_secret=rts-1&oauth_callback_confirmed=true");
      }
      return json(res, 200, { ok: true });
    });
    return { results, url: server.url };
  }

  it("signs GET with query parameters", async () => {
    const { results, url } = await verifyingServer();
    const transport = createTransport({ baseUrl: url, auth: { oauth1: { ...consumer, ...access } }, retry: false });
    const res = await transport.request({
      method: "GET",
      path: "/1.1/users/{id}",
      pathParams: { id: "a b/c" },
      query: [
        { name: "fields", value: ["name", "url"], explode: false },
        { name: "q", value: "café & co!" },
      ],
      security: [["oauth1"]],
    });
    expect(res.status).toBe(200);
    expect(results[0]).toMatchObject({ ok: true, consumerKey: "ck-123", token: "at-789" });
  });

  it("signs the form-encoded body of a POST", async () => {
    const { results, url } = await verifyingServer();
    const transport = createTransport({ baseUrl: url, auth: { oauth1: { ...consumer, ...access } }, retry: false });
    const res = await transport.request({
      method: "POST",
      path: "/1.1/statuses/update",
      contentType: "application/x-www-form-urlencoded",
      body: { status: "Hello Ladies + Gentlemen, a signed OAuth request!", tags: ["a", "b"] },
      security: [["oauth1"]],
    });
    expect(res.status).toBe(200);
    expect(results[0]?.ok).toBe(true);
    // And the server's check is real: the same header over a different body fails.
    const tampered = await verifyOAuth1({
      method: "POST",
      url: `${url}/1.1/statuses/update`,
      form: new URLSearchParams("status=tampered"),
      authorization: server?.received[0]?.headers.authorization,
      lookupConsumerSecret: (key) => secrets.consumer[key],
      lookupTokenSecret: (token) => secrets.token[token],
      nonces: new InMemoryNonceStore(),
    });
    expect(tampered).toEqual({ ok: false, reason: "signature" });
  });

  it("does not sign a JSON body, which RFC 5849 leaves out of the signature", async () => {
    const { results, url } = await verifyingServer();
    const transport = createTransport({ baseUrl: url, auth: { oauth1: { ...consumer, ...access } }, retry: false });
    await transport.request({ method: "POST", path: "/2/posts", body: { text: "hi" }, security: [["oauth1"]] });
    expect(results[0]?.ok).toBe(true);
  });

  it("walks the 3-legged flow's steps: request token with callback, access token with verifier", async () => {
    const { results, url } = await verifyingServer();
    const transport = createTransport({ baseUrl: url, auth: { oauth1: consumer }, retry: false });
    const step1 = await transport.request({
      method: "POST",
      path: "/oauth/request_token",
      security: [["oauth1"]],
      oauth1: { callback: "https://client.example/cb" },
    });
    expect(step1.body).toEqual({ oauth_token: "rt-1", oauth_token_secret: "rts-1", oauth_callback_confirmed: "true" });
    const temp = step1.body as Record<string, string>;
    await transport.request({
      method: "POST",
      path: "/oauth/access_token",
      security: [["oauth1"]],
      oauth1: { token: temp["oauth_token"] as string, tokenSecret: temp["oauth_token_secret"] as string, verifier: "v-42" },
    });
    expect(results[0]).toMatchObject({ ok: true, params: { oauth_callback: "https://client.example/cb" } });
    expect(results[0]?.ok && "token" in results[0]).toBe(false);
    expect(results[1]).toMatchObject({ ok: true, token: "rt-1", params: { oauth_verifier: "v-42" } });
  });

  it("signs each retry afresh: a new nonce, so the server's replay check passes", async () => {
    let calls = 0;
    const nonces = new InMemoryNonceStore();
    const seen: string[] = [];
    server = await startServer(async (req, res) => {
      const result = await verifyOAuth1({
        method: req.method,
        url: `${server?.url}${req.path}`,
        authorization: req.headers.authorization,
        lookupConsumerSecret: (key) => secrets.consumer[key],
        lookupTokenSecret: (token) => secrets.token[token],
        nonces,
      });
      seen.push(result.ok ? "ok" : result.reason);
      if (++calls === 1) return json(res, 503, {});
      json(res, result.ok ? 200 : 401, {});
    });
    const transport = createTransport({
      baseUrl: server.url,
      auth: { oauth1: { ...consumer, ...access } },
      retry: { sleep: async () => undefined },
    });
    const res = await transport.request({ method: "GET", path: "/2/users/me", security: [["oauth1"]] });
    expect(res.status).toBe(200);
    expect(seen).toEqual(["ok", "ok"]);
  });
});

describe("app-only bearer token lifecycle (document 1 state table)", () => {
  const credentials = { apiKey: "key-abc", apiSecret: "secret-xyz" };

  /**
   * A platform double: one token per app, the same one on every token request until invalidated,
   * protected endpoints refusing anything else with 401 code 89.
   */
  async function platform(options: { tokenDelayMs?: number; invalidateDelayMs?: number } = {}) {
    const state = { generation: 1, tokenRequests: 0, invalidations: [] as string[], apiCalls: [] as string[] };
    const current = () => `app-token-${state.generation}`;
    server = await startServer(async (req, res) => {
      if (req.path === "/oauth2/token") {
        state.tokenRequests++;
        if (basicCredentials(req.headers.authorization) !== "key-abc:secret-xyz") return json(res, 403, { errors: [{ code: 99, message: "bad credentials" }] });
        if (!req.headers["content-type"]?.startsWith("application/x-www-form-urlencoded")) return json(res, 400, {});
        if (new URLSearchParams(req.body).get("grant_type") !== "client_credentials") return json(res, 400, {});
        if (options.tokenDelayMs) await new Promise((r) => setTimeout(r, options.tokenDelayMs));
        return json(res, 200, { token_type: "bearer", access_token: current() });
      }
      if (req.path === "/oauth2/invalidate_token") {
        if (basicCredentials(req.headers.authorization) !== "key-abc:secret-xyz") return json(res, 403, {});
        const token = new URLSearchParams(req.body).get("access_token") ?? "";
        state.invalidations.push(token);
        if (options.invalidateDelayMs) await new Promise((r) => setTimeout(r, options.invalidateDelayMs));
        if (token === current()) state.generation++;
        return json(res, 200, { access_token: token });
      }
      const bearer = req.headers.authorization ?? "";
      state.apiCalls.push(bearer);
      if (bearer !== `Bearer ${current()}`) return json(res, 401, { errors: [{ code: 89, message: "Invalid or expired token." }] });
      json(res, 200, { data: { id: "1" } });
    });
    const transport = createTransport({ baseUrl: server.url, auth: { clientCredentials: credentials }, retry: false });
    const call = () => transport.request({ method: "GET", path: "/2/posts/{id}", pathParams: { id: 1 }, security: [["appOnly"]] });
    return { state, transport, call, rotateOutOfBand: () => state.generation++ };
  }

  it("obtains the token with Basic credentials and grant_type=client_credentials, then sends it as bearer", async () => {
    const { state, call } = await platform();
    const res = await call();
    expect(res.status).toBe(200);
    expect(state.tokenRequests).toBe(1);
    expect(state.apiCalls).toEqual(["Bearer app-token-1"]);
  });

  it("caches the token across calls", async () => {
    const { state, call } = await platform();
    for (let i = 0; i < 3; i++) expect((await call()).status).toBe(200);
    expect(state.tokenRequests).toBe(1);
  });

  it("shares one in-flight token request among concurrent calls", async () => {
    const { state, call } = await platform({ tokenDelayMs: 30 });
    const results = await Promise.all(Array.from({ length: 5 }, call));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(state.tokenRequests).toBe(1);
  });

  it("invalidate() revokes the token at the server; the next call obtains a new one", async () => {
    const { state, call, transport } = await platform();
    await call();
    await expect(transport.auth.invalidate()).resolves.toBe(true);
    expect(state.invalidations).toEqual(["app-token-1"]);
    const res = await call();
    expect(res.status).toBe(200);
    expect(state.tokenRequests).toBe(2);
    expect(state.apiCalls.at(-1)).toBe("Bearer app-token-2");
  });

  it("a call made while an invalidation is in flight waits for it and gets the new token", async () => {
    // Until the invalidation completes, the server would still hand out the old token.
    const { state, call, transport } = await platform({ invalidateDelayMs: 50 });
    await call();
    const [, res] = await Promise.all([transport.auth.invalidate(), call()]);
    expect(res.status).toBe(200);
    expect(state.apiCalls.at(-1)).toBe("Bearer app-token-2");
    expect(state.tokenRequests).toBe(2);
  });

  it("invalidate() with no cached token does nothing", async () => {
    const { state, transport } = await platform();
    await expect(transport.auth.invalidate()).resolves.toBe(false);
    expect(state.invalidations).toEqual([]);
  });

  it("on a 401 to the cached token, drops it and retries once with a fresh one", async () => {
    const { state, call, rotateOutOfBand } = await platform();
    await call();
    rotateOutOfBand(); // revoked elsewhere: the cached token is now refused
    const res = await call();
    expect(res.status).toBe(200);
    expect(state.tokenRequests).toBe(2);
    expect(state.apiCalls).toEqual(["Bearer app-token-1", "Bearer app-token-1", "Bearer app-token-2"]);
  });

  it("refreshes only once: a second 401 is returned to the caller", async () => {
    server = await startServer((req, res) =>
      req.path === "/oauth2/token" ? json(res, 200, { access_token: "never-good" }) : json(res, 401, { errors: [{ code: 89, message: "Invalid or expired token." }] }),
    );
    const transport = createTransport({ baseUrl: server.url, auth: { clientCredentials: credentials }, retry: false });
    const res = await transport.request({ method: "POST", path: "/2/posts", body: {}, security: [["appOnly"]] });
    expect(res.status).toBe(401);
    expect(server.received.map((r) => r.path)).toEqual(["/oauth2/token", "/2/posts", "/oauth2/token", "/2/posts"]);
  });

  it("surfaces a refused token request (403 code 99) as an ApiError", async () => {
    server = await startServer((_req, res) => json(res, 403, { errors: [{ code: 99, message: "Unable to verify your credentials" }] }));
    const transport = createTransport({ baseUrl: server.url, auth: { clientCredentials: credentials }, retry: false });
    const error = await transport.request({ method: "GET", path: "/x", security: [["appOnly"]] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).hasCode(ApiError.TOKEN_REQUESTED_TOO_OFTEN)).toBe(true);
  });

  it("refuses a token response without access_token", async () => {
    server = await startServer((_req, res) => json(res, 200, { token: "wrong-field-name" }));
    const transport = createTransport({ baseUrl: server.url, auth: { clientCredentials: credentials }, retry: false });
    await expect(transport.auth.appOnlyToken()).rejects.toMatchObject({ name: "TokenResponseError" });
  });

  it("serves the bearer scheme with the app-only token when only client credentials are configured", async () => {
    const { state, transport } = await platform();
    const res = await transport.request({ method: "GET", path: "/2/posts/1", security: [["bearer"]] });
    expect(res.status).toBe(200);
    expect(state.tokenRequests).toBe(1);
  });
});

describe("choosing among security alternatives", () => {
  const auth = (config: AuthConfig) => new Authenticator(config, { baseUrl: "http://127.0.0.1:9" });
  const oauth1 = { consumerKey: "k", consumerSecret: "s" };
  const clientCredentials = { apiKey: "k", apiSecret: "s" };

  it.each([
    ["the first satisfied alternative wins", { bearer: "t", oauth1 }, [["oauth1"], ["bearer"]], "oauth1"],
    ["skipping unsatisfied ones", { bearer: "t" }, [["oauth1"], ["userToken"]], "userToken"],
    ["appOnly from client credentials", { clientCredentials }, [["appOnly"]], "appOnly"],
    ["appOnly from a given bearer", { bearer: "t" }, [["appOnly"]], "appOnly"],
    ["no security requirement", { bearer: "t" }, [], undefined],
    ["unspecified: the first configured of bearer, oauth1, appOnly, basic", { oauth1, basic: { username: "u", password: "p" } }, undefined, "oauth1"],
    ["unspecified with nothing configured", {}, undefined, undefined],
  ] as const)("%s", (_, config, security, expected) => {
    expect(auth(config).select(security)).toBe(expected);
  });

  it.each([
    ["nothing configured", {}, [["oauth1"], ["bearer"]]],
    ["userToken needs a bearer token, not client credentials", { clientCredentials }, [["userToken"]]],
    ["two schemes at once would need two Authorization headers", { bearer: "t", oauth1 }, [["bearer", "oauth1"]]],
  ] as const)("AuthConfigError when %s", (_, config, security) => {
    expect(() => auth(config).select(security)).toThrow(AuthConfigError);
  });

  it("the error names what the operation accepts and what is configured", async () => {
    server = await startServer((_req, res) => json(res, 200, {}));
    const transport = createTransport({ baseUrl: server.url, auth: { basic: { username: "u", password: "p" } } });
    const error = await transport.request({ method: "GET", path: "/2/users/me", security: [["oauth1"], ["userToken"]] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthConfigError);
    expect((error as AuthConfigError).message).toMatch(/accepts oauth1 \(auth\.oauth1\) OR userToken \(auth\.bearer\)/);
    expect((error as AuthConfigError).message).toMatch(/configured: basic/);
    expect((error as AuthConfigError).accepted).toEqual([["oauth1"], ["userToken"]]);
    expect(server.received).toHaveLength(0);
  });
});
