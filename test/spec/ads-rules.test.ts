/**
 * Cross-field rules of the advertising contracts (spec/ads-audiences.yaml, spec/ads-campaigns.yaml):
 * for every rule one accepted and one rejected instance (ads-rules-cases.ts), validated with ajv
 * 2020-12 and the `x-rules` keyword against the schema dereferenced from the contract. Operation
 * rules on the query are checked against the query as one object (its parameter schemas plus the
 * operation's x-rules). A rejected instance must fail for the intended reason only, and every
 * `x-rules` entry of a contract must have its row in the table.
 */
import { describe, expect, it } from "vitest";
import type { ErrorObject } from "ajv";
import { RULE_CASES, type RuleCase, type RuleReason, type SchemaReason } from "./ads-rules-cases.js";
import { ADS_SPECS, componentSchema, declaredRules, querySchema, validate } from "./ads-rules-support.js";

const schemaOf = (c: RuleCase): Promise<Record<string, unknown>> => ("schema" in c.target ? componentSchema(c.spec, c.target.schema) : querySchema(c.spec, c.target.query));

const isRuleReason = (reason: RuleCase["reason"]): reason is RuleReason => "rule" in reason;

const describeErrors = (errors: ErrorObject[]): string =>
  errors.map((e) => `${e.keyword} at "${e.instancePath}" (${e.schemaPath}${e.keyword === "x-rules" ? ` ${String(e.params.rule)}` : ""}): ${e.message}`).join("\n");

const matches = (e: ErrorObject, r: SchemaReason): boolean => e.keyword === r.keyword && e.instancePath === r.instancePath && e.schemaPath === r.schemaPath;

const withinScope = (e: ErrorObject, r: SchemaReason): boolean => (r.scope ?? [r.schemaPath]).some((prefix) => e.schemaPath.startsWith(prefix));

describe.each(ADS_SPECS)("cross-field rules of spec/%s", (spec) => {
  const cases = RULE_CASES.filter((c) => c.spec === spec);
  // Response rules are facts about answers: test/spec/response-rules.test.ts checks them.
  const declared = declaredRules(spec).filter((r) => !r.onResponse);

  it.each(cases)("accepts $accepts", async (c) => {
    const errors = validate(await schemaOf(c), c.valid);
    expect(errors, describeErrors(errors)).toEqual([]);
  });

  it.each(cases)("rejects $rejects", async (c) => {
    const errors = validate(await schemaOf(c), c.invalid);
    const report = describeErrors(errors);
    expect(errors.length, "the instance was accepted").toBeGreaterThan(0);
    const reason = c.reason;
    if (isRuleReason(reason)) {
      const rule = declared.find((r) => r.id === reason.rule);
      expect(rule, `${reason.rule} is not an x-rules entry of ${spec}`).toBeDefined();
      const hits = errors.filter((e) => e.keyword === "x-rules" && e.params.rule === reason.rule);
      expect(
        hits.map((e) => e.message),
        report,
      ).toEqual([rule?.message]);
      const also = reason.also ?? [];
      const unrelated = errors.filter((e) => !hits.includes(e) && !also.some((a) => matches(e, a) || withinScope(e, a)));
      expect(unrelated, `failures other than ${reason.rule}:\n${report}`).toEqual([]);
      for (const a of also)
        expect(
          errors.some((e) => matches(e, a)),
          report,
        ).toBe(true);
    } else {
      expect(
        errors.some((e) => matches(e, reason)),
        `no ${reason.keyword} failure at "${reason.instancePath}" (${reason.schemaPath}):\n${report}`,
      ).toBe(true);
      const unrelated = errors.filter((e) => !withinScope(e, reason));
      expect(unrelated, `failures outside ${(reason.scope ?? [reason.schemaPath]).join(", ")}:\n${report}`).toEqual([]);
    }
  });

  it("tests every x-rules entry the contract declares, each id once", () => {
    const ids = declared.map((r) => r.id);
    expect(new Set(ids).size, `duplicate x-rules ids: ${ids.join(", ")}`).toBe(ids.length);
    const tested = new Set(
      cases
        .map((c) => c.reason)
        .filter(isRuleReason)
        .map((r) => r.rule),
    );
    expect(tested.size).toBe(declared.length);
    expect([...tested].sort()).toEqual([...ids].sort());
  });
});
