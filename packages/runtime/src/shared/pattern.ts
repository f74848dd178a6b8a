/**
 * The engine every contract `pattern` runs on: RE2 (re2js, its pure JavaScript port), whose
 * matching time is linear in the input, so no value a client sends can make a pattern backtrack for
 * seconds (`^(a+)+$` on 35 characters froze a server on the backtracking `RegExp`). re2js was
 * chosen over the native binding (`re2`: a prebuilt binary downloaded at install, else a node-gyp
 * build of RE2 and Abseil; no browser) and the WebAssembly build (`re2-wasm`: CommonJS reading its
 * 858 KB .wasm with `fs` and instantiating it synchronously; slower per test and per compile than
 * re2js here): it installs from the registry alone, has no dependencies, and runs in browsers.
 * docs/security.md has the measurements.
 *
 * Patterns are JSON Schema (ECMAScript, `u` flag) syntax; `re2Syntax` translates them to RE2's,
 * keeping ECMAScript's meaning where the two differ (`.`, `\s`, `[^]`, `\uXXXX`, named groups).
 * What RE2 cannot express (backreferences, lookahead, lookbehind) is refused by the generator unless
 * the project allows the pattern (contractgen.config.ts `security.backtrackingPatterns`); such a
 * pattern runs on `RegExp`, only for inputs of at most BACKTRACKING_MAX_INPUT characters.
 */
import { RE2JS } from "re2js";

/** What ajv's generated code and the mock call: a search anywhere in the input, as `RegExp.prototype.test`. */
export interface PatternTest {
  test(input: string): boolean;
  /** Distinct per pattern: ajv shares a compiled pattern between places by this string. */
  toString(): string;
}

/**
 * Longest input a pattern RE2 cannot express (allowed in the config) is run on; a longer value does
 * not match it. This bounds the input, not the time: a backtracking pattern can still be slow on
 * 256 characters when it also nests quantifiers, which is why such patterns must be allowed one by one.
 * @default 256
 */
export const BACKTRACKING_MAX_INPUT = 256;

/** ECMAScript's `\s` (WhiteSpace and LineTerminator), as the body of an RE2 class; RE2's `\s` is ASCII only. */
const SPACE = "\\t\\n\\x0B\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}";
/** ECMAScript's `.`: anything but a line terminator (RE2's excludes `\n` alone). */
const DOT = "[^\\n\\r\\x{2028}\\x{2029}]";
const ANY = "[\\x{0}-\\x{10FFFF}]";
const NOTHING = "[^\\x{0}-\\x{10FFFF}]";

/** Unicode general categories by their long names (ECMAScript accepts both; RE2 the short ones). */
const CATEGORIES: Readonly<Record<string, string>> = {
  Letter: "L",
  Cased_Letter: "LC",
  Uppercase_Letter: "Lu",
  Lowercase_Letter: "Ll",
  Titlecase_Letter: "Lt",
  Modifier_Letter: "Lm",
  Other_Letter: "Lo",
  Mark: "M",
  Nonspacing_Mark: "Mn",
  Spacing_Mark: "Mc",
  Enclosing_Mark: "Me",
  Number: "N",
  Decimal_Number: "Nd",
  digit: "Nd",
  Letter_Number: "Nl",
  Other_Number: "No",
  Punctuation: "P",
  punct: "P",
  Connector_Punctuation: "Pc",
  Dash_Punctuation: "Pd",
  Open_Punctuation: "Ps",
  Close_Punctuation: "Pe",
  Initial_Punctuation: "Pi",
  Final_Punctuation: "Pf",
  Other_Punctuation: "Po",
  Symbol: "S",
  Math_Symbol: "Sm",
  Currency_Symbol: "Sc",
  Modifier_Symbol: "Sk",
  Other_Symbol: "So",
  Separator: "Z",
  Space_Separator: "Zs",
  Line_Separator: "Zl",
  Paragraph_Separator: "Zp",
  Other: "C",
  Control: "Cc",
  cntrl: "Cc",
  Format: "Cf",
  Surrogate: "Cs",
  Private_Use: "Co",
  Unassigned: "Cn",
};

const hex = (code: number): string => `\\x{${code.toString(16).toUpperCase()}}`;

/**
 * A JSON Schema pattern (ECMAScript syntax that compiles with the `u` flag) in RE2's syntax, or why
 * RE2 cannot express it. Only what the two read differently is rewritten.
 */
