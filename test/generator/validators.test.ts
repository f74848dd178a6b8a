/**
 * The generated `./validators` of the three packages, exercised as users import them: precompiled
 * (nothing compiles at import), every contract example accepted, every cross-field rule accepted
 * and rejected by the standalone code, request input coerced or answered with the invalid-request
 * problem naming each failure.
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import * as core from "@devplatform/core/validators";
import * as audiences from "@devplatform/ads-audiences/validators";
import * as campaigns from "@devplatform/ads-campaigns/validators";
import { buildModel, loadSpec } from "../../generators/dist/index.js";
import { RULE_CASES } from "../spec/ads-rules-cases.js";
import { declaredRules } from "../spec/ads-rules-support.js";
import { ROOT } from "./helpers.js";

type Validators = typeof core | typeof audiences | typeof campaigns;
const PACKAGES: Record<string, Validators> = { core, "ads-audiences": audiences, "ads-campaigns": campaigns };
type AnyValidator = ((data: unknown) => boolean) & { errors?: readonly { keyword: string; message?: string; params: Record<string, unknown> }[] | null };

const validatorOf = (v: Validators, typeName: string): AnyValidator => {
  const found = (v.schemaValidators as unknown as Record<string, AnyValidator>)[typeName];
  if (!found) throw new Error(`no validator for ${typeName}`);
  return found;
};

describe("precompiled validators", () => {
  it.each(Object.keys(PACKAGES))("%s: the compiled module imports only ajv's small runtime helpers, never the compiler", (name) => {
    for (const file of ["validators.strict.js", "validators.params.js"]) {
      const text = readFileSync(path.join(ROOT, "packages", name, "compiled", file), "utf8");
      const imports = [...text.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]);
      for (const spec of imports) expect(spec).toMatch(/^(ajv\/dist\/runtime\/|ajv-formats\/dist\/formats\.js$|@contractgen\/runtime\/)/);
      expect(text).not.toMatch(/new Function|\bcompile\(/);
    }
  });

  it.each(Object.keys(PACKAGES))("%s: the tables module (JavaScript, unchecked by TypeScript) points every entry at a compiled validator", async (name) => {
    const text = readFileSync(path.join(ROOT, "packages", name, "compiled", "validators.tables.js"), "utf8");
    expect([...text.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1])).toEqual(["./validators.params.js", "./validators.strict.js"]);
    const model = buildModel(await loadSpec(path.join(ROOT, "spec", `${name}.yaml`), { cwd: ROOT }), name);
    const ops = (PACKAGES[name] as Validators).operationValidators as unknown as Record<
      string,
      { params: unknown; body?: { media: Record<string, unknown> }; responses: Record<string, Record<string, unknown>> }
    >;
    expect(Object.keys(ops)).toEqual(model.operations.map((o) => o.id));
    for (const op of model.operations) {
      const entry = ops[op.id];
      expect(typeof entry?.params).toBe("function");
      // A media type with a schema has a compiled validator; one without is left unvalidated (undefined).
      for (const c of op.requestBody?.contents ?? []) expect(typeof entry?.body?.media[c.mediaType]).toBe(c.schema ? "function" : "undefined");
      for (const r of op.responses) for (const c of r.contents) expect(typeof entry?.responses[r.status]?.[c.mediaType]).toBe(c.schema ? "function" : "undefined");
    }
  });

  it.each(Object.keys(PACKAGES))("%s: every example of the contract validates against its operation's schemas", async (name) => {
    const v = PACKAGES[name] as Validators;
    const model = buildModel(await loadSpec(path.join(ROOT, "spec", `${name}.yaml`), { cwd: ROOT }), name);
    const ops = v.operationValidators as unknown as Record<string, { body?: { media: Record<string, AnyValidator | undefined> } }>;
    let checked = 0;
    for (const op of model.operations) {
      for (const r of op.responses) {
        const status = /^\d{3}$/.test(r.status) ? Number(r.status) : r.status === "default" ? 599 : Number(r.status[0]) * 100;
        for (const c of r.contents) {
          for (const example of c.examples) {
            const result = v.validateResponse(op.id as never, status, c.mediaType, example);
            expect(result, `${op.id} ${r.status} ${c.mediaType}: ${JSON.stringify(result)}`).toEqual({ valid: true });
            checked++;
          }
        }
      }
      for (const c of op.requestBody?.contents ?? []) {
        const validate = ops[op.id]?.body?.media[c.mediaType];
        for (const example of c.examples) {
          if (!validate) continue;
          expect(validate(structuredClone(example)), `${op.id} request ${c.mediaType}: ${JSON.stringify(validate.errors)}`).toBe(true);
          checked++;
        }
      }
    }
    for (const s of model.schemas) {
      const examples = typeof s.schema === "object" && Array.isArray(s.schema["examples"]) ? (s.schema["examples"] as unknown[]) : [];
      for (const example of examples) {
        const validate = validatorOf(v, s.typeName);
        expect(validate(example), `${s.name}: ${JSON.stringify(validate.errors)}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
  });
});

describe("cross-field rules compiled into the standalone validators", () => {
  const validate = (c: (typeof RULE_CASES)[number], instance: unknown): { valid: boolean; messages: string[]; keywords: string[] } => {
    const v = c.spec === "ads-audiences.yaml" ? audiences : campaigns;
    if ("schema" in c.target) {
      const fn = validatorOf(v, c.target.schema);
      const valid = fn(structuredClone(instance));
      return { valid, messages: (fn.errors ?? []).map((e) => e.message ?? ""), keywords: (fn.errors ?? []).map((e) => e.keyword) };
    }
    const facts = (v.operationValidators as unknown as Record<string, { parameters: { name: string; in: string }[] }>)[c.target.query];
    const pathParams = Object.fromEntries((facts?.parameters ?? []).filter((p) => p.in === "path").map((p) => [p.name, "1234567890"]));
    const r = v.validateRequest(c.target.query as never, { path: pathParams, query: structuredClone(instance) as Record<string, unknown> });
    return r.valid ? { valid: true, messages: [], keywords: [] } : { valid: false, messages: r.problem.errors.map((e) => e.message), keywords: [] };
  };

  it.each(RULE_CASES)("$spec accepts $accepts", (c) => {
    const r = validate(c, c.valid);
    expect(r.valid, r.messages.join("; ")).toBe(true);
  });

  it.each(RULE_CASES)("$spec rejects $rejects", (c) => {
    const r = validate(c, c.invalid);
    expect(r.valid).toBe(false);
    if ("rule" in c.reason) {
      // The rule's own message, as written in the contract.
      const rule = c.reason.rule;
      const message = declaredRules(c.spec).find((d) => d.id === rule)?.message;
      expect(message, `rule ${rule} has a message in the contract`).toBeDefined();
      expect(r.messages).toContain(message);
    } else if ("schema" in c.target) {
      expect(r.keywords).toContain(c.reason.keyword);
    }
  });
});

describe("validateRequest", () => {
  it("coerces query strings, splits comma-separated arrays and applies defaults", () => {
    const r = audiences.validateRequest("listTailoredAudiencePermissions", {
      path: { account_id: "18ce54d4x5t", tailored_audience_id: "1nmth" },
      query: { with_total_count: "true", granted_account_ids: "1,2,3" },
    });
    expect(r.valid).toBe(true);
    if (!r.valid) return;
    expect(r.value.query).toEqual({ with_total_count: true, granted_account_ids: ["1", "2", "3"], count: 200 });
  });

  it("checks query rules on coerced values: with_total_count=true as text still excludes cursor", () => {
    const path = { account_id: "1", tailored_audience_id: "2" };
    const both = audiences.validateRequest("listTailoredAudiencePermissions", { path, query: { with_total_count: "true", cursor: "c-2" } });
    expect(both.valid).toBe(false);
    if (!both.valid) expect(both.problem.errors.map((e) => e.message)).toEqual(["with_total_count=true cannot be combined with cursor"]);
    expect(audiences.validateRequest("listTailoredAudiencePermissions", { path, query: { with_total_count: "false", cursor: "c-2" } }).valid).toBe(true);
  });

  it("answers the contract's invalid-request problem naming the parameter and its value", () => {
    const r = core.validateRequest("createStreamLink", { path: { webhook_id: "12a" } });
    expect(r.valid).toBe(false);
    if (r.valid) return;
    expect(r.problem.type).toBe("https://api.example.com/2/problems/invalid-request");
    expect(r.problem.status).toBe(400);
    expect(r.problem.errors).toEqual([{ message: 'webhook_id must match pattern "^[0-9]{1,19}$"', parameters: { webhook_id: ["12a"] } }]);
  });

  it("reports every failure, one entry each: bound, enum, missing required", () => {
    const r = audiences.validateRequest("listProducts", { path: { product_catalog_id: "1" }, query: { count: "101" } });
    expect(r.valid).toBe(false);
    const k = audiences.validateRequest("searchKeywordInsights", { query: { granularity: "WEEK", keywords: "shoes" } });
    expect(k.valid).toBe(false);
    if (r.valid || k.valid) return;
    expect(r.problem.errors).toEqual([{ message: "count must be <= 100", parameters: { count: ["101"] } }]);
    const names = k.problem.errors.map((e) => Object.keys(e.parameters)[0]).sort();
    expect(names).toEqual(["granularity", "start_time"]);
  });

  it("reports all failures of a 100-product batch, not only the first", () => {
    const products = Array.from({ length: 100 }, (_, i) => ({
      id: `sku-${i}`,
      title: "t",
      description: "d",
      availability: "in stock",
      condition: "new",
      price: "free",
      link: "http://insecure.example.com",
      image_link: "https://x.example.com/i.jpg",
      brand: "b",
    }));
    const r = audiences.validateRequest("upsertProducts", { path: { product_catalog_id: "1" }, body: { products }, contentType: "application/json" });
    expect(r.valid).toBe(false);
    if (r.valid) return;
    const keys = r.problem.errors.flatMap((e) => Object.keys(e.parameters));
    for (let i = 0; i < 100; i++) {
      expect(keys).toContain(`body/products/${i}/price`);
      expect(keys).toContain(`body/products/${i}/link`);
    }
    expect(keys).toContain("body/products"); // and the batch is over its 25-product limit
  });

  it("refuses a body in an undeclared media type, flagged for a 415", () => {
    const r = audiences.validateRequest("upsertProducts", { path: { product_catalog_id: "1" }, body: "a=b", contentType: "text/plain" });
    expect(r.valid).toBe(false);
    if (r.valid) return;
    expect(r.unsupportedMediaType).toBe(true);
    expect(r.problem.errors[0]?.parameters).toEqual({ "content-type": ["text/plain"] });
  });

  it("keeps __proto__ in request input from reaching any prototype", () => {
    const query = JSON.parse('{"__proto__": {"polluted": true}, "count": "5"}') as Record<string, unknown>;
    const r = audiences.validateRequest("listProducts", { path: { product_catalog_id: "1" }, query });
    expect(r.valid).toBe(true);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });
});

describe("validateResponse", () => {
  it("accepts a declared status and media type with a valid body, and names what is wrong otherwise", () => {
    expect(core.validateResponse("createStreamLink", 200, "application/json", { data: { provisioned: true } })).toEqual({ valid: true });
    const wrongType = core.validateResponse("createStreamLink", 200, "application/json", { data: { provisioned: "yes" } });
    expect(wrongType).toEqual({ valid: false, errors: [{ message: "body/data/provisioned must be boolean", parameters: { "body/data/provisioned": ["yes"] } }] });
    const wrongMedia = core.validateResponse("createStreamLink", 200, "text/html", "<p>");
    expect(wrongMedia.valid).toBe(false);
  });

  it("checks a catalogued problem against the schema its type names, and names the failing member", () => {
    const problem = { type: "https://api.example.com/2/problems/resource-not-found", title: "Not Found Error", parameter: "ids", value: "1", resource_id: "1", resource_type: "post" };
    expect(core.validateResponse("getPostsByIds", 200, "application/json", { data: [], errors: [problem] })).toEqual({ valid: true });
    const bad = core.validateResponse("getPostsByIds", 200, "application/json", { data: [], errors: [problem, { ...problem, resource_type: "planet" }] });
    expect(bad.valid).toBe(false);
    if (bad.valid) return;
    const named = bad.errors.flatMap((e) => Object.keys(e.parameters));
    expect(named).toContain("body/errors/1/resource_type");
    // Only the mapped schema was consulted: no other problem type's pattern is reported.
    expect(bad.errors.map((e) => e.message).join("\n")).not.toMatch(/client-disconnected|must match exactly one schema/);
    // A type from another problem base is not a mapping key: the union decides, as JSON Schema reads it.
    expect(core.validateResponse("getPostsByIds", 200, "application/json", { data: [], errors: [{ ...problem, type: "https://other.example/p/resource-not-found" }] })).toEqual({ valid: true });
  });

  it("rejects a status the operation does not declare (createBearerToken declares 200 and 403 only)", () => {
    const none = core.validateResponse("createBearerToken", 500, "application/json", {});
    expect(none).toEqual({ valid: false, errors: [{ message: "status 500 is not declared for createBearerToken", parameters: { status: ["500"] } }] });
    // A range or default covers what it names: 4XX covers 404 for getPostsByIds.
    expect(core.validateResponse("getPostsByIds", 404, "application/json", { errors: [{ code: 1, message: "m" }] }).valid).toBe(true);
  });
});
