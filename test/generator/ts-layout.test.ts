/**
 * Data literals laid out without prettier (emit/ts-layout.ts, `prettyLiteral`) are byte for byte
 * what prettier makes of `literal`'s one-line text: over every conformance plan the repository's
 * specs generate, over hand-picked cases at each of prettier's rules, and over seeded random
 * values. A plan laid out so is written unformatted, so a difference would reach users unseen.
 */
import { describe, expect, it } from "vitest";
import * as prettier from "prettier";
import { readFileSync } from "node:fs";
import path from "node:path";
import { PRETTIER_OPTIONS } from "../../generators/dist/write/format.js";
import { literal, prettyLiteral } from "../../generators/dist/emit/ts.js";
import { layoutTypeDeclaration } from "../../generators/dist/emit/ts-layout.js";
import { ROOT } from "./helpers.js";
import { createRng } from "../../packages/runtime/src/shared/prng.js";

const DECLARATION = "export const plan: ConformancePlan = ";

/** What prettier prints for the declaration of `value`, and what prettyLiteral prints. */
async function both(value: unknown): Promise<{ prettier: string; laidOut: string | undefined }> {
  const source = `${DECLARATION}${literal(value).text};\n`;
  const laid = prettyLiteral(value, { column: DECLARATION.length, tail: 1 });
  return {
    prettier: await prettier.format(source, { ...PRETTIER_OPTIONS, parser: "babel-ts" }),
    laidOut: laid === undefined ? undefined : `${DECLARATION}${laid.text};\n`,
  };
}

const long = (n: number, c = "x"): string => c.repeat(n);

const given: { name: string; value: unknown }[] = [
  { name: "a flat object that fits", value: { a: 1, b: "two", c: [true, null] } },
  { name: "an object one column too wide", value: { k: long(100 - DECLARATION.length - 12) } },
  { name: "an object that just fits", value: { k: long(100 - DECLARATION.length - 13) } },
  { name: "empty object and array values", value: { e: {}, a: [], long_key_here: { inner: [] } } },
  {
    name: "an array of multi-member objects (always broken)",
    value: {
      a: [
        { b: 1, c: 2 },
        { b: 1, c: 2 },
      ],
    },
  },
  { name: "an array of single-member objects (not forced)", value: { a: [{ b: 1 }, { b: 2 }] } },
  {
    name: "an array of multi-member arrays (always broken)",
    value: {
      a: [
        [1, 2],
        [3, 4],
      ],
    },
  },
  { name: "a mixed array (not forced)", value: { a: [{ b: 1, c: 2 }, [1, 2]] } },
  { name: "numbers fill lines", value: { numbers: Array.from({ length: 80 }, (_, i) => i * 37 - 500) } },
  { name: "number forms", value: { n: [1e21, 1.5, -0.5, 1e-7, 0.1, -0, 123456789012] } },
  { name: "a long string under a long key moves below it", value: { a_long_key: long(120), b: 1 } },
  { name: "a long string under a short key stays", value: { abcd: long(120), b: 1 } },
  { name: "a key of exactly five columns", value: { abcde: long(120) } },
  { name: "long null, negative, empty values move below the key", value: { [long(90, "k")]: null, [long(91, "j")]: -1, [long(92, "m")]: {}, [long(93, "n")]: [] } },
  { name: "long numbers and booleans never move", value: { [long(97, "k")]: 12345, [long(96, "j")]: false } },
  { name: "an object under a key too long for `key: {`", value: { [long(96, "k")]: { b: -1 } } },
  { name: "an object under a long key that fits `key: {`", value: { [long(90, "k")]: { b: long(20) } } },
  { name: "quoted keys", value: { "a-b": 1, c: 2, "1": 3, "": 4, "with space": 5, 'x"y': 6, "it's": 7, __proto__x: 8 } },
  { name: "a __proto__ key", value: JSON.parse('{"__proto__": {"a": 1}, "b": 2}') as unknown },
  { name: "quotes inside strings", value: { a: 'say "hi"', b: "it's", c: `"'"`, d: `""'`, e: "a\\b", f: "line\nbreak\u2028", g: "*/ end", h: "\u0001" } },
  { name: "wide characters", value: { cjk: "漢字".repeat(30), emoji: "🎉".repeat(10), mark: "é".repeat(40) } },
  { name: "deep nesting", value: { a: { b: { c: { d: { e: { f: { g: long(70) } } } } } } } },
  { name: "reserved words as keys", value: { default: 1, class: "x", in: { new: [] } } },
];