export function re2Syntax(pattern: string): { readonly source: string } | { readonly unsupported: string } {
  const cps = Array.from(pattern);
  let out = "";
  // Inside a class: its members so far, whether it is negated, whether it holds \S (see below).
  let cls: { body: string; negated: boolean; nonSpace: boolean } | undefined;
  const emit = (text: string): void => {
    if (cls) cls.body += text;
    else out += text;
  };
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i] as string;
    if (c === "\\") {
      const e = cps[++i];
      if (e === undefined) return { unsupported: "a trailing backslash" };
      switch (e) {
        case "s":
          emit(cls ? SPACE : `[${SPACE}]`);
          break;
        case "S":
          // A class cannot hold a negated class: `[a\S]` becomes `(?:[a]|[^<spaces>])` when it closes.
          if (cls) cls.nonSpace = true;
          else out += `[^${SPACE}]`;
          break;
        case "b":
          emit(cls ? "\\x08" : "\\b");
          break;
        case "v":
          emit("\\x0B");
          break;
        case "0":
          emit("\\x00");
          break;
        case "c": {
          const letter = cps[++i];
          if (letter === undefined) return { unsupported: "a trailing \\c" };
          emit(hex((letter.codePointAt(0) as number) % 32));
          break;
        }
        case "x":
          emit(hex(parseInt(`${cps[i + 1] ?? ""}${cps[i + 2] ?? ""}`, 16)));
          i += 2;
          break;
        case "u": {
          const code = unicodeEscape(cps, i);
          if (code === undefined) return { unsupported: "a malformed \\u escape" };
          emit(hex(code.value));
          i = code.end;
          break;
        }
        case "p":
        case "P": {
          const close = cps.indexOf("}", i);
          if (cps[i + 1] !== "{" || close < 0) return { unsupported: `a malformed \\${e} escape` };
          const text = cps.slice(i + 2, close).join("");
          i = close;
          if (text === "ASCII") {
            // RE2 has no ASCII property; the range is the same set.
            emit(e === "p" ? (cls ? "\\x00-\\x7F" : "[\\x00-\\x7F]") : cls ? "\\x{80}-\\x{10FFFF}" : "[^\\x00-\\x7F]");
            break;
          }
          const name = property(text);
          if (name === undefined) return { unsupported: `the Unicode property \\${e}{${text}}` };
          emit(`\\${e}{${name}}`);
          break;
        }
        case "k":
          return { unsupported: "a backreference (\\k<name>)" };
        default:
          if (e >= "1" && e <= "9") return { unsupported: `a backreference (\\${e})` };
          // \d \D \w \W \B \n \r \t \f and escaped syntax characters mean the same in both.
          emit(`\\${e}`);
      }
      continue;
    }
    if (cls) {
      if (c === "]") {
        const { body, negated, nonSpace } = cls;
        cls = undefined;
        if (!nonSpace) out += `[${negated ? "^" : ""}${body}]`;
        else if (negated) return { unsupported: "\\S inside a negated class" };
        else out += body === "" ? `[^${SPACE}]` : `(?:[${body}]|[^${SPACE}])`;
        continue;
      }
      // RE2 reads `[:alpha:]` inside a class as a POSIX class; ECMAScript reads the characters.
      cls.body += c === "[" ? "\\[" : c;
      continue;
    }
    if (c === "[") {
      // With the `u` flag `[]` matches nothing and `[^]` anything; RE2 has no empty class.
      if (cps[i + 1] === "]") {
        out += NOTHING;
        i += 1;
      } else if (cps[i + 1] === "^" && cps[i + 2] === "]") {
        out += ANY;
        i += 2;
      } else {
        const negated = cps[i + 1] === "^";
        if (negated) i += 1;
        cls = { body: "", negated, nonSpace: false };
      }
      continue;
    }
    if (c === ".") {
      out += DOT;
      continue;
    }
    if (c === "(" && cps[i + 1] === "?") {
      const a = cps[i + 2];
      const b = cps[i + 3];
      if (a === "=" || a === "!") return { unsupported: `a lookahead ((?${a})` };
      if (a === "<" && (b === "=" || b === "!")) return { unsupported: `a lookbehind ((?<${b})` };
      if (a === "<") {
        out += "(?P<";
        i += 2;
        continue;
      }
    }
    out += c;
  }
  return { source: out };
}

/** One RE2 search a pattern's verdict is made of; a `negate`d one must not match. */
export interface Re2Test {
  readonly source: string;
  readonly negate: boolean;
}

/**
 * A pattern as RE2 searches whose verdicts together are the pattern's: one search, or, for a pattern
 * that opens with lookaheads at its anchor (`^(?!aws:)[a-z:]+$`, common in AWS descriptions), one
 * search per lookahead at the start of the input and one for the rest. Or why RE2 cannot run it.
 */
export function re2Plan(pattern: string): { readonly tests: readonly Re2Test[] } | { readonly unsupported: string } {
  const cps = Array.from(pattern);
  const leading: { body: string; negate: boolean }[] = [];
  let i = 1;
  if (cps[0] === "^") {
    while (cps[i] === "(" && cps[i + 1] === "?" && (cps[i + 2] === "=" || cps[i + 2] === "!")) {
      const end = groupEnd(cps, i);
      if (end < 0) break;
      leading.push({ body: cps.slice(i + 3, end).join(""), negate: cps[i + 2] === "!" });
      i = end + 1;
    }
  }
  // `^(?!a)b|c` anchors and asserts the first alternative only: not split.
  const parts =
    leading.length > 0 && !topLevelAlternation(cps, i)
      ? [...leading.map((l) => ({ text: `^(?:${l.body})`, negate: l.negate })), { text: `^${cps.slice(i).join("")}`, negate: false }]
      : [{ text: pattern, negate: false }];
  const tests: Re2Test[] = [];
  for (const part of parts) {
    const t = re2Syntax(part.text);
    if ("unsupported" in t) return t;
    tests.push({ source: t.source, negate: part.negate });
  }
  return { tests };
}

