/**
 * The only place where strings from a spec become TypeScript source. Everything an emitter
 * interpolates goes through `ts\`…\``: strings become quoted literals, `Code` passes through raw, and
 * `Code` can only be made here from vetted pieces (identifiers checked against the grammar and the
 * reserved words, literals serialized by `literal`, comments escaped by `jsdoc`).
 */

import { layoutLiteral, layoutTypeDeclaration } from "./ts-layout.js";

export class Code {
  /** @internal use `ts`, `raw`, `ident`, `literal` or `jsdoc` to make one. */
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export type Interpolation = Code | string | number | boolean | null | undefined | readonly Interpolation[];

/** Tagged template for code: `${"a\"b"}` is a quoted literal, `${ident("x")}` is raw. */
export function ts(strings: TemplateStringsArray, ...values: Interpolation[]): Code {
  let out = strings[0] ?? "";
  for (let i = 0; i < values.length; i++) out += interpolate(values[i]) + (strings[i + 1] ?? "");
  return new Code(out);
}

function interpolate(value: Interpolation): string {
  if (value instanceof Code) return value.text;
  if (Array.isArray(value)) return value.map(interpolate).join("");
  return literal(value).text;
}

/** Joins pieces of code with a separator (itself code the emitter wrote, never spec text). */
export function join(parts: readonly Code[], separator = "\n"): Code {
  return new Code(parts.map((p) => p.text).join(separator));
}

/** Raw code written by the generator itself. Never pass spec text here. */
export function raw(text: string): Code {
  return new Code(text);
}

// Line terminators JSON.stringify leaves as they are but that end a `//` comment or (before ES2019)
// a string literal; escaping them keeps every literal on one line.
const LINE_SEPARATORS = /[\u2028\u2029]/g;
const escapeSeparator = (c: string): string => (c === "\u2028" ? "\\u2028" : "\\u2029");

const NEEDS_ESCAPE = /[\u2028\u2029]|\*\//;

/** A JavaScript string literal that evaluates to exactly `value`. */
export function stringLiteral(value: string): Code {
  const json = JSON.stringify(value);
  // Most strings need neither escape: one test instead of two replacements, 30% less time per
  // literal on a hot path of every emitter.
  if (!NEEDS_ESCAPE.test(json)) return new Code(json);
  // `*\/` is the same string as `*/`, and keeps a literal harmless even if it lands in a comment.
  return new Code(json.replace(LINE_SEPARATORS, escapeSeparator).replace(/\*\//g, "*\\/"));
}

/**
 * A TypeScript union of string literal types, one per value (`never` when there are none): the key
 * type of a table annotated with it instead of `satisfies` over an inferred literal type, so
 * TypeScript checks each entry against the declared type once, without a literal type per entry.
 */
export function stringUnion(values: readonly string[]): Code {
  return values.length === 0 ? new Code("never") : join(values.map(stringLiteral), " | ");
}

/**
 * A JavaScript expression for a JSON-compatible value, keys in their given order. `__proto__` keys
 * are written as computed keys so the literal defines a property instead of setting the prototype.
 */
export function literal(value: unknown): Code {
  return new Code(literalText(value));
}

function literalText(value: unknown): string {
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return stringLiteral(value).text;
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`cannot write ${value} as a literal`);
      return Object.is(value, -0) ? "0" : String(value);
    case "boolean":
      return value ? "true" : "false";
    case "object": {
      if (Array.isArray(value)) return `[${value.map(literalText).join(", ")}]`;
      const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
      if (entries.length === 0) return "{}";
      return `{ ${entries.map(([k, v]) => `${objectKey(k).text}: ${literalText(v)}`).join(", ")} }`;
    }
    default:
      throw new TypeError(`cannot write a ${typeof value} as a literal`);
  }
}

/**
 * `literal(value)` laid out as prettier lays it out (ts-layout.ts), for a data literal that starts
 * at `column` of a line indented by `indent` and is followed by `tail` columns before the line
 * ends: a file of such literals needs no formatting. Undefined for a value whose layout
 * ts-layout.ts does not model; format that file instead.
 */
export function prettyLiteral(value: unknown, at: { readonly column: number; readonly indent?: number; readonly tail: number }): Code | undefined {
  const text = layoutLiteral(
    value,
    (s) => stringLiteral(s).text,
    (k) => objectKey(k).text,
    { indent: 0, ...at },
  );
  return text === undefined ? undefined : new Code(text);
}

/**
 * A type declaration the emitter wrote one member per line, laid out as prettier would
 * (ts-layout.ts `layoutTypeDeclaration`) and recorded in `laidOut` (the file's
 * `GeneratedFile.laidOut`: the piece without its final newline, as format.ts looks it up); the
 * declaration as written when it needs prettier.
 */
export function laidOutDeclaration(code: Code, laidOut: Set<string>): Code {
  const text = layoutTypeDeclaration(code.text);
  if (text === undefined) return code;
  laidOut.add(text.slice(0, -1));
  return new Code(text);
}

/**
 * `export interface <name> { … }`, one of `members` a line, under its doc comment, laid out by
 * `laidOutDeclaration` (a table's type with one member per schema: most of its module for a large
 * contract).
 */
export function laidOutInterface(doc: string, name: string, members: readonly Code[], laidOut: Set<string>): Code {
  return laidOutDeclaration(
    ts`${jsdoc(doc)}export interface ${ident(name)} {
${join(members)}
}
`,
    laidOut,
  );
}

const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false " +
    "finally for function if import in instanceof new null return super switch this throw true try " +
    "typeof var void while with implements interface let package private protected public static " +
    "yield await arguments eval any boolean never number object string symbol undefined unknown bigint"
  ).split(" "),
);

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** True when `name` can stand as a binding identifier (variable, function, class, type). */
export function isSafeIdentifier(name: string): boolean {
  return IDENTIFIER.test(name) && !RESERVED.has(name);
}

