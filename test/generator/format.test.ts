/**
 * Formatting generated files: TypeScript modules are formatted piece by piece and cached by text,
 * and the result is what formatting the whole module gives, including where a blank line could be
 * mistaken for the end of a statement.
 */
import { describe, expect, it } from "vitest";
import * as prettier from "prettier";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { FORMAT_MAX_BYTES, PRETTIER_OPTIONS, formatFiles, formatItems, topLevelPieces } from "../../generators/dist/write/format.js";
import { ROOT, countingCache } from "./helpers.js";

const whole = (text: string): Promise<string> => prettier.format(text, { ...PRETTIER_OPTIONS, parser: "typescript" });

const given: { name: string; text: string }[] = [
  { name: "declarations separated by blank lines", text: 'import { a } from "./a.js";\n\n/** Doc. */\nexport const x = {a:1,\n  b: [1,2]};\n\nexport function f(  y: number ) { return y }\n' },
  { name: "a blank line before a closing brace", text: "export interface A {\n  a: string;\n\n}\n\nexport type B = A;\n" },
  { name: "an expression continued after a blank line", text: "export const a = b\n\n(c);\nconst d = 1\n\n[d].map(String);\n" },
  { name: "a template literal holding a blank line", text: "export const t = `one\n\nconst inside = 1;`;\n\nexport const u = 2;\n" },
  { name: "a comment holding a blank line", text: "/* a\n\nexport const no = 1; */\nexport const yes = 2;\n" },
  // TypeScript's own syntax, which prettier's babel-ts parser reads for the typescript parser's output.
  {
    name: "TypeScript-only syntax",
    text: 'export const c = {a:1} as const satisfies Record<string,number>;\n\nexport enum E {A="a",B="b"}\n\ndeclare module "m" { export const x: number }\n\nexport abstract class K<T extends object = {}> extends Base implements I { private readonly p?: T; abstract m(): void; constructor(public q: string) { super() } }\n\nexport const g = <T,>(x: T): x is T => !!x;\n\nexport type M<T> = { readonly [K in keyof T]-?: T[K] extends infer U ? U : never };\n\nexport function f(this: Window, ...rest: unknown[]): asserts rest is string[] {}\n\nlet n = obj!.a!.b as unknown as number; type U = typeof import("./x.js");\n',
  },
];

