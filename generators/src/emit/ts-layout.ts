/**
 * JSON-compatible values laid out as prettier lays out the object literal `literal` writes (with
 * the options pinned in write/format.ts: width 100, two-space indent, trailing commas), without
 * running prettier: a data literal (a conformance plan) is most of prettier's time on the small
 * specs (0.33 s of 1.4 s cold), for a layout a few rules decide. Only data goes through here
 * (objects, arrays, strings, finite numbers, booleans, null), and test/generator/ts-layout.test.ts
 * holds the result to prettier's over every generated plan and fuzzed values.
 *
 * The rules, from prettier's printer (language-js print/object, array, assignment and
 * property):
 * - a group (object, array) prints flat when it and the text after it up to the next line break
 *   (`,` or `;`) fit in the width; otherwise it breaks one member per line, and every group
 *   inside decides again on its own line;
 * - an array of two or more objects (or arrays), each of more than one member, always breaks,
 *   and so does everything around it;
 * - an array of numbers breaks by filling lines, not one per line;
 * - a property `key: value` that does not fit: a string value moves to the next line unless the
 *   key is shorter than 5 columns; a number or boolean never moves; null, a negative number and
 *   `{}`/`[]` move; an object or array stays after the key when `key: {` fits, and breaks;
 * - a string is double-quoted unless it holds more double quotes than single ones;
 * - keys are bare when they are identifier names, quoted otherwise (numbers stay quoted in
 *   TypeScript).
 * Spec strings are escaped by ts.ts (stringLiteral) only; this module changes their quotes as
 * prettier does and nothing else.
 */
import { displayWidth } from "./markdown.js";

/** Prettier's printWidth in write/format.ts. */
const WIDTH = 100;

/** An indexed-access chain of string keys: `components["schemas"]["x"]`. */
const INDEXED_CHAIN = String.raw`[A-Za-z_$][\w$]*(?:\["[^"\\]*"\])+`;
/** `G<T>` with a lone indexed-access chain T: the name and T. */
const LONE_CHAIN_ARGUMENT = new RegExp(String.raw`^([A-Za-z_$][\w$]*)<(${INDEXED_CHAIN})>$`);
/** A member whose type breaks inside its angle brackets: `NonNullable<T>[…]`, or `G<chain>`. */
const BREAKING_MEMBER = new RegExp(String.raw`^(\s+)(.+?\??: )(NonNullable<[^<>]+>\[[^<>]+\]|[A-Za-z_$][\w$]*<${INDEXED_CHAIN}>);$`);

type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json | undefined };

/** How wide a value is printed flat, and whether it must break anyway. */
interface Measure {
  readonly width: number;
  /** An array of multi-member objects or arrays, or anything holding one: never flat. */
  readonly hard: boolean;
}

/** Thrown inside for a value this module does not lay out as prettier would; layoutLiteral says undefined. */
class Unsupported extends Error {}

/**
 * `value` as prettier prints it in an expression that starts at `column` on a line indented by
 * `indent`, followed by `tail` columns of text before the next line break (`;` after a
 * declaration, `,` after a member). Undefined for a value whose layout this module does not
 * model (a quoted key outside ASCII, where prettier's identifier test decides; a value that is not an
 * object or array): the caller leaves that file to prettier.
 */
export function layoutLiteral(
  value: unknown,
  quote: (text: string) => string,
  objectKey: (name: string) => string,
  at: { readonly column: number; readonly indent: number; readonly tail: number },
): string | undefined {
  // A lone string, number or null after `=` follows the declaration's layout rules, not these.
  if (value === null || typeof value !== "object") return undefined;
  const printer = new Printer(quote, objectKey);
  try {
    return printer.print(value as Json, at.indent, at.column, at.tail);
  } catch (e) {
    if (e instanceof Unsupported) return undefined;
    throw e;
  }
}

class Printer {
  // By identity: a plan shares objects between operations, and each is measured once.
  private readonly measures = new Map<object, Measure>();
  private readonly strings = new Map<string, string>();
  constructor(
    private readonly quote: (text: string) => string,
    private readonly objectKey: (name: string) => string,
  ) {}

