/**
 * Negative cases for JSON request bodies: every member broken in each way its schema states (missing
 * when required, wrong type, outside its enum, bounds and lengths by one, pattern), an undeclared
 * member where the object allows none, a batch one over its limit, and each `x-rules` rule broken.
 * Members are reached through required parents only, so the valid body always holds the parent
 * and the one broken member is the only thing wrong.
 */
import type { Operation } from "../../model/ir.js";
import { isObj, violations, type Resolve } from "./negatives.js";
import { breakRules } from "./rules.js";

type Obj = Record<string, unknown>;

/** Pointers (with `*` for array items) of body objects that carry `x-rules`, with their rules. */
function bodyRules(schema: unknown, resolve: Resolve): { pointer: string; rules: unknown[] }[] {
  const out: { pointer: string; rules: unknown[] }[] = [];
  const seen = new Set<unknown>();
  const walk = (node: unknown, pointer: string, depth: number): void => {
    if (depth > 8) return;
    const s = resolve(node);
    if (seen.has(s)) return;
    seen.add(s);
    const raw = isObj(node) && typeof node["$ref"] === "string" ? s : node;
    const rules = isObj(raw) && Array.isArray(raw["x-rules"]) ? raw["x-rules"] : isObj(s) && Array.isArray(s["x-rules"]) ? s["x-rules"] : [];
    if (rules.length > 0) out.push({ pointer, rules });
    if (isObj(s["properties"])) for (const [k, v] of Object.entries(s["properties"])) walk(v, `${pointer}/${k}`, depth + 1);
    if (s["items"] !== undefined) walk(s["items"], `${pointer}/*`, depth + 1);
    seen.delete(s);
  };
  walk(schema, "", 0);
  return out;
}

const escape = (name: string): string => name.replace(/~/g, "~0").replace(/\//g, "~1");

/** Each member of `schema` broken once, recursing into required object members up to `depth`. */
function memberNegatives(schema: unknown, resolve: Resolve, pointer: string, depth: number, out: Obj[]): void {
  const root = resolve(schema);
  const required = new Set(Array.isArray(root["required"]) ? root["required"].filter((r): r is string => typeof r === "string") : []);
  const props = isObj(root["properties"]) ? root["properties"] : {};
  for (const [name, sub] of Object.entries(props)) {
    const at = `${pointer}/${escape(name)}`;
    const prop = resolve(sub);
    if (prop["readOnly"] === true) continue;
    if (required.has(name)) out.push({ label: `without its required body member ${at.slice(1)}`, parameter: `body${at}`, in: "body", bodyRemove: at });
    for (const v of violations(sub, resolve, false)) out.push({ label: `with body member ${at.slice(1)} ${v.label}`, parameter: `body${at}`, in: "body", bodySet: { pointer: at, value: v.value } });
    if (required.has(name) && depth > 0 && isObj(prop["properties"])) memberNegatives(prop, resolve, at, depth - 1, out);
  }
  if (root["additionalProperties"] === false && Object.keys(props).length > 0) {
    const extra = "undeclared_member";
    if (!(extra in props))
      out.push({ label: `with an undeclared member at ${pointer || "the top level"}`, parameter: `body${pointer}/${extra}`, in: "body", bodySet: { pointer: `${pointer}/${extra}`, value: "x" } });
  }
}

export function bodyNegatives(op: Operation, schema: unknown, resolve: Resolve): Obj[] {
  const out: Obj[] = [];
  memberNegatives(schema, resolve, "", 2, out);
  const batch = op.limits.find((l) => l.kind === "batchItems");
  if (batch?.pointer !== undefined && batch.max !== undefined && batch.max <= 5000) {
    out.push({
      label: `with one item over its ${batch.max}-item batch limit`,
      parameter: batch.pointer === "" ? "body" : `body${batch.pointer}`,
      in: "body",
      bodyOverfill: { pointer: batch.pointer, count: batch.max + 1 },
    });
  }
  for (const site of bodyRules(schema, resolve)) {
    for (const br of breakRules(site.rules, resolve)) {
      const at = site.pointer.replace(/\*/g, "0");
      out.push({ label: `breaking rule ${br.rule}`, parameter: `body${at}`, in: "body", bodyPatch: { pointer: at, set: br.set, remove: br.remove }, rule: br.rule, message: br.message });
    }
  }
  return out;
}
