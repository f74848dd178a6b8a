import type { ApiModel, JsonSchema, Operation } from "../../model/ir.js";
import { defineEmitter } from "../emitter.js";
import { tsHeader } from "../header.js";
import { literal, ts } from "../ts.js";
import { mediaKind } from "../validators/index.js";
import { isObj, sampleValue, violations, type Resolve } from "./negatives.js";
import { breakRules } from "./rules.js";

type Obj = Record<string, unknown>;

function resolver(model: ApiModel): Resolve {
  const byName = new Map(model.schemas.map((s) => [s.name, s.schema]));
  return (schema) => {
    let s: unknown = schema;
    for (let hops = 0; hops < 20 && isObj(s) && typeof s["$ref"] === "string"; hops++) {
      const m = /^#\/components\/schemas\/(.+)$/.exec(s["$ref"] as string);
      s = m ? byName.get(decodeURIComponent(m[1] as string).replace(/~1/g, "/").replace(/~0/g, "~")) : undefined;
    }
    if (isObj(s) && Array.isArray(s["allOf"])) {
      // Merge allOf parts so negatives and samples see every constraint.
      const merged: Obj = { ...s };
      delete merged["allOf"];
      for (const part of s["allOf"]) {
        const p = isObj(part) && typeof part["$ref"] === "string" ? resolverOnce(byName, part) : part;
        if (!isObj(p)) continue;
        for (const [k, v] of Object.entries(p)) {
          if (k === "properties" && isObj(v)) merged["properties"] = { ...(isObj(merged["properties"]) ? merged["properties"] : {}), ...v };
          else if (k === "required" && Array.isArray(v)) merged["required"] = [...(Array.isArray(merged["required"]) ? merged["required"] : []), ...v];
          else if (merged[k] === undefined) merged[k] = v;
        }
      }
      return merged;
    }
    return isObj(s) ? s : {};
  };
}

function resolverOnce(byName: Map<string, JsonSchema>, ref: Obj): unknown {
  const m = /^#\/components\/schemas\/(.+)$/.exec(String(ref["$ref"]));
  return m ? byName.get(decodeURIComponent(m[1] as string)) : undefined;
}

/** Where a path parameter's values can be found: the list operation of its parent collection. */
function discovery(model: ApiModel, op: Operation, resolve: Resolve): Obj {
  const out: Obj = {};
  const segments = op.path.split("/");
  segments.forEach((seg, i) => {
    const m = /^\{(.+)\}$/.exec(seg);
    if (!m) return;
    const name = m[1] as string;
    const parent = segments.slice(0, i).join("/");
    const list = model.operations.find((o) => o.method === "get" && o.path === parent);
    if (!list) return;
    const items = list.pagination?.items ?? "/data";
    const success = list.responses.find((r) => /^2/.test(r.status));
    const media = success?.contents.find((c) => mediaKind(c.mediaType) === "json");
    const root = media?.schema !== undefined ? resolve(media.schema) : {};
    const data = isObj(root["properties"]) ? resolve(root["properties"]["data"] ?? {}) : {};
    const item = data["items"] !== undefined ? resolve(data["items"]) : {};
    const props = isObj(item["properties"]) ? Object.keys(item["properties"]) : [];
    const field = props.includes(name) ? name : props.includes("id") ? "id" : undefined;
    if (data["type"] === "array" && field) out[name] = { operationId: list.id, items, field };
  });
  return out;
}

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

/**
 * Makes the positive query meet the operation's own rules: an interval ending "now" by default gets
 * an explicit end within its limit; "one of these is required" gets its first member.
 */
function satisfyQueryRules(op: Operation, values: Obj, resolve: Resolve): void {
  const params = new Map(op.parameters.map((p) => [p.name, p]));
  for (const rule of op.rules) {
    if ((rule.in ?? "query") !== "query") continue;
    if (rule.kind === "maxInterval" && typeof values[rule.start] === "string" && values[rule.end] === undefined && params.has(rule.end)) {
      const start = Date.parse(values[rule.start] as string);
      if (!Number.isNaN(start)) values[rule.end] = new Date(start + 3_600_000).toISOString().replace(".000Z", "Z");
    }
    if (rule.kind === "schema" && isObj(rule.schema) && Array.isArray(rule.schema["anyOf"])) {
      const alternatives = rule.schema["anyOf"].map((b) => resolve(b)["required"]).filter(Array.isArray) as string[][];
      const met = alternatives.some((names) => names.every((n) => values[n] !== undefined));
      const first = alternatives[0]?.[0];
      if (!met && first !== undefined && params.has(first)) {
        const p = params.get(first);
        const v = p ? sampleValue(p.schema, resolve, p.example) : undefined;
        if (v !== undefined) values[first] = v;
      }
    }
  }
}

