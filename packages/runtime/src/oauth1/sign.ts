/**
 * OAuth 1.0a request signing with HMAC-SHA1 (RFC 5849 §3.4), the only method the platform accepts.
 */

import { hmacSha1Base64, randomHex } from "../shared/digest.js";
import { percentEncode } from "../client/encoding.js";

/** An `application/x-www-form-urlencoded` body, as pairs or as a record (arrays repeat the name). */
export type FormInput = URLSearchParams | Readonly<Record<string, string | readonly string[]>>;

export interface OAuth1SignInput {
  /** HTTP method; uppercased for the base string. */
  readonly method: string;
  /** The full request URL. Its query parameters are signed. */
  readonly url: string | URL;
  /**
   * The form-encoded body, when the request has one: its parameters are signed (RFC 5849
   * §3.4.1.3.1). Other body types are never signed.
   * @default undefined
   */
  readonly form?: FormInput;
  readonly consumerKey: string;
  readonly consumerSecret: string;
  /**
   * The token (temporary or access). Omitted from the request when undefined.
   * @default undefined
   */
  readonly token?: string;
  /** @default "" */
  readonly tokenSecret?: string;
  /**
   * Must be ASCII (the platform refuses other nonces).
   * @default 32 random hex characters from the platform's cryptographic source
   */
  readonly nonce?: string;
  /**
   * Seconds since the Unix epoch.
   * @default the current time
   */
  readonly timestamp?: number | string;
  /**
   * `oauth_callback`, sent on the temporary-credentials (request token) step only.
   * @default undefined
   */
  readonly callback?: string;
  /**
   * `oauth_verifier`, sent on the token (access token) step only.
   * @default undefined
   */
  readonly verifier?: string;
  /**
   * `oauth_version`; `null` leaves the parameter out (it is optional in RFC 5849).
   * @default "1.0"
   */
  readonly version?: string | null;
  /**
   * `realm` of the Authorization header; never signed.
   * @default undefined
   */
  readonly realm?: string;
}

export interface OAuth1Signature {
  /** Base64 HMAC-SHA1 signature (not percent-encoded). */
  readonly signature: string;
  /** The signature base string of RFC 5849 §3.4.1. */
  readonly baseString: string;
  /** The value of the `Authorization` header: `OAuth realm="…", oauth_…="…"`. */
  readonly authorization: string;
  /** The protocol parameters sent, `oauth_signature` included, not encoded. */
  readonly oauthParams: Readonly<Record<string, string>>;
}

export const SIGNATURE_METHOD = "HMAC-SHA1";

const ASCII = /^[\x20-\x7e]+$/;

/** True for a non-empty string of printable ASCII: the only nonces the platform accepts. */
export function isAsciiNonce(nonce: string): boolean {
  return ASCII.test(nonce);
}

/** A fresh nonce: 128 random bits as hex, so it is ASCII and needs no encoding. */
export function createNonce(): string {
  return randomHex(16);
}

/**
 * The base string URI (RFC 5849 §3.4.1.2): scheme and host lower-cased, default port dropped, path
 * kept, query and fragment dropped. WHATWG URL parsing already lower-cases and drops default ports.
 */
export function baseStringUri(url: string | URL): string {
  const u = typeof url === "string" ? new URL(url) : url;
  return `${u.protocol}//${u.host}${u.pathname === "" ? "/" : u.pathname}`;
}

/** Name/value pairs of the query and the form body, decoded, in their original order. */
export function requestParameters(url: string | URL, form?: FormInput): [string, string][] {
  const u = typeof url === "string" ? new URL(url) : url;
  const pairs: [string, string][] = [...u.searchParams];
  if (form instanceof URLSearchParams) pairs.push(...form);
  else if (form !== undefined) {
    for (const [name, value] of Object.entries(form)) {
      if (typeof value === "string") pairs.push([name, value]);
      else for (const v of value) pairs.push([name, v]);
    }
  }
  return pairs;
}

/**
 * Parameter normalization (RFC 5849 §3.4.1.3.2): encode names and values, sort by encoded name then
 * encoded value (encoded text is ASCII, so code-unit order is byte order), keep duplicates.
 */
export function normalizeParameters(pairs: readonly (readonly [string, string])[]): string {
  return pairs
    .map(([name, value]) => [percentEncode(name), percentEncode(value)] as const)
    .sort(([an, av], [bn, bv]) => (an < bn ? -1 : an > bn ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
}

/** `METHOD&encoded-base-uri&encoded-normalized-parameters` (RFC 5849 §3.4.1.1). */
export function signatureBaseString(method: string, url: string | URL, pairs: readonly (readonly [string, string])[]): string {
  return [method.toUpperCase(), percentEncode(baseStringUri(url)), percentEncode(normalizeParameters(pairs))].join("&");
}

/** HMAC-SHA1 over the base string, keyed by the encoded secrets joined with `&` (RFC 5849 §3.4.2). */
export function hmacSha1Signature(baseString: string, consumerSecret: string, tokenSecret = ""): string {
  const key = `${percentEncode(consumerSecret)}&${percentEncode(tokenSecret)}`;
  return hmacSha1Base64(key, baseString);
}

/** The `Authorization` header value (RFC 5849 §3.5.1): realm first, then the sorted parameters. */
export function formatAuthorization(oauthParams: Readonly<Record<string, string>>, realm?: string): string {
  const parts: string[] = [];
  // The realm is percent-encoded like every other value so the header needs no quoted-string escapes.
  if (realm !== undefined) parts.push(`realm="${percentEncode(realm)}"`);
  for (const name of Object.keys(oauthParams).sort()) {
    parts.push(`${percentEncode(name)}="${percentEncode(oauthParams[name] ?? "")}"`);
  }
  return `OAuth ${parts.join(", ")}`;
}

/**
 * Signs a request with OAuth 1.0a HMAC-SHA1 and returns the signature, the base string it covers
 * and the `Authorization` header value.
 */
export function signOAuth1(input: OAuth1SignInput): OAuth1Signature {
  const nonce = input.nonce ?? createNonce();
  if (!isAsciiNonce(nonce)) throw new TypeError("oauth_nonce must be non-empty printable ASCII");
  const timestamp = String(input.timestamp ?? Math.floor(Date.now() / 1000));
  if (!/^\d+$/.test(timestamp)) throw new TypeError("oauth_timestamp must be a non-negative integer");

  const params: Record<string, string> = {
    oauth_consumer_key: input.consumerKey,
    oauth_nonce: nonce,
    oauth_signature_method: SIGNATURE_METHOD,
    oauth_timestamp: timestamp,
  };
  if (input.token !== undefined) params["oauth_token"] = input.token;
  if (input.callback !== undefined) params["oauth_callback"] = input.callback;
  if (input.verifier !== undefined) params["oauth_verifier"] = input.verifier;
  const version = input.version === undefined ? "1.0" : input.version;
  if (version !== null) params["oauth_version"] = version;

  const pairs = [...requestParameters(input.url, input.form), ...Object.entries(params)];
  const baseString = signatureBaseString(input.method, input.url, pairs);
  const signature = hmacSha1Signature(baseString, input.consumerSecret, input.tokenSecret ?? "");
  const oauthParams = { ...params, oauth_signature: signature };
  return { signature, baseString, authorization: formatAuthorization(oauthParams, input.realm), oauthParams };
}
