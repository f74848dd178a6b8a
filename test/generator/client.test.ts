/**
 * The generated clients against a real HTTP server on loopback: the request each method puts on the
 * wire (auth, path, query, body), the typed result, the error classes, paging, batching, hashing and
 * the activity stream.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createCoreClient } from "@devplatform/core/client";
import { problems as coreProblems } from "@devplatform/core";
import { createAdsAudiencesClient } from "@devplatform/ads-audiences/client";
import { AdsError } from "@devplatform/ads-audiences/problems";
import { createAdsCampaignsClient } from "@devplatform/ads-campaigns/client";
import { InMemoryNonceStore, verifyOAuth1 } from "@contractgen/runtime";
import { basicCredentials, json, startServer, type Handler, type TestServer } from "../../packages/runtime/test/support/server.js";
import { ROOT } from "./helpers.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
async function serve(handler: Handler): Promise<TestServer> {
  server = await startServer(handler);
  return server;
}

describe("core client", () => {
  it("sends a bearer token, the path parameter and comma-joined field lists, and resolves with the body", async () => {
    const s = await serve((_req, res) => json(res, 200, { data: { provisioned: true } }));
    const client = createCoreClient({ baseUrl: s.url, auth: { bearer: "t0k3n" } });
    const result = await client.createStreamLink({ webhook_id: "1234567890", "post.fields": ["id", "text"], expansions: ["attachments.media_keys"] });
    expect(result).toEqual({ data: { provisioned: true } });
    const req = s.received[0];
    expect(req?.method).toBe("POST");
    expect(req?.path).toBe("/2/posts/search/webhooks/1234567890?post.fields=id,text&expansions=attachments.media_keys");
    expect(req?.headers.authorization).toBe("Bearer t0k3n");
  });

  it("rejects with the problem class a problem+json body names", async () => {
    const s = await serve((_req, res) => {
      res.writeHead(404, { "content-type": "application/problem+json" });
      res.end(JSON.stringify({ type: "https://api.example.com/2/problems/resource-not-found", title: "Not Found", parameter: "webhook_id", value: "1", resource_id: "1", resource_type: "post" }));
    });
    const client = createCoreClient({ baseUrl: s.url, auth: { bearer: "t" } });
    const error = await client.createStreamLink({ webhook_id: "1" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(coreProblems.ResourceNotFoundProblem);
    expect(error).toBeInstanceOf(coreProblems.Problem);
    expect((error as InstanceType<typeof coreProblems.ResourceNotFoundProblem>).resource_type).toBe("post");
    expect((error as coreProblems.Problem).status).toBe(404);
  });

  it("rejects with ApiError for the legacy envelope, so callers can branch on code 89", async () => {
    const s = await serve((_req, res) => json(res, 401, { errors: [{ code: 89, message: "Invalid or expired token" }] }));
    const client = createCoreClient({ baseUrl: s.url, auth: { bearer: "old" } });
    const error = await client.getPostsByIds({ ids: ["1"] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(coreProblems.ApiError);
    expect((error as coreProblems.ApiError).codes).toEqual([89]);
  });

  it("gives status, headers and body through raw, whatever the status", async () => {
    const s = await serve((_req, res) => json(res, 503, { title: "busy" }, { "retry-after": "0", "x-request-id": "abc" }));
    const client = createCoreClient({ baseUrl: s.url, auth: { bearer: "t" }, retry: false });
    const raw = await client.raw.getPostsByIds({ ids: ["1", "2"] });
    expect(raw.status).toBe(503);
    expect(raw.headers.get("x-request-id")).toBe("abc");
    expect(s.received[0]?.path).toBe("/2/posts?ids=1,2");
  });

  it("obtains the app-only token with client credentials, reuses it, and invalidates it", async () => {
    let issued = 0;
    const s = await serve((req, res) => {
      if (req.path === "/oauth2/token") {
        expect(basicCredentials(req.headers.authorization)).toBe("key:secret");
        expect(req.body).toBe("grant_type=client_credentials");
        return json(res, 200, { token_type: "bearer", access_token: `app-${++issued}` });
      }
      if (req.path === "/oauth2/invalidate_token") return json(res, 200, {});
      return json(res, 200, { data: { provisioned: false } });
    });
    const client = createCoreClient({ baseUrl: s.url, auth: { clientCredentials: { apiKey: "key", apiSecret: "secret" } } });
    await client.createStreamLink({ webhook_id: "1" });
    await client.createStreamLink({ webhook_id: "2" });
    expect(await client.invalidateAppToken()).toBe(true);
    await client.createStreamLink({ webhook_id: "3" });
    const auth = s.received.filter((r) => r.path.startsWith("/2/")).map((r) => r.headers.authorization);
    expect(auth).toEqual(["Bearer app-1", "Bearer app-1", "Bearer app-2"]);
    expect(s.received.filter((r) => r.path === "/oauth2/token")).toHaveLength(2);
  });

  it("signs the request-token step with OAuth 1.0a, oauth_callback in the header, and parses the form answer", async () => {
    const nonces = new InMemoryNonceStore();
    const s = await serve(async (req, res) => {
      const verdict = await verifyOAuth1({
        method: req.method,
        url: `${server?.url}${req.path}`,
        authorization: req.headers.authorization ?? "",
        lookupConsumerSecret: (key) => (key === "ck" ? "cs" : undefined),
        lookupTokenSecret: () => undefined,
        nonces,
      });
      if (!verdict.ok) return json(res, 401, { errors: [{ code: 89, message: verdict.reason }] });
      expect(verdict.params["oauth_callback"]).toBe("oob");
      res.writeHead(200, { "content-type": "application/x-www-form-urlencoded" });
      res.end("oauth_token=rt&oauth_token_secret=rts&oauth_callback_confirmed=true");
    });
    const client = createCoreClient({ baseUrl: s.url, auth: { oauth1: { consumerKey: "ck", consumerSecret: "cs" } } });
    const answer = await client.requestToken({ oauth_callback: "oob" });
    expect(answer).toEqual({ oauth_token: "rt", oauth_token_secret: "rts", oauth_callback_confirmed: "true" });
    expect(s.received[0]?.path).toBe("/oauth/request_token");
  });

  it("streams activity events as NDJSON, reconnecting after an operational disconnect and throwing a streaming-connection problem", async () => {
    let connection = 0;
    const s = await serve((_req, res) => {
      connection++;
      res.writeHead(200, { "content-type": "application/json" });
      if (connection === 1) {
        res.write('{"event_type":"post.create","n":1}\n\n');
        res.end('{"type":"https://api.example.com/2/problems/operational-disconnect","title":"Disconnected","disconnect_type":"OperationalDisconnect"}\n');
      } else {
        res.write('{"event_type":"post.delete","n":2}\n');
        res.end('{"type":"https://api.example.com/2/problems/streaming-connection","title":"Too many","connection_issue":"TooManyConnections"}\n');
      }
    });
    const client = createCoreClient({ baseUrl: s.url, auth: { bearer: "t" } });
    const seen: unknown[] = [];
    const error = await (async () => {
      for await (const event of client.stream.streamActivity({}, { backoff: { minDelayMs: 1, maxDelayMs: 2 } })) seen.push(event);
    })().catch((e: unknown) => e);
    expect(seen).toEqual([
      { event_type: "post.create", n: 1 },
      { event_type: "post.delete", n: 2 },
    ]);
    expect(error).toBeInstanceOf(coreProblems.StreamingConnectionProblem);
    expect(connection).toBe(2);
  });

  it("has one own function per operation in each group its tables name, and keeps required arguments required", async () => {
    const client = createCoreClient({ baseUrl: "http://127.0.0.1:9" });
    const { operationSpecs } = await import("@devplatform/core/client");
    // Every operation is a method and a raw method; the groups hold only their operations.
    const methods = Object.keys(client).filter((k) => !["raw", "iterate", "batch", "stream", "invalidateAppToken"].includes(k));
    expect(methods).toHaveLength(Object.keys(operationSpecs).length);
    expect(Object.keys(client.raw)).toEqual(methods);
    for (const group of [client, client.raw, client.iterate, client.batch, client.stream]) for (const f of Object.values(group)) if (typeof f !== "object") expect(typeof f).toBe("function");
    expect(Object.keys(client.stream)).toContain("streamActivity");
    // A method whose contract requires arguments has no {} default: without them it fails before any request, as before.
    // @ts-expect-error createStreamLink requires its path parameter
    await expect(client.createStreamLink()).rejects.toThrow(TypeError);
  });

  it("marks deprecated operations with the date and the replacement", () => {
    const source = readFileSync(path.join(ROOT, "packages/core/compiled/client.types.d.ts"), "utf8");
    expect(source).toMatch(/@deprecated since 2026-03-25T12:00:00-04:00; use replayWebhookEvents instead/);
  });
});

/** The advertising operations require user authentication, which the contracts give as OAuth 1.0a. */
const oauth1 = { oauth1: { consumerKey: "ck", consumerSecret: "cs", token: "at", tokenSecret: "ats" } };

