/**
 * Strings that match a JSON Schema `pattern`, for mock data. A small parser covers what contracts
 * write (anchors, literals, escapes, classes with ranges and negation, `\d \w \s`, groups with
 * alternation, greedy and lazy quantifiers); lookarounds and backreferences are refused with
 * `UnsupportedPatternError` rather than guessed. Unbounded quantifiers are capped, and characters
 * are drawn from readable ASCII first, so samples look like data rather than noise. Callers still
 * test the sample with the real `RegExp`: anchors in odd places (`a$b`) parse but cannot match.
 */
import type { Rng } from "../shared/prng.js";

/** A pattern uses syntax the sampler does not generate from (lookaround, backreference, `\p`). */
export class UnsupportedPatternError extends Error {
  override readonly name = "UnsupportedPatternError";
  constructor(
    readonly pattern: string,
    readonly reason: string,
  ) {
    super(`cannot sample /${pattern}/: ${reason}`);
  }
}

type Range = readonly [number, number];

export type RegexNode =
  | { readonly kind: "seq"; readonly items: readonly RegexNode[] }
  | { readonly kind: "alt"; readonly options: readonly RegexNode[] }
  | { readonly kind: "repeat"; readonly body: RegexNode; readonly min: number; readonly max: number }
  | { readonly kind: "set"; readonly ranges: readonly Range[]; readonly negated: boolean }
  | { readonly kind: "char"; readonly code: number }
  | { readonly kind: "assert" };

const MAX_CODE = 0x10ffff;

/**
 * Longest sample drawn, in code points: `(a{1000}){1000}` or `a{99999999}` would otherwise build
 * strings of millions of characters, and a contract is untrusted input. A pattern whose shortest
 * match is longer is refused (`UnsupportedPatternError`).
 * @default 65,536
 */
export const MAX_SAMPLE_LENGTH = 65_536;

/** A sample reached MAX_SAMPLE_LENGTH with a repetition still short of its minimum. */
class SampleTooLong extends Error {}

