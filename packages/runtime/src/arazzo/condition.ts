/**
 * Arazzo 1.0 "simple" conditions: literals (numbers, 'strings', true, false, null), runtime
 * expressions, `[i]` indexing, comparisons (== != < <= > >=), `!`, `&&`, `||` and parentheses.
 * As the specification asks, string comparisons ignore case and a numeric string compares with a
 * number as that number. A failed condition explains itself with the value of every expression in it.
 */
import { evaluate, parseExpression, type ExpressionScope, type RuntimeExpression } from "./expression.js";

export type Condition =
  | { readonly kind: "literal"; readonly value: unknown }
  | { readonly kind: "expression"; readonly text: string; readonly expr: RuntimeExpression }
  | { readonly kind: "index"; readonly of: Condition; readonly at: string | number }
  | { readonly kind: "not"; readonly of: Condition }
  | { readonly kind: "logical"; readonly op: "&&" | "||"; readonly left: Condition; readonly right: Condition }
  | { readonly kind: "compare"; readonly op: "==" | "!=" | "<" | "<=" | ">" | ">="; readonly left: Condition; readonly right: Condition };

type Token = { readonly t: "op" | "num" | "str" | "word" | "expr"; readonly v: string; readonly at: number };

const OPS = ["&&", "||", "==", "!=", "<=", ">=", "<", ">", "!", "(", ")", "[", "]"];

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const op = OPS.find((o) => text.startsWith(o, i));
    if (op) {
      out.push({ t: "op", v: op, at: i });
      i += op.length;
      continue;
    }
    if (c === "'") {
      let j = i + 1;
      let s = "";
      for (;;) {
        if (j >= text.length) throw new ConditionSyntaxError("a string literal is not closed with '", i);
        if (text[j] === "'" && text[j + 1] === "'") {
          s += "'";
          j += 2;
        } else if (text[j] === "'") break;
        else s += text[j++];
      }
      out.push({ t: "str", v: s, at: i });
      i = j + 1;
      continue;
    }
    const num = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (num) {
      out.push({ t: "num", v: num[0], at: i });
      i += num[0].length;
      continue;
    }
    if (c === "$") {
      // An expression runs to the next space or operator character; its pointer may hold anything else.
      const m = /^\$[^\s()=!<>&|[\]]+/.exec(text.slice(i)) as RegExpExecArray;
      out.push({ t: "expr", v: m[0], at: i });
      i += m[0].length;
      continue;
    }
    const word = /^[A-Za-z_]+/.exec(text.slice(i));
    if (word) {
      out.push({ t: "word", v: word[0], at: i });
      i += word[0].length;
      continue;
    }
    throw new ConditionSyntaxError(`unexpected character ${JSON.stringify(c)}`, i);
  }
  return out;
}

export class ConditionSyntaxError extends Error {
  constructor(
    message: string,
    /** 0-based offset in the condition text. */
    readonly at: number,
  ) {
    super(message);
  }
}

/** Parses a simple condition; throws ConditionSyntaxError with the offset of what is wrong. */
export function parseCondition(text: string): Condition {
  const tokens = tokenize(text);
  let pos = 0;
  const peek = (): Token | undefined => tokens[pos];
  const fail = (message: string): never => {
    throw new ConditionSyntaxError(message, peek()?.at ?? text.length);
  };
  const take = (v: string): boolean => {
    const t = peek();
    if (t?.t === "op" && t.v === v) {
      pos++;
      return true;
    }
    return false;
  };
  const primary = (): Condition => {
    const t = peek();
    if (!t) return fail("the condition ends where a value is expected");
    pos++;
    let node: Condition;
    if (t.t === "op" && t.v === "(") {
      node = or();
      if (!take(")")) fail("a ( is not closed");
    } else if (t.t === "num") node = { kind: "literal", value: Number(t.v) };
    else if (t.t === "str") node = { kind: "literal", value: t.v };
    else if (t.t === "word" && ["true", "false", "null"].includes(t.v)) node = { kind: "literal", value: t.v === "null" ? null : t.v === "true" };
    else if (t.t === "expr") {
      const parsed = parseExpression(t.v);
      if ("error" in parsed) throw new ConditionSyntaxError(parsed.error, t.at);
      node = { kind: "expression", text: t.v, expr: parsed };
    } else {
      pos--;
      return fail(`unexpected ${JSON.stringify(t.v)} where a value is expected`);
    }
    while (take("[")) {
      const idx = peek();
      if (!idx || (idx.t !== "num" && idx.t !== "str")) return fail("[ takes a number or a 'string'");
      pos++;
      node = { kind: "index", of: node, at: idx.t === "num" ? Number(idx.v) : idx.v };
      if (!take("]")) fail("a [ is not closed");
    }
    return node;
  };
  const comparison = (): Condition => {
    if (take("!")) return { kind: "not", of: comparison() };
    const left = primary();
    const t = peek();
    if (t?.t === "op" && ["==", "!=", "<", "<=", ">", ">="].includes(t.v)) {
      pos++;
      return { kind: "compare", op: t.v as "==", left, right: primary() };
    }
    return left;
  };
  const and = (): Condition => {
    let left = comparison();
    while (take("&&")) left = { kind: "logical", op: "&&", left, right: comparison() };
    return left;
  };
  const or = (): Condition => {
    let left = and();
    while (take("||")) left = { kind: "logical", op: "||", left, right: and() };
    return left;
  };
  const tree = or();
  if (pos < tokens.length) fail(`unexpected ${JSON.stringify(peek()?.v)} after a complete condition`);
  return tree;
}