function operationPlan(model: ApiModel, op: Operation, resolve: Resolve): Obj {
  const kinds = new Map(model.securitySchemes.map((s) => [s.name, s.kind]));
  const security = op.security.map((req) => req.map((r) => kinds.get(r.scheme) ?? "unsupported"));
  const parameters = op.parameters
    .filter((p) => p.in !== "cookie" && !(p.in === "header" && ["accept", "content-type", "authorization"].includes(p.name.toLowerCase())))
    .map((p) => ({ name: p.name, in: p.in, required: p.required, style: p.style, explode: p.explode }));
  const base = { id: op.id, method: op.method.toUpperCase(), path: op.path, security, parameters };
  if (op.unspecified !== undefined) return { ...base, skip: `the contract does not show this operation's shape: ${op.unspecified}` };

  const values: Obj = {};
  let missing: string | undefined;
  for (const p of op.parameters) {
    if (!p.required && p.in !== "path") continue;
    const v = sampleValue(p.schema, resolve, p.example);
    if (v === undefined && p.in !== "path") missing ??= `no value the contract accepts is known for ${p.name}`;
    if (v !== undefined) values[p.name] = v;
  }
  satisfyQueryRules(op, values, resolve);
  const bodyMedia = op.requestBody?.contents.find((c) => mediaKind(c.mediaType) !== "none") ?? op.requestBody?.contents[0];
  const body = bodyMedia ? (bodyMedia.examples[0] ?? sampleValue(bodyMedia.schema, resolve)) : undefined;
  if (op.requestBody?.required && body === undefined) missing ??= "the contract gives no example request body";

  const negatives: Obj[] = [];
  for (const p of op.parameters) {
    if (p.in === "cookie" || p.in === "header") continue;
    if (p.required && p.in !== "path") negatives.push({ label: `without its required ${p.in} parameter ${p.name}`, parameter: p.name, in: p.in, remove: [p.name] });
    for (const v of violations(p.schema, resolve, true)) negatives.push({ label: `with ${p.name} ${v.label}`, parameter: p.name, in: p.in, set: { [p.name]: v.value } });
  }
  for (const br of breakRules(op.rules.filter((r) => (r.in ?? "query") === "query"), resolve)) {
    negatives.push({ label: `breaking rule ${br.rule}`, parameter: Object.keys(br.set)[0] ?? br.remove[0] ?? "query", in: "query", set: br.set, remove: br.remove, rule: br.rule, message: br.message });
  }
  if (bodyMedia && body !== undefined && mediaKind(bodyMedia.mediaType) === "json") {
    const root = resolve(bodyMedia.schema);
    const required = Array.isArray(root["required"]) ? root["required"].filter((r): r is string => typeof r === "string") : [];
    const props = isObj(root["properties"]) ? root["properties"] : {};
    for (const name of required) {
      negatives.push({ label: `without its required body property ${name}`, parameter: `body/${name}`, in: "body", bodyRemove: `/${name}` });
      const v = violations(props[name], resolve, false)[0];
      if (v) negatives.push({ label: `with body property ${name} ${v.label}`, parameter: `body/${name}`, in: "body", bodySet: { pointer: `/${name}`, value: v.value } });
    }
    const batch = op.limits.find((l) => l.kind === "batchItems");
    if (batch?.pointer !== undefined && batch.max !== undefined && batch.max <= 5000) {
      negatives.push({ label: `with one item over its ${batch.max}-item batch limit`, parameter: batch.pointer === "" ? "body" : `body${batch.pointer}`, in: "body", bodyOverfill: { pointer: batch.pointer, count: batch.max + 1 } });
    }
    for (const site of bodyRules(bodyMedia.schema, resolve)) {
      for (const br of breakRules(site.rules, resolve)) {
        const at = site.pointer.replace(/\*/g, "0");
        negatives.push({ label: `breaking rule ${br.rule}`, parameter: `body${at}`, in: "body", bodyPatch: { pointer: at, set: br.set, remove: br.remove }, rule: br.rule, message: br.message });
      }
    }
  }

  const examples = op.responses.flatMap((r) => r.contents.flatMap((c) => c.examples.map((example) => ({ status: r.status, mediaType: c.mediaType, example }))));
  return {
    ...base,
    ...(missing ? { missing } : {}),
    positive: { values, ...(body !== undefined ? { body, bodyMediaType: bodyMedia?.mediaType } : {}) },
    discover: discovery(model, op, resolve),
    negatives,
    examples,
  };
}

