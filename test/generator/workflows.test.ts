/**
 * Workflow documents beside a contract (`<spec>.arazzo.yaml`): what the generator puts in the
 * conformance plan, what it refuses (with file:line:col, the pointer and the fix, writing nothing),
 * and that editing the document regenerates.
 */
import { describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { runCli, snapshotTree, tmpDir } from "./helpers.js";

const SPEC = `openapi: 3.1.0
info: { title: Things, version: 1.0.0 }
paths:
  /things:
    get:
      operationId: listThings
      parameters:
        - { name: q, in: query, schema: { type: string } }
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: object } } } }
    post:
      operationId: createThing
      requestBody: { content: { application/json: { schema: { type: object } } } }
      responses:
        '201': { description: made, content: { application/json: { schema: { type: object } } } }
  /things/{id}:
    get:
      operationId: getThing
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: object } } } }
`;

const GOOD = `arazzo: 1.0.1
info: { title: Things, version: 1.0.0 }
sourceDescriptions: [{ name: things, url: ./api.yaml, type: openapi }]
workflows:
  - workflowId: createThenRead
    summary: a made thing reads back
    inputs: { type: object, properties: { run: { type: string, x-unique: true } } }
    steps:
      - stepId: create
        operationId: createThing
        requestBody: { payload: { name: "t-{$inputs.run}" } }
        successCriteria: [{ condition: $statusCode == 201 }]
        outputs: { id: $response.body#/id }
      - stepId: read
        operationId: getThing
        parameters: [{ name: id, in: path, value: $steps.create.outputs.id }]
        successCriteria:
          - condition: $response.body#/name == $steps.create.outputs.id || $statusCode == 200
          - { type: jsonpath, context: $response.body, condition: "$[?@ == 'x']" }
`;

function project(arazzo: string): { dir: string; out: string } {
  const dir = tmpDir("cg-wf-");
  writeFileSync(path.join(dir, "api.yaml"), SPEC);
  writeFileSync(path.join(dir, "api.arazzo.yaml"), arazzo);
  return { dir, out: path.join(dir, "out") };
}

const generate = (dir: string) => runCli(["generate", "api.yaml", "--out", "out", "--name", "things", "--cache-dir", path.join(dir, ".cache")], dir);

describe("workflow documents", () => {
  it("become the plan's workflows: steps, parameters, criteria and outputs as written, data-changing ones marked", async () => {
    const { dir, out } = project(GOOD);
    const res = await generate(dir);
    expect(res.code, res.stderr).toBe(0);
    const plan = readFileSync(path.join(out, "test/conformance.plan.ts"), "utf8");
    expect(plan).toContain('id: "createThenRead"');
    expect(plan).toContain('source: "api.arazzo.yaml:5:5"');
    expect(plan).toContain("changesData: true");
    expect(plan).toContain('value: "$steps.create.outputs.id"');
    expect(plan).toContain("unique: true");
  });

  it("regenerates when only the workflow document changes", async () => {
    const { dir, out } = project(GOOD);
    expect((await generate(dir)).code).toBe(0);
    writeFileSync(path.join(dir, "api.arazzo.yaml"), GOOD.replace("a made thing reads back", "a made thing is read back"));
    const again = await generate(dir);
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(path.join(out, "test/conformance.plan.ts"), "utf8")).toContain("a made thing is read back");
  });

  it.each([
    {
      name: "an unknown operation",
      edit: (s: string) => s.replace("operationId: getThing", "operationId: getThings"),
      where: "api.arazzo.yaml:15:9",
      message: 'operationId "getThings" is not an operation of the contract',
      fix: "did you mean getThing",
    },
    {
      name: "an unknown parameter",
      edit: (s: string) => s.replace("{ name: id, in: path", "{ name: thing_id, in: path"),
      where: "api.arazzo.yaml:16:24",
      message: "getThing has no path parameter thing_id",
      fix: "use one of: id (path)",
    },
    {
      name: "a later step's output",
      edit: (s: string) => s.replace('"t-{$inputs.run}" } }', '"$steps.read.outputs.x" } }'),
      where: "api.arazzo.yaml:11:35",
      message: "refers to step read, which does not run before this one",
      fix: "earlier steps",
    },
    {
      name: "an undeclared input",
      edit: (s: string) => s.replace("== $steps.create.outputs.id", "== $inputs.who"),
      where: "api.arazzo.yaml:18:13",
      message: "$inputs.who names an input the workflow does not declare",
      fix: "declare who",
    },
    {
      name: "a condition that does not parse",
      edit: (s: string) => s.replace("$statusCode == 201 }", "$statusCode == }"),
      where: "api.arazzo.yaml:12:29",
      message: "the condition does not parse at character",
      fix: "$statusCode == 200",
    },
    {
      name: "a JSONPath that does not parse",
      edit: (s: string) => s.replace("\"$[?@ == 'x']\"", '"$..x"'),
      where: "api.arazzo.yaml:19:56",
      message: "descendant segments",
      fix: "$.data[?@.id == 'x']",
    },
    {
      name: "onFailure, which is not run",
      edit: (s: string) =>
        s.replace("        successCriteria: [{ condition: $statusCode == 201 }]", "        successCriteria: [{ condition: $statusCode == 201 }]\n        onFailure: [{ name: retry, type: retry }]"),
      where: "api.arazzo.yaml:13:9",
      message: "onFailure is not supported",
      fix: "remove onFailure",
    },
  ])("refuses $name with its location and a fix, writing nothing", async ({ edit, where, message, fix }) => {
    const { dir, out } = project(GOOD);
    expect((await generate(dir)).code).toBe(0);
    const before = snapshotTree(out);
    writeFileSync(path.join(dir, "api.arazzo.yaml"), edit(GOOD));
    const res = await generate(dir);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(where);
    expect(res.stderr).toContain(message);
    expect(res.stderr).toContain(fix);
    expect(snapshotTree(out)).toEqual(before);
  });
});

