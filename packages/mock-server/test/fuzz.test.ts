/**
 * Property: whatever arrives on any route of the three contracts (random and malformed requests:
 * bad JSON, wrong types, huge strings, `__proto__` keys, odd unicode, wrong content types, random
 * methods and credentials), the mock answers in time with a contract answer: a 4xx problem+json, a
 * 4xx the contract declares (legacy 401 envelopes included), 501 for an operation it does not
 * implement, or a 2xx/3xx that passes the generated `validateResponse`. Never a 5xx, a hang or a
 * crash.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routes as coreRoutes } from "@devplatform/core/server";
import { routes as audienceRoutes } from "@devplatform/ads-audiences/server";
import { routes as campaignRoutes } from "@devplatform/ads-campaigns/server";
import { validateResponse as validateCore } from "@devplatform/core/validators";
import { validateResponse as validateAudiences } from "@devplatform/ads-audiences/validators";
import { validateResponse as validateCampaigns } from "@devplatform/ads-campaigns/validators";
import { signOAuth1 } from "@contractgen/runtime";
import type { RouteSpec } from "@contractgen/runtime/server";
import { harness, type Harness } from "./support/harness.js";
import { startCliMock, type CliMock } from "./support/cli-process.js";

type Validate = (operationId: string, status: number, contentType: string | undefined, body: unknown) => { valid: boolean };

const ALL: readonly { route: RouteSpec; validate: Validate }[] = [
  ...coreRoutes.map((route) => ({ route, validate: validateCore as unknown as Validate })),
  ...audienceRoutes.map((route) => ({ route, validate: validateAudiences as unknown as Validate })),
  ...campaignRoutes.map((route) => ({ route, validate: validateCampaigns as unknown as Validate })),
];

/** Operations the mock leaves to the plugin's 501 (the contract does not show their shapes). */
let unimplemented: Set<string>;
let h: Harness;

const NASTY = ["", " ", "__proto__", "constructor", "prototype", "\u0000", "\u2028\u2029", "\uD800", "💩🏳️‍🌈", "𝕏", "../../etc/passwd", "%00", "%", "null", "true", "-1", "1e309", "NaN", "[]", "{}", "'\"<script>", "a,b,,c", "card://", "c-zzzzzzzzzz", "9".repeat(40)];

