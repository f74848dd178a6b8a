/**
 * The pattern engine: contract patterns (ECMAScript syntax, `u` flag) run on RE2 with the verdicts
 * RegExp gives, in time linear in the input; what RE2 cannot express is named; an allowed
 * backtracking pattern is bounded by input length.
 */
import { describe, expect, it } from "vitest";
import { BACKTRACKING_MAX_INPUT, patternRegExp, re2Plan, re2Unsupported } from "../src/shared/pattern.js";
import { DeliveryIdStore, signStandardWebhook, verifyStandardWebhook } from "../src/webhooks/replay.js";

/** Patterns where ECMAScript and RE2 read the same text differently, each with inputs that tell them apart. */
const SAME_VERDICTS: [string, string[]][] = [
  ["^.$", ["\r", "\u2028", "\n", "😀", "a"]],
  ["^\\s$", ["\u00a0", "\v", "\ufeff", "\u3000", " ", "a"]],
  ["^\\S+$", ["\u00a0x", "ab"]],
  ["^[\\S ]+$", ["\u00a0x", "a b"]],
  ["^[\\s\\S]+$", ["a \u00a0\n"]],
  ["^[^]*$", ["anything\n"]],
  ["^[]$", ["", "a"]],
  ["^\\u00e9\\u{1F600}\\uD83D\\uDE00$", ["é😀😀", "e"]],
  ["^(?<year>\\d{4})-\\d{2}$", ["2024-01", "24-01"]],
  ["^\\p{Letter}+\\p{Lu}?$", ["héllO", "h1"]],
  ["^\\p{Script=Greek}+$", ["αβ", "ab"]],
  ["^\\p{ASCII}+$", ["abc", "é"]],
  ["^[[a]$", ["[", "a", "]"]],
  ["^[\\b]\\cA\\0$", ["\b\x01\0"]],
  ["^(?!aws:)[a-zA-Z+-=._:/]+$", ["aws:x", "abc", "awsx"]],
  ["^(?=.{3,5}$)(?!\\d)[a-z0-9]+$", ["abc", "1bc", "abcdef", "ab"]],
  ["/client-forbidden$", ["https://x/client-forbidden", "client-forbidden"]],
];

describe("patternRegExp", () => {
  for (const [pattern, inputs] of SAME_VERDICTS) {
    it(`gives RegExp's verdicts for ${pattern}`, () => {
      expect(re2Unsupported(pattern)).toBeUndefined();
      const js = new RegExp(pattern, "u");
      const re2 = patternRegExp(pattern, "u");
      for (const s of inputs) expect(re2.test(s), JSON.stringify(s)).toBe(js.test(s));
    });
  }

  it("decides catastrophic patterns in linear time", () => {
    for (const [pattern, input] of [
      ["^(a+)+$", `${"a".repeat(100_000)}!`],
      ["^(https?:\\/\\/)?([\\da-z\\.-]+)\\.([a-z\\.]{2,6})([\\/\\w \\.-]*)*\\/?$", `http://a.bc/${"a".repeat(100_000)}!`],
    ] as const) {
      const t = performance.now();
      expect(patternRegExp(pattern, "u").test(input)).toBe(false);
      expect(performance.now() - t).toBeLessThan(1_000);
    }
  });

  it("names what RE2 cannot express", () => {
    expect(re2Unsupported("^(a)\\1$")).toContain("backreference");
    expect(re2Unsupported("^(?<x>a)\\k<x>$")).toContain("backreference");
    expect(re2Unsupported("a(?=b)")).toContain("lookahead");
    expect(re2Unsupported("(?<!a)b")).toContain("lookbehind");
    expect(re2Unsupported("^.{0,1001}$")).toContain("repeat count");
    // `^(?!a)b|c` asserts the first alternative only: not split into searches.
    expect("unsupported" in re2Plan("^(?!a)b|c")).toBe(true);
  });

  it("runs a pattern RE2 cannot express on RegExp, for values up to BACKTRACKING_MAX_INPUT only", () => {
    const p = patternRegExp("^(a+)\\1$", "u");
    expect([p.test("aaaa"), p.test("aaa")]).toEqual([true, false]);
    expect(p.test("a".repeat(BACKTRACKING_MAX_INPUT))).toBe(true);
    expect(p.test("a".repeat(BACKTRACKING_MAX_INPUT + 2))).toBe(false);
  });

  it("is distinct per pattern for ajv, which shares compiled patterns by their string", () => {
    expect(String(patternRegExp("a", "u"))).not.toBe(String(patternRegExp("b", "u")));
  });
});

describe("DeliveryIdStore", () => {
  it("remembers handled ids for their time, forgets failed ones, and keeps at most maxEntries", () => {
    let now = 0;
    const store = new DeliveryIdStore({ ttlSeconds: 10, maxEntries: 3, now: () => now });
    expect(store.begin("a")).toBe("new");
    expect(store.begin("a")).toBe("in-flight");
    store.end("a", true);
    expect(store.begin("a")).toBe("done");
    expect(store.begin("b")).toBe("new");
    store.end("b", false);
    expect(store.begin("b")).toBe("new");
    now = 11_000;
    expect(store.begin("a")).toBe("new");
    for (const id of ["c", "d", "e", "f"]) store.begin(id);
    expect(store.size).toBeLessThanOrEqual(3);
  });
});

describe("verifyStandardWebhook", () => {
  const secret = `whsec_${Buffer.from("0123456789abcdef0123456789abcdef").toString("base64")}`;
  const at = 1_700_000_000;
  const headers = (body: string, id = "msg_1", ts = at, s = secret): Record<string, string> => ({
    "webhook-id": id,
    "webhook-timestamp": String(ts),
    "webhook-signature": signStandardWebhook(s, id, ts, body),
  });

  it("accepts a signature by any of the secrets, among other signature entries", () => {
    const h = headers("{}");
    expect(verifyStandardWebhook({ ...h, "webhook-signature": `v1,AAAA ${h["webhook-signature"]}` }, "{}", ["whsec_b2xk", secret], 300, at * 1000)).toBeUndefined();
  });

  it("refuses a changed body, another id, a missing header, a stale or future timestamp", () => {
    const h = headers("{}");
    expect(verifyStandardWebhook(h, "{ }", [secret], 300, at * 1000)).toMatch(/no webhook-signature/);
    expect(verifyStandardWebhook({ ...h, "webhook-id": "msg_2" }, "{}", [secret], 300, at * 1000)).toMatch(/no webhook-signature/);
    expect(verifyStandardWebhook({ "webhook-id": "msg_1" }, "{}", [secret], 300, at * 1000)).toMatch(/required/);
    expect(verifyStandardWebhook(h, "{}", [secret], 300, (at + 301) * 1000)).toMatch(/300 s/);
    expect(verifyStandardWebhook(h, "{}", [secret], 300, (at - 301) * 1000)).toMatch(/300 s/);
  });
});