const OTHER = `openapi: 3.1.0
info: { title: Lookup, version: 1.0.0 }
paths:
  /lookup/{id}:
    get:
      operationId: lookUp
      security: [{ key: [] }]
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: object } } } }
components:
  securitySchemes:
    key: { type: http, scheme: bearer }
`;

const ACROSS = GOOD.replace(
  "sourceDescriptions: [{ name: things, url: ./api.yaml, type: openapi }]",
  "sourceDescriptions: [{ name: things, url: ./api.yaml, type: openapi }, { name: lookup, url: ./other.yaml, type: openapi }]",
).concat(`      - stepId: elsewhere
        operationId: $sourceDescriptions.lookup.lookUp
        parameters: [{ name: id, in: path, value: $steps.create.outputs.id }]
`);

describe("workflow steps calling another contract ($sourceDescriptions.<name>.<operationId>)", () => {
  function across(arazzo: string): { dir: string; out: string } {
    const p = project(arazzo);
    writeFileSync(path.join(p.dir, "other.yaml"), OTHER);
    return p;
  }

  it("carry the other contract's operation as the step sends it: method, path, security kind and parameters", async () => {
    const { dir, out } = across(ACROSS);
    const res = await generate(dir);
    expect(res.code, res.stderr).toBe(0);
    // The plan module only imports a type: loaded as it is, it is the plan the suite runs.
    const { plan } = (await import(path.join(out, "test/conformance.plan.ts"))) as {
      plan: { workflows: { steps: { id: string; operationId: string; source?: { name: string; operation: unknown } }[] }[] };
    };
    const step = plan.workflows[0]?.steps.find((s) => s.id === "elsewhere");
    expect(step?.operationId).toBe("lookUp");
    expect(step?.source?.name).toBe("lookup");
    expect(step?.source?.operation).toMatchObject({ method: "GET", path: "/lookup/{id}", security: [["bearer"]], parameters: [{ name: "id", in: "path" }] });
  });

  it("regenerate when only the other contract changes", async () => {
    const { dir, out } = across(ACROSS);
    expect((await generate(dir)).code).toBe(0);
    writeFileSync(path.join(dir, "other.yaml"), OTHER.replace("/lookup/{id}", "/look-up/{id}"));
    const again = await generate(dir);
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(path.join(out, "test/conformance.plan.ts"), "utf8")).toContain("/look-up/{id}");
  });

  it.each([
    {
      name: "a source outside the contract's folder",
      edit: (s: string) => s.replace("url: ./other.yaml", "url: ../other.yaml"),
      message: "source lookup (../other.yaml) lies outside the contract's folder, which a workflow document may not read",
      fix: "copy the document into the contract's folder",
    },
    {
      name: "a source given by URL",
      edit: (s: string) => s.replace("url: ./other.yaml", "url: 'http://127.0.0.1:9/other.yaml'"),
      message: "source lookup must be a relative path to an OpenAPI document beside the contract",
      fix: "write url: ./other.yaml",
    },
    {
      name: "a source no description names",
      edit: (s: string) => s.replace("$sourceDescriptions.lookup.lookUp", "$sourceDescriptions.elsewhere.lookUp"),
      message: "a step calls $sourceDescriptions.elsewhere, which is not described here",
      fix: "add { name: elsewhere, url: ./elsewhere.yaml, type: openapi }",
    },
    {
      name: "an operation the other contract does not have",
      edit: (s: string) => s.replace("$sourceDescriptions.lookup.lookUp", "$sourceDescriptions.lookup.lookDown"),
      message: '$sourceDescriptions.lookup.lookDown: lookup has no operation "lookDown"',
      fix: "$sourceDescriptions.lookup.lookUp",
    },
    {
      name: "a parameter the other operation does not take",
      edit: (s: string) => s.replace("lookup.lookUp\n        parameters: [{ name: id,", "lookup.lookUp\n        parameters: [{ name: key,"),
      message: "lookUp has no path parameter key",
      fix: "use one of: id (path)",
    },
  ])("refuse $name with its location and a fix, writing nothing", async ({ edit, message, fix }) => {
    const { dir, out } = across(ACROSS);
    expect((await generate(dir)).code).toBe(0);
    const before = snapshotTree(out);
    writeFileSync(path.join(dir, "api.arazzo.yaml"), edit(ACROSS));
    const res = await generate(dir);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toMatch(/api\.arazzo\.yaml:\d+:\d+/);
    expect(res.stderr).toContain(message);
    expect(res.stderr).toContain(fix);
    expect(snapshotTree(out)).toEqual(before);
  });
});