/** State scenarios from `x-transitions`: repeated deletes, soft deletion, the bearer token lifecycle. */
function scenarios(model: ApiModel): Obj[] {
  const out: Obj[] = [];
  const byId = new Map(model.operations.map((o) => [o.id, o]));
  const tables = [
    ...model.schemas.map((s) => (isObj(s.schema) ? s.schema["x-transitions"] : undefined)),
    ...model.operations.map((o) => o.transitions),
  ].filter(isObj);
  const seen = new Set<string>();
  for (const table of tables) {
    const transitions = Array.isArray(table["transitions"]) ? table["transitions"].filter(isObj) : [];
    for (const t of transitions) {
      const op = typeof t["on"] === "string" ? byId.get(t["on"]) : undefined;
      if (!op) continue;
      const collection = op.path.replace(/\/\{[^}]+\}$/, "");
      const create = model.operations.find((o) => o.method === "post" && o.path === collection && o.unspecified === undefined);
      const withCreate = create ? { createOperationId: create.id } : {};
      if (op.method === "delete" && t["status"] === 404 && !seen.has(`repeat:${op.id}`)) {
        seen.add(`repeat:${op.id}`);
        out.push({ kind: "repeatDelete", operationId: op.id, ...withCreate, row: `${String(t["from"])} → ${String(t["on"])} again: ${String(t["status"])}` });
      }
      if (op.method === "delete" && table["field"] === "deleted" && !seen.has(`soft:${op.id}`)) {
        const list = model.operations.find((o) => o.method === "get" && o.path === collection && o.parameters.some((p) => p.name === "with_deleted"));
        if (list) {
          seen.add(`soft:${op.id}`);
          out.push({ kind: "softDelete", operationId: op.id, listOperationId: list.id, ...withCreate, row: `${String(t["from"])} → ${op.id}: deleted=true, listed only with with_deleted=true` });
        }
      }
    }
  }
  const create = model.operations.find((o) => o.id === "createBearerToken");
  const invalidate = model.operations.find((o) => o.id === "invalidateBearerToken");
  const probe = model.operations.find((o) => o.security.some((req) => req.some((r) => kindOf(model, r.scheme) === "bearer")) && o.unspecified === undefined);
  if (create && invalidate && probe) {
    out.push({ kind: "bearerLifecycle", create: create.id, invalidate: invalidate.id, probe: probe.id, row: "app-only bearer token: issued, returned again, invalidated, refused, a new one differs" });
  }
  return out;
}

function kindOf(model: ApiModel, scheme: string): string | undefined {
  const s = model.securitySchemes.find((x) => x.name === scheme);
  return s?.kind;
}

/**
 * `test/conformance.test.ts` and its plan: the vitest suite that checks a server against the
 * contract, generated from the IR. Cases are data (`test/conformance.plan.ts`); the runtime harness
 * runs them against `CONTRACT_BASE_URL` or the server a `CONTRACT_TARGET` module starts.
 */
export const conformanceEmitter = defineEmitter({
  name: "conformance",
  emit({ model }) {
    const resolve = resolver(model);
    const invalid = model.problems.find((p) => p.slug === "invalid-request");
    const plan = {
      package: model.name,
      title: model.info.title,
      namesParameters: invalid !== undefined,
      ...(invalid !== undefined ? { invalidRequestSlug: invalid.slug } : {}),
      operations: model.operations.map((op) => operationPlan(model, op, resolve)),
      scenarios: scenarios(model),
    };
    const planCode = ts`import type { ConformancePlan } from "@contractgen/runtime/conformance";

/** Every case the conformance suite runs, derived from the contract. */
export const plan: ConformancePlan = ${literal(plan)};
`;
    const suite = ts`import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runConformance } from "@contractgen/runtime/conformance";
import { validateResponse } from "../src/validators.js";
import { plan } from "./conformance.plan.js";

// Against CONTRACT_BASE_URL (contractgen test --base-url), or the server the CONTRACT_TARGET module starts.
runConformance({ afterAll, beforeAll, describe, expect, it }, plan, validateResponse as never);
`;
    return [
      { path: "test/conformance.plan.ts", contents: tsHeader(model) + planCode.text },
      { path: "test/conformance.test.ts", contents: tsHeader(model) + suite.text },
    ];
  },
});
