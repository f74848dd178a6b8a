/**
 * The part of JSONPath (RFC 9535) that Arazzo `jsonpath` criteria need to say what a list holds:
 * `$`, `.name`, `['name']`, `[0]`, `[-1]`, `[*]`, `.*` and filters `[?…]` with `@`/`$` queries,
 * comparisons (== != < <= > >=), `&&`, `||`, `!`, parentheses and the functions `count()` and
 * `length()`. A criterion holds when the query selects at least one node, so absence is written
 * `$[?count($.data[?@.id == 'x']) == 0]` (a filter on `$` tests each child of the root,
 * so the absolute query inside names the list). Comparison is exact, as RFC 9535 has it.
 */

type Node = unknown;
type Selector = { readonly k: "name"; readonly name: string } | { readonly k: "index"; readonly i: number } | { readonly k: "wild" } | { readonly k: "filter"; readonly e: Expr };
type Query = { readonly root: "$" | "@"; readonly segments: readonly (readonly Selector[])[] };
type Expr =
  | { readonly k: "lit"; readonly v: unknown }
  | { readonly k: "query"; readonly q: Query }
  | { readonly k: "fn"; readonly name: "count" | "length"; readonly arg: Expr }
  | { readonly k: "not"; readonly e: Expr }
  | { readonly k: "and" | "or"; readonly l: Expr; readonly r: Expr }
  | { readonly k: "cmp"; readonly op: string; readonly l: Expr; readonly r: Expr };

export class JsonPathSyntaxError extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(message);
  }
}

/** Parses a JSONPath query; throws JsonPathSyntaxError with the offset of what is wrong. */
export function parseJsonPath(text: string): Query {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && /\s/.test(text[i] as string)) i++;
  };
  const fail = (m: string): never => {
    throw new JsonPathSyntaxError(m, i);
  };
  const eat = (s: string): boolean => {
    ws();
    if (text.startsWith(s, i)) {
      i += s.length;
      return true;
    }
    return false;
  };
  const string = (): string => {
    const q = text[i] as string;
    let j = i + 1;
    let out = "";
    while (j < text.length && text[j] !== q) {
      if (text[j] === "\\" && j + 1 < text.length) j++;
      out += text[j++];
    }
    if (j >= text.length) fail("a string is not closed");
    i = j + 1;
    return out;
  };
  const query = (): Query => {
    ws();
    const root = text[i] === "$" ? "$" : text[i] === "@" ? "@" : fail("a query starts with $ or @");
    i++;
    const segments: Selector[][] = [];
    for (;;) {
      if (text.startsWith("..", i)) fail("descendant segments (..) are not supported");
      if (text[i] === ".") {
        i++;
        if (text[i] === "*") {
          i++;
          segments.push([{ k: "wild" }]);
          continue;
        }
        const m = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(text.slice(i));
        if (!m) fail("a name is expected after .");
        i += (m as RegExpExecArray)[0].length;
        segments.push([{ k: "name", name: (m as RegExpExecArray)[0] }]);
        continue;
      }
      if (text[i] === "[") {
        i++;
        const sels: Selector[] = [];
        do {
          ws();
          const c = text[i];
          if (c === "'" || c === '"') sels.push({ k: "name", name: string() });
          else if (c === "*") {
            i++;
            sels.push({ k: "wild" });
          } else if (c === "?") {
            i++;
            sels.push({ k: "filter", e: or() });
          } else {
            const m = /^-?\d+/.exec(text.slice(i));
            if (!m) fail("a selector is expected: 'name', an index, * or ?filter");
            i += (m as RegExpExecArray)[0].length;
            sels.push({ k: "index", i: Number((m as RegExpExecArray)[0]) });
          }
        } while (eat(","));
        if (!eat("]")) fail("a [ is not closed");
        segments.push(sels);
        continue;
      }
      return { root, segments };
    }
  };
  const primary = (): Expr => {
    ws();
    if (eat("(")) {
      const e = or();
      if (!eat(")")) fail("a ( is not closed");
      return e;
    }
    if (eat("!")) return { k: "not", e: primary() };
    const c = text[i];
    if (c === "$" || c === "@") return { k: "query", q: query() };
    if (c === "'" || c === '"') return { k: "lit", v: string() };
    const fn = /^(count|length)\s*\(/.exec(text.slice(i));
    if (fn) {
      i += fn[0].length;
      const arg = primary();
      if (!eat(")")) fail(`${fn[1]}( is not closed`);
      return { k: "fn", name: fn[1] as "count", arg };
    }
    const num = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (num) {
      i += num[0].length;
      return { k: "lit", v: Number(num[0]) };
    }
    for (const [w, v] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (text.startsWith(w, i)) {
        i += w.length;
        return { k: "lit", v };
      }
    }
    return fail("a value, a query or a function is expected");
  };
  const cmp = (): Expr => {
    const l = primary();
    ws();
    const op = ["==", "!=", "<=", ">=", "<", ">"].find((o) => text.startsWith(o, i));
    if (!op) return l;
    i += op.length;
    return { k: "cmp", op, l, r: primary() };
  };
  const and = (): Expr => {
    let l = cmp();
    while (eat("&&")) l = { k: "and", l, r: cmp() };
    return l;
  };
  const or = (): Expr => {
    let l = and();
    while (eat("||")) l = { k: "or", l, r: and() };
    return l;
  };
  const q = query();
  ws();
  if (i < text.length) fail(`unexpected ${JSON.stringify(text.slice(i, i + 10))} after the query`);
  return q;
}

