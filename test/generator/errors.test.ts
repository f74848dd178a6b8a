import { describe, expect, it } from "vitest";
import path from "node:path";
import { existsSync } from "node:fs";
import { FIXTURES, runCli, snapshotTree, tmpDir } from "./helpers.js";

const broken = (name: string): string => path.join("test/fixtures/broken", name);

describe("bad input gives a located error and writes nothing", () => {
  it.each([
    {
      spec: "invalid-yaml.yaml",
      where: "test/fixtures/broken/invalid-yaml.yaml:11:",
      pointer: "#",
      message: "invalid YAML",
      fix: "correct the YAML syntax",
    },
    {
      spec: "bad-ref.yaml",
      where: "test/fixtures/broken/bad-ref.yaml:15:17",
      pointer: "#/paths/~1a/get/responses/200/content/application~1json/schema/$ref",
      message: "does not resolve",
      fix: "point the $ref at an existing component",
    },
    {
      spec: "bad-file-ref.yaml",
      where: "test/fixtures/broken/bad-file-ref.yaml:15:17",
      pointer: "#/paths/~1a/get/responses/200/content/application~1json/schema/$ref",
      message: "nowhere.yaml does not exist",
      fix: "correct the relative path",
    },
    {
      spec: "invalid-openapi.yaml",
      where: "test/fixtures/broken/invalid-openapi.yaml:10:9",
      pointer: "#/paths/~1a/get/responses/200",
      message: "missing required property 'description'",
      fix: "add 'description' here",
    },
    {
      spec: "duplicate-ids.yaml",
      where: "test/fixtures/broken/duplicate-ids.yaml:13:7",
      pointer: "#/paths/~1b/get/operationId",
      message: "duplicate operationId 'getThing' (first used at test/fixtures/broken/duplicate-ids.yaml:8)",
      fix: "unique operationId",
    },
    {
      spec: "unsupported-version.yaml",
      where: "test/fixtures/broken/unsupported-version.yaml:1:1",
      pointer: "#/openapi",
      message: "OpenAPI version '4.0.0' is not supported",
      fix: "use OpenAPI 3.0.x or 3.1.x",
    },
    {
      spec: "swagger12.json",
      where: "test/fixtures/broken/swagger12.json:1:3",
      pointer: "#/swagger",
      message: "Swagger 1.2 is not supported",
      fix: "use Swagger 2.0 or OpenAPI 3.0.x/3.1.x",
    },
    {
      spec: "in-referenced/openapi.yaml",
      where: "test/fixtures/broken/in-referenced/paths.yaml:5:7",
      pointer: "#/A/get/responses/200",
      message: "missing required property 'description'",
      fix: "add 'description' here",
    },
    {
      spec: "properties-ref/openapi.yaml",
      where: "test/fixtures/broken/properties-ref/models.yaml:11:5",
      pointer: "#/other/properties/$ref",
      message: "`$ref` stands in for the whole properties map",
      fix: "reference a schema with these properties instead",
    },
    {
      spec: "schema-ref-to-response.yaml",
      where: "test/fixtures/broken/schema-ref-to-response.yaml:15:17",
      pointer: "#/paths/~1a/get/responses/200/content/application~1json/schema/$ref",
      message: "$ref '#/components/responses/Status' stands where a schema is expected but points at a Response Object (components/responses), not a schema",
      fix: "point the $ref at the schema it holds, '#/components/responses/Status/content/application~1json/schema'",
    },
    {
      spec: "schema-ref-to-parameter.yaml",
      where: "test/fixtures/broken/schema-ref-to-parameter.yaml:27:11",
      pointer: "#/components/schemas/Thing/properties/limit/$ref",
      message: "points at a Parameter Object (components/parameters), not a schema",
      fix: "point the $ref at the schema it holds, '#/components/parameters/Limit/schema'",
    },
    {
      spec: "mapping-file/openapi.yaml",
      where: "test/fixtures/broken/mapping-file/pet.yaml:7:5",
      pointer: "#/discriminator/mapping/cat",
      message: "discriminator mapping 'cat' refers to the file './cat.yaml'",
      fix: "map to the schema's name under components/schemas",
    },
  ])("$spec → $where", async ({ spec, where, pointer, message, fix }) => {
    const out = path.join(tmpDir(), "pkg");
    const r = await runCli(["generate", broken(spec), "--out", out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${where}`);
    expect(r.stderr).toContain(pointer);
    expect(r.stderr).toContain(message);
    expect(r.stderr).toContain(`fix: `);
    expect(r.stderr).toContain(fix);
    expect(r.stderr).toContain("nothing was written");
    expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/); // no stack trace without --verbose
    expect(existsSync(out)).toBe(false);
  });

  it("reports a missing spec file without a stack trace", async () => {
    const r = await runCli(["generate", "test/fixtures/does-not-exist.yaml", "--out", tmpDir()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("spec file not found");
  });

  it("shows the stack trace with --verbose", async () => {
    const r = await runCli(["generate", broken("bad-ref.yaml"), "--out", path.join(tmpDir(), "p"), "--verbose"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/SpecError/);
    expect(r.stderr).toMatch(/\n\s+at /);
  });

  it("leaves the previous output untouched when a later run fails", async () => {
    const dir = tmpDir();
    const out = path.join(dir, "pkg");
    const ok = await runCli(["generate", path.join(FIXTURES, "multi-file/openapi.yaml"), "--out", out, "--name", "@t/multi"]);
    expect(ok.code).toBe(0);
    const before = snapshotTree(out);
    expect(Object.keys(before)).toContain("src/types.ts");
    const failed = await runCli(["generate", broken("invalid-openapi.yaml"), "--out", out, "--name", "@t/multi"]);
    expect(failed.code).toBe(2);
    expect(snapshotTree(out)).toEqual(before);
  });

  it("answers usage errors with exit code 3 and help", async () => {
    const r = await runCli(["generate", "--no-such-flag"]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/Unknown argument/);
    const none = await runCli([]);
    expect(none.code).toBe(3);
  });

  it("documents every command and the exit codes in --help", async () => {
    for (const cmd of [[], ["generate"], ["check"], ["test"], ["diff"], ["mock"], ["scaffold"], ["init"]]) {
      const r = await runCli([...cmd, "--help"]);
      expect(r.code).toBe(0);
      // Compare without line breaks: yargs wraps the epilog at 100 columns.
      const text = r.stdout.replace(/\s+/g, " ");
      expect(text).toContain(
        "Exit codes: 0 success; 1 check found drift, test found a violation, diff found breaking changes or scaffold --check found work; 2 invalid input (spec, template, unparseable handler file); 3 usage error; 4 internal error.",
      );
    }
  });
});
