/**
 * The suite's valid requests: drawn from the contract's schemas with a seed, every one accepted by
 * the package's own request validators, the same for the same seed, and different for another.
 * No operation the contracts show lacks one, examples or not.
 */
import { describe, expect, it } from "vitest";
import { buildPositive, requestInput } from "../../packages/runtime/src/conformance/synth.js";
import type { ConformancePlan, RequestValidator, SuiteTools } from "../../packages/runtime/src/conformance/plan.js";
import * as core from "../../packages/core/src/index.js";
import * as audiences from "../../packages/ads-audiences/src/index.js";
import * as campaigns from "../../packages/ads-campaigns/src/index.js";
import { mockDocument as coreDoc } from "../../packages/core/compiled/mocks.data.js";
import { mockDocument as audiencesDoc } from "../../packages/ads-audiences/compiled/mocks.data.js";
import { mockDocument as campaignsDoc } from "../../packages/ads-campaigns/compiled/mocks.data.js";
import { plan as corePlan } from "../../packages/core/test/conformance.plan.js";
import { plan as audiencesPlan } from "../../packages/ads-audiences/test/conformance.plan.js";
import { plan as campaignsPlan } from "../../packages/ads-campaigns/test/conformance.plan.js";

interface Pkg {
  readonly plan: ConformancePlan;
  readonly tools: SuiteTools;
  readonly root: unknown;
}

const tools = (p: { validators: { validateRequest: unknown; validateResponse: unknown }; mocks: { mockValue: SuiteTools["mock"] } }): SuiteTools => ({
  validateRequest: p.validators.validateRequest as RequestValidator,
  validateResponse: p.validators.validateResponse as SuiteTools["validateResponse"],
  ...(p.mocks.mockValue ? { mock: p.mocks.mockValue } : {}),
});

const PACKAGES: readonly Pkg[] = [
  { plan: corePlan, tools: tools(core as never), root: coreDoc() },
  { plan: audiencesPlan, tools: tools(audiences as never), root: audiencesDoc() },
  { plan: campaignsPlan, tools: tools(campaigns as never), root: campaignsDoc() },
];

describe.each(PACKAGES)("valid requests for $plan.package", ({ plan, tools: t, root }) => {
  const shown = plan.operations.filter((o) => o.skip === undefined);

  it("exist for every operation the contract shows, drawn ones included, and the validators accept each", () => {
    const missing: string[] = [];
    for (const op of shown) {
      for (let i = 0; i < 3; i++) {
        const built = buildPositive(op, i, 1, {}, t, root);
        if (!built.ok) missing.push(`${op.id} #${i}: ${built.why}`);
        else {
          const verdict = t.validateRequest?.(op.id, requestInput(op, built.request.values, built.request.body));
          expect(verdict?.valid, `${op.id} #${i}`).toBe(true);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it("are the same for the same seed and vary with the seed", () => {
    let varied = 0;
    let drawn = 0;
    for (const op of shown) {
      const a = buildPositive(op, 1, 7, {}, t, root);
      const b = buildPositive(op, 1, 7, {}, t, root);
      expect(JSON.stringify(a)).toBe(JSON.stringify(b));
      const c = buildPositive(op, 1, 8, {}, t, root);
      if (a.ok && a.request.origin === "schema") {
        drawn++;
        if (JSON.stringify(a) !== JSON.stringify(c)) varied++;
      }
    }
    expect(drawn).toBeGreaterThan(0);
    // Operations without parameters or body have one request only; most have more to vary.
    expect(varied / drawn).toBeGreaterThan(0.5);
  });
});
