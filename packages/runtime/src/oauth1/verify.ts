/**
 * Server-side OAuth 1.0a verification: parse the Authorization header, recompute the HMAC-SHA1
 * signature, check the timestamp window and the nonce.
 */

import { constantTimeEqual } from "../shared/digest.js";
import { percentDecode } from "../client/encoding.js";
import type { NonceStore } from "./nonce-store.js";
import { hmacSha1Signature, isAsciiNonce, requestParameters, signatureBaseString, SIGNATURE_METHOD, type FormInput } from "./sign.js";

export type OAuth1FailureReason = "missing" | "malformed" | "unsupported-method" | "unknown-consumer" | "unknown-token" | "timestamp" | "replay" | "signature";

export type OAuth1Verification =
  | {
      readonly ok: true;
      readonly consumerKey: string;
      /** Absent when the request carried no `oauth_token` (the request-token step). */
      readonly token?: string;
      /** Every protocol parameter of the header (`oauth_callback`, `oauth_verifier`, …), decoded. */
      readonly params: Readonly<Record<string, string>>;
    }
  | { readonly ok: false; readonly reason: OAuth1FailureReason };

export interface VerifyOAuth1Input {
  readonly method: string;
  /** The URL as the client addressed it (scheme, host and port included), with its query. */
  readonly url: string | URL;
  /**
   * The parsed body when it is `application/x-www-form-urlencoded`; its parameters are signed.
   * @default undefined
   */
  readonly form?: FormInput;
  /** The `Authorization` header value, if any. */
  readonly authorization: string | undefined;
  /** The consumer secret of a consumer key, or undefined when the key is unknown. */
  readonly lookupConsumerSecret: (consumerKey: string) => string | undefined | Promise<string | undefined>;
  /** The secret of a token issued to the consumer, or undefined when the token is unknown. */
  readonly lookupTokenSecret: (token: string, consumerKey: string) => string | undefined | Promise<string | undefined>;
  /**
   * The server clock, in seconds since the epoch.
   * @default the current time
   */
  readonly nowSeconds?: number;
  /**
   * How far, in seconds, `oauth_timestamp` may be from the server clock in either direction.
   * @default 300
   */
  readonly windowSeconds?: number;
  readonly nonces: NonceStore;
}

const REQUIRED = ["oauth_consumer_key", "oauth_nonce", "oauth_signature", "oauth_signature_method", "oauth_timestamp"];

/**
 * Parses `OAuth name="value", …` (RFC 5849 §3.5.1). Values are percent-decoded; `realm` is kept.
 * Returns undefined for a header that is not an OAuth one, null for one that does not parse or
 * repeats a parameter.
 */
export function parseOAuth1Authorization(header: string | undefined): Map<string, string> | null | undefined {
  if (header === undefined) return undefined;
  const scheme = /^\s*OAuth(?:\s+|$)/i.exec(header);
  if (!scheme) return undefined;
  const params = new Map<string, string>();
  const rest = header.slice(scheme[0].length);
  const pair = /\s*([A-Za-z0-9_.~%-]+)\s*=\s*"([^"\\]*)"\s*(,|$)/y;
  let at = 0;
  while (at < rest.length) {
    pair.lastIndex = at;
    const m = pair.exec(rest);
    if (!m || m[0].length === 0) return /^\s*$/.test(rest.slice(at)) ? params : null;
    const name = percentDecode(m[1] as string);
    if (params.has(name)) return null;
    params.set(name, percentDecode(m[2] as string));
    at = pair.lastIndex;
    // A trailing comma with nothing after it is not a parameter list RFC 2617 allows.
    if (m[3] === "," && /^\s*$/.test(rest.slice(at))) return null;
  }
  return params;
}

function sameText(a: string, b: string): boolean {
  // The signature length is public (28 base64 characters), so returning early leaks nothing.
  return constantTimeEqual(a, b);
}

/**
 * Verifies an OAuth 1.0a signed request. Only the Authorization header carries protocol parameters
 * here (RFC 5849 §3.5.1); parameters in the body or query (§3.5.2, §3.5.3) are signed as ordinary
 * request parameters but do not authenticate. A nonce is recorded only once the signature checks
 * out, so unsigned traffic cannot use up nonces.
 */
export async function verifyOAuth1(input: VerifyOAuth1Input): Promise<OAuth1Verification> {
  const header = parseOAuth1Authorization(input.authorization);
  if (header === undefined) return { ok: false, reason: "missing" };
  if (header === null) return { ok: false, reason: "malformed" };
  for (const name of REQUIRED) if (!header.has(name)) return { ok: false, reason: "malformed" };

  const consumerKey = header.get("oauth_consumer_key") as string;
  const nonce = header.get("oauth_nonce") as string;
  const provided = header.get("oauth_signature") as string;
  const timestampText = header.get("oauth_timestamp") as string;
  const token = header.get("oauth_token");
  const version = header.get("oauth_version");
  if (version !== undefined && version !== "1.0") return { ok: false, reason: "malformed" };
  if (!/^\d{1,15}$/.test(timestampText) || !isAsciiNonce(nonce)) return { ok: false, reason: "malformed" };
  if (header.get("oauth_signature_method") !== SIGNATURE_METHOD) return { ok: false, reason: "unsupported-method" };

  const timestamp = Number(timestampText);
  const now = input.nowSeconds ?? Math.floor(Date.now() / 1000);
  const window = input.windowSeconds ?? 300;
  if (Math.abs(now - timestamp) > window) return { ok: false, reason: "timestamp" };

  const consumerSecret = await input.lookupConsumerSecret(consumerKey);
  if (consumerSecret === undefined) return { ok: false, reason: "unknown-consumer" };
  let tokenSecret = "";
  if (token !== undefined) {
    const secret = await input.lookupTokenSecret(token, consumerKey);
    if (secret === undefined) return { ok: false, reason: "unknown-token" };
    tokenSecret = secret;
  }

  const protocol: [string, string][] = [];
  const params = Object.create(null) as Record<string, string>;
  for (const [name, value] of header) {
    if (name === "realm") continue;
    params[name] = value;
    if (name !== "oauth_signature") protocol.push([name, value]);
  }
  // Parsed once: the parameters and the base string URI both read it.
  const url = typeof input.url === "string" ? new URL(input.url) : input.url;
  const pairs = [...requestParameters(url, input.form), ...protocol];
  const expected = hmacSha1Signature(signatureBaseString(input.method, url, pairs), consumerSecret, tokenSecret);
  if (!sameText(provided, expected)) return { ok: false, reason: "signature" };

  const fresh = await input.nonces.useOnce({
    consumerKey,
    token,
    nonce,
    timestamp,
    nowSeconds: now,
    expiresAtSeconds: timestamp + window,
  });
  if (!fresh) return { ok: false, reason: "replay" };
  return token === undefined ? { ok: true, consumerKey, params } : { ok: true, consumerKey, token, params };
}