describe("data literals laid out as prettier does", () => {
  it.each(given)("$name", async ({ value }) => {
    const { prettier, laidOut } = await both(value);
    expect(laidOut).toBe(prettier);
  });

  it("leaves to prettier a quoted key outside ASCII, and a value that is not an object or array", async () => {
    expect(prettyLiteral({ "café-x": 1 }, { column: 0, tail: 0 })).toBeUndefined();
    expect(prettyLiteral("text", { column: 0, tail: 0 })).toBeUndefined();
  });

  it.each(["core", "ads-audiences", "ads-campaigns"])("writes the %s conformance plan as prettier formats it", async (name) => {
    const file = readFileSync(path.join(ROOT, "packages", name, "test/conformance.plan.ts"), "utf8");
    expect(await prettier.format(file, { ...PRETTIER_OPTIONS, parser: "babel-ts" })).toBe(file);
    // And the plan file is laid out, not a one-line literal left unformatted.
    expect(file.split("\n").length).toBeGreaterThan(100);
  });

  it("matches prettier on 1,000 seeded random values", async () => {
    // The runtime's seeded PRNG (mulberry32), so a failure names a value that can be replayed.
    const rng = createRng(20261126);
    const rnd = (): number => rng.next();
    const failures: string[] = [];
    for (let i = 0; i < 1000; i++) {
      const value = rnd() < 0.8 ? randomObject(rnd, 0) : [randomValue(rnd, 1), randomValue(rnd, 1)];
      const { prettier, laidOut } = await both(value);
      if (laidOut !== undefined && laidOut !== prettier) failures.push(JSON.stringify(value));
    }
    expect(failures).toEqual([]);
  });
});

const chain = (path: string, tail = '["get"]["parameters"]["query"]'): string => `paths[${JSON.stringify(path)}]${tail}`;