  /** A string literal with prettier's quotes: single when the text holds more `"` than `'`. */
  private string(value: string): string {
    const known = this.strings.get(value);
    if (known !== undefined) return known;
    const json = this.quote(value);
    const content = json.slice(1, -1);
    let doubles = 0;
    let singles = 0;
    for (let i = 0; i < content.length; i++) {
      const c = content.charCodeAt(i);
      if (c === 34) doubles++;
      else if (c === 39) singles++;
    }
    // Prettier's makeString: escaped double quotes lose their backslash, single quotes gain one,
    // every other escape stays as written.
    const text = doubles <= singles ? json : `'${content.replace(/\\(.)|(')/gs, (m: string, escaped: string | undefined) => (escaped === '"' ? '"' : escaped === undefined ? "\\'" : m))}'`;
    this.strings.set(value, text);
    return text;
  }

  private key(name: string): string {
    const key = this.objectKey(name);
    if (key.startsWith("[")) return key; // __proto__, computed: printed as written
    if (key.startsWith('"')) {
      // Prettier unquotes a key that is an identifier name by ES5's Unicode tables; outside ASCII
      // that test is not reproduced here.
      if (/[^\x20-\x7e]/.test(name)) throw new Unsupported();
      return this.string(name);
    }
    return key;
  }

  private leaf(value: Json): string {
    if (value === null) return "null";
    switch (typeof value) {
      case "string":
        return this.string(value);
      case "boolean":
        return value ? "true" : "false";
      case "number":
        if (!Number.isFinite(value)) throw new TypeError(`cannot write ${value} as a literal`);
        return printNumber(Object.is(value, -0) ? "0" : String(value));
      default:
        // undefined in an array (literal writes `undefined`), or what literal refuses too.
        throw new Unsupported();
    }
  }

  private entries(value: object): [string, Json][] {
    return Object.entries(value as Record<string, Json | undefined>).filter((e): e is [string, Json] => e[1] !== undefined);
  }

  private measure(value: Json): Measure {
    if (value === null || typeof value !== "object") return { width: displayWidth(this.leaf(value)), hard: false };
    const known = this.measures.get(value);
    if (known) return known;
    let width: number;
    let hard: boolean;
    if (Array.isArray(value)) {
      const items = (value as readonly Json[]).map((v) => this.measure(v));
      // `[`, `]`, and `, ` between.
      width = items.reduce((n, i) => n + i.width + 2, 0) + (items.length > 0 ? 0 : 2);
      hard = items.some((i) => i.hard) || breaksAlways(value as readonly Json[]);
    } else {
      const entries = this.entries(value);
      // `{ ` and ` }`, `key: value` each, `, ` between; `{}` when empty.
      width = 2;
      hard = false;
      for (const [k, v] of entries) {
        const m = this.measure(v);
        width += displayWidth(this.key(k)) + 2 + m.width + 2;
        hard ||= m.hard;
      }
    }
    const m = { width, hard };
    this.measures.set(value, m);
    return m;
  }

  /** The value on one line. */
  private flat(value: Json): string {
    if (value === null || typeof value !== "object") return this.leaf(value);
    if (Array.isArray(value)) return `[${(value as readonly Json[]).map((v) => this.flat(v)).join(", ")}]`;
    const entries = this.entries(value);
    return entries.length === 0 ? "{}" : `{ ${entries.map(([k, v]) => `${this.key(k)}: ${this.flat(v)}`).join(", ")} }`;
  }