const isNumeric = (s: string): boolean => s.trim() !== "" && Number.isFinite(Number(s));

function equal(a: unknown, b: unknown): boolean {
  const an = a === null || a === undefined;
  const bn = b === null || b === undefined;
  if (an || bn) return an && bn;
  if (typeof a === "string" && typeof b === "string") return a.toLowerCase() === b.toLowerCase();
  if (typeof a === "number" && typeof b === "string") return isNumeric(b) && a === Number(b);
  if (typeof a === "string" && typeof b === "number") return isNumeric(a) && Number(a) === b;
  if (typeof a === "object" || typeof b === "object") return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

function order(a: unknown, b: unknown): number | undefined {
  const num = (v: unknown): number | undefined => (typeof v === "number" ? v : typeof v === "string" && isNumeric(v) ? Number(v) : undefined);
  const x = num(a);
  const y = num(b);
  if (x !== undefined && y !== undefined) return x - y;
  if (typeof a === "string" && typeof b === "string") {
    const p = a.toLowerCase();
    const q = b.toLowerCase();
    return p < q ? -1 : p > q ? 1 : 0;
  }
  return undefined;
}

function value(node: Condition, scope: ExpressionScope): unknown {
  switch (node.kind) {
    case "literal":
      return node.value;
    case "expression":
      return evaluate(node.expr, scope);
    case "index": {
      const of = value(node.of, scope);
      if (of === null || typeof of !== "object") return undefined;
      const key = String(node.at);
      return Object.prototype.hasOwnProperty.call(of, key) ? (of as Record<string, unknown>)[key] : undefined;
    }
    case "not":
      return !truthy(value(node.of, scope));
    case "logical":
      return node.op === "&&" ? truthy(value(node.left, scope)) && truthy(value(node.right, scope)) : truthy(value(node.left, scope)) || truthy(value(node.right, scope));
    case "compare": {
      const l = value(node.left, scope);
      const r = value(node.right, scope);
      if (node.op === "==") return equal(l, r);
      if (node.op === "!=") return !equal(l, r);
      // Ordering anything with null, or values of different kinds, is false.
      const o = order(l, r);
      if (o === undefined) return false;
      return node.op === "<" ? o < 0 : node.op === "<=" ? o <= 0 : node.op === ">" ? o > 0 : o >= 0;
    }
  }
}

const truthy = (v: unknown): boolean => v !== false && v !== null && v !== undefined && v !== 0 && v !== "";

export function holds(node: Condition, scope: ExpressionScope): boolean {
  return truthy(value(node, scope));
}

/** `name = value` for every runtime expression in the condition: what a failure message shows. */
export function explain(node: Condition, scope: ExpressionScope): string {
  const seen = new Map<string, unknown>();
  const walk = (n: Condition): void => {
    if (n.kind === "expression") seen.set(n.text, evaluate(n.expr, scope));
    else if (n.kind === "index" || n.kind === "not") walk(n.of);
    else if (n.kind === "logical" || n.kind === "compare") {
      walk(n.left);
      walk(n.right);
    }
  };
  walk(node);
  return [...seen].map(([k, v]) => `${k} = ${v === undefined ? "(absent)" : JSON.stringify(v).slice(0, 200)}`).join(", ");
}

/** The runtime expressions a condition reads, in order (what a loader checks against the workflow). */
export function expressionsIn(node: Condition): string[] {
  if (node.kind === "expression") return [node.text];
  if (node.kind === "index" || node.kind === "not") return expressionsIn(node.of);
  if (node.kind === "logical" || node.kind === "compare") return [...expressionsIn(node.left), ...expressionsIn(node.right)];
  return [];
}
