import { describe, expect, it } from "vitest";
import { percentEncode } from "../src/client/encoding.js";
import { baseStringUri, normalizeParameters, signOAuth1 } from "../src/oauth1/index.js";

// RFC 5849 §1.2: the printer/photos example. Client credentials are shared by the three requests.
const consumer = { consumerKey: "dpf43f3p2l4k3l03", consumerSecret: "kd94hf93k423kf44" };

describe("signOAuth1 reproduces RFC 5849 §1.2", () => {
  const cases = [
    {
      step: "temporary credentials request",
      input: {
        ...consumer,
        method: "POST",
        url: "https://photos.example.net/initiate",
        nonce: "wIjqoS",
        timestamp: 137131200,
        callback: "http://printer.example.com/ready",
        realm: "Photos",
        version: null,
      },
      signature: "74KNZJeDHnMBp0EMJ9ZHt/XKycU=",
    },
    {
      step: "token request with verifier",
      input: {
        ...consumer,
        method: "POST",
        url: "https://photos.example.net/token",
        token: "hh5s93j4hdidpola",
        tokenSecret: "hdhd0244k9j7ao03",
        nonce: "walatlh",
        timestamp: 137131201,
        verifier: "hfdp7dh39dks9884",
        realm: "Photos",
        version: null,
      },
      signature: "gKgrFCywp7rO0OXSjdot/IHF7IU=",
    },
    {
      step: "protected resource request with query",
      input: {
        ...consumer,
        method: "GET",
        url: "http://photos.example.net/photos?file=vacation.jpg&size=original",
        token: "nnch734d00sl2jdk",
        tokenSecret: "pfkkdhi9sl3r4s00",
        nonce: "chapoH",
        timestamp: "137131202",
        realm: "Photos",
        version: null,
      },
      signature: "MdpQcU8iPSUjWoN/UDMsK2sui9I=",
    },
  ] as const;

  it.each(cases)("$step", ({ input, signature }) => {
    const signed = signOAuth1(input);
    expect(signed.signature).toBe(signature);
    expect(signed.authorization).toContain(`oauth_signature="${percentEncode(signature)}"`);
    expect(signed.authorization.startsWith('OAuth realm="Photos", ')).toBe(true);
    expect(signed.authorization).not.toContain("oauth_version");
  });

  it("the temporary credentials request sends the callback percent-encoded, as the RFC shows", () => {
    const { authorization } = signOAuth1(cases[0].input);
    expect(authorization).toContain('oauth_callback="http%3A%2F%2Fprinter.example.com%2Fready"');
    expect(authorization).not.toContain("oauth_token=");
  });
});

describe("signOAuth1 reproduces the RFC 5849 §3.4.1 signature base string", () => {
  it("signs query (with encoded and empty values) and form body parameters, duplicates kept", () => {
    const { baseString } = signOAuth1({
      method: "POST",
      url: "http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b",
      form: new URLSearchParams("c2&a3=2+q"),
      consumerKey: "9djdj82h48djs9d2",
      consumerSecret: "unused",
      token: "kkk9d7dh3k39sjv7",
      nonce: "7d8f3e4a",
      timestamp: 137131201,
      version: null,
    });
    expect(baseString).toBe(
      "POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk9d7dh3k39sjv7",
    );
  });

  it("a form given as a record signs the same as the equivalent URLSearchParams", () => {
    const base = {
      method: "POST",
      url: "http://example.com/request",
      consumerKey: "k",
      consumerSecret: "s",
      nonce: "n",
      timestamp: 1,
    };
    const fromRecord = signOAuth1({ ...base, form: { a3: ["2 q", "a"], c2: "" } });
    const fromParams = signOAuth1({ ...base, form: new URLSearchParams("a3=2+q&c2=&a3=a") });
    expect(fromRecord.baseString).toBe(fromParams.baseString);
  });
});

describe("RFC 5849 building blocks", () => {
  it.each([
    ["http://EXAMPLE.COM:80/r%20v/X?id=123", "http://example.com/r%20v/X"], // §3.4.1.2 example
    ["https://www.example.net:8080/?q=1", "https://www.example.net:8080/"], // §3.4.1.2 example
    ["https://photos.example.net:443/initiate", "https://photos.example.net/initiate"],
    ["HTTP://Example.com", "http://example.com/"],
    ["http://example.com/a#fragment", "http://example.com/a"],
  ])("base string URI of %s is %s", (url, expected) => {
    expect(baseStringUri(url)).toBe(expected);
  });

  it.each([
    ["abcABC123-._~", "abcABC123-._~"],
    ["!*'()", "%21%2A%27%28%29"],
    [" +/=&%", "%20%2B%2F%3D%26%25"],
    ["é", "%C3%A9"],
    ["日本", "%E6%97%A5%E6%9C%AC"],
    ["😀", "%F0%9F%98%80"],
  ])("percent-encodes %j as %s (§3.6: unreserved kept, uppercase hex, UTF-8)", (raw, encoded) => {
    expect(percentEncode(raw)).toBe(encoded);
  });

  it("sorts by encoded name, then encoded value, keeping duplicates (§3.4.1.3.2)", () => {
    expect(
      normalizeParameters([
        ["b", "2"],
        ["a", "z"],
        ["a", "10"],
        ["a", "1"],
        ["a b", "x"],
        ["a", "1"],
      ]),
    ).toBe("a=1&a=1&a=10&a=z&a%20b=x&b=2");
  });
});

describe("signOAuth1 defaults", () => {
  const base = { method: "GET", url: "https://api.example.test/2/users/me", consumerKey: "ck", consumerSecret: "cs" };

  it("sends oauth_version 1.0 unless told not to", () => {
    expect(signOAuth1(base).authorization).toContain('oauth_version="1.0"');
  });

  it("draws a fresh ASCII nonce and the current timestamp", () => {
    const a = signOAuth1(base);
    const b = signOAuth1(base);
    expect(a.oauthParams["oauth_nonce"]).toMatch(/^[0-9a-f]{32}$/);
    expect(a.oauthParams["oauth_nonce"]).not.toBe(b.oauthParams["oauth_nonce"]);
    const ts = Number(a.oauthParams["oauth_timestamp"]);
    expect(Math.abs(ts - Date.now() / 1000)).toBeLessThan(5);
  });

  it("refuses a non-ASCII nonce, which the platform would reject", () => {
    expect(() => signOAuth1({ ...base, nonce: "nöncé" })).toThrow(TypeError);
  });

  it("percent-encodes the realm and every parameter value in the header", () => {
    const { authorization } = signOAuth1({ ...base, realm: 'a "quoted" realm', token: "t/+=" });
    expect(authorization).toMatch(/^OAuth realm="a%20%22quoted%22%20realm", oauth_consumer_key="ck"/);
    expect(authorization).toContain('oauth_token="t%2F%2B%3D"');
  });
});