/** A vetted identifier. Throws for anything else: names come from model/naming.ts, which makes them safe. */
export function ident(name: string): Code {
  if (!isSafeIdentifier(name)) throw new TypeError(`not a safe identifier: ${JSON.stringify(name)}`);
  return new Code(name);
}

/** A key in an object literal: bare when it is an identifier name, quoted otherwise, computed for `__proto__`. */
export function objectKey(name: string): Code {
  if (name === "__proto__") return new Code(`[${stringLiteral(name).text}]`);
  return IDENTIFIER.test(name) ? new Code(name) : stringLiteral(name);
}

/** A property name in a type literal or interface (no prototype semantics there). */
export function typeKey(name: string): Code {
  return IDENTIFIER.test(name) ? new Code(name) : stringLiteral(name);
}

/** `obj.name` or `obj["name"]`. */
export function member(object: Code, name: string): Code {
  return IDENTIFIER.test(name) && name !== "__proto__" ? new Code(`${object.text}.${name}`) : new Code(`${object.text}[${stringLiteral(name).text}]`);
}

/** Text made safe inside a block comment: no `*​/`, no line terminators except `\n`. */
export function commentText(text: string): string {
  return text
    .replace(/\r\n?|[\u2028\u2029\u0085]/g, "\n")
    .replace(/\*\//g, "*\\/")
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "");
}

export interface DocTags {
  readonly deprecated?: string | boolean | undefined;
  readonly see?: string | undefined;
  readonly [tag: string]: string | boolean | undefined;
}

/** A JSDoc block from free text and tags; empty code when there is nothing to say. */
export function jsdoc(description: string | undefined, tags: DocTags = {}): Code {
  const lines: string[] = [];
  if (description !== undefined && description.trim() !== "") lines.push(...commentText(description.trim()).split("\n"));
  for (const [tag, value] of Object.entries(tags)) {
    if (value === undefined || value === false) continue;
    if (!/^[a-zA-Z]+$/.test(tag)) throw new TypeError(`bad JSDoc tag: ${tag}`);
    const text = value === true ? "" : ` ${commentText(value).replace(/\n/g, " ")}`;
    lines.push(`@${tag}${text}`);
  }
  if (lines.length === 0) return new Code("");
  return new Code(`/**\n${lines.map(docLine).join("\n")}\n */\n`);
}

/**
 * One line of a doc comment with its end as prettier prints it: white space dropped, except two
 * spaces ending a line with text (a Markdown line break), which stay two. Emitted so, a comment is
 * the same formatted or not (files too large to format, pieces laid out by ts-layout.ts).
 */
function docLine(line: string): string {
  const text = line.trimEnd();
  if (text === "") return " *";
  return / {2}$/.test(line) ? ` * ${text}  ` : ` * ${text}`;
}

/**
 * The doc comment and indent of a member `depth` levels deep (an interface's or class's is one):
 * two spaces a level before each line and before the member that follows. Prettier lays members
 * out so; a file too large for prettier (format.ts FORMAT_MAX_BYTES) keeps this layout as written.
 */
export function memberDoc(description: string | undefined, tags: DocTags = {}, depth = 1): Code {
  const indent = "  ".repeat(depth);
  return new Code(`${jsdoc(description, tags).text.replace(/^(?=.)/gm, indent)}${indent}`);
}