/** Percent-encodes UTF-8 bytes (lone surrogates become U+FFFD, as every HTTP client would send). */
function pct(text: string): string {
  return [...Buffer.from(text, "utf8")].map((b) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, "0")}`)).join("");
}

const oddString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 3, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 30 }) },
  { weight: 2, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.constantFrom("x".repeat(5_000), "é".repeat(20_000)) },
);

/** A value for a path parameter: usually an id the dataset holds, so handlers get exercised. */
function pathValue(name: string, real: Readonly<Record<string, readonly string[]>>) {
  const known = real[name] ?? [];
  return known.length > 0 ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...known) }, { weight: 2, arbitrary: oddString }) : oddString;
}

const jsonBody = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(fc.record({ operation_type: fc.constantFrom("Update", "Delete", "Other"), params: fc.record({ users: fc.array(fc.dictionary(fc.constantFrom("email", "phone_number", "__proto__", "x"), fc.array(fc.string({ maxLength: 8 }), { maxLength: 2 })), { maxLength: 3 }) }) }), { maxLength: 4 }),
  fc.record({ products: fc.array(fc.record({ id: fc.constantFrom("A", "B", "__proto__"), title: oddString, description: fc.string(), availability: fc.constantFrom("in stock", "nope"), condition: fc.constantFrom("new"), price: fc.constantFrom("1.00 USD", "free"), link: fc.constantFrom("https://x.example.com"), image_link: fc.constantFrom("https://x.example.com/i.jpg"), brand: fc.string() }, { requiredKeys: [] }), { maxLength: 3 }) }),
  fc.record({ name: oddString, type: fc.constantFrom("MANUAL", "FILTERED", "X"), product_keys: fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }), filters: fc.array(fc.record({ attribute: fc.constantFrom("price", "inventory", "custom_label_0"), operator: fc.constantFrom("GREATER_THAN", "CONTAINS", "EQUAL_TO"), value: fc.jsonValue({ maxDepth: 1 }) }), { maxLength: 2 }) }, { requiredKeys: [] }),
);

const bodyArb = fc.oneof(
  { weight: 8, arbitrary: fc.constant(undefined) },
  { weight: 4, arbitrary: jsonBody.map((v) => ({ text: JSON.stringify(v) ?? "null", type: "application/json" })) },
  { weight: 1, arbitrary: fc.constantFrom('{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}', '[{"operation_type":"Update","params":{"users":[{"__proto__":{"polluted":1}}]}}]').map((text) => ({ text, type: "application/json" })) },
  { weight: 2, arbitrary: fc.constantFrom("{", "{not json", "[1,", '"unterminated', "\u0000", "nul\u0000l").map((text) => ({ text, type: "application/json" })) },
  { weight: 1, arbitrary: fc.constant({ text: JSON.stringify({ name: "x".repeat(1_100_000) }), type: "application/json", [fc.toStringMethod]: () => "<a 1.1 MB JSON body>" }) },
  { weight: 2, arbitrary: fc.tuple(oddString, oddString).map(([k, v]) => ({ text: `${pct(k)}=${pct(v)}&grant_type=client_credentials`, type: "application/x-www-form-urlencoded" })) },
  { weight: 2, arbitrary: fc.tuple(oddString, fc.constantFrom("text/plain", "application/xml", "multipart/form-data; boundary=x", "application/json; charset=latin1", "image/png", "*/*")).map(([text, type]) => ({ text, type })) },
);

type AuthKind = "user" | "consumer" | "bearer" | "app-basic" | "bad-basic" | "garbage" | "none";

function requestArb(real: Readonly<Record<string, readonly string[]>>) {
  return fc.constantFrom(...ALL.map((r) => r.route)).chain((route) => {
    const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
    const pathArb = fc.tuple(...names.map((n) => pathValue(n, real))) as fc.Arbitrary<string[]>;
    const randomQuery = fc.dictionary(
      fc.oneof(fc.constantFrom("count", "cursor", "with_total_count", "with_deleted", "ids", "name", "q", "media_key", "duration_in_minutes", "first_choice", "second_choice", "as_user_id", "text", "media_keys", "entity_status", "start_time", "end_time", "granularity", "keywords", "oauth_callback", "oauth_token", "oauth_verifier", "user_id", "feature_keys", "granted_account_id", "permission_level", "line_item_id", "curated_category_id", "post.fields", "expansions", "__proto__", "constructor"), fc.string({ maxLength: 6 })),
      fc.oneof(oddString, fc.constantFrom("true", "false", "0", "1", "201", "1001", "2025-06-01T00:00:00Z", "DAY", "READ_ONLY", "PAUSED", "oob", "https://app.example.com/cb")),
      { maxKeys: 5 },
    );
    // Half the requests carry no query, so valid requests reach the handlers often enough.
    const queryArb = fc.oneof(fc.constant({}), randomQuery);
    return fc.record({
      route: fc.constant(route),
      method: fc.oneof({ weight: 6, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS") }),
      pathValues: pathArb,
      query: queryArb,
      body: bodyArb,
      auth: fc.oneof({ weight: 8, arbitrary: fc.constant<AuthKind>("user") }, { weight: 3, arbitrary: fc.constantFrom<AuthKind>("consumer", "bearer", "app-basic", "bad-basic", "garbage", "none") }),
    });
  });
}

function authorization(kind: AuthKind, method: string, url: string, form: Record<string, string> | undefined): string | undefined {
  const c = h.credentials;
  switch (kind) {
    case "user":
    case "consumer":
      return signOAuth1({
        method,
        url: `http://localhost:80${url}`,
        ...(form ? { form } : {}),
        consumerKey: c.apiKey,
        consumerSecret: c.apiSecret,
        ...(kind === "user" ? { token: c.accessToken, tokenSecret: c.accessTokenSecret } : {}),
      }).authorization;
    case "bearer":
      return `Bearer ${c.bearerToken}`;
    case "app-basic":
      return `Basic ${Buffer.from(`${c.apiKey}:${c.apiSecret}`).toString("base64")}`;
    case "bad-basic":
      return `Basic ${Buffer.from("nobody:wrong").toString("base64")}`;
    case "garbage":
      return 'OAuth oauth_consumer_key="\u00ff", oauth_signature=';
    case "none":
      return undefined;
  }
}

