import { describe, expect, it } from "vitest";
import { createMockGenerator, MockGenerationError, type MockDocument, type MockSchema } from "../src/mock/mock-data.js";
import { createRng, deriveSeed, hashString } from "../src/shared/prng.js";
import { parseRegex, sampleRegex, UnsupportedPatternError } from "../src/mock/regex-sample.js";
import { createSchemaMatcher } from "../src/shared/schema-match.js";
import { satisfiesRule, type RuleBody } from "../src/shared/rules.js";

const doc = (schemas: Record<string, MockSchema>): MockDocument => ({ components: { schemas } });
const SEEDS = Array.from({ length: 200 }, (_, i) => i);

/** Generates `schema` over many seeds; every value must satisfy the schema by the local evaluator. */
function sampleMany(schema: MockSchema, schemas: Record<string, MockSchema> = {}, seeds: readonly number[] = SEEDS): unknown[] {
  const root = doc(schemas);
  const g = createMockGenerator({ root });
  const matches = createSchemaMatcher(root, { now: Date.UTC(2025, 0, 1) });
  return seeds.map((seed) => {
    const value = g.generate(schema, seed);
    expect(matches(schema, value), `seed ${seed}: ${JSON.stringify(value)}`).toBe(true);
    return value;
  });
}

describe("prng", () => {
  it("is a pure function of the seed", () => {
    const a = createRng(42);
    const b = createRng(42);
    const xs = Array.from({ length: 50 }, () => a.next());
    expect(Array.from({ length: 50 }, () => b.next())).toEqual(xs);
    expect(new Set(xs).size).toBe(50);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it("pins the sequence so it cannot drift between machines or versions", () => {
    const rng = createRng(1);
    expect([rng.int(0, 999), rng.int(0, 999), rng.int(0, 999)]).toEqual([627, 2, 527]);
    expect(hashString("price")).toBe(0x0b44452a);
  });

  it("derives child seeds that differ per key and per parent", () => {
    const keys = ["id", "name", "price", 0, 1, 2];
    const seeds = keys.map((k) => deriveSeed(7, k));
    expect(new Set(seeds).size).toBe(keys.length);
    expect(deriveSeed(7, "id")).not.toBe(deriveSeed(8, "id"));
    expect(deriveSeed(7, "id")).toBe(deriveSeed(7, "id"));
  });
});

describe("regex sampler", () => {
  // Each pattern is sampled over many seeds; every sample must match the real RegExp.
  const PATTERNS: readonly string[] = [
    "^[0-9]{1,19}$",
    "^[0-9]+$",
    "^[0-9]+(\\.[0-9]+)? [A-Z]{3}$",
    "^https://",
    "^card://",
    "(Z|[+-]00:00)$",
    "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2})?(Z|[+-]\\d{2}:\\d{2})/\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2})?(Z|[+-]\\d{2}:\\d{2})$",
    "^[^,]+(,[^,]+){0,9}$",
    "^#?[^#\\s]{1,20}$",
    "^[^:/\\s]+$",
    "^(about:blank|[a-z][a-z0-9]*(-[a-z0-9]+)*)$",
    "^#?([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$",
    "^P(\\d+D)?(T(\\d+H)?(\\d+M)?(\\d+S)?)?$",
    "/client-disconnected$",
    "^(?:a|bc|def){2,4}x*?$",
    "^(?<year>\\d{4})-(?<month>0[1-9]|1[0-2])$",
    "^[\\w.+-]+@[a-z]+\\.(com|org)$",
    "^\\S+\\s\\S+$",
    "^[^\\d\\W]{3}$",
    "^\\$\\{[a-z]\\}\\*\\/\\\\$",
    "^\\x41\\u0042\\u{1F600}\\t$",
    "^[\\]\\-^]+$",
    "^.{5}$",
    "^[\\u00e0-\\u00ff]{2}$",
    "^a{0}b{2,}c?$",
    "^(|x)y$",
    "^(a|b)(c|d)\\b",
    "^[^a-zA-Z0-9 -~]{2}$",
  ];
  it.each(PATTERNS)("samples /%s/ into matching strings", (pattern) => {
    const re = new RegExp(pattern, "u");
    for (let seed = 0; seed < 150; seed++) {
      const sample = sampleRegex(pattern, createRng(seed));
      expect(re.test(sample), `seed ${seed}: ${JSON.stringify(sample)}`).toBe(true);
    }
  });

  it("spreads samples instead of repeating one", () => {
    const samples = new Set(Array.from({ length: 100 }, (_, s) => sampleRegex("^[a-z]{4}$", createRng(s))));
    expect(samples.size).toBeGreaterThan(90);
  });

  it("caps unbounded quantifiers and stretches toward a minimum length", () => {
    for (let s = 0; s < 100; s++) expect(sampleRegex("^a*$", createRng(s)).length).toBeLessThanOrEqual(8);
    expect(sampleRegex("^[0-9]+$", createRng(3), { minLength: 30 }).length).toBeGreaterThanOrEqual(30);
    for (let s = 0; s < 50; s++) expect(sampleRegex("^x+$", createRng(s), { maxLength: 3 }).length).toBeLessThanOrEqual(3);
  });

  const UNSUPPORTED: readonly [string, RegExp][] = [
    ["^(?=a)a$", /lookaround/],
    ["^(?<!a)b$", /lookaround/],
    ["^(a)\\1$", /backreference/],
    ["^(?<n>a)\\k<n>$", /backreference/],
    ["^\\p{L}+$", /Unicode property/],
    ["^[]$", /admits no character/],
    ["^(a$", /unterminated group/],
    ["^*$", /nothing to repeat/],
  ];
  it.each(UNSUPPORTED)("refuses /%s/ with a reason", (pattern, reason) => {
    expect(() => sampleRegex(pattern, createRng(1))).toThrow(UnsupportedPatternError);
    expect(() => sampleRegex(pattern, createRng(1))).toThrow(reason);
  });

  it("parses a class with ranges and escapes into ranges, not characters", () => {
    expect(parseRegex("[a-c\\d]")).toEqual({
      kind: "set",
      negated: false,
      ranges: [
        [0x61, 0x63],
        [0x30, 0x39],
      ],
    });
  });
});

describe("mock generator: keywords", () => {
  it("honours type, including type arrays and null", () => {
    const values = sampleMany({ type: ["string", "integer", "null"] });
    const kinds = new Set(values.map((v) => (v === null ? "null" : typeof v)));
    expect(kinds).toEqual(new Set(["string", "number", "null"]));
  });

  it("spreads enum values across seeds and keeps const", () => {
    const values = sampleMany({ enum: ["a", "b", "c", "d", "e", 1, null] });
    for (const e of ["a", "b", "c", "d", "e", 1, null]) expect(values).toContain(e);
    const counts = ["a", "b", "c"].map((e) => values.filter((v) => v === e).length);
    for (const c of counts) expect(c).toBeGreaterThan(10);
    expect(new Set(sampleMany({ const: { x: [1] } }).map((v) => JSON.stringify(v)))).toEqual(new Set(['{"x":[1]}']));
  });

  it("always gives required properties, sometimes optional ones, and nothing additionalProperties forbids", () => {
    const schema: MockSchema = {
      type: "object",
      additionalProperties: false,
      required: ["id"],
      properties: { id: { type: "string" }, note: { type: "string" }, gone: false, never: { not: {} } },
    };
    const values = sampleMany(schema) as Record<string, unknown>[];
    expect(values.every((v) => typeof v["id"] === "string")).toBe(true);
    const withNote = values.filter((v) => "note" in v).length;
    expect(withNote).toBeGreaterThan(100);
    expect(withNote).toBeLessThan(190);
    expect(values.some((v) => "gone" in v || "never" in v)).toBe(false);
    expect(values.every((v) => Object.keys(v).every((k) => k === "id" || k === "note"))).toBe(true);
  });

  it("respects minItems, maxItems and uniqueItems", () => {
    const values = sampleMany({ type: "array", minItems: 2, maxItems: 4, uniqueItems: true, items: { type: "integer", minimum: 0, maximum: 5 } }) as number[][];
    expect(values.every((v) => v.length >= 2 && v.length <= 4 && new Set(v).size === v.length)).toBe(true);
    expect(new Set(values.map((v) => v.length))).toEqual(new Set([2, 3, 4]));
  });

  it("meets contains with minContains and maxContains", () => {
    const schema: MockSchema = {
      type: "array",
      items: { enum: ["MEDIA", "DETAILS", "BUTTON"] },
      allOf: [
        { contains: { const: "MEDIA" }, minContains: 1, maxContains: 1 },
        { contains: { enum: ["DETAILS", "BUTTON"] }, minContains: 1, maxContains: 1 },
      ],
    };
    const values = sampleMany(schema) as string[][];
    expect(values.every((v) => v.length === 2 && v.includes("MEDIA"))).toBe(true);
    expect(new Set(values.map((v) => v.join(",")))).toEqual(new Set(["MEDIA,DETAILS", "DETAILS,MEDIA", "MEDIA,BUTTON", "BUTTON,MEDIA"]));
  });

  it("respects string lengths and formats", () => {
    const FORMATS: Record<string, RegExp> = {
      "date-time": /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/,
      date: /^\d{4}-\d{2}-\d{2}$/,
      time: /^\d{2}:\d{2}:\d{2}Z$/,
      uri: /^https:\/\/[a-z.]+\//,
      url: /^https:\/\//,
      email: /^[a-z]+\.[a-z]+\d+@example\.com$/,
      uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      hostname: /^[a-z.]+\.(com|net|org)$/,
      ipv4: /^\d{1,3}(\.\d{1,3}){3}$/,
      int64: /^\d+$/,
    };
    for (const [format, shape] of Object.entries(FORMATS)) {
      for (const v of sampleMany({ type: "string", format }, {}, SEEDS.slice(0, 50))) expect(v, format).toMatch(shape);
    }
    for (const v of sampleMany({ type: "string", minLength: 5, maxLength: 7 })) expect([...(v as string)].length).toBeGreaterThanOrEqual(5);
  });

  it("keeps dates inside the fixed window, never the clock", () => {
    const times = sampleMany({ type: "string", format: "date-time" }).map((v) => Date.parse(v as string));
    expect(Math.min(...times)).toBeGreaterThanOrEqual(Date.UTC(2025, 0, 1));
    expect(Math.max(...times)).toBeLessThan(Date.UTC(2026, 0, 2));
  });

  it("respects numeric bounds, exclusive bounds and multipleOf", () => {
    const ints = sampleMany({ type: "integer", exclusiveMinimum: 3, maximum: 9 }) as number[];
    expect(new Set(ints)).toEqual(new Set([4, 5, 6, 7, 8, 9]));
    const steps = sampleMany({ type: "number", minimum: 1, maximum: 2, multipleOf: 0.25 }) as number[];
    expect(steps.every((n) => [1, 1.25, 1.5, 1.75, 2].includes(n))).toBe(true);
    const floats = sampleMany({ type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 }) as number[];
    expect(floats.every((n) => n > 0 && n < 1)).toBe(true);
    expect(new Set(floats).size).toBeGreaterThan(50);
  });

  it("merges allOf parts, including referenced ones", () => {
    const schemas = { Base: { type: "object", required: ["type"], properties: { type: { type: "string" }, title: { type: "string" } } } } as const;
    const schema: MockSchema = {
      allOf: [{ $ref: "#/components/schemas/Base" }, { required: ["extra"], properties: { type: { pattern: "/thing$" }, extra: { type: "integer", minimum: 10, maximum: 12 } } }],
    };
    for (const v of sampleMany(schema, schemas) as Record<string, unknown>[]) {
      expect(v["type"]).toMatch(/\/thing$/);
      expect([10, 11, 12]).toContain(v["extra"]);
    }
  });

  it("picks anyOf branches by seed and satisfies exactly one oneOf branch", () => {
    const anyValues = sampleMany({ anyOf: [{ type: "string", maxLength: 3 }, { type: "boolean" }] });
    expect(new Set(anyValues.map((v) => typeof v))).toEqual(new Set(["string", "boolean"]));
    const schema: MockSchema = {
      type: "object",
      additionalProperties: false,
      required: ["name"],
      properties: { name: { type: "string" }, components: { type: "array" }, slides: { type: "array" } },
      oneOf: [{ required: ["components"] }, { required: ["slides"] }],
    };
    const values = sampleMany(schema) as Record<string, unknown>[];
    expect(values.every((v) => "components" in v !== "slides" in v)).toBe(true);
    expect(values.filter((v) => "components" in v).length).toBeGreaterThan(50);
    // Overlapping branches: an integer in 0..10 is both; only values in one branch qualify.
    const overlapping = sampleMany({
      oneOf: [
        { type: "integer", minimum: 0, maximum: 10 },
        { type: "integer", minimum: 5, maximum: 15 },
      ],
    }) as number[];
    expect(overlapping.every((n) => n < 5 || n > 10)).toBe(true);
  });

  it("retries until not holds", () => {
    const values = sampleMany({ type: "string", enum: ["red", "abc", "fff", "navy"], not: { pattern: "^[0-9a-f]{3}$" } });
    expect(new Set(values)).toEqual(new Set(["red", "navy"]));
  });

  it("settles if/then/else on the branch the value takes", () => {
    const schema: MockSchema = {
      type: "object",
      required: ["availability", "inventory"],
      properties: { availability: { enum: ["in stock", "preorder"] }, inventory: { type: "integer", minimum: 0, maximum: 3 } },
      if: { required: ["availability"], properties: { availability: { const: "in stock" } } },
      then: { properties: { inventory: { minimum: 1 } } },
      else: { properties: { inventory: { const: 0 } } },
    };
    const values = sampleMany(schema) as { availability: string; inventory: number }[];
    expect(values.every((v) => (v.availability === "in stock" ? v.inventory >= 1 : v.inventory === 0))).toBe(true);
    expect(new Set(values.map((v) => v.availability)).size).toBe(2);
  });

  it("adds what dependentRequired asks for", () => {
    const schema: MockSchema = {
      type: "object",
      properties: { deep_link: { type: "string" }, app_id: { type: "string" } },
      dependentRequired: { deep_link: ["app_id"] },
    };
    const values = sampleMany(schema) as Record<string, unknown>[];
    expect(values.filter((v) => "deep_link" in v).every((v) => "app_id" in v)).toBe(true);
    expect(values.some((v) => "deep_link" in v)).toBe(true);
  });

  it("hashes x-hashed values (and each item of an x-hashed array) as 64 lower-hex", () => {
    const values = sampleMany({
      type: "object",
      required: ["email", "token"],
      properties: { email: { type: "array", minItems: 1, items: { type: "string" }, "x-hashed": "sha256" }, token: { type: "string", "x-hashed": "sha256" } },
    }) as { email: string[]; token: string }[];
    for (const v of values) {
      for (const h of [...v.email, v.token]) expect(h).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(new Set(values.map((v) => v.token)).size).toBe(values.length);
  });
});

describe("mock generator: realistic values by property name", () => {
  const schema: MockSchema = {
    type: "object",
    required: ["id", "account_id", "link", "name", "title", "description", "price", "sale_price", "card_uri", "created_at", "updated_at", "deleted"],
    properties: {
      id: { type: "string" },
      account_id: { type: "string" },
      link: { type: "string" },
      name: { type: "string" },
      title: { type: "string", maxLength: 20 },
      description: { type: "string" },
      price: { type: "string" },
      sale_price: { type: "string" },
      card_uri: { type: "string" },
      created_at: { type: "string", format: "date-time" },
      updated_at: { type: "string", format: "date-time" },
      deleted: { type: "boolean" },
    },
  };
  const values = sampleMany(schema) as Record<string, string | boolean>[];

  it.each([
    ["id", /^[1-9][0-9]{9,18}$/],
    ["account_id", /^[1-9][0-9]{9,18}$/],
    ["link", /^https:\/\/[a-z.]+\/[a-z]+\/\d+$/],
    ["name", /^[A-Z][a-z]+ [A-Z][a-z]+$/],
    ["title", /^[A-Z][a-z ]+$/],
    ["description", /^[A-Z][a-z ]+\.$/],
    ["price", /^\d+(\.\d{2})? [A-Z]{3}$/],
    ["card_uri", /^card:\/\/\d+$/],
  ])("%s looks like data", (key, shape) => {
    for (const v of values) expect(v[key]).toMatch(shape);
  });

  it("orders times within an object and keeps deleted false", () => {
    for (const v of values) {
      expect(Date.parse(v["updated_at"] as string)).toBeGreaterThanOrEqual(Date.parse(v["created_at"] as string));
      expect(v["deleted"]).toBe(false);
    }
  });

  it("gives prices of one object one currency", () => {
    for (const v of values) expect((v["price"] as string).slice(-3)).toBe((v["sale_price"] as string).slice(-3));
  });

  it("varies the contract's examples rather than repeating them", () => {
    const ids = sampleMany({ type: "string", pattern: "^[0-9]+$", examples: ["1346889436626259968"] }) as string[];
    const fromExample = ids.filter((id) => id.startsWith("1346889436") && id.length === 19);
    expect(fromExample.length).toBeGreaterThan(20);
    expect(new Set(fromExample).size).toBeGreaterThan(fromExample.length / 2);
  });
});

describe("mock generator: determinism, variety, recursion, rules, failures", () => {
  const schemas: Record<string, MockSchema> = {
    Node: {
      type: "object",
      required: ["id", "children"],
      properties: { id: { type: "string" }, label: { type: "string" }, children: { type: "array", items: { $ref: "#/components/schemas/Node" } }, parent: { $ref: "#/components/schemas/Node" } },
    },
    Pricing: {
      type: "object",
      required: ["price", "sale_price"],
      properties: { price: { type: "string", pattern: "^[0-9]+(\\.[0-9]+)? [A-Z]{3}$" }, sale_price: { type: "string", pattern: "^[0-9]+(\\.[0-9]+)? [A-Z]{3}$" } },
      "x-rules": [{ id: "sale-below", message: "sale_price < price", kind: "compare", left: "sale_price", op: "<", right: "price", as: "price", fields: ["sale_price", "price"] }],
    },
    Membership: {
      type: "object",
      required: ["expires_at"],
      properties: { effective_at: { type: "string", format: "date-time" }, expires_at: { type: "string", format: "date-time" } },
      "x-rules": [
        { id: "future", message: "expires_at > now", kind: "compare", left: "expires_at", op: ">", right: "$now", as: "date-time", fields: ["expires_at"] },
        { id: "order", message: "expires_at > effective_at", kind: "compare", left: "expires_at", op: ">", right: "effective_at", as: "date-time", fields: [] },
      ],
    },
    Impossible: { type: "object", required: ["x"], properties: { x: { type: "string", not: { type: "string" } } } },
    Endless: { type: "object", required: ["parent"], properties: { parent: { $ref: "#/components/schemas/Endless" } } },
    NullableParent: { type: "object", required: ["parent"], properties: { parent: { anyOf: [{ $ref: "#/components/schemas/NullableParent" }, { type: "null" }] } } },
    Fallback: { type: "string", pattern: "^(?=x)x+$", examples: ["xxx"] },
  };
  const g = createMockGenerator({ root: doc(schemas) });

  it("gives the same value for the same seed, in a fresh generator too", () => {
    for (const seed of [0, 1, 99, 123456789]) {
      const a = JSON.stringify(g.forSchema("Node", seed));
      expect(JSON.stringify(g.forSchema("Node", seed))).toBe(a);
      expect(JSON.stringify(createMockGenerator({ root: doc(schemas) }).forSchema("Node", seed))).toBe(a);
    }
  });

  it("gives varied values for distinct seeds", () => {
    const seen = new Set(SEEDS.map((s) => JSON.stringify(g.forSchema("Pricing", s))));
    expect(seen.size).toBe(SEEDS.length);
  });

  it("keeps other fields when a sibling field is added to the contract", () => {
    const before = createMockGenerator({ root: doc({ A: { type: "object", required: ["id", "name"], properties: { id: { type: "string" }, name: { type: "string" } } } }) });
    const after = createMockGenerator({
      root: doc({ A: { type: "object", required: ["id", "name", "added"], properties: { id: { type: "string" }, added: { type: "integer" }, name: { type: "string" } } } }),
    });
    for (const seed of SEEDS.slice(0, 20)) {
      const [x, y] = [before.forSchema("A", seed), after.forSchema("A", seed)] as Record<string, unknown>[];
      expect(y?.["id"]).toBe(x?.["id"]);
      expect(y?.["name"]).toBe(x?.["name"]);
    }
  });

  it("stops recursion at the limit with the smallest valid value", () => {
    const depth = (n: unknown): number => {
      const node = n as { children: unknown[]; parent?: unknown };
      return 1 + Math.max(0, ...node.children.map(depth), node.parent ? depth(node.parent) : 0);
    };
    const depths = SEEDS.map((s) => depth(g.forSchema("Node", s)));
    expect(Math.max(...depths)).toBeLessThanOrEqual(4);
    expect(Math.max(...depths)).toBeGreaterThan(1);
  });

  it("retries until x-rules hold (same-currency sale price below price)", () => {
    const rule = (schemas["Pricing"] as { "x-rules": RuleBody[] })["x-rules"][0] as RuleBody;
    let compared = 0;
    for (const s of SEEDS) {
      const v = g.forSchema("Pricing", s) as { price: string; sale_price: string };
      expect(satisfiesRule(rule, v, 0)).toBe(true);
      if (v.price.slice(-3) === v.sale_price.slice(-3)) compared++;
    }
    expect(compared).toBeGreaterThan(SEEDS.length / 2);
  });

  it("puts times a rule compares with $now in a window the clock will not reach", () => {
    for (const s of SEEDS) {
      const v = g.forSchema("Membership", s) as { effective_at?: string; expires_at: string };
      expect(Date.parse(v.expires_at)).toBeGreaterThan(Date.UTC(2099, 0, 1));
      if (v.effective_at !== undefined) expect(Date.parse(v.expires_at)).toBeGreaterThan(Date.parse(v.effective_at));
    }
  });

  it("passes drafts through the validate hook and redraws the rejected ones", () => {
    const calls: string[] = [];
    const picky = createMockGenerator({
      root: doc(schemas),
      validate: (name, value) => {
        calls.push(name);
        return name !== "Pricing" || !(value as { price: string }).price.endsWith("JPY");
      },
    });
    for (const s of SEEDS.slice(0, 30)) expect((picky.forSchema("Pricing", s) as { price: string }).price).not.toMatch(/ JPY$/);
    expect(calls).toContain("Pricing");
  });

  it("takes the contract's example for a pattern it cannot sample", () => {
    expect(g.forSchema("Fallback", 3)).toBe("xxx");
  });

  it("falls back to the schema's example when no draft passes the validator, and says so", () => {
    const reported: string[] = [];
    const example = { price: "1.00 EUR", sale_price: "0.50 EUR" };
    const told = createMockGenerator({
      root: doc({ ...schemas, Pricing: { ...(schemas["Pricing"] as object), examples: [example] } }),
      validate: (name, value) => name !== "Pricing" || JSON.stringify(value) === JSON.stringify(example),
      onFallback: (name, reason) => reported.push(`${name}: ${reason}`),
    });
    expect(told.forSchema("Pricing", 3)).toEqual(example);
    expect(reported).toEqual(["Pricing: no draft passes the validator of Pricing"]);
    told.forSchema("Node", 3);
    expect(reported).toHaveLength(1);
  });

  it("names the schema and the reason when nothing valid exists", () => {
    expect(() => g.forSchema("Impossible", 1)).toThrow(MockGenerationError);
    try {
      g.forSchema("Impossible", 1);
    } catch (e) {
      expect((e as MockGenerationError).schema).toBe("Impossible");
      expect((e as MockGenerationError).message).toMatch(/Impossible.*\/x/);
    }
    expect(() => g.forSchema("Missing", 1)).toThrow(/Missing.*does not resolve/);
    // A cycle through required properties cannot end: a clear error, not a stack overflow.
    expect(() => g.forSchema("Endless", 1)).toThrow(/Endless contains itself through required properties/);
  });

  it("ends a required cycle that a nullable branch allows to end", () => {
    for (const s of SEEDS.slice(0, 50)) {
      let node = g.forSchema("NullableParent", s) as { parent: unknown };
      let depth = 0;
      while (node.parent !== null) [node, depth] = [node.parent as { parent: unknown }, depth + 1];
      // maxRecursion (2) levels of full values, then minimal ones, then the hard stop at 5 more.
      expect(depth).toBeLessThanOrEqual(6);
    }
  });

  it("lets a caller's accept check redraw whole values", () => {
    const v = g.generate({ type: "integer", minimum: 0, maximum: 100 }, 5, { accept: (x) => (x as number) % 7 === 0 });
    expect((v as number) % 7).toBe(0);
  });
});

describe("mock generator: the size of one value is bounded", () => {
  // DocuSign's shape in small: many arrays of wide objects, each array of wide objects again.
  const wide = (prefix: string, inner?: MockSchema): MockSchema => ({
    type: "object",
    required: [`${prefix}0`],
    properties: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`${prefix}${i}`, i === 1 && inner !== undefined ? inner : { type: "string" }])),
  });
  const leaf = wide("f");
  const middle = wide("m", { type: "array", items: leaf, minItems: 3, maxItems: 6 });
  const schemas: Record<string, MockSchema> = {
    Envelope: {
      type: "object",
      required: ["id"],
      properties: { id: { type: "string" }, ...Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`tabs${i}`, { type: "array", items: middle, minItems: 3, maxItems: 6 }])) },
    },
  };
  const root = doc(schemas);
  const matches = createSchemaMatcher(root, { now: Date.UTC(2025, 0, 1) });
  const members = (v: unknown): number =>
    Array.isArray(v) ? v.reduce((n: number, x) => n + members(x), 0) : v !== null && typeof v === "object" ? Object.values(v).reduce((n: number, x) => n + 1 + members(x), 0) : 0;

  it("draws a wide schema valid and no larger than the size budget allows, the rest minimal", () => {
    const full = createMockGenerator({ root, sizeBudget: Number.MAX_SAFE_INTEGER }).forSchema("Envelope", 3);
    const bounded = createMockGenerator({ root }).forSchema("Envelope", 3);
    expect(matches({ $ref: "#/components/schemas/Envelope" }, bounded)).toBe(true);
    expect(members(bounded)).toBeLessThan(members(full) / 2);
    expect(members(bounded)).toBeLessThan(12_000);
  });

  it("leaves a value within the budget as it was", () => {
    const small = wide("s");
    expect(createMockGenerator({ root }).generate(small, 9)).toEqual(createMockGenerator({ root, sizeBudget: Number.MAX_SAFE_INTEGER }).generate(small, 9));
  });
});
