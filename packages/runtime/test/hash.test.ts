import { describe, expect, it } from "vitest";
import { hashIdentifier, hashUserIdentifiers, normalizeDeviceId, normalizeEmail, normalizeHandle, normalizePhone, normalizePlatformId, sha256Hex, type IdentifierKind } from "../src/client/hash.js";

// Digests computed independently with `printf %s <text> | sha256sum` and node's crypto.createHash.
const SHA = {
  "user@example.com": "b4c9a289323b21a01c3e940f150eb9b8c542587f1abfd8f0e1cc1ffc5e475514",
  "15550100999": "1676140f574eb7a9689c5249adad1691df0c12ca8052221efff3db618e20c61a",
  example_user: "8f70705e25baa00c2db8a925d48e779ae9b87a5577b90d5339c3fef0111e1f40",
  "6d92078a-8246-4ba4-ae5b-76104861e7dc": "31b806b4deec8c4cb1ffb18b9ab4ee1fa82a2b30e1f47902f04d03f5db023376",
  "1234567890": "c775e7b757ede630cd0aa1113bd102661ab38829ca52a6422ab782862f268646",
  "josé@example.com": "b0a53cf19e34d05b57bced7365c6b00ddbe38d62957e863de2a66a56c3b42cea",
} as const;

describe("normalization rules (our documented choice: document 2 does not show them)", () => {
  it.each([
    ["normalizeEmail", normalizeEmail, "  User@Example.COM \n", "user@example.com"],
    ["normalizeEmail", normalizeEmail, "first.last+tag@example.com", "first.last+tag@example.com"],
    ["normalizePhone", normalizePhone, "+1 (555) 010-0999", "15550100999"],
    ["normalizePhone", normalizePhone, "1.555.010.0999", "15550100999"],
    ["normalizeHandle", normalizeHandle, " @Example_User ", "example_user"],
    ["normalizeHandle", normalizeHandle, "@@double", "@double"],
    ["normalizeDeviceId", normalizeDeviceId, " 6D92078A-8246-4BA4-AE5B-76104861E7DC ", "6d92078a-8246-4ba4-ae5b-76104861e7dc"],
    ["normalizePlatformId", normalizePlatformId, " 1234567890 ", "1234567890"],
  ])("%s(%j) = %j", (_name, normalize, input, expected) => {
    expect(normalize(input)).toBe(expected);
  });
});

describe("hashIdentifier", () => {
  it.each<[IdentifierKind, string, string]>([
    ["email", "  User@Example.COM ", SHA["user@example.com"]],
    ["email", "JOSÉ@example.com", SHA["josé@example.com"]], // UTF-8 bytes, after lower-casing
    ["phone_number", "+1 (555) 010-0999", SHA["15550100999"]],
    ["handle", "@Example_User", SHA.example_user],
    ["device_id", "6D92078A-8246-4BA4-AE5B-76104861E7DC", SHA["6d92078a-8246-4ba4-ae5b-76104861e7dc"]],
    ["platform_id", " 1234567890", SHA["1234567890"]],
  ])("%s %j hashes to the digest of its normalized form", (kind, value, digest) => {
    expect(hashIdentifier(kind, value)).toBe(digest);
  });

  it("passes an existing digest through, lower-cased, so hashing is idempotent", () => {
    const upper = SHA["user@example.com"].toUpperCase();
    expect(hashIdentifier("email", upper)).toBe(SHA["user@example.com"]);
    expect(hashIdentifier("email", hashIdentifier("email", "user@example.com"))).toBe(SHA["user@example.com"]);
  });

  it("writes lower-case hex of 64 characters", () => {
    expect(sha256Hex("anything")).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each<[IdentifierKind, string]>([
    ["email", "   "],
    ["phone_number", "+-()"],
    ["handle", "@"],
  ])("refuses a %s that is empty after normalization (%j)", (kind, value) => {
    expect(() => hashIdentifier(kind, value)).toThrow(TypeError);
  });
});

describe("hashUserIdentifiers", () => {
  it("hashes every identifier but partner_user_id, which goes as given", () => {
    const hashed = hashUserIdentifiers({
      email: ["User@Example.com"],
      phone_number: ["+1 555 010 0999"],
      handle: ["@example_user"],
      device_id: ["6d92078a-8246-4ba4-ae5b-76104861e7dc"],
      platform_id: ["1234567890"],
      partner_user_id: ["CRM-42"],
    });
    expect(hashed).toEqual({
      email: [SHA["user@example.com"]],
      phone_number: [SHA["15550100999"]],
      handle: [SHA.example_user],
      device_id: [SHA["6d92078a-8246-4ba4-ae5b-76104861e7dc"]],
      platform_id: [SHA["1234567890"]],
      partner_user_id: ["CRM-42"],
    });
  });

  it("leaves out keys document 2 does not name, rather than send them unhashed", () => {
    const user = { email: ["a@b.c"], ssn: ["123-45-6789"] };
    expect(Object.keys(hashUserIdentifiers(user))).toEqual(["email"]);
  });
});
