/**
 * Arazzo 1.0 runtime expressions (`$statusCode`, `$response.body#/data/id`,
 * `$steps.create.outputs.id`, `$inputs.account_id`) and the `{$…}` templates that embed them in
 * strings. Parsing is separate from evaluation so the generator can refuse a malformed expression
 * with its file:line:col before anything runs.
 */
import { getAt } from "../shared/pointer.js";

/** One parsed runtime expression. */
export type RuntimeExpression =
  | { readonly source: "url" | "method" | "statusCode" }
  | { readonly source: "request" | "response"; readonly part: "header" | "query" | "path"; readonly name: string }
  | { readonly source: "request" | "response"; readonly part: "body"; readonly pointer: string }
  | { readonly source: "inputs" | "outputs"; readonly name: string; readonly pointer: string }
  | { readonly source: "steps"; readonly step: string; readonly name: string; readonly pointer: string };

/** What the expressions of one step can see: the workflow's inputs, earlier steps and this step's exchange. */
export interface ExpressionScope {
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly steps: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly outputs?: Readonly<Record<string, unknown>>;
  readonly exchange?: {
    readonly url: string;
    readonly method: string;
    readonly statusCode: number;
    readonly request: {
      readonly header: Readonly<Record<string, string>>;
      readonly query: Readonly<Record<string, unknown>>;
      readonly path: Readonly<Record<string, unknown>>;
      readonly body: unknown;
    };
    readonly response: { readonly header: (name: string) => string | null; readonly body: unknown };
  };
}

/** Characters a name may hold (Arazzo's `name` and token rules, short of the pointer). */
const NAME = /^[A-Za-z0-9_.-]+$/;

/** Parses `$…`; returns a message saying what is wrong instead of throwing. */
export function parseExpression(text: string): RuntimeExpression | { readonly error: string } {
  if (text === "$url" || text === "$method" || text === "$statusCode") return { source: text.slice(1) as "url" };
  const hash = text.indexOf("#");
  const head = hash < 0 ? text : text.slice(0, hash);
  const pointer = hash < 0 ? "" : text.slice(hash + 1);
  if (pointer !== "" && !pointer.startsWith("/")) return { error: `the JSON pointer after # must start with / (got "${pointer}")` };
  const m = /^\$(request|response)\.(header|query|path|body)(?:\.(.+))?$/.exec(head);
  if (m) {
    const source = m[1] as "request" | "response";
    const part = m[2] as "header" | "query" | "path" | "body";
    if (part === "body") return m[3] === undefined ? { source, part, pointer } : { error: `$${source}.body takes a JSON pointer after #, not .${m[3]}` };
    if (m[3] === undefined || pointer !== "") return { error: `$${source}.${part} needs a name: $${source}.${part}.<name>` };
    if (source === "response" && part !== "header") return { error: `a response has no ${part}: use $response.header.<name> or $response.body#/…` };
    return { source, part, name: m[3] };
  }
  const io = /^\$(inputs|outputs)\.(.+)$/.exec(head);
  if (io) {
    const name = io[2] as string;
    if (!NAME.test(name)) return { error: `"${name}" is not a valid name` };
    return { source: io[1] as "inputs", name, pointer };
  }
  const st = /^\$steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_.-]+)$/.exec(head);
  if (st) return { source: "steps", step: st[1] as string, name: st[2] as string, pointer };
  if (/^\$(workflows|sourceDescriptions|components)\./.test(head)) return { error: `${head.split(".")[0]} expressions are not supported by contractgen test` };
  return { error: `"${text}" is not a runtime expression ($url, $method, $statusCode, $request.*, $response.*, $inputs.*, $outputs.*, $steps.<id>.outputs.*)` };
}

/** The value at a JSON pointer, or undefined where the path leads nowhere. */
export const atPointer: (value: unknown, pointer: string) => unknown = getAt;

const own = (o: Readonly<Record<string, unknown>>, k: string): unknown => (Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);

/** The expression's value in `scope`; undefined where it names nothing (a missing member, no exchange yet). */
export function evaluate(expr: RuntimeExpression, scope: ExpressionScope): unknown {
  const ex = scope.exchange;
  switch (expr.source) {
    case "url":
      return ex?.url;
    case "method":
      return ex?.method;
    case "statusCode":
      return ex?.statusCode;
    case "inputs":
      return atPointer(own(scope.inputs, expr.name), expr.pointer);
    case "outputs":
      return atPointer(own(scope.outputs ?? {}, expr.name), expr.pointer);
    case "steps": {
      const step = own(scope.steps, expr.step) as Readonly<Record<string, unknown>> | undefined;
      return step === undefined ? undefined : atPointer(own(step, expr.name), expr.pointer);
    }
    case "request":
    case "response": {
      if (!ex) return undefined;
      if (expr.part === "body") return atPointer(expr.source === "request" ? ex.request.body : ex.response.body, expr.pointer);
      if (expr.source === "response") return ex.response.header(expr.name) ?? undefined;
      const bag = ex.request[expr.part] as Readonly<Record<string, unknown>>;
      // Header names are case-insensitive on the wire.
      if (expr.part === "header") return Object.entries(bag).find(([k]) => k.toLowerCase() === expr.name.toLowerCase())?.[1];
      return own(bag, expr.name);
    }
  }
}

/** Every `{$…}` embedded in `text`, with what each parses to. */
export function embedded(text: string): { readonly raw: string; readonly parsed: RuntimeExpression | { readonly error: string } }[] {
  const out: { raw: string; parsed: RuntimeExpression | { error: string } }[] = [];
  for (const m of text.matchAll(/\{(\$[^{}]+)\}/g)) out.push({ raw: m[0], parsed: parseExpression(m[1] as string) });
  return out;
}

/**
 * A value with its expressions filled in: a string that is one expression becomes that value (of
 * any type); `{$…}` inside a longer string is replaced by its text; objects and arrays are filled
 * member by member.
 */
export function fill(value: unknown, scope: ExpressionScope): unknown {
  if (typeof value === "string") {
    if (value.startsWith("$")) {
      const parsed = parseExpression(value);
      if (!("error" in parsed)) return evaluate(parsed, scope);
    }
    if (!value.includes("{$")) return value;
    return value.replace(/\{(\$[^{}]+)\}/g, (whole, inner: string) => {
      const parsed = parseExpression(inner);
      if ("error" in parsed) return whole;
      const v = evaluate(parsed, scope);
      return v === undefined || v === null ? "" : typeof v === "object" ? JSON.stringify(v) : String(v);
    });
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, scope));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const filled = fill(v, scope);
      if (filled !== undefined) out[k] = filled;
    }
    return out;
  }
  return value;
}
