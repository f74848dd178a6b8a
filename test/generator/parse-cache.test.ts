/**
 * YAML files parsed once per process and text (load/parse-cache.ts): a second parse of the same
 * text is the same data and positions, handed out as a copy nobody else holds.
 */
import { describe, expect, it } from "vitest";
import { parseSourceText } from "../../generators/dist/load/source.js";
import { SpecError } from "../../generators/dist/load/errors.js";
import { clearParseCache, cachedParse, isJsonExact, parsedKey } from "../../generators/dist/load/parse-cache.js";

const text =
  "openapi: 3.1.0\ninfo:\n  title: t\n  version: '1'\npaths: {}\ncomponents:\n  schemas:\n    A:\n      type: object\n      properties:\n        __proto__: { type: string }\n        n: { type: number, default: .nan }\n";

describe("the in-process parse cache", () => {
  it("gives equal data and positions, never the same object", () => {
    clearParseCache();
    const a = parseSourceText("/x/a.yaml", "a.yaml", text);
    expect(cachedParse(text)).toBeDefined();
    (a.data as { info: { title: string } }).info.title = "changed by a caller";
    const b = parseSourceText("/y/b.yaml", "b.yaml", text);
    expect(b.data).not.toBe(a.data);
    expect((b.data as { info: { title: string } }).info.title).toBe("t");
    const props = (b.data as { components: { schemas: { A: { properties: object } } } }).components.schemas.A.properties;
    expect(Object.keys(props)).toEqual(["__proto__", "n"]);
    expect(Object.getPrototypeOf(props)).toBe(Object.prototype);
    expect(b.locate("#/components/schemas/A/properties/n")).toEqual(a.locate("#/components/schemas/A/properties/n"));
    expect(b.displayPath).toBe("b.yaml");
  });

  it("keeps no parse of a text with errors, which fails every time", () => {
    clearParseCache();
    const bad = "a: 1\na: 2\n";
    expect(() => parseSourceText("/x/bad.yaml", "bad.yaml", bad)).toThrow(SpecError);
    expect(cachedParse(bad)).toBeUndefined();
    expect(() => parseSourceText("/x/bad.yaml", "bad.yaml", bad)).toThrow(SpecError);
  });

  it("is not used for JSON, which JSON.parse reads as fast as a copy", () => {
    clearParseCache();
    parseSourceText("/x/a.json", "a.json", '{"openapi":"3.1.0"}');
    expect(cachedParse('{"openapi":"3.1.0"}')).toBeUndefined();
  });
});

function memoryStore(): { entries: Map<string, string>; get(k: string): string | undefined; set(k: string, v: string): void } {
  const entries = new Map<string, string>();
  return { entries, get: (k) => entries.get(k), set: (k, v) => void entries.set(k, v) };
}

describe("parsed data kept between processes", () => {
  it("keeps a file's data as JSON and reads it back as the parse would give it", () => {
    clearParseCache();
    const plain = "openapi: 3.1.0\ninfo: { title: t, version: '1' }\npaths: {}\n";
    const store = memoryStore();
    const first = parseSourceText("/x/a.yaml", "a.yaml", plain, store);
    expect(JSON.parse(store.get(parsedKey(plain)) as string)).toEqual(first.data);
    clearParseCache(); // a new process: only the store is left
    const second = parseSourceText("/x/a.yaml", "a.yaml", plain, store);
    expect(second.data).toEqual(first.data);
    // Positions come from parsing the text again, when asked for.
    expect(second.locate("#/paths")).toEqual(first.locate("#/paths"));
  });

  it("keeps nothing JSON would change (.nan, .inf, -0)", () => {
    clearParseCache();
    const store = memoryStore();
    parseSourceText("/x/a.yaml", "a.yaml", text, store);
    expect(store.entries.size).toBe(0);
    expect(isJsonExact({ a: [1, "b", null, true, { c: 2.5 }] })).toBe(true);
    for (const v of [Number.NaN, Infinity, -0, undefined, new Date(0), [, 1], () => 1]) expect(isJsonExact({ v })).toBe(false);
  });

  it("parses the text when its entry is damaged, and keeps it again", () => {
    clearParseCache();
    const plain = "openapi: 3.1.0\npaths: {}\n";
    const store = memoryStore();
    store.set(parsedKey(plain), '{"openapi": "3.1');
    const file = parseSourceText("/x/a.yaml", "a.yaml", plain, store);
    expect(file.data).toEqual({ openapi: "3.1.0", paths: {} });
    expect(JSON.parse(store.get(parsedKey(plain)) as string)).toEqual({ openapi: "3.1.0", paths: {} });
  });
});