/** Index of the `)` closing the group opened at `cps[open]`, or -1. */
function groupEnd(cps: readonly string[], open: number): number {
  let depth = 0;
  let inClass = false;
  for (let i = open; i < cps.length; i++) {
    const c = cps[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i;
  }
  return -1;
}

/** Whether `cps` from `from` on has a `|` outside every group and class. */
function topLevelAlternation(cps: readonly string[], from: number): boolean {
  let depth = 0;
  let inClass = false;
  for (let i = from; i < cps.length; i++) {
    const c = cps[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) return true;
  }
  return false;
}

/** `\uXXXX` (with a following low surrogate escape, one code point) or `\u{X…}` starting at `cps[at] === "u"`. */
function unicodeEscape(cps: readonly string[], at: number): { value: number; end: number } | undefined {
  const hexAt = (from: number, n: number): number | undefined => {
    const text = cps.slice(from, from + n).join("");
    return text.length === n && /^[0-9A-Fa-f]+$/.test(text) ? parseInt(text, 16) : undefined;
  };
  if (cps[at + 1] === "{") {
    const close = cps.indexOf("}", at);
    const value = close < 0 ? undefined : hexAt(at + 2, close - at - 2);
    return value === undefined ? undefined : { value, end: close };
  }
  const high = hexAt(at + 1, 4);
  if (high === undefined) return undefined;
  if (high >= 0xd800 && high <= 0xdbff && cps[at + 5] === "\\" && cps[at + 6] === "u") {
    const low = hexAt(at + 7, 4);
    if (low !== undefined && low >= 0xdc00 && low <= 0xdfff) return { value: (high - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000, end: at + 10 };
  }
  return { value: high, end: at + 4 };
}

/** An ECMAScript property name as RE2 spells it: general categories short, scripts by name; undefined when RE2 has no such property. */
function property(text: string): string | undefined {
  const eq = text.indexOf("=");
  const [key, value] = eq < 0 ? [undefined, text] : [text.slice(0, eq), text.slice(eq + 1)];
  const category = CATEGORIES[value] ?? value;
  const isCategory = /^(?:[LMNPSZC][a-z]?|LC)$/.test(category);
  if (key === "General_Category" || key === "gc") return isCategory ? category : undefined;
  // A lone name is a category or a binary property; of the latter RE2 knows `Any` alone.
  if (key === undefined) return isCategory || value === "Any" ? category : undefined;
  if (key === "Script" || key === "sc") return value;
  return undefined;
}

/** Why RE2 cannot run this pattern (after translation), or undefined when it can. */
export function re2Unsupported(pattern: string): string | undefined {
  const plan = re2Plan(pattern);
  if ("unsupported" in plan) return plan.unsupported;
  try {
    for (const t of plan.tests) RE2JS.compile(t.source);
    return undefined;
  } catch (err) {
    return `syntax RE2 refuses (${err instanceof Error ? err.message : String(err)})`;
  }
}

const compiled = new Map<string, PatternTest>();

/**
 * The pattern engine ajv's standalone code calls (its `code.regExp` option): RE2 when the pattern
 * translates, else (a pattern the project allowed to backtrack) `RegExp` on inputs of at most
 * BACKTRACKING_MAX_INPUT characters. Compiled on first use and shared by source, so importing a
 * module of validators compiles nothing.
 */
export function patternRegExp(source: string, flags = "u"): PatternTest {
  const key = `${flags}/${source}`;
  let known = compiled.get(key);
  if (known === undefined) {
    let engine: { test(input: string): boolean } | undefined;
    const shown = `/${source}/${flags}`;
    const get = (): { test(input: string): boolean } => (engine ??= compile(source, flags));
    known = { test: (input: string) => get().test(input), toString: () => shown };
    compiled.set(key, known);
  }
  return known;
}
/** ajv writes this expression into standalone code wherever a pattern is compiled (generators/src/emit/validators/compile.ts). */
patternRegExp.code = 'require("@contractgen/runtime/pattern").patternRegExp';

function compile(source: string, flags: string): { test(input: string): boolean } {
  const plan = re2Plan(source);
  if ("tests" in plan) {
    try {
      const options = flags.includes("i") ? RE2JS.CASE_INSENSITIVE : 0;
      const tests = plan.tests.map((t) => ({ re: RE2JS.compile(t.source, options), negate: t.negate }));
      if (tests.length === 1 && !(tests[0] as (typeof tests)[number]).negate) {
        const { re } = tests[0] as (typeof tests)[number];
        return { test: (input: string) => re.test(input) };
      }
      return { test: (input: string) => tests.every((t) => t.re.test(input) !== t.negate) };
    } catch {
      // Not RE2: the generator let it through, so the project allowed it. Bounded below.
    }
  }
  const re = new RegExp(source, flags);
  return { test: (input: string) => input.length <= BACKTRACKING_MAX_INPUT && re.test(input) };
}