/** The route Fastify picks for a method and path: static segments win over parameters. */
function answeringRoute(method: string, path: string): { route: RouteSpec; validate: Validate } | undefined {
  const segments = path.split("/");
  const candidates = ALL.filter(({ route }) => {
    const parts = route.path.split("/");
    return (route.method === method || (method === "HEAD" && route.method === "GET")) && parts.length === segments.length && parts.every((p, i) => p.startsWith("{") || p === segments[i]);
  });
  const score = (r: RouteSpec) => r.path.split("/").map((p) => (p.startsWith("{") ? "1" : "0")).join("");
  return candidates.sort((a, b) => (score(a.route) < score(b.route) ? -1 : 1))[0];
}

const isProblem = (body: unknown): boolean => body !== null && typeof body === "object" && typeof (body as Record<string, unknown>)["type"] === "string" && typeof (body as Record<string, unknown>)["title"] === "string";
const isLegacy401 = (body: unknown): boolean => {
  const b = body as { errors?: { code?: unknown }[]; code?: unknown } | null;
  return b !== null && typeof b === "object" && (b.code === 89 || (Array.isArray(b.errors) && b.errors.some((e) => e.code === 89)));
};

/** How the property reaches a mock: in process (`inject`) or over HTTP to the CLI-started process. */
type Send = (req: { method: string; url: string; headers: Record<string, string>; payload?: string }) => Promise<{ statusCode: number; headers: Record<string, unknown>; body: string }>;

describe("any request to any route", () => {
  beforeAll(async () => {
    h = await harness();
    const { coreHandlers } = await import("../src/handlers/core.js");
    const { adsAudiencesHandlers } = await import("../src/handlers/ads-audiences.js");
    const { adsCampaignsHandlers } = await import("../src/handlers/ads-campaigns.js");
    const implemented = new Set([...Object.keys(coreHandlers(h.state)), ...Object.keys(adsAudiencesHandlers(h.state)), ...Object.keys(adsCampaignsHandlers(h.state))]);
    unimplemented = new Set(ALL.map((r) => r.route.id).filter((id) => !implemented.has(id)));
  });

  it("answers a contract answer in time: 4xx problem+json or a declared 4xx, 501 when unimplemented, or a valid 2xx; never a 5xx", async () => {
    await property((r) => h.app.inject({ method: r.method as "GET", url: r.url, headers: r.headers, ...(r.payload !== undefined ? { payload: r.payload } : {}) }), 2500, true, Infinity);
  }, 60_000);

  describe("`contractgen mock`, the process the CLI starts, with the options it passes", () => {
    let cli: CliMock;
    beforeAll(async () => {
      cli = await startCliMock();
    }, 60_000);
    afterAll(() => cli?.stop());

    it.each([
      ["POST", "/nope", "application/json", "{bad"],
      ["POST", "/2/posts", "application/json", "{bad"],
      ["POST", "/unknown", "text/plain", "x"],
      ["POST", "/2/posts", "application/json", ""],
      ["GET", "/2/posts/%E0%A4%A", undefined, undefined],
      ["PUT", "/nope", "application/json", '{"__proto__":{"polluted":1}}'],
    ] as const)("answers %s %s (%s) with a 4xx problem, never Fastify's own 500", async (method, url, type, payload) => {
      const res = await cli.send({ method, url, headers: { host: "localhost:80", ...(type ? { "content-type": type } : {}) }, ...(payload !== undefined ? { payload } : {}) });
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, res.body).toBeLessThan(500);
      expect(String(res.headers["content-type"])).toMatch(/^application\/(problem\+)?json/);
      expect(isProblem(JSON.parse(res.body)), res.body).toBe(true);
      expect(cli.stderr()).not.toMatch(/TypeError|is not a function/);
    });
  });
});