describe("formatting generated TypeScript", () => {
  it.each(given)("gives what formatting the whole module gives: $name", async ({ text }) => {
    const [file] = await formatFiles([{ path: "src/x.ts", contents: text }]);
    expect(file?.contents).toBe(await whole(text));
  });

  it("writes the pieces an emitter laid out as they are, and formats the others", async () => {
    // Prettier would space this piece out; marked as laid out, it is the emitter's word.
    const laid = "export const x = {a:1};";
    const text = `${laid}\n\nexport const y = {b:2};\n`;
    const [file] = await formatFiles([{ path: "src/x.ts", contents: text, laidOut: new Set([laid]) }]);
    expect(file?.contents).toBe("export const x = {a:1};\n\nexport const y = { b: 2 };\n");
  });

  it("formats again only the pieces whose text changed", async () => {
    const cache = countingCache();
    const pieces = Array.from({ length: 20 }, (_, i) => `export const v${i} = { n: ${i} };`);
    await formatFiles([{ path: "src/x.ts", contents: pieces.join("\n\n") }], cache);
    const cold = cache.misses;
    expect(cold).toBeGreaterThanOrEqual(20);
    pieces[7] = "export const v7 = { n: 700 };";
    const [file] = await formatFiles([{ path: "src/x.ts", contents: pieces.join("\n\n") }], cache);
    expect(cache.misses - cold).toBe(1);
    expect(file?.contents).toBe(await whole(pieces.join("\n\n")));
  });

  it("formats on worker threads exactly what it formats on the calling thread", async () => {
    const files = [
      ...given.map(({ text }, i) => ({ path: `src/g${i}.ts`, contents: text })),
      // Cut after `a;`: neither piece parses alone, so the module is formatted whole.
      { path: "src/cut.ts", contents: "export const t = `a;\n\nexport const inside = 1;`;\n" },
      { path: "package.json", contents: '{"name":"x","files":["a","b"],"nested":{"deep":{"deeper":[1,2,3]}}}' },
      { path: "README.md", contents: "# Title\n\n* one\n* two\n\n|a|b|\n|-|-|\n|1|2|\n" },
    ];
    const here = await formatFiles(files, countingCache(), { workers: 0 });
    const cache = countingCache();
    expect(await formatFiles(files, cache, { workers: 2, inlineBelowBytes: 0 })).toEqual(here);
    expect(here.find((f) => f.path === "src/cut.ts")?.contents).toBe(await whole("export const t = `a;\n\nexport const inside = 1;`;\n"));
    // What the workers formatted is cached like what this thread formats; only the two pieces that
    // do not parse are tried again (a failure is not cached), and the whole module comes from the cache.
    const misses = cache.misses;
    expect(await formatFiles(files, cache, { workers: 2, inlineBelowBytes: 0 })).toEqual(here);
    expect(cache.misses - misses).toBe(2);
  });

  it("reports prettier's own error for a module that does not parse, on worker threads too", async () => {
    const broken = [{ path: "src/broken.ts", contents: "export const = ;\n\nexport const ok = 1;\n" }];
    await expect(formatFiles(broken, countingCache(), { workers: 0 })).rejects.toThrow(/expected|Expression/i);
    await expect(formatFiles(broken, countingCache(), { workers: 2, inlineBelowBytes: 0 })).rejects.toThrow(/expected|Expression/i);
  });

  it("leaves files marked unformatted and files over the size limit as written", async () => {
    const ugly = "export const   a=1";
    const big = `${ugly}\n//${"x".repeat(FORMAT_MAX_BYTES)}`;
    const out = await formatFiles([
      { path: "src/a.ts", contents: ugly, format: false },
      { path: "src/b.ts", contents: big },
    ]);
    expect(out.map((f) => f.contents)).toEqual([ugly, big]);
  });

  describe("several pieces in one prettier call", () => {
    const alone = async (text: string): Promise<string | null> => {
      try {
        return await prettier.format(text, { ...PRETTIER_OPTIONS, parser: "babel-ts" });
      } catch {
        return null;
      }
    };
    const items = (texts: readonly string[]) => texts.map((text) => ({ text, parser: "babel-ts" }));

    it("gives each piece of every generated module what formatting it alone gives", async () => {
      const modules = execFileSync(
        "find",
        ["packages/core", "packages/ads-audiences", "packages/ads-campaigns", "-path", "*/node_modules", "-prune", "-o", "-path", "*/dist", "-prune", "-o", "-name", "*.ts", "-type", "f", "-print"],
        { cwd: ROOT, encoding: "utf8" },
      )
        .trim()
        .split("\n")
        .map((f) => readFileSync(path.join(ROOT, f), "utf8"))
        .filter((text) => text.length <= FORMAT_MAX_BYTES);
      const pieces = modules.flatMap((text) => topLevelPieces(text));
      expect(pieces.length).toBeGreaterThan(500);
      const joined = await formatItems(items(pieces));
      const one = await Promise.all(pieces.map(alone));
      expect(joined).toEqual(one);
    }, 240_000);

    // A boundary that is not between two top-level statements sends the group back to one call per piece.
    const hostile: { name: string; texts: string[] }[] = [
      { name: "a template literal cut in two", texts: ["export const t = `a;", "export const inside = 1;`;", "export const after = 2;"] },
      { name: "a comment cut in two", texts: ["/* a;", "export const no = 1; */", "export const yes = 2;"] },
      { name: "a function body cut in two", texts: ["function f() {\n  a();", "const b = 1;\n}", "export const c = 3;"] },
      { name: "an interface cut in two", texts: ["export interface A {\n  a: string;", "b: number;\n}", "export type B = A;"] },
      { name: "a piece that names the boundary", texts: ["export const __contractgen_piece_boundary__ = 1;", "export const x = 2;"] },
      { name: "pieces that are only comments", texts: ["// one", "/** two */", "export const x = {a:1};"] },
    ];
    it.each(hostile)("answers for each piece what formatting it alone answers: $name", async ({ texts }) => {
      expect(await formatItems(items(texts))).toEqual(await Promise.all(texts.map(alone)));
    });
  });
});