  /** `value` starting at `column` on a line indented by `indent`, `tail` columns before the next break. */
  print(value: Json, indent: number, column: number, tail: number): string {
    const m = this.measure(value);
    if (value === null || typeof value !== "object" || (!m.hard && column + m.width + tail <= WIDTH)) return this.flat(value);
    const inner = indent + 2;
    const pad = " ".repeat(inner);
    if (Array.isArray(value)) {
      const items = value as readonly Json[];
      if (items.length === 0) return "[]";
      if (items.every(isNumber))
        return `[\n${pad}${this.fill(
          items.map((n) => `${this.leaf(n)},`),
          inner,
        )}\n${" ".repeat(indent)}]`;
      return `[\n${items.map((v) => `${pad}${this.print(v, inner, inner, 1)},\n`).join("")}${" ".repeat(indent)}]`;
    }
    const entries = this.entries(value);
    if (entries.length === 0) return "{}";
    return `{\n${entries.map(([k, v]) => `${pad}${this.property(this.key(k), v, inner)},\n`).join("")}${" ".repeat(indent)}}`;
  }

  /** `key: value` as a member of a broken object, at column `indent`. */
  private property(key: string, value: Json, indent: number): string {
    const m = this.measure(value);
    const keyWidth = displayWidth(key);
    if (!m.hard && indent + keyWidth + 2 + m.width + 1 <= WIDTH) return `${key}: ${this.flat(value)}`;
    const shortKey = keyWidth < 5;
    const below = (): string => `${key}:\n${" ".repeat(indent + 2)}${this.print(value, indent + 2, indent + 2, 1)}`;
    if (typeof value === "string") return shortKey ? `${key}: ${this.flat(value)}` : below();
    if (shortKey || typeof value === "boolean" || (typeof value === "number" && value >= 0)) {
      return `${key}: ${this.print(value, indent, indent + keyWidth + 2, 1)}`;
    }
    // Prettier's "fluid" layout: the value stays after the key when the text up to its first
    // possible break fits (`key: {`); a value that cannot break (null, -1, {}, []) did not.
    const opens = value !== null && typeof value === "object" && (Array.isArray(value) ? value.length > 0 : this.entries(value).length > 0);
    if (opens && indent + keyWidth + 3 <= WIDTH) return `${key}: ${this.print(value, indent, indent + keyWidth + 2, 1)}`;
    return below();
  }

  /** Prettier's fill of a broken number array: each `n,` joins the line while the next one fits too. */
  private fill(items: readonly string[], indent: number): string {
    let out = "";
    let column = indent;
    for (let i = 0; i < items.length; i++) {
      const item = items[i] as string;
      out += item;
      const next = items[i + 1];
      if (next === undefined) break;
      if (column + item.length + 1 + next.length <= WIDTH) {
        out += " ";
        column += item.length + 1;
      } else {
        out += `\n${" ".repeat(indent)}`;
        column = indent;
      }
    }
    return out;
  }
}

const isNumber = (v: Json): boolean => typeof v === "number";

/** Prettier breaks an array of two or more objects, or of two or more arrays, each of more than one member. */
function breaksAlways(items: readonly Json[]): boolean {
  if (items.length < 2) return false;
  const first = items[0];
  const isArray = Array.isArray(first);
  return items.every((v) => {
    if (v === null || typeof v !== "object" || Array.isArray(v) !== isArray) return false;
    return Array.isArray(v) ? v.length > 1 : Object.values(v).filter((x) => x !== undefined).length > 1;
  });
}

/** Prettier's number normalization: lower-case, no `+` or leading zeros in exponents, no trailing zeros. */
function printNumber(text: string): string {
  return text
    .toLowerCase()
    .replace(/^([+-]?[\d.]+e)(?:\+|(-))?0*(\d)/, "$1$2$3")
    .replace(/^([+-]?[\d.]+)e[+-]?0+$/, "$1")
    .replace(/^([+-])?\./, "$10.")
    .replace(/(\.\d+?)0+(?=e|$)/, "$1")
    .replace(/\.(?=e|$)/, "");
}