async function property(send: Send, numRuns: number, revive: boolean, maxUrl: number): Promise<void> {
    const s = h.state;
    const main = [...s.accounts.values()][0]?.data.id ?? "";
    const real: Record<string, string[]> = {
      account_id: [main],
      product_catalog_id: [...s.catalogs.keys()],
      tailored_audience_id: [...s.tailoredAudiences.keys()],
      tailored_audience_permission_id: s.permissions.list([...s.tailoredAudiences.keys()][0] ?? "").map((p) => p.id),
      custom_audience_id: [...s.customAudiences.keys()],
      do_not_reach_list_id: s.doNotReachLists.list(main).map((l) => l.data.id),
      account_media_id: s.accountMedia.list(main).slice(0, 5).map((m) => m.id),
      card_id: [...s.cards.list(main).slice(0, 3), ...s.pollCards.list(main).slice(0, 2), ...s.videoConversationCards.list(main).slice(0, 2)].map((c) => c.id),
      card_type: ["image_conversation", "text_polls", "video_conversation"],
      media_key: s.mediaLibrary.list(main).slice(0, 5).map((m) => m.media_key),
      line_item_id: s.lineItems.list(main).map((l) => l.id),
      line_item_curated_category_id: s.lineItemCuratedCategories.list(main).map((l) => l.id),
      curated_category_id: [...s.curatedCategories.keys()],
      webhook_id: ["1146654567674912769"],
      id: [s.defaultUserId],
      post_id: [],
    };

    await fc.assert(
      fc.asyncProperty(requestArb(real), async (req) => {
        // A random invalidate_token call may have revoked the fixed token; revive it so later requests get past authentication.
        const fixed = revive ? h.state.tokens.accessTokens.get(h.credentials.accessToken) : undefined;
        if (fixed) fixed.invalidated = false;
        let path = req.route.path;
        req.route.path.match(/\{[^}]+\}/g)?.forEach((_, i) => {
          path = path.replace(/\{[^}]+\}/, pct(req.pathValues[i] ?? ""));
        });
        const qs = new URLSearchParams(Object.entries(req.query)).toString();
        const url = qs === "" ? path : `${path}?${qs}`;
        fc.pre(url.length <= maxUrl);
        const form = req.body?.type === "application/x-www-form-urlencoded" ? Object.fromEntries(new URLSearchParams(req.body.text)) : undefined;
        const headers: Record<string, string> = { host: "localhost:80" };
        const auth = authorization(req.auth, req.method, url, form);
        if (auth !== undefined) headers["authorization"] = auth;
        if (req.body) headers["content-type"] = req.body.type;

        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within 3 s: ${req.method} ${url.slice(0, 200)}`)), 3_000);
        });
        const res = await Promise.race([send({ method: req.method, url, headers, ...(req.body ? { payload: req.body.text } : {}) }), timeout]).finally(() => clearTimeout(timer));

        const where = `${req.method} ${url.slice(0, 160)} → ${res.statusCode} ${res.body.slice(0, 300)}`;
        expect(res.statusCode, where).toBeGreaterThanOrEqual(200);
        if (res.statusCode === 501) {
          expect(unimplemented.has(req.route.id) || req.method !== req.route.method, where).toBe(true);
          return;
        }
        expect(res.statusCode, where).toBeLessThan(500);
        if (req.method === "HEAD") return;
        const type = String(res.headers["content-type"] ?? "").split(";")[0];
        const body: unknown = res.body === "" ? undefined : type === "application/x-www-form-urlencoded" ? Object.fromEntries(new URLSearchParams(res.body)) : JSON.parse(res.body);
        // A route of the same path but another method may have answered: validate against the one that did.
        const answered = answeringRoute(req.method, path);
        if (res.statusCode >= 400) {
          if (type === "application/problem+json") expect(isProblem(body), where).toBe(true);
          else if (res.statusCode === 401 && isLegacy401(body)) return;
          else expect(answered && answered.validate(answered.route.id, res.statusCode, type, body).valid, where).toBe(true);
          return;
        }
        expect(answered, where).toBeDefined();
        expect(answered?.validate(answered.route.id, res.statusCode, body === undefined ? undefined : type, body).valid, where).toBe(true);
      }),
      { numRuns, endOnFailure: true, seed: 20261124 },
    );
    // No request reached a prototype.
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
}
