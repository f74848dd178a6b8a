import { describe, expect, it } from "vitest";
import ts_ from "typescript";
import { commentText, ident, jsdoc, literal, memberDoc, objectKey, stringLiteral, stringUnion, ts, typeKey } from "../../generators/src/emit/ts.js";

const HOSTILE = [
  "quote \" and ' quotes",
  "back`tick ${injected}",
  "ends */ a comment",
  "new\nline and \r\n crlf",
  "line\u2028separator\u2029paragraph",
  "backslash \\ and \\u0041",
  "</script><!-- -->",
  "__proto__",
];

describe("stringLiteral", () => {
  it.each(HOSTILE)("evaluates back to exactly the input: %j", (given) => {
    const code = stringLiteral(given).text;
    expect(code).not.toMatch(/[\n\r\u2028\u2029]/);
    expect(code).not.toContain("*/");
    expect(new Function(`return ${code};`)()).toBe(given);
  });
});

describe("stringUnion", () => {
  it("is a union type of exactly the given strings, hostile ones included", () => {
    const source = `type U = ${stringUnion(HOSTILE).text};`;
    const file = ts_.createSourceFile("u.ts", source, ts_.ScriptTarget.ES2022);
    const alias = file.statements[0] as import("typescript").TypeAliasDeclaration;
    expect(file.statements).toHaveLength(1);
    const members = ts_.isUnionTypeNode(alias.type) ? alias.type.types : [alias.type];
    expect(members.map((m) => ((m as import("typescript").LiteralTypeNode).literal as import("typescript").StringLiteral).text)).toEqual(HOSTILE);
  });

  it("is never for no strings", () => {
    expect(stringUnion([]).text).toBe("never");
  });
});

describe("literal", () => {
  it.each([
    { given: { a: 1, "b-c": [true, null, "x"] }, want: '{ a: 1, "b-c": [true, null, "x"] }' },
    { given: [], want: "[]" },
    { given: {}, want: "{}" },
    { given: -0, want: "0" },
    { given: { u: undefined, k: 1 }, want: "{ k: 1 }" },
  ])("writes $want", ({ given, want }) => {
    expect(literal(given).text).toBe(want);
  });

  it("defines __proto__ as an own property instead of setting the prototype", () => {
    const value = new Function(`return ${literal({ __proto__: { polluted: true } } as unknown as object).text};`)();
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    // JSON.parse gives an own __proto__ key, like a spec value would.
    const fromJson = JSON.parse('{"__proto__": {"polluted": true}}') as object;
    const code = literal(fromJson).text;
    expect(code).toContain('["__proto__"]');
    const evaluated = new Function(`return ${code};`)() as Record<string, unknown>;
    expect(Object.getPrototypeOf(evaluated)).toBe(Object.prototype);
    expect(Object.keys(evaluated)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("refuses values that have no literal", () => {
    expect(() => literal(Number.NaN)).toThrow();
    expect(() => literal(() => 1)).toThrow();
  });
});

describe("ts template", () => {
  it("quotes interpolated strings and passes vetted code through", () => {
    const name = ident("value");
    expect(ts`const ${name} = ${'a"b'};`.text).toBe('const value = "a\\"b";');
  });

  it.each(HOSTILE)("never lets a string escape its literal: %j", (given) => {
    const code = ts`globalThis.__cgTest = ${given};`.text;
    new Function(code)();
    expect((globalThis as Record<string, unknown>)["__cgTest"]).toBe(given);
  });
});

describe("ident", () => {
  it.each(["delete", "class", "constructor2", "a b", "1st", "__proto__x", "ünïcode"])("accepts only safe identifiers: %s", (name) => {
    const safe = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) && !["delete", "class"].includes(name);
    if (safe) expect(ident(name).text).toBe(name);
    else expect(() => ident(name)).toThrow(/not a safe identifier/);
  });
});

describe("object and type keys", () => {
  it.each([
    { given: "plain", object: "plain", type: "plain" },
    { given: "with-dash", object: '"with-dash"', type: '"with-dash"' },
    { given: "__proto__", object: '["__proto__"]', type: "__proto__" },
    { given: "*/", object: '"*\\/"', type: '"*\\/"' },
  ])("$given", ({ given, object, type }) => {
    expect(objectKey(given).text).toBe(object);
    expect(typeKey(given).text).toBe(type);
  });
});

describe("jsdoc", () => {
  it("escapes comment terminators and normalizes every line break", () => {
    const doc = jsdoc("ends */ here\u2028next\r\nlast", { deprecated: "use */ other" }).text;
    expect(doc.match(/\*\//g)).toHaveLength(1); // only the closing one
    expect(doc).not.toMatch(/[\r\u2028\u2029]/);
    expect(doc).toBe("/**\n * ends *\\/ here\n * next\n * last\n * @deprecated use *\\/ other\n */\n");
  });

  it("is empty when there is nothing to say", () => {
    expect(jsdoc(undefined).text).toBe("");
    expect(jsdoc("  ", { deprecated: false }).text).toBe("");
  });

  it("strips control characters that are not line breaks", () => {
    expect(commentText("a\u0000b\u001bc")).toBe("abc");
  });

  it("ends its lines as prettier does: white space dropped, a Markdown line break's two spaces kept", async () => {
    const { format } = await import("prettier");
    const doc = jsdoc("one \ntwo  \nthree   \nfour\t\nfive\t  \n   \nsix\u00a0").text;
    expect(doc).toBe("/**\n * one\n * two  \n * three  \n * four\n * five  \n *\n * six\n */\n");
    const source = `${doc}export type A = string;\n`;
    expect(await format(source, { parser: "babel-ts" })).toBe(source);
  });
});

describe("memberDoc", () => {
  // What prettier makes of a member's comment, so a file too large to format reads the same way.
  const cases: { given: [string | undefined, Record<string, string | boolean>]; want: string }[] = [
    { given: ["One line.", {}], want: "  /**\n   * One line.\n   */\n  " },
    { given: ["First.\n\nAfter a blank line, with */ inside.", { deprecated: true }], want: "  /**\n   * First.\n   *\n   * After a blank line, with *\\/ inside.\n   * @deprecated\n   */\n  " },
    { given: [undefined, {}], want: "  " },
  ];
  it.each(cases)("indents $given.0 by one level", ({ given, want }) => {
    expect(memberDoc(...given).text).toBe(want);
  });

  it("lays out a member as prettier does", async () => {
    const prettier = await import("prettier");
    const code = ts`export interface A {
${memberDoc("The API address.\n\nMore.", { default: "https://x.test" })}readonly baseUrl?: string;
${memberDoc(undefined)}b: number;
}
`.text;
    expect(await prettier.format(code, { parser: "typescript" })).toBe(code);
  });
});
