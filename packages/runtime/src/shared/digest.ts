/**
 * SHA-256, SHA-1 and HMAC-SHA1, synchronous, for Node and browsers alike. The client hashes
 * identifiers (`x-hashed`) and signs OAuth 1.0a requests synchronously; `node:crypto` does both
 * fastest, but a static import of it keeps a generated client out of every browser bundle. So Node's
 * module is taken at run time when the platform has it (`process.getBuiltinModule`, Node ≥ 20.16),
 * and elsewhere the digests below are computed in JavaScript (FIPS 180-4, RFC 2104).
 */

/** Node's KeyObject, opaque here. */
interface SecretKey {
  readonly type: string;
}

interface NodeCrypto {
  createHash(algorithm: string): { update(data: string, encoding: "utf8"): { digest(encoding: "hex" | "base64"): string } };
  createHmac(algorithm: string, key: string | SecretKey): { update(data: string, encoding: "utf8"): { digest(encoding: "base64"): string } };
  createSecretKey(key: Uint8Array): SecretKey;
}

/** Node's crypto module, or undefined outside Node (a browser, a worker without it). */
const nodeCrypto: NodeCrypto | undefined = (() => {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    return proc?.getBuiltinModule?.("node:crypto") as NodeCrypto | undefined;
  } catch {
    return undefined;
  }
})();

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

function hex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}

function base64(bytes: Uint8Array): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += alphabet[(n >>> 18) & 63]! + alphabet[(n >>> 12) & 63]!;
    out += i + 1 < bytes.length ? alphabet[(n >>> 6) & 63]! : "=";
    out += i + 2 < bytes.length ? alphabet[n & 63]! : "=";
  }
  return out;
}

/** The message padded to whole 64-byte blocks with its bit length at the end (big-endian), as both hashes pad. */
function padded(message: Uint8Array): DataView {
  const length = Math.ceil((message.length + 9) / 64) * 64;
  const bytes = new Uint8Array(length);
  bytes.set(message);
  bytes[message.length] = 0x80;
  const view = new DataView(bytes.buffer);
  const bits = message.length * 8;
  view.setUint32(length - 8, Math.floor(bits / 2 ** 32));
  view.setUint32(length - 4, bits >>> 0);
  return view;
}

const K256 = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));

/** SHA-256 of `message` (FIPS 180-4 §6.2). */
export function sha256Bytes(message: Uint8Array): Uint8Array {
  const view = padded(message);
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  for (let block = 0; block < view.byteLength; block += 64) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(block + t * 4);
    for (let t = 16; t < 64; t++) {
      const a = w[t - 15] as number;
      const b = w[t - 2] as number;
      const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3);
      const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10);
      w[t] = ((w[t - 16] as number) + s0 + (w[t - 7] as number) + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h as unknown as [number, number, number, number, number, number, number, number];
    for (let t = 0; t < 64; t++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + (K256[t] as number) + (w[t] as number)) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    [a, b, c, d, e, f, g, hh].forEach((v, i) => (h[i] = ((h[i] as number) + v) >>> 0));
  }
  return wordsToBytes(h);
}

/** SHA-1 of `message` (FIPS 180-4 §6.1): only for HMAC-SHA1, which OAuth 1.0a prescribes. */
export function sha1Bytes(message: Uint8Array): Uint8Array {
  const view = padded(message);
  const h = new Uint32Array([0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0]);
  const w = new Uint32Array(80);
  const rotl = (x: number, n: number): number => (x << n) | (x >>> (32 - n));
  for (let block = 0; block < view.byteLength; block += 64) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(block + t * 4);
    for (let t = 16; t < 80; t++) w[t] = rotl((w[t - 3] as number) ^ (w[t - 8] as number) ^ (w[t - 14] as number) ^ (w[t - 16] as number), 1);
    let [a, b, c, d, e] = h as unknown as [number, number, number, number, number];
    for (let t = 0; t < 80; t++) {
      const [f, k] = t < 20 ? [(b & c) | (~b & d), 0x5a827999] : t < 40 ? [b ^ c ^ d, 0x6ed9eba1] : t < 60 ? [(b & c) | (b & d) | (c & d), 0x8f1bbcdc] : [b ^ c ^ d, 0xca62c1d6];
      const temp = (rotl(a, 5) + f + e + k + (w[t] as number)) >>> 0;
      e = d;
      d = c;
      c = rotl(b, 30) >>> 0;
      b = a;
      a = temp;
    }
    [a, b, c, d, e].forEach((v, i) => (h[i] = ((h[i] as number) + v) >>> 0));
  }
  return wordsToBytes(h);
}

function wordsToBytes(words: Uint32Array): Uint8Array {
  const out = new Uint8Array(words.length * 4);
  const view = new DataView(out.buffer);
  words.forEach((word, i) => view.setUint32(i * 4, word));
  return out;
}

/** HMAC with SHA-1 (RFC 2104; block size 64 bytes). */
export function hmacSha1Bytes(key: Uint8Array, message: Uint8Array): Uint8Array {
  const block = new Uint8Array(64);
  block.set(key.length > 64 ? sha1Bytes(key) : key);
  const inner = new Uint8Array(64 + message.length);
  const outer = new Uint8Array(64 + 20);
  for (let i = 0; i < 64; i++) {
    inner[i] = (block[i] as number) ^ 0x36;
    outer[i] = (block[i] as number) ^ 0x5c;
  }
  inner.set(message, 64);
  outer.set(sha1Bytes(inner), 64);
  return sha1Bytes(outer);
}

/** Lower-case hex SHA-256 of the UTF-8 text. */
export function sha256HexOf(text: string): string {
  return nodeCrypto ? nodeCrypto.createHash("sha256").update(text, "utf8").digest("hex") : hex(sha256Bytes(utf8(text)));
}

/** Base64 HMAC-SHA1 of the UTF-8 text under the UTF-8 key. */
export function hmacSha1Base64(key: string, text: string): string {
  return nodeCrypto ? nodeCrypto.createHmac("sha1", secretKey(nodeCrypto, key)).update(text, "utf8").digest("base64") : base64(hmacSha1Bytes(utf8(key), utf8(text)));
}

/**
 * Node's key object of a secret, kept for the few secrets a process signs or verifies with (a
 * server verifies every request with the same one): making it from the text each time was a
 * quarter of an HMAC.
 */
const secretKeys = new Map<string, SecretKey>();
const KEPT_SECRETS = 64;

function secretKey(crypto: NodeCrypto, key: string): SecretKey {
  let found = secretKeys.get(key);
  if (found === undefined) {
    if (secretKeys.size >= KEPT_SECRETS) secretKeys.clear();
    found = crypto.createSecretKey(utf8(key));
    secretKeys.set(key, found);
  }
  return found;
}

/** `count` random bytes as hex, from the platform's cryptographic source (Web Crypto, in Node too). */
export function randomHex(count: number): string {
  const bytes = new Uint8Array(count);
  globalThis.crypto.getRandomValues(bytes);
  return hex(bytes);
}

/** Whether two strings are equal, in time that depends on their length only (for secrets). */
export function constantTimeEqual(a: string, b: string): boolean {
  const x = utf8(a);
  const y = utf8(b);
  if (x.length !== y.length) return false;
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= (x[i] as number) ^ (y[i] as number);
  return diff === 0;
}
