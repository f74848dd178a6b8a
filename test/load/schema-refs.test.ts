import { describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { loadSpec } from "../../generators/dist/index.js";
import { tmpDir } from "../generator/helpers.js";

// A Schema Object's `$ref` must name a schema; one naming a response or a parameter is refused where
// it stands (test/generator/errors.test.ts has the CLI's report). Text that only looks like a
// reference, inside data, is not judged.
async function load(schemas: Record<string, unknown>): Promise<unknown> {
  const file = path.join(tmpDir("schema-refs-"), "openapi.json");
  const doc = {
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    paths: { "/a": { get: { operationId: "getA", responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } } } } } } },
    components: {
      schemas,
      responses: { Status: { description: "a summary" } },
      examples: { Sample: { value: { ok: true } } },
    },
  };
  writeFileSync(file, JSON.stringify(doc, null, 2));
  return loadSpec(file);
}

describe("schema $refs to components that are no schemas", () => {
  it("refuses one in a property, even a property named like a data keyword", async () => {
    await expect(load({ Thing: { type: "object", properties: { examples: { $ref: "#/components/responses/Status" } } } })).rejects.toMatchObject({
      issues: [expect.objectContaining({ pointer: "#/components/schemas/Thing/properties/examples/$ref", message: expect.stringContaining("points at a Response Object") })],
    });
  });

  it.each([
    { where: "an example", schema: { type: "object", example: { $ref: "#/components/examples/Sample" } } },
    { where: "an enum", schema: { enum: [{ $ref: "#/components/responses/Status" }] } },
    { where: "an extension", schema: { type: "object", "x-source": { $ref: "#/components/responses/Status" } } },
  ])("leaves text that looks like one inside $where", async ({ schema }) => {
    await expect(load({ Thing: schema })).resolves.toBeDefined();
  });
});
