import { describe, expect, it } from "vitest";
import { percentEncode } from "../src/client/encoding.js";
import { hmacSha1Signature, InMemoryNonceStore, parseOAuth1Authorization, signatureBaseString, signOAuth1, verifyOAuth1, type FormInput, type VerifyOAuth1Input } from "../src/oauth1/index.js";

const NOW = 1_800_000_000;
const consumers: Record<string, string> = { ck: "consumer-secret" };
const tokens: Record<string, string> = { tk: "token-secret" };
const URL_ = "https://api.example.test/1.1/statuses?include=all&a=b%20c";

function signed(overrides: Partial<Parameters<typeof signOAuth1>[0]> = {}) {
  return signOAuth1({
    method: "POST",
    url: URL_,
    form: { status: "hello world!" },
    consumerKey: "ck",
    consumerSecret: "consumer-secret",
    token: "tk",
    tokenSecret: "token-secret",
    timestamp: NOW,
    ...overrides,
  }).authorization;
}

/** `form: null` verifies a request without a form body. */
function verify(authorization: string | undefined, { form = new URLSearchParams("status=hello+world%21"), ...overrides }: Partial<Omit<VerifyOAuth1Input, "form">> & { form?: FormInput | null } = {}) {
  return verifyOAuth1({
    method: "POST",
    url: URL_,
    ...(form === null ? {} : { form }),
    authorization,
    lookupConsumerSecret: (key) => consumers[key],
    lookupTokenSecret: (token) => tokens[token],
    nowSeconds: NOW,
    nonces: new InMemoryNonceStore(),
    ...overrides,
  });
}

/** A header signed correctly but carrying a nonce signOAuth1 would refuse. */
function headerWithNonce(nonce: string): string {
  const params: [string, string][] = [
    ["oauth_consumer_key", "ck"],
    ["oauth_nonce", nonce],
    ["oauth_signature_method", "HMAC-SHA1"],
    ["oauth_timestamp", String(NOW)],
    ["oauth_token", "tk"],
    ["oauth_version", "1.0"],
  ];
  const base = signatureBaseString("POST", URL_, [...new URL(URL_).searchParams, ["status", "hello world!"], ...params]);
  const signature = hmacSha1Signature(base, "consumer-secret", "token-secret");
  const all: [string, string][] = [...params, ["oauth_signature", signature]];
  return `OAuth ${all.map(([k, v]) => `${k}="${percentEncode(v)}"`).join(", ")}`;
}

describe("verifyOAuth1 accepts", () => {
  it("a request signed by signOAuth1, reporting consumer, token and protocol parameters", async () => {
    const result = await verify(signed({ nonce: "abc123" }));
    expect(result).toMatchObject({ ok: true, consumerKey: "ck", token: "tk" });
    expect(result.ok && result.params["oauth_nonce"]).toBe("abc123");
  });

  it("the RFC 5849 §1.2 protected resource request, header as printed in the RFC", async () => {
    const authorization = `OAuth realm="Photos",
        oauth_consumer_key="dpf43f3p2l4k3l03",
        oauth_token="nnch734d00sl2jdk",
        oauth_signature_method="HMAC-SHA1",
        oauth_timestamp="137131202",
        oauth_nonce="chapoH",
        oauth_signature="MdpQcU8iPSUjWoN%2FUDMsK2sui9I%3D"`.replace(/\n/g, "\r\n");
    const result = await verifyOAuth1({
      method: "GET",
      url: "http://photos.example.net/photos?file=vacation.jpg&size=original",
      authorization,
      lookupConsumerSecret: (key) => (key === "dpf43f3p2l4k3l03" ? "kd94hf93k423kf44" : undefined),
      lookupTokenSecret: (token) => (token === "nnch734d00sl2jdk" ? "pfkkdhi9sl3r4s00" : undefined),
      nowSeconds: 137131202,
      nonces: new InMemoryNonceStore(),
    });
    expect(result).toMatchObject({ ok: true, consumerKey: "dpf43f3p2l4k3l03", token: "nnch734d00sl2jdk" });
  });

  it("a request without a token (the request-token step), passing oauth_callback on", async () => {
    const authorization = signOAuth1({
      method: "POST",
      url: "https://api.example.test/oauth/request_token",
      consumerKey: "ck",
      consumerSecret: "consumer-secret",
      callback: "oob",
      timestamp: NOW,
    }).authorization;
    const result = await verify(authorization, { url: "https://api.example.test/oauth/request_token", form: null });
    expect(result).toMatchObject({ ok: true, consumerKey: "ck" });
    expect(result.ok && "token" in result).toBe(false);
    expect(result.ok && result.params["oauth_callback"]).toBe("oob");
  });

  it("timestamps up to the window away in either direction", async () => {
    expect((await verify(signed({ timestamp: NOW - 300 }))).ok).toBe(true);
    expect((await verify(signed({ timestamp: NOW + 300 }))).ok).toBe(true);
  });
});

