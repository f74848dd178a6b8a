/**
 * emit/markdown.ts: spec text escaped into READMEs, and tables aligned as prettier aligns them
 * (generated Markdown is written as emitted, not formatted).
 */
import { describe, expect, it } from "vitest";
import * as prettier from "prettier";
import { displayWidth, mdAligned, mdCode, mdTable, mdTidy } from "../../generators/src/emit/markdown.js";
import { PRETTIER_OPTIONS } from "../../generators/dist/write/format.js";

const formatted = (md: string): Promise<string> => prettier.format(md, { ...PRETTIER_OPTIONS, parser: "markdown" });

describe("mdTable and mdAligned", () => {
  const tables: { name: string; headers: string[]; rows: string[][] }[] = [
    {
      name: "plain cells of uneven width",
      headers: ["method", "path"],
      rows: [
        ["GET", "/2/posts"],
        ["DELETE", "/2/posts/{id}"],
      ],
    },
    {
      name: "empty cells and a one-letter header",
      headers: ["a", "deprecated", "shape"],
      rows: [
        ["x", "", "not shown by the document"],
        ["", "yes", ""],
      ],
    },
    {
      name: "spec text with pipes, backticks, emphasis and HTML",
      headers: ["name", "summary"],
      rows: [
        ["a|b", "uses `code` and *stars* <b>bold</b>"],
        ["_x_", "line\nbreak"],
      ],
    },
    {
      name: "non-ASCII: an em dash, accents, CJK and an emoji",
      headers: ["title", "n"],
      rows: [
        ["Advertising — catalogs", "1"],
        ["café crème", "2"],
        ["商品カタログ", "3"],
        ["rocket 🚀", "4"],
      ],
    },
  ];
  it.each(tables)("lays out $name as prettier does", async ({ headers, rows }) => {
    const md = `${mdTable(headers, rows).text}\n`;
    expect(md).toBe(await formatted(md));
  });

  it("takes cells that are Markdown already (code spans) as they are", async () => {
    const md = `${
      mdAligned(
        ["operationId", "path"],
        [
          [mdCode("getPost"), mdCode("/posts/{id}")],
          [mdCode("a`b"), mdCode("x|y")],
        ],
      ).text
    }\n`;
    expect(md).toContain("| ``a`b``     |");
    expect(md).toBe(await formatted(md));
  });
});

describe("displayWidth", () => {
  const cases: { given: string; want: number }[] = [
    { given: "", want: 0 },
    { given: "abc", want: 3 },
    { given: "—", want: 1 },
    { given: "e\u0301", want: 1 },
    { given: "商品", want: 4 },
    { given: "🚀", want: 2 },
  ];
  it.each(cases)("of $given is $want", ({ given, want }) => {
    expect(displayWidth(given)).toBe(want);
  });
});

describe("mdTidy", () => {
  // A filled README template whose slots were empty; prettier used to tidy these.
  // prettier: whether prettier leaves `want` as it is (it rewrites tilde fences as backticks).
  const cases: { name: string; given: string; want: string; prettier?: false }[] = [
    { name: "an empty description slot", given: "# t\n\n\n\n## Entry points\n", want: "# t\n\n## Entry points\n" },
    { name: "empty last slots", given: "| a   |\n| --- |\n\n\n", want: "| a   |\n| --- |\n" },
    { name: "blank lines inside fenced code", given: "```sh\na\n\n\nb\n```\n\n\ntext", want: "```sh\na\n\n\nb\n```\n\ntext\n" },
    { name: "a tilde fence holding backticks", given: "~~~\n```\n\n\n~~~\n\n\nx\n", want: "~~~\n```\n\n\n~~~\n\nx\n", prettier: false },
    { name: "whitespace-only lines", given: "a\n  \n\t\nb\n", want: "a\n\nb\n" },
  ];
  it.each(cases)("tidies $name", async ({ given, want, prettier }) => {
    expect(mdTidy(given)).toBe(want);
    if (prettier !== false) expect(await formatted(want)).toBe(want);
  });
});
