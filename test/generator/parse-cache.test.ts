/**
 * YAML files parsed once per process and text (load/parse-cache.ts): a second parse of the same
 * text is the same data and positions, handed out as a copy nobody else holds.
 */
import { describe, expect, it } from "vitest";
import { parseSourceText } from "../../generators/dist/load/source.js";
import { SpecError } from "../../generators/dist/load/errors.js";
import { clearParseCache, cachedParse } from "../../generators/dist/load/parse-cache.js";

const text = "openapi: 3.1.0\ninfo:\n  title: t\n  version: '1'\npaths: {}\ncomponents:\n  schemas:\n    A:\n      type: object\n      properties:\n        __proto__: { type: string }\n        n: { type: number, default: .nan }\n";

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
