/**
 * Percent-encoding shared by OAuth 1.0a signing and URL building. One strict encoder for both so a
 * signed query string and the query string actually sent can never disagree.
 */

const encoder = new TextEncoder();
const HEX = "0123456789ABCDEF";
const UNRESERVED = /^[A-Za-z0-9\-._~]*$/;
/** What encodeURIComponent leaves unescaped beyond the unreserved set. */
const SUB_DELIMS = /[!'()*]/g;

function isUnreserved(byte: number): boolean {
  return (
    (byte >= 0x30 && byte <= 0x39) || // 0-9
    (byte >= 0x41 && byte <= 0x5a) || // A-Z
    (byte >= 0x61 && byte <= 0x7a) || // a-z
    byte === 0x2d || // -
    byte === 0x2e || // .
    byte === 0x5f || // _
    byte === 0x7e // ~
  );
}

/**
 * RFC 3986 / RFC 5849 §3.6 percent-encoding: every byte of the UTF-8 form except the unreserved
 * set (`A-Z a-z 0-9 - . _ ~`) becomes `%XX` with uppercase hex. Unlike `encodeURIComponent` it also
 * encodes `! ' ( ) *`, and a lone surrogate becomes U+FFFD (as `fetch` would send it) instead of
 * throwing.
 */
export function percentEncode(value: string): string {
  // Fast path: most names and values are already unreserved ASCII.
  if (UNRESERVED.test(value)) return value;
  // encodeURIComponent writes the same uppercase escapes of the same UTF-8 bytes, natively, but
  // leaves `! ' ( ) *` as they are and throws on a lone surrogate (the loop below handles that).
  try {
    return encodeURIComponent(value).replace(SUB_DELIMS, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  } catch {
    // A lone surrogate: encoded as U+FFFD below.
  }
  let out = "";
  for (const byte of encoder.encode(value)) {
    out += isUnreserved(byte) ? String.fromCharCode(byte) : `%${HEX[byte >> 4]}${HEX[byte & 15]}`;
  }
  return out;
}

/**
 * Decodes `%XX` sequences as UTF-8; anything that is not a valid escape stays as written, so a
 * hostile header cannot make decoding throw.
 */
export function percentDecode(value: string): string {
  if (!value.includes("%")) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}
