/**
 * The digests a browser bundle computes in JavaScript (no node:crypto there) equal Node's, on the
 * inputs where padding and block boundaries differ: empty, 55/56/63/64/65 bytes, multi-byte UTF-8,
 * and HMAC keys shorter and longer than the 64-byte block.
 */
import { describe, expect, it } from "vitest";
import { createHash, createHmac, randomBytes } from "node:crypto";
import { constantTimeEqual, hmacSha1Bytes, sha1Bytes, sha256Bytes } from "../src/shared/digest.js";

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const hexOf = (b: Uint8Array): string => Buffer.from(b).toString("hex");
const lengths = [0, 1, 3, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000];
const inputs = [...lengths.map((n) => "a".repeat(n)), "ü€😀 mixed", ...lengths.map((n) => randomBytes(n).toString("latin1"))];

describe("JavaScript digests (the browser's path)", () => {
  it("SHA-256 equals node:crypto's", () => {
    for (const s of inputs) expect(hexOf(sha256Bytes(enc(s)))).toBe(createHash("sha256").update(s, "utf8").digest("hex"));
  });

  it("SHA-1 equals node:crypto's", () => {
    for (const s of inputs) expect(hexOf(sha1Bytes(enc(s)))).toBe(createHash("sha1").update(s, "utf8").digest("hex"));
  });

  it("HMAC-SHA1 equals node:crypto's, for keys shorter and longer than a block", () => {
    for (const key of ["", "k", "consumer&token", "x".repeat(64), "y".repeat(65), "z".repeat(200)]) {
      for (const s of inputs.slice(0, 8)) expect(Buffer.from(hmacSha1Bytes(enc(key), enc(s))).toString("base64")).toBe(createHmac("sha1", key).update(s, "utf8").digest("base64"));
    }
  });

  it("compares secrets: equal, different, different lengths", () => {
    expect(constantTimeEqual("abc", "abc")).toBe(true);
    expect(constantTimeEqual("abc", "abd")).toBe(false);
    expect(constantTimeEqual("abc", "abcd")).toBe(false);
    expect(constantTimeEqual("", "")).toBe(true);
  });
});
