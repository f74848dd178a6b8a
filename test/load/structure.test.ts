// The OpenAPI structure check runs on validators compiled at build time (standalone ajv code in
// generators/dist/load). They must be the ones a run uses, and report exactly what compiling the
// same schemas at run time reports, for valid documents and for broken ones of both versions.
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../generator/helpers.js";

type Issues = { path: string; message: string; fix: string; severity: string }[];
const dist = (p: string): string => path.join(ROOT, "generators/dist/load", p);
const { validateStructure } = (await import(dist("validate-structure.js"))) as {
  validateStructure(doc: unknown, version: "3.0" | "3.1", options?: { precompiled?: boolean }): Issues;
};
const { structureKey, PRECOMPILED } = (await import(dist("structure-schemas.js"))) as { structureKey(): string; PRECOMPILED: Record<string, string> };
const { loadSpec } = (await import(path.join(ROOT, "generators/dist/load/load.js"))) as { loadSpec(p: string, o: { cwd: string }): Promise<{ document: unknown; version: "3.0" | "3.1" }> };

describe("precompiled structure validators", () => {
  it("are built with the key of the schemas and versions in use, so runs load them", () => {
    const require = createRequire(import.meta.url);
    for (const file of Object.values(PRECOMPILED)) expect((require(dist(file)) as { key: string }).key).toBe(structureKey());
  });

  const broken31 = {
    openapi: "3.1.0",
    info: { title: "t" },
    paths: {
      "/a": { get: { responses: { "200": { description: 5 } }, parameters: [{ name: "p", in: "nowhere" }] } },
      "/b": { post: { responses: {} } },
    },
    components: { schemas: { A: { type: { not: "a type" }, required: true, properties: { x: { items: [1] } } } } },
  };
  const broken30 = { openapi: "3.0.3", info: { title: "t", version: "1" }, paths: { "/a": { get: { responses: { "200": {} } } } }, components: { schemas: { A: { type: 5, nullable: "yes" } } } };
  const documents: { name: string; doc: () => Promise<{ document: unknown; version: "3.0" | "3.1" }> }[] = [
    { name: "spec/core.yaml", doc: () => loadSpec("spec/core.yaml", { cwd: ROOT }) },
    { name: "a 3.0 fixture", doc: () => loadSpec("test/fixtures/constructs/nullable-30.yaml", { cwd: ROOT }) },
    { name: "a broken 3.1 document", doc: async () => ({ document: broken31, version: "3.1" }) },
    { name: "a broken 3.0 document", doc: async () => ({ document: broken30, version: "3.0" }) },
  ];
  it.each(documents)("report what run-time compilation reports: $name", async ({ doc }) => {
    const { document, version } = await doc();
    const precompiled = validateStructure(document, version);
    expect(precompiled).toEqual(validateStructure(document, version, { precompiled: false }));
  });

  it("find the problems of a broken document", () => {
    const issues = validateStructure(broken31, "3.1");
    expect(issues.filter((i) => i.severity === "error").length).toBeGreaterThan(2);
    expect(issues.map((i) => i.path)).toContain("/components/schemas/A/type");
    expect(validateStructure(broken30, "3.0").length).toBeGreaterThan(0);
  });
});
