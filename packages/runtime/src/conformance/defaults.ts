/**
 * A parameter's stated default is what the server does when the parameter is left out: a read asked
 * without it and asked with it set to its `default` answers alike. A server that applies another
 * default (deleted objects shown where `with_deleted` defaults to false, another page size, another
 * order) answers differently, and the first difference is named.
 *
 * Answers change for reasons of their own (a clock, a request id): the read without the parameter is
 * sent twice, and only what those two answers share is compared. Members that echo the parameter
 * itself (`request.params.with_deleted`) and the next-page cursor (which may encode the query) are not
 * compared.
 */
import type { OperationCase } from "./plan.js";

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => v !== null && typeof v === "object" && !Array.isArray(v);

/** Optional query parameters of a read whose schema states a default, with that default. */
export function statedDefaults(op: OperationCase): { readonly name: string; readonly value: unknown }[] {
  if (op.method !== "GET") return [];
  const out: { name: string; value: unknown }[] = [];
  for (const p of op.parameters) {
    if (p.in !== "query" || p.required) continue;
    if (p.name === op.pagination?.cursorParam) continue;
    const schema = op.request?.parameters[p.name];
    if (!isRec(schema) || !Object.prototype.hasOwnProperty.call(schema, "default")) continue;
    const value = schema["default"];
    if (value === null || value === undefined) continue;
    out.push({ name: p.name, value });
  }
  return out;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
const escape = (key: string): string => key.replace(/~/g, "~0").replace(/\//g, "~1");

/**
 * Where `withDefault` differs from `without`, at places where `without` and `again` (the same
 * request repeated) agree. Members named `param` and the pointers in `ignore` are not compared.
 * At most `limit` differences, as JSON pointers with both values.
 */
export function defaultDifferences(without: unknown, again: unknown, withDefault: unknown, param: string, ignore: readonly string[] = [], limit = 3): string[] {
  const out: string[] = [];
  const walk = (a: unknown, a2: unknown, b: unknown, at: string): void => {
    if (out.length >= limit || ignore.includes(at) || same(a, b)) return;
    if (isRec(a) && isRec(a2) && isRec(b)) {
      for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
        if (key === param) continue;
        const here = `${at}/${escape(key)}`;
        const inA = Object.prototype.hasOwnProperty.call(a, key);
        const inA2 = Object.prototype.hasOwnProperty.call(a2, key);
        const inB = Object.prototype.hasOwnProperty.call(b, key);
        // A member only one of the two plain answers has comes and goes by itself.
        if (inA !== inA2 || ignore.includes(here)) continue;
        if (inA && !inB) out.push(`${here} is ${JSON.stringify(a[key])} without it and missing with it`);
        else if (!inA && inB) out.push(`${here} is missing without it and ${JSON.stringify(b[key])} with it`);
        else walk(a[key], a2[key], b[key], here);
        if (out.length >= limit) return;
      }
      return;
    }
    if (Array.isArray(a) && Array.isArray(a2) && Array.isArray(b) && a.length === a2.length) {
      if (a.length !== b.length) {
        out.push(`${at || "/"} holds ${a.length} item(s) without it and ${b.length} with it`);
        return;
      }
      for (let i = 0; i < a.length && out.length < limit; i++) walk(a[i], a2[i], b[i], `${at}/${i}`);
      return;
    }
    // A value that changed between the two plain answers is the server's own (a clock): not compared.
    if (!same(a, a2)) return;
    out.push(`${at || "/"} is ${JSON.stringify(a)} without it and ${JSON.stringify(b)} with it`);
  };
  walk(without, again, withDefault, "");
  return out;
}