describe("advertising clients", () => {
  it("iterates every product over several pages and stops at the last cursor", async () => {
    const s = await serve((req, res) => {
      const cursor = new URL(req.path, "http://x").searchParams.get("cursor");
      const page = cursor === null ? 0 : Number(cursor);
      json(res, 200, { request: { params: {} }, data: [{ id: `p${page}a` }, { id: `p${page}b` }], next_cursor: page < 2 ? String(page + 1) : null });
    });
    const client = createAdsAudiencesClient({ baseUrl: s.url, auth: oauth1 });
    const ids: string[] = [];
    for await (const product of client.iterate.listProducts({ product_catalog_id: "9", count: 2 })) ids.push((product as { id: string }).id);
    expect(ids).toEqual(["p0a", "p0b", "p1a", "p1b", "p2a", "p2b"]);
    expect(s.received.map((r) => r.path)).toEqual(["/12/product_catalogs/9/products?count=2", "/12/product_catalogs/9/products?count=2&cursor=1", "/12/product_catalogs/9/products?count=2&cursor=2"]);
  });

  it("splits 26 products into requests of 25 and 1", async () => {
    const s = await serve((req, res) =>
      json(res, 200, { request: { params: {} }, data: { products_response: (JSON.parse(req.body) as { products: unknown[] }).products.map(() => ({ status: "CREATE_SUCCESS" })) } }),
    );
    const client = createAdsAudiencesClient({ baseUrl: s.url, auth: oauth1 });
    const products = Array.from({ length: 26 }, (_, i) => ({ id: `sku-${i}` }));
    const outcomes = await client.batch.upsertProducts({ product_catalog_id: "9", body: { products } });
    expect(outcomes.map((o) => [o.ok, o.offset, o.items.length])).toEqual([
      [true, 0, 25],
      [true, 25, 1],
    ]);
    expect(s.received.map((r) => (JSON.parse(r.body) as { products: unknown[] }).products.length)).toEqual([25, 1]);
  });

  it("splits 2501 membership operations into 2500 and 1, hashing every identifier but partner_user_id", async () => {
    const s = await serve((req, res) => json(res, 200, { success_count: (JSON.parse(req.body) as unknown[]).length, total_count: (JSON.parse(req.body) as unknown[]).length }));
    const client = createAdsAudiencesClient({ baseUrl: s.url, auth: oauth1 });
    const op = { operation_type: "Update", params: { users: [{ email: ["  Someone@Example.COM "], partner_user_id: ["crm-1"] }] } };
    const outcomes = await client.batch.updateCustomAudienceUsers({ account_id: "1", custom_audience_id: "2", body: Array.from({ length: 2501 }, () => op) });
    expect(outcomes.map((o) => o.items.length)).toEqual([2500, 1]);
    const sent = JSON.parse(s.received[1]?.body ?? "[]") as { params: { users: { email: string[]; partner_user_id: string[] }[] } }[];
    // Trimmed and lower-cased, then SHA-256 in lower-case hex.
    expect(sent[0]?.params.users[0]?.email).toEqual([createHash("sha256").update("someone@example.com").digest("hex")]);
    expect(sent[0]?.params.users[0]?.partner_user_id).toEqual(["crm-1"]);
    expect(op.params.users[0]?.email).toEqual(["  Someone@Example.COM "]); // the caller's body is not modified
  });

  it("rejects with the tolerant AdsError when the unshown envelope arrives", async () => {
    const s = await serve((_req, res) => json(res, 400, { anything: ["goes"] }));
    const client = createAdsAudiencesClient({ baseUrl: s.url, auth: oauth1 });
    const error = await client.listProductCatalogs({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AdsError);
    expect((error as AdsError).body).toEqual({ anything: ["goes"] });
  });

  it("sends sandbox-only operations to the sandbox server", async () => {
    const sandbox = await serve((_req, res) => json(res, 200, { request: { params: {} }, data: [] }));
    const client = createAdsCampaignsClient({ baseUrl: "http://127.0.0.1:9", serverVariables: { ads_sandbox_url: sandbox.url }, auth: oauth1 });
    await client.createSandboxAccount({});
    expect(sandbox.received.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /12/accounts"]);
  });
});