const declarations: { name: string; text: string }[] = [
  {
    name: "members that fit",
    text: `/**\n * Doc.\n */\nexport interface AArgs extends CallOptions {\n  /**\n   * A parameter.\n   */\n  id: NonNullable<${chain("/a")}>["id"];\n  "x.y"?: NonNullable<${chain("/a")}>["x.y"];\n}\n`,
  },
  {
    name: "a member too long for its line",
    text: `export interface AArgs extends CallOptions {\n  webhook_id: NonNullable<${chain("/2/posts/search/webhooks/{webhook_id}", '["post"]["parameters"]["path"]')}>["webhook_id"];\n}\n`,
  },
  { name: "a member whose type alone overflows", text: `export interface AArgs extends CallOptions {\n  p: NonNullable<${chain(`/${"x".repeat(120)}`)}>["p"];\n}\n` },
  { name: "an alias that fits", text: `export type AResult = ${chain("/a", '["get"]["responses"][200]["content"]["application/json"]')};\n` },
  { name: "an alias too long", text: `export type CreateStreamLinkResult = ${chain("/2/posts/search/webhooks/{webhook_id}", '["post"]["responses"][200]["content"]["application/json"]')};\n` },
  { name: "a union that fits after the break", text: `export type AVeryLongNameForAResultTypeThatGoesOnAndOnAndOnAndOnResult = ${chain("/a", '["x"]')} | undefined;\n` },
  {
    name: "a union that does not",
    text: `export type XResult = ${chain("/a", '["get"]["responses"][200]["content"]["application/json"]')} | ${chain("/a", '["get"]["responses"][201]["content"]["application/json"]')};\n`,
  },
  {
    name: "a relaxed body",
    text: `export interface AArgs extends CallOptions {\n  body?: Relaxed<NonNullable<${chain("/orgs/{org}", '["patch"]["requestBody"]')}>["content"]["application/json"], "default_repository_permission" | "members_can_create_pages">;\n}\n`,
  },
  {
    name: "a relaxed body whose first argument breaks",
    text: `export interface AArgs extends CallOptions {\n  body: Relaxed<NonNullable<${chain("/enterprises/{enterprise}/code-security/configurations/{configuration_id}", '["patch"]["requestBody"]')}>["content"]["application/json"], "a">;\n}\n`,
  },
  {
    name: "a generic alias too long",
    text: `export type AInput = HandlerInput<NonNullable<${chain("/2/posts/search/webhooks/{webhook_id}", '["post"]["parameters"]["path"]')}>, Record<string, never>, undefined>;\n`,
  },
  {
    name: "generic arguments that break again",
    text: `export type AgentTasksCreateTaskInRepoInput = HandlerInput<NonNullable<${chain("/agents/repos/{owner}/{repo}/tasks", '["post"]["parameters"]["path"]')}>, Record<string, never>, Relaxed<NonNullable<${chain("/agents/repos/{owner}/{repo}/tasks", '["post"]["requestBody"]')}>["content"]["application/json"], "x">>;\n`,
  },
  { name: "a union written a member a line that fits on one", text: "export type AReply =\n  | EmptyReplyOf<204>\n  | HandlerReply;\n" },
  {
    name: "a union whose members break their arguments",
    text: `/**\n * Replies.\n */\nexport type AReply =\n  | ReplyOf<200, ${chain("/12/accounts/{account_id}/account_media", '["get"]["responses"]["2XX"]["content"]["application/json"]')}, "application/json">\n  | ReplyOf<number, ${chain("/12/accounts/{account_id}/account_media/{account_media_id}/and/more/segments", '["get"]["responses"]["default"]["content"]["application/json"]')}, "application/json" | "application/problem+json">\n  | EmptyReplyOf<204>;\n`,
  },
  {
    name: "a lone union member too long",
    text: `export type AppsGetWebhookConfigForAppReply =\n  | ReplyOf<200, ${chain("/app/hook/config", '["get"]["responses"][200]["content"]["application/json"]')}, "application/json">;\n`,
  },
  { name: "an interface head longer than the width", text: `export interface ${"A".repeat(90)}Args extends CallOptions {\n  a: B;\n}\n` },
  { name: "empty blocks", text: "export interface AClient {\n  iterate: {\n\n  };\n  batch: {\n  };\n}\n" },
  {
    name: "function-type members too long",
    text: `export interface AClient {\n  invalidateAccessTokenJson: (args?: InvalidateAccessTokenJsonArgs) => Promise<InvalidateAccessTokenJsonResult>;\n  stream: {\n    streamActivity: (args?: StreamActivityArgs, options?: StreamCallOptions) => AsyncGenerator<StreamActivityResult, void, undefined>;\n    listVideoConversationCards: (args: Omit<ListVideoConversationCardsArgs, "cursor">) => AsyncGenerator<NonNullable<ListVideoConversationCardsResult["data"]>[number], void, undefined>;\n  };\n}\n`,
  },
  { name: "doc comments ending in a Markdown line break", text: "/**\n * First line  \n * second.\n */\nexport type A = B;\n" },
  {
    name: "members whose lone type argument is an indexed-access chain",
    text: `export interface SchemaValidators {\n  Short: SchemaValidator<components["schemas"]["short"]>;\n  SecurityAdvisoryEcosystems: SchemaValidator<components["schemas"]["security-advisory-ecosystems"]>;\n  NotAuthorizedForFieldProblem?: SchemaValidator<components["schemas"]["NotAuthorizedForFieldProblem"]>;\n}\n`,
  },
];

