/**
 * The generated `./problems`: one class per catalogue entry, parsed back from its own JSON, RFC 9457
 * reading rules, the legacy envelope, and bodies built to break a parser.
 */
import { describe, expect, it } from "vitest";
import path from "node:path";
import { problems } from "@devplatform/core";
import * as audienceProblems from "@devplatform/ads-audiences/problems";
import { buildModel, loadSpec } from "../../generators/dist/index.js";
import { ROOT } from "./helpers.js";

const model = buildModel(await loadSpec(path.join(ROOT, "spec/core.yaml"), { cwd: ROOT }), "core");
const classes = problems.problemClasses;

/** The typed example each catalogue entry carries in the contract. */
function exampleOf(schemaName: string): Record<string, unknown> {
  const schema = model.schemas.find((s) => s.name === schemaName)?.schema as { examples?: Record<string, unknown>[] } | undefined;
  const example = schema?.examples?.[0];
  if (!example) throw new Error(`${schemaName} has no example in the contract`);
  return example;
}

describe("problem classes of @devplatform/core", () => {
  it("has one class per catalogue entry: the 17 problem types and about:blank", () => {
    expect(classes).toHaveLength(18);
    expect(new Set(classes.map((c) => c.slug)).size).toBe(18);
    expect(classes.map((c) => c.slug)).toContain("about:blank");
  });

  it.each(model.problems.map((p) => [p.typeName, p.schemaName, p.slug] as const))("%s serializes and parses back to an equal instance of the same class", (typeName, schemaName) => {
    const cls = classes.find((c) => c.name === typeName);
    expect(cls).toBeDefined();
    const original = problems.parseProblem(exampleOf(schemaName));
    expect(original).toBeInstanceOf(cls as NonNullable<typeof cls>);
    const json = JSON.parse(JSON.stringify(original)) as Record<string, unknown>;
    const again = problems.parseProblem(json);
    expect(again.constructor).toBe(original.constructor);
    expect(again.toJSON()).toEqual(original.toJSON());
    expect(again.members).toEqual(original.members);
  });

  it("keeps instanceof working across the hierarchy", () => {
    const p = new problems.ResourceNotFoundProblem({ detail: "no such post", parameter: "id", value: "1", resource_id: "1", resource_type: "post" });
    expect(p).toBeInstanceOf(problems.ResourceNotFoundProblem);
    expect(p).toBeInstanceOf(problems.Problem);
    expect(p).toBeInstanceOf(Error);
    expect(p).not.toBeInstanceOf(problems.UsageCappedProblem);
    expect(p.resource_type).toBe("post");
    expect(problems.ResourceNotFoundProblem.type).toBe("https://api.example.com/2/problems/resource-not-found");
    expect(p.toJSON()).toEqual({
      type: "https://api.example.com/2/problems/resource-not-found",
      title: "ResourceNotFoundProblem",
      detail: "no such post",
      parameter: "id",
      value: "1",
      resource_id: "1",
      resource_type: "post",
    });
  });

  it("maps a type by its slug whatever the deployment's problem base, or only the given base", () => {
    const body = { type: "https://other.example/problems/usage-capped", title: "Usage capped", period: "Daily", scope: "Account" };
    expect(problems.parseProblem(body)).toBeInstanceOf(problems.UsageCappedProblem);
    const strict = problems.parseProblem(body, undefined, { base: "https://api.example.com/2/problems" });
    expect(strict.constructor).toBe(problems.Problem);
  });

  it("follows RFC 9457: a missing type is about:blank, an unknown type is a base Problem, status comes from the response", () => {
    const blank = problems.parseProblem({ title: "Teapot" }, 418);
    expect(blank).toBeInstanceOf(problems.GenericProblem);
    expect(blank.type).toBe("about:blank");
    expect(blank.status).toBe(418);
    const unknown = problems.parseProblem({ type: "https://api.example.com/2/problems/brand-new", title: "New" });
    expect(unknown.constructor).toBe(problems.Problem);
    expect(unknown.type).toBe("https://api.example.com/2/problems/brand-new");
  });

  it("ignores members of the wrong type instead of throwing", () => {
    const p = problems.parseProblem({ type: "x/usage-capped", title: 7, status: "404", detail: { no: 1 }, period: "Hourly", scope: "Account" }, 429);
    expect(p).toBeInstanceOf(problems.UsageCappedProblem);
    expect(p.title).toBe("UsageCappedProblem"); // title 7 ignored
    expect(p.status).toBe(429); // "404" ignored, the response status used
    expect(p.detail).toBeUndefined();
    expect((p as InstanceType<typeof problems.UsageCappedProblem>).period).toBeUndefined(); // not in the enum
    expect((p as InstanceType<typeof problems.UsageCappedProblem>).scope).toBe("Account");
  });

  it.each([
    ["an array", [1, 2, 3]],
    ["a string", "<html>oops</html>"],
    ["null", null],
    ["a number", 42],
    ["__proto__ members", JSON.parse('{"type":"x/conflict","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}')],
    ["members named like Error's own", { type: "x/conflict", title: "t", name: "evil", message: "evil", stack: "evil", toJSON: "evil" }],
    ["a huge detail", { type: "x/conflict", title: "t", detail: "d".repeat(5_000_000) }],
  ])("never throws and never pollutes prototypes on %s", (_what, body) => {
    const p = problems.parseProblem(body, 500);
    expect(p).toBeInstanceOf(problems.Problem);
    expect(() => JSON.stringify(p)).not.toThrow();
    expect(typeof p.toJSON).toBe("function");
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
  });
});

describe("the legacy envelope", () => {
  it.each([
    [89, 401, "Invalid or expired token"],
    [99, 403, "Unable to verify your credentials"],
  ])("parses code %i (HTTP %i) to an ApiError callers can branch on", (code, status, message) => {
    const e = problems.parseLegacyError({ errors: [{ code, message }] }, status);
    expect(e).toBeInstanceOf(problems.ApiError);
    expect(e?.codes).toEqual([code]);
    expect(e?.status).toBe(status);
    expect(e?.hasCode(code)).toBe(true);
    expect(e?.toJSON()).toEqual({ errors: [{ code, message }] });
  });

  it("is not an envelope without a well-formed entry", () => {
    expect(problems.parseLegacyError({ errors: [] })).toBeUndefined();
    expect(problems.parseLegacyError({ errors: [{ code: "89" }] })).toBeUndefined();
    expect(problems.parseLegacyError([{ code: 89, message: "m" }])).toBeUndefined();
  });
});

describe("advertising error classes", () => {
  it("keeps any body of the unshown advertising envelope and says it fits", () => {
    for (const body of [{ whatever: 1 }, "text", null, []]) {
      const e = new audienceProblems.AdsError(400, body, "application/json");
      expect(e).toBeInstanceOf(audienceProblems.ResponseError);
      expect(e.body).toEqual(body);
      expect(e.bodyFits).toBe(true);
    }
  });

  it("checks a membership batch error body against its schema", () => {
    const ok = new audienceProblems.AdsBatchError(400, { errors: [{}], operation_errors: [{}] });
    expect(ok.bodyFits).toBe(true);
    const wrong = new audienceProblems.AdsBatchError(400, { operation_errors: "none" });
    expect(wrong.bodyFits).toBe(false);
    expect(wrong.body).toEqual({ operation_errors: "none" }); // kept as it came
  });
});