describe("verifyOAuth1 rejects", () => {
  it.each([
    ["no header", undefined, "missing"],
    ["another scheme", "Bearer abc", "missing"],
    ["unquoted values", "OAuth oauth_consumer_key=ck", "malformed"],
    ["a repeated parameter", 'OAuth oauth_nonce="a", oauth_nonce="b"', "malformed"],
    ["a trailing comma", 'OAuth oauth_nonce="a",', "malformed"],
    ["missing required parameters", 'OAuth oauth_consumer_key="ck"', "malformed"],
  ] as const)("%s as %s", async (_, header, reason) => {
    expect(await verify(header)).toEqual({ ok: false, reason });
  });

  it("a tampered body as a bad signature", async () => {
    const result = await verify(signed(), { form: new URLSearchParams("status=hello+mars") });
    expect(result).toEqual({ ok: false, reason: "signature" });
  });

  it("a tampered query as a bad signature", async () => {
    const result = await verify(signed(), { url: URL_.replace("include=all", "include=none") });
    expect(result).toEqual({ ok: false, reason: "signature" });
  });

  it("a signature made with the wrong token secret", async () => {
    expect(await verify(signed({ tokenSecret: "guess" }))).toEqual({ ok: false, reason: "signature" });
  });

  it.each([
    ["stale", NOW - 301],
    ["from the future", NOW + 301],
  ])("a %s timestamp", async (_, timestamp) => {
    expect(await verify(signed({ timestamp }))).toEqual({ ok: false, reason: "timestamp" });
  });

  it("a replayed nonce", async () => {
    const nonces = new InMemoryNonceStore();
    const header = signed({ nonce: "once" });
    expect((await verify(header, { nonces })).ok).toBe(true);
    expect(await verify(header, { nonces })).toEqual({ ok: false, reason: "replay" });
  });

  it("an unknown consumer key and an unknown token", async () => {
    expect(await verify(signed({ consumerKey: "nobody" }))).toEqual({ ok: false, reason: "unknown-consumer" });
    expect(await verify(signed({ token: "revoked" }))).toEqual({ ok: false, reason: "unknown-token" });
  });

  it("a signature method other than HMAC-SHA1", async () => {
    const header = signed().replace('oauth_signature_method="HMAC-SHA1"', 'oauth_signature_method="PLAINTEXT"');
    expect(await verify(header)).toEqual({ ok: false, reason: "unsupported-method" });
  });

  it("a version other than 1.0", async () => {
    const header = signed().replace('oauth_version="1.0"', 'oauth_version="2.0"');
    expect(await verify(header)).toEqual({ ok: false, reason: "malformed" });
  });

  it("a non-ASCII nonce, even when correctly signed (document 1: ASCII only)", async () => {
    expect((await verify(headerWithNonce("plain-ascii"))).ok).toBe(true);
    expect(await verify(headerWithNonce("nönce"))).toEqual({ ok: false, reason: "malformed" });
  });

  it("does not burn a nonce on a request whose signature fails", async () => {
    const nonces = new InMemoryNonceStore();
    await verify(signed({ nonce: "n1", tokenSecret: "wrong" }), { nonces });
    expect(nonces.size).toBe(0);
    expect((await verify(signed({ nonce: "n1" }), { nonces })).ok).toBe(true);
  });
});

describe("InMemoryNonceStore", () => {
  const entry = (nonce: string, timestamp: number, nowSeconds: number) => ({
    consumerKey: "ck",
    token: "tk",
    nonce,
    timestamp,
    nowSeconds,
    expiresAtSeconds: timestamp + 300,
  });

  it("refuses a nonce seen with the same timestamp, client and token", () => {
    const store = new InMemoryNonceStore();
    expect(store.useOnce(entry("n", NOW, NOW))).toBe(true);
    expect(store.useOnce(entry("n", NOW, NOW + 1))).toBe(false);
    expect(store.useOnce({ ...entry("n", NOW, NOW), token: "other" })).toBe(true);
  });

  it("forgets nonces once their timestamp has left the window", () => {
    const store = new InMemoryNonceStore();
    store.useOnce(entry("a", NOW, NOW));
    store.useOnce(entry("b", NOW + 100, NOW + 100));
    expect(store.size).toBe(2);
    store.useOnce(entry("c", NOW + 301, NOW + 301));
    expect(store.size).toBe(2); // "a" expired at NOW + 300
    store.useOnce(entry("d", NOW + 500, NOW + 500));
    expect(store.size).toBe(2); // "b" expired at NOW + 400
  });
});

describe("parseOAuth1Authorization", () => {
  it("decodes values, keeps realm, and tolerates line-folded whitespace", () => {
    const parsed = parseOAuth1Authorization('OAuth realm="Photos",\r\n  oauth_callback="http%3A%2F%2Fx%2F" ,oauth_nonce="n"');
    expect(Object.fromEntries(parsed ?? [])).toEqual({ realm: "Photos", oauth_callback: "http://x/", oauth_nonce: "n" });
  });

  it("treats the scheme name case-insensitively", () => {
    expect(parseOAuth1Authorization('oauth oauth_nonce="n"')?.get("oauth_nonce")).toBe("n");
  });
});