describe("type declarations laid out as prettier does", () => {
  it.each(declarations)("$name", async ({ text }) => {
    const laid = layoutTypeDeclaration(text);
    expect(laid).toBe(await prettier.format(text, { ...PRETTIER_OPTIONS, parser: "babel-ts" }));
  });

  it.each([
    { name: "a blank line between members (prettier keeps one, jsdoc never writes one)", text: "export interface AArgs {\n  a: B;\n\n  c: D;\n}\n" },
    { name: "an escaped double quote (prettier changes the quotes)", text: 'export interface AArgs {\n  "a\\"b": X;\n}\n' },
    { name: "a quoted key outside ASCII (prettier may unquote it)", text: 'export interface AArgs {\n  "café": X;\n}\n' },
    { name: "a comment line ending in one space (prettier drops it)", text: "/**\n * Doc. \n */\nexport type A = B;\n" },
    { name: "a long line of another shape", text: `export type A = Relaxed<${chain(`/${"x".repeat(90)}`)}, "a"> | undefined;\n` },
    { name: "a lone hugged argument (prettier breaks after `=`)", text: `export type ${"N".repeat(80)}Reply =\n  | EmptyReplyOf<201>;\n` },
    { name: "a member's lone argument that is no indexed-access chain (prettier may hug it)", text: `export interface A {\n  ${"k".repeat(90)}: EmptyReplyOf<201>;\n}\n` },
  ])("leaves to prettier $name", ({ text }) => {
    expect(layoutTypeDeclaration(text)).toBeUndefined();
  });

  it.each(
    ["core", "ads-audiences", "ads-campaigns"].flatMap((name) =>
      ["src/client.ts", "compiled/client.types.d.ts", "src/server.ts", "compiled/server.types.d.ts", "src/validators.ts", "src/mocks.ts"].map((f) => `${name}/${f}`),
    ),
  )("writes %s as prettier formats it", async (file) => {
    const text = readFileSync(path.join(ROOT, "packages", file), "utf8");
    expect(await prettier.format(text, { ...PRETTIER_OPTIONS, parser: "babel-ts" })).toBe(text);
  });
});

const ALPHABET = ["a", "b", "z", "_", "$", "-", " ", '"', "'", "\\", "\n", "1", "é", "漢", "/", "*"];

function randomString(rnd: () => number, max: number): string {
  const n = Math.floor(rnd() * rnd() * max);
  let s = "";
  for (let i = 0; i < n; i++) s += rnd() < 0.8 ? "abcdefghij"[Math.floor(rnd() * 10)] : ALPHABET[Math.floor(rnd() * ALPHABET.length)];
  return s;
}

function randomKey(rnd: () => number): string {
  const r = rnd();
  if (r < 0.7) return "k" + randomString(rnd, 12).replace(/[^a-z]/g, "");
  if (r < 0.8) return "long_key_" + "x".repeat(Math.floor(rnd() * 90));
  return randomString(rnd, 10).replace(/[^\x20-\x7e]/g, "q");
}

function randomValue(rnd: () => number, depth: number): unknown {
  const r = rnd();
  if (depth > 4 || r < 0.35) {
    const l = rnd();
    if (l < 0.4) return randomString(rnd, 140);
    if (l < 0.6) return Math.round((rnd() - 0.3) * 10 ** Math.floor(rnd() * 8));
    if (l < 0.7) return rnd() < 0.5;
    if (l < 0.8) return null;
    return (rnd() - 0.5) * 1000;
  }
  if (r < 0.55) {
    const n = Math.floor(rnd() * 6);
    const numbers = rnd() < 0.15;
    return Array.from({ length: numbers ? n * 8 : n }, () => (numbers ? Math.floor(rnd() * 100000) - 50 : randomValue(rnd, depth + 1)));
  }
  return randomObject(rnd, depth);
}

function randomObject(rnd: () => number, depth: number): Record<string, unknown> {
  const n = Math.floor(rnd() * 6);
  const o: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) o[randomKey(rnd)] = randomValue(rnd, depth + 1);
  return o;
}