const own = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

function select(q: Query, root: Node, current: Node): Node[] {
  let nodes: Node[] = [q.root === "$" ? root : current];
  for (const seg of q.segments) {
    const next: Node[] = [];
    for (const n of nodes) {
      if (n === null || typeof n !== "object") continue;
      for (const s of seg) {
        if (s.k === "name") {
          if (!Array.isArray(n) && own(n, s.name)) next.push((n as Record<string, Node>)[s.name]);
        } else if (s.k === "index") {
          if (Array.isArray(n)) {
            const at = s.i < 0 ? n.length + s.i : s.i;
            if (at >= 0 && at < n.length) next.push(n[at]);
          }
        } else {
          const children = Array.isArray(n) ? n : Object.values(n);
          next.push(...(s.k === "wild" ? children : children.filter((child) => truth(s.e, root, child))));
        }
      }
    }
    nodes = next;
  }
  return nodes;
}

/** A comparable value: a literal, a singular query's one node (else nothing), a function's result. */
function valueOf(e: Expr, root: Node, cur: Node): { v: unknown } | undefined {
  if (e.k === "lit") return { v: e.v };
  if (e.k === "query") {
    const nodes = select(e.q, root, cur);
    return nodes.length === 1 ? { v: nodes[0] } : undefined;
  }
  if (e.k === "fn") {
    if (e.name === "count") return { v: e.arg.k === "query" ? select(e.arg.q, root, cur).length : 0 };
    const x = valueOf(e.arg, root, cur)?.v;
    return typeof x === "string" ? { v: [...x].length } : Array.isArray(x) ? { v: x.length } : x !== null && typeof x === "object" ? { v: Object.keys(x).length } : undefined;
  }
  return { v: truth(e, root, cur) };
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function truth(e: Expr, root: Node, cur: Node): boolean {
  switch (e.k) {
    case "and":
      return truth(e.l, root, cur) && truth(e.r, root, cur);
    case "or":
      return truth(e.l, root, cur) || truth(e.r, root, cur);
    case "not":
      return !truth(e.e, root, cur);
    case "query":
      return select(e.q, root, cur).length > 0;
    case "cmp": {
      const l = valueOf(e.l, root, cur);
      const r = valueOf(e.r, root, cur);
      if (e.op === "==") return l === undefined ? r === undefined : r !== undefined && same(l.v, r.v);
      if (e.op === "!=") return !(l === undefined ? r === undefined : r !== undefined && same(l.v, r.v));
      if (l === undefined || r === undefined) return false;
      const [x, y] = [l.v, r.v];
      const bothNum = typeof x === "number" && typeof y === "number";
      const bothStr = typeof x === "string" && typeof y === "string";
      if (!bothNum && !bothStr) return e.op === "<=" || e.op === ">=" ? same(x, y) : false;
      const a = x as number | string;
      const b = y as number | string;
      return e.op === "<" ? a < b : e.op === "<=" ? a <= b : e.op === ">" ? a > b : a >= b;
    }
    default: {
      const v = valueOf(e, root, cur)?.v;
      return v === true;
    }
  }
}

/** The nodes the query selects in `value`. */
export function queryJsonPath(q: Query, value: unknown): unknown[] {
  return select(q, value, value);
}