/**
 * A type declaration written one member per line (an interface of indexed-access members, a type
 * alias) as prettier lays it out, or undefined when a line needs a layout not modelled here (the
 * caller leaves that piece to prettier). Lines that fit in the width stay as they are; of the
 * lines that do not, two shapes are known:
 * - a member `key: NonNullable<T>["name"];` breaks inside the angle brackets (prettier does not
 *   hug an indexed-access type argument), T alone on the next line, and so does a member
 *   `key: G<T>;` whose lone argument T is an indexed-access chain;
 * - `export type X = T;` with T an indexed-access chain, or a union of them, breaks after `=`
 *   (prettier's fluid layout), a union that still does not fit one member a line after `| `;
 * - a member `key: Relaxed<NonNullable<T>[…], "a" | "b">;` puts each type argument on its line,
 *   and so does `export type X = G<A, B>;`;
 * - a union written `export type X =` then `  | member` lines joins into one line when it fits,
 *   else onto the next line, else keeps a member a line, each too long breaking its arguments;
 * - a member `name: (a: A, b?: B) => R;` puts one parameter a line, and R, still too long after
 *   the `)`, breaks its type arguments;
 * - an empty block (`iterate: {` then `};`) joins its braces.
 * Anything prettier would rewrite on a line that fits is refused too: a string holding an escaped
 * double quote (prettier would switch to single quotes), a quoted key outside ASCII (it may unquote
 * it), blank lines, and comment lines ending in white space other than a Markdown line break's
 * two spaces (prettier trims it).
 */