/** Deepest group nesting parsed (the parser recurses per group); deeper patterns are refused. @default 256 */
export const MAX_GROUP_NESTING = 256;
const DIGIT: Range[] = [[0x30, 0x39]];
const WORD: Range[] = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
const SPACE: Range[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const LINE_TERMINATORS: Range[] = [
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
];

function complement(ranges: readonly Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Range[] = [];
  let next = 0;
  for (const [lo, hi] of sorted) {
    if (lo > next) out.push([next, lo - 1]);
    next = Math.max(next, hi + 1);
  }
  if (next <= MAX_CODE) out.push([next, MAX_CODE]);
  return out;
}

class Parser {
  private readonly cps: number[];
  private i = 0;
  private depth = 0;
  constructor(private readonly pattern: string) {
    this.cps = Array.from(pattern, (c) => c.codePointAt(0) as number);
  }

  parse(): RegexNode {
    const node = this.alternation();
    if (this.i < this.cps.length) this.fail(`unexpected ${this.char()} at ${this.i}`);
    return node;
  }

  private fail(reason: string): never {
    throw new UnsupportedPatternError(this.pattern, reason);
  }

  private peek(offset = 0): number | undefined {
    return this.cps[this.i + offset];
  }

  private char(offset = 0): string {
    const c = this.peek(offset);
    return c === undefined ? "" : String.fromCodePoint(c);
  }

  private alternation(): RegexNode {
    const options = [this.sequence()];
    while (this.char() === "|") {
      this.i++;
      options.push(this.sequence());
    }
    return options.length === 1 ? (options[0] as RegexNode) : { kind: "alt", options };
  }

  private sequence(): RegexNode {
    const items: RegexNode[] = [];
    while (this.i < this.cps.length && this.char() !== "|" && this.char() !== ")") {
      const atom = this.atom();
      items.push(this.quantified(atom));
    }
    return items.length === 1 ? (items[0] as RegexNode) : { kind: "seq", items };
  }

  private quantified(atom: RegexNode): RegexNode {
    let min: number;
    let max: number;
    const c = this.char();
    if (c === "*") [min, max] = [0, Infinity];
    else if (c === "+") [min, max] = [1, Infinity];
    else if (c === "?") [min, max] = [0, 1];
    else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.rest());
      if (!m) return atom;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
      this.i += m[0].length - 1;
    } else return atom;
    this.i++;
    if (this.char() === "?") this.i++;
    // With the `u` flag an assertion cannot be repeated: `^*` is a syntax error there.
    if (atom.kind === "assert") this.fail(`nothing to repeat before ${c}`);
    return { kind: "repeat", body: atom, min, max };
  }

  private rest(): string {
    return String.fromCodePoint(...this.cps.slice(this.i, this.i + 24));
  }

  private atom(): RegexNode {
    const c = this.char();
    this.i++;
    switch (c) {
      case "(":
        return this.group();
      case "[":
        return this.set();
      case ".":
        return { kind: "set", ranges: LINE_TERMINATORS, negated: true };
      case "^":
      case "$":
        return { kind: "assert" };
      case "\\":
        return this.escape(false);
      case "*":
      case "+":
      case "?":
        return this.fail(`nothing to repeat before ${c}`);
      default:
        return { kind: "char", code: this.cps[this.i - 1] as number };
    }
  }

  private group(): RegexNode {
    if (++this.depth > MAX_GROUP_NESTING) this.fail(`groups nested deeper than ${MAX_GROUP_NESTING}`);
    if (this.char() === "?") {
      const next = this.char(1);
      if (next === ":") this.i += 2;
      else if (next === "<" && this.char(2) !== "=" && this.char(2) !== "!") {
        const close = this.cps.indexOf(0x3e, this.i);
        if (close < 0) this.fail("unterminated group name");
        this.i = close + 1;
      } else this.fail("lookaround assertions are not sampled");
    }
    const body = this.alternation();
    if (this.char() !== ")") this.fail("unterminated group");
    this.i++;
    this.depth--;
    return body;
  }

  /** One escape; inside a class, `\b` is a backspace and class escapes return their ranges. */
  private escape(inClass: boolean): RegexNode {
    const c = this.char();
    if (c === "") this.fail("trailing backslash");
    this.i++;
    const set = (ranges: readonly Range[], negated = false): RegexNode => ({ kind: "set", ranges, negated });
    switch (c) {
      case "d":
        return set(DIGIT);
      case "D":
        return set(DIGIT, true);
      case "w":
        return set(WORD);
      case "W":
        return set(WORD, true);
      case "s":
        return set(SPACE);
      case "S":
        return set(SPACE, true);
      case "b":
        return inClass ? { kind: "char", code: 8 } : { kind: "assert" };
      case "B":
        return { kind: "assert" };
      case "n":
        return { kind: "char", code: 10 };
      case "r":
        return { kind: "char", code: 13 };
      case "t":
        return { kind: "char", code: 9 };
      case "f":
        return { kind: "char", code: 12 };
      case "v":
        return { kind: "char", code: 11 };
      case "0":
        return { kind: "char", code: 0 };
      case "c": {
        const letter = this.peek() ?? 0;
        this.i++;
        return { kind: "char", code: letter % 32 };
      }
      case "x": {
        const m = /^[0-9A-Fa-f]{2}/.exec(this.rest());
        if (!m) this.fail("bad \\x escape");
        this.i += 2;
        return { kind: "char", code: parseInt(m[0], 16) };
      }
      case "u": {
        const braced = /^\{([0-9A-Fa-f]{1,6})\}/.exec(this.rest());
        const plain = /^[0-9A-Fa-f]{4}/.exec(this.rest());
        const m = braced ?? plain;
        if (!m) this.fail("bad \\u escape");
        this.i += m[0].length;
        return { kind: "char", code: parseInt(braced ? (m[1] as string) : m[0], 16) };
      }
      case "p":
      case "P":
        return this.fail("Unicode property escapes are not sampled");
      case "k":
        return this.fail("backreferences are not sampled");
      default:
        if (/[1-9]/.test(c)) this.fail("backreferences are not sampled");
        return { kind: "char", code: c.codePointAt(0) as number };
    }
  }

  private set(): RegexNode {
    const negated = this.char() === "^";
    if (negated) this.i++;
    const ranges: Range[] = [];
    // With the `u` flag the first `]` always closes: `[]` matches nothing, `[^]` anything.
    while (this.char() !== "]") {
      if (this.i >= this.cps.length) this.fail("unterminated character class");
      const lo = this.classAtom();
      if (lo.kind === "set") {
        ranges.push(...(lo.negated ? complement(lo.ranges) : lo.ranges));
        continue;
      }
      if (this.char() === "-" && this.char(1) !== "]" && this.char(1) !== "") {
        this.i++;
        const hi = this.classAtom();
        if (hi.kind !== "char") this.fail("class escape as a range end");
        if (hi.code < lo.code) this.fail("range out of order");
        ranges.push([lo.code, hi.code]);
      } else ranges.push([lo.code, lo.code]);
    }
    this.i++;
    return { kind: "set", ranges, negated };
  }

  private classAtom(): { kind: "char"; code: number } | { kind: "set"; ranges: readonly Range[]; negated: boolean } {
    const c = this.char();
    this.i++;
    if (c !== "\\") return { kind: "char", code: this.cps[this.i - 1] as number };
    const node = this.escape(true);
    if (node.kind === "char" || node.kind === "set") return node;
    return this.fail("assertion inside a character class");
  }
}

/** Parses the supported subset; throws `UnsupportedPatternError` for anything else. */
export function parseRegex(pattern: string): RegexNode {
  return new Parser(pattern).parse();
}

// Readable characters in order of preference: a set that admits letters or digits yields those.
const ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const PUNCT = " -_.~+=:;,!?@#$%&*()[]{}<>/\\|'\"^`";
const READABLE = Array.from(ALNUM + PUNCT, (c) => c.codePointAt(0) as number);
const ALNUM_CODES = READABLE.slice(0, ALNUM.length);

function inRanges(code: number, ranges: readonly Range[]): boolean {
  return ranges.some(([lo, hi]) => code >= lo && code <= hi);
}

function sampleSet(node: { ranges: readonly Range[]; negated: boolean }, rng: Rng): number | undefined {
  const admits = (code: number): boolean => inRanges(code, node.ranges) !== node.negated;
  const alnum = ALNUM_CODES.filter(admits);
  if (alnum.length > 0 && rng.chance(0.9)) return rng.pick(alnum);
  const readable = READABLE.filter(admits);
  if (readable.length > 0) return rng.pick(readable);
  const ranges = node.negated ? complement(node.ranges) : node.ranges;
  const usable = ranges.map(([lo, hi]): Range => [lo, Math.min(hi, MAX_CODE)]).filter(([lo, hi]) => hi >= lo && !(lo >= 0xd800 && hi <= 0xdfff));
  if (usable.length === 0) return undefined;
  const [lo, hi] = rng.pick(usable);
  let code = rng.int(lo, hi);
  // A lone surrogate is not a code point a `u` pattern can match.
  if (code >= 0xd800 && code <= 0xdfff) code = hi > 0xdfff ? 0xe000 : lo;
  return code;
}

export interface RegexSampleOptions {
  /** Extra repetitions an unbounded quantifier (`*`, `+`, `{n,}`) may add. @default 8 */
  readonly repeatCap?: number;
  /** Wanted minimum length; unbounded quantifiers stretch toward it. @default 0 */
  readonly minLength?: number;
  /** Wanted maximum length; samples over it are redrawn a few times. @default Infinity */
  readonly maxLength?: number;
}

/** `cap`: extra repetitions an unbounded quantifier may add; `stretch`: repetitions it must add. */
function sampleNode(node: RegexNode, rng: Rng, cap: number, out: number[], stretch = 0): boolean {
  switch (node.kind) {
    case "char":
      out.push(node.code);
      return true;
    case "assert":
      return true;
    case "set": {
      const code = sampleSet(node, rng);
      if (code === undefined) return false;
      out.push(code);
      return true;
    }
    case "seq":
      return node.items.every((item) => sampleNode(item, rng, cap, out, stretch));
    case "alt": {
      const start = rng.int(0, node.options.length - 1);
      for (let k = 0; k < node.options.length; k++) {
        const mark = out.length;
        if (sampleNode(node.options[(start + k) % node.options.length] as RegexNode, rng, cap, out, stretch)) return true;
        out.length = mark;
      }
      return false;
    }
    case "repeat": {
      const bounded = Number.isFinite(node.max);
      const least = bounded ? node.min : node.min + stretch;
      const count = rng.int(least, bounded ? node.max : least + cap);
      for (let k = 0; k < count; k++) {
        // Past the length budget no repetition is added; a pattern that needs more is refused.
        if (out.length >= MAX_SAMPLE_LENGTH) {
          if (k >= node.min) return true;
          throw new SampleTooLong();
        }
        const mark = out.length;
        if (!sampleNode(node.body, rng, cap, out, stretch)) {
          out.length = mark;
          return k >= node.min;
        }
      }
      return true;
    }
  }
}

/**
 * A string built to match `pattern` (the caller confirms with the real RegExp). Throws
 * `UnsupportedPatternError` for syntax outside the subset or a class no character can satisfy.
 */
export function sampleRegex(pattern: string, rng: Rng, options: RegexSampleOptions = {}): string {
  const ast = parseRegex(pattern);
  const minLength = options.minLength ?? 0;
  const maxLength = options.maxLength ?? Infinity;
  let cap = Math.min(options.repeatCap ?? 8, maxLength);
  let stretch = 0;
  let best: string | undefined;
  for (let attempt = 0; attempt < 8; attempt++) {
    const out: number[] = [];
    let sampled: boolean;
    try {
      sampled = sampleNode(ast, rng, cap, out, stretch);
    } catch (err) {
      if (err instanceof SampleTooLong) throw new UnsupportedPatternError(pattern, `its matches are longer than ${MAX_SAMPLE_LENGTH} characters`);
      throw err;
    }
    if (!sampled) throw new UnsupportedPatternError(pattern, "a character class admits no character");
    if (out.length > MAX_SAMPLE_LENGTH) throw new UnsupportedPatternError(pattern, `its matches are longer than ${MAX_SAMPLE_LENGTH} characters`);
    let text = "";
    for (let from = 0; from < out.length; from += 8192) text += String.fromCodePoint(...out.slice(from, from + 8192));
    if (out.length >= minLength && out.length <= maxLength) return text;
    best ??= text;
    // Too short: unbounded quantifiers must repeat more; too long: they may repeat less.
    if (out.length < minLength) stretch += Math.min(minLength - out.length, 4096);
    else cap = Math.max(0, Math.floor(cap / 2));
  }
  return best as string;
}