export function layoutTypeDeclaration(text: string): string | undefined {
  const out: string[] = [];
  const lines = (text.endsWith("\n") ? text.slice(0, -1) : text).split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    // Most of the text is doc comments (GitHub's: 60%): looked at only for white space at the end.
    let first = 0;
    while (line.charCodeAt(first) === 32) first++;
    const lead = line.charCodeAt(first);
    if (lead === 42 /* * */ || (lead === 47 /* / */ && line.startsWith("/**", first))) {
      // As ts.ts jsdoc writes them: no white space at the end but a Markdown line break's two spaces.
      if (/\s/.test(line.charAt(line.length - 1)) && !/\S {2}$/.test(line)) return undefined;
      out.push(line);
      continue;
    }
    if (line.includes('\\"') || (lead === 34 /* " */ && /^\s*"[^"]*[^\x20-\x7e][^"]*"\??:/.test(line))) return undefined;
    if (line.endsWith("{")) {
      // An empty block (`iterate: {` then `};`, blank lines between): prettier joins the braces.
      let j = i + 1;
      while (lines[j] === "") j++;
      const close = lines[j]?.trim();
      if (j > i + 1 || close === "}" || close === "};") {
        if (close !== "}" && close !== "};") return undefined;
        const joined = `${line}${close}`;
        if (displayWidth(joined) > WIDTH) return undefined;
        out.push(joined);
        i = j;
        continue;
      }
    }
    if (line === "") return undefined;
    const unionHead = line.endsWith(" =") && /^export type [A-Za-z_$][\w$]* =$/.test(line);
    if (unionHead) {
      // `export type X =` then one `  | member` a line, the last ending with `;`.
      const members: string[] = [];
      while (lines[i + 1]?.startsWith("  | ")) members.push((lines[++i] as string).slice(4));
      const last = members[members.length - 1];
      if (last === undefined || !last.endsWith(";") || members.slice(0, -1).some((m) => m.endsWith(";"))) return undefined;
      members[members.length - 1] = last.slice(0, -1);
      const laid = layoutUnion(line, members);
      if (laid === undefined) return undefined;
      out.push(...laid);
      continue;
    }
    // An interface's head stays on its line however long (prettier does not break a lone `extends`).
    if (displayWidth(line) <= WIDTH || /^export interface [A-Za-z_$][\w$]*(?: extends [A-Za-z_$][\w$]*)? \{\}?$/.test(line)) {
      out.push(line);
      continue;
    }
    const member = BREAKING_MEMBER.exec(line);
    if (member) {
      const [, indent, head, type] = member as unknown as [string, string, string, string];
      const laid = layoutArgument(type, indent, ";", `${indent}${head}`);
      if (laid === undefined) return undefined;
      out.push(...laid);
      continue;
    }
    const alias = /^(export type [A-Za-z_$][\w$]* =) ([^<>()]+);$/.exec(line);
    if (alias) {
      const [, head, type] = alias as unknown as [string, string, string];
      const members = type.split(" | ");
      // A union that does not fit after the break goes one member a line, each after `| `.
      if (members.length === 1 || displayWidth(type) + 3 <= WIDTH) out.push(head, `  ${type};`);
      else out.push(head, ...members.map((m, k) => `  | ${m}${k === members.length - 1 ? ";" : ""}`));
      continue;
    }
    const aliasOfGeneric = /^(export type [A-Za-z_$][\w$]* = )([A-Za-z_$][\w$]*<.+>);$/.exec(line);
    if (aliasOfGeneric) {
      const [, head, type] = aliasOfGeneric as unknown as [string, string, string];
      const generic = genericParts(type);
      const laid = generic === undefined ? undefined : layoutArguments(`${head}${generic.name}<`, generic.args, "", ">;");
      if (laid === undefined) return undefined;
      out.push(...laid);
      continue;
    }
    const method = /^(\s+)([A-Za-z_$][\w$]*\??: )\((.+)\) => ([^()]+);$/.exec(line);
    if (method) {
      // A function type too long: one parameter a line, each with its comma, the return after `)`.
      const [, indent, head, params, returns] = method as unknown as [string, string, string, string, string];
      const list = splitTopLevel(params, ", ");
      if (list === undefined) return undefined;
      const laid = [`${indent}${head}(`, ...list.map((p) => `${indent}  ${p},`)];
      const tail = `${indent}) => ${returns};`;
      const generic = displayWidth(tail) > WIDTH ? genericParts(returns) : undefined;
      // Still too long after `)`: the return type breaks its own arguments.
      const ending = generic ? layoutArguments(`${indent}) => ${generic.name}<`, generic.args, indent, ">;") : [tail];
      if (ending === undefined || [...laid, ...ending].some((l) => displayWidth(l) > WIDTH && !/^[^<>|]+,?$/.test(l.trim()))) return undefined;
      out.push(...laid, ...ending);
      continue;
    }
    const relaxed = /^(\s+)(.+?\??: )Relaxed<(NonNullable<[^<>]+>(?:\["[^"]*"\])+), ("[^"]*"(?: \| "[^"]*")*)>;$/.exec(line);
    if (relaxed) {
      // Relaxed<T, keys>: one argument a line; T breaks again as a lone member would.
      const [, indent, head, first, keys] = relaxed as unknown as [string, string, string, string, string];
      const laid = layoutArguments(`${indent}${head}Relaxed<`, [first, keys], indent, ">;");
      if (laid === undefined) return undefined;
      out.push(...laid);
      continue;
    }
    return undefined;
  }
  return `${out.join("\n")}\n`;
}

/**
 * A union alias `head` (`export type X =`) of `members`: on one line when it fits, else the union
 * on the next line, else one member a line after `| `, a member too long breaking its type
 * arguments. Undefined for a member this cannot lay out.
 */
function layoutUnion(head: string, members: readonly string[]): string[] | undefined {
  if (members.some((m) => splitTopLevel(m, " | ")?.length !== 1)) return undefined;
  const flat = members.join(" | ");
  if (displayWidth(`${head} ${flat};`) <= WIDTH) return [`${head} ${flat};`];
  // A lone member is no union: `export type X = G<…>;` breaks its arguments instead.
  if (members.length === 1) {
    const generic = genericParts(members[0] as string);
    return generic ? layoutArguments(`${head} ${generic.name}<`, generic.args, "", ">;") : undefined;
  }
  if (displayWidth(`  ${flat};`) <= WIDTH) return [head, `  ${flat};`];
  const out = [head];
  for (let k = 0; k < members.length; k++) {
    const member = members[k] as string;
    const end = k === members.length - 1 ? ";" : "";
    if (displayWidth(`  | ${member}${end}`) <= WIDTH) {
      out.push(`  | ${member}${end}`);
      continue;
    }
    const generic = genericParts(member);
    const laid = generic ? layoutArguments(`  | ${generic.name}<`, generic.args, "    ", `>${end}`, "      ") : undefined;
    if (laid === undefined) return undefined;
    out.push(...laid);
  }
  return out;
}

/**
 * `open` (`… G<`), one type argument a line (no trailing comma: prettier writes none after type
 * arguments), then `close` on a line indented by `closeIndent`. An argument too long for its line
 * breaks as a lone `NonNullable<T>…` would; anything else too long is undefined.
 */
function layoutArguments(open: string, args: readonly string[], closeIndent: string, close: string, argIndent = `${closeIndent}  `): string[] | undefined {
  // A lone argument prettier may keep hugged (`EmptyReplyOf<201>` moves below the `=` instead).
  if (displayWidth(open) > WIDTH || args.length < 2) return undefined;
  const out = [open];
  for (let k = 0; k < args.length; k++) {
    const lines = layoutArgument(args[k] as string, argIndent, k === args.length - 1 ? "" : ",");
    if (lines === undefined) return undefined;
    out.push(...lines);
  }
  out.push(`${closeIndent}${close}`);
  return out;
}

/**
 * A type on a line indented by `indent`, after `prefix` (the indent itself for a type argument,
 * the indent and `key: ` for a member), followed by `end` (`,` or `;`); too long,
 * `NonNullable<T>[…]` puts T on a line of its own, another generic breaks its own arguments, and
 * what cannot break (an indexed-access chain) stays as long as it is.
 */
function layoutArgument(arg: string, indent: string, end: string, prefix = indent): string[] | undefined {
  // Fits, or cannot break (an indexed-access chain, a literal): on its line as it is.
  if (displayWidth(`${prefix}${arg}${end}`) <= WIDTH || /^[^<>|]+$/.test(arg)) return [`${prefix}${arg}${end}`];
  const nonNullable = /^NonNullable<([^<>]+)>((?:\["[^"]*"\])*)$/.exec(arg);
  if (nonNullable) return [`${prefix}NonNullable<`, `${indent}  ${nonNullable[1] as string}`, `${indent}>${nonNullable[2] as string}${end}`];
  // A member's `G<T>` whose lone argument is an indexed-access chain breaks the same way: prettier
  // hugs a lone argument only when it is a keyword, literal or object type. (Elsewhere, after an
  // alias's `=` or inside another generic, the lone argument is left to prettier.)
  const lone = prefix === indent ? null : LONE_CHAIN_ARGUMENT.exec(arg);
  if (lone) return [`${prefix}${lone[1] as string}<`, `${indent}  ${lone[2] as string}`, `${indent}>${end}`];
  const generic = genericParts(arg);
  return generic ? layoutArguments(`${prefix}${generic.name}<`, generic.args, indent, `>${end}`) : undefined;
}

/** `G<a, b>` as its name and its top-level arguments; undefined for any other type. */
function genericParts(type: string): { readonly name: string; readonly args: readonly string[] } | undefined {
  const m = /^([A-Za-z_$][\w$]*)<(.+)>$/.exec(type);
  const args = m ? splitTopLevel(m[2] as string, ", ") : undefined;
  return m && args ? { name: m[1] as string, args } : undefined;
}

/**
 * `text` split at `separator` where it is outside brackets and strings, or undefined when the
 * brackets do not balance.
 */
function splitTopLevel(text: string, separator: string): string[] | undefined {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '"') {
      const end = text.indexOf('"', i + 1);
      if (end === -1) return undefined;
      i = end;
    } else if (c === "<" || c === "[" || c === "(" || c === "{") depth++;
    else if (c === ">" || c === "]" || c === ")" || c === "}") {
      if (--depth < 0) return undefined;
    } else if (depth === 0 && text.startsWith(separator, i)) {
      parts.push(text.slice(start, i));
      start = i + separator.length;
      i += separator.length - 1;
    }
  }
  if (depth !== 0) return undefined;
  parts.push(text.slice(start));
  return parts;
}
