/**
 * Shapes of documents as real servers publish them (PowerDNS, etcd's grpc-gateway output), which
 * `generate` once refused or failed on: each generates, and what it generates judges the shared
 * or hoisted schema as the document means it.
 */
import { describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { runCli, workspaceTmpDir } from "../generator/helpers.js";

/** PowerDNS shares its error answers through YAML merge keys (YAML 1.1 `<<`). */
const MERGE_KEYS = `swagger: '2.0'
info: { title: Zones, version: '1' }
basePath: /api/v1
x-common-errors: &commonErrors
  '400': { description: bad request, schema: { $ref: '#/definitions/Error' } }
  '404': { description: not found, schema: { $ref: '#/definitions/Error' } }
paths:
  /zones:
    get:
      operationId: listZones
      produces: [application/json]
      responses:
        <<: *commonErrors
        '200': { description: zones, schema: { type: array, items: { $ref: '#/definitions/Zone' } } }
definitions:
  Zone: { type: object, required: [name], properties: { name: { type: string } } }
  Error: { type: object, required: [error], properties: { error: { type: string } } }
`;

/** grpc-gateway keeps stream answers under a root extension and refers to them there. */
const ROOT_EXTENSION_REFS = JSON.stringify({
  swagger: "2.0",
  info: { title: "Watch", version: "1" },
  paths: {
    "/v3/watch": {
      post: {
        operationId: "watch",
        consumes: ["application/json"],
        produces: ["application/json"],
        parameters: [{ name: "body", in: "body", required: true, schema: { type: "object", properties: { key: { type: "string" } } } }],
        responses: { "200": { description: "a stream", schema: { $ref: "#/x-stream-definitions/WatchResponse" } } },
      },
    },
  },
  definitions: { Event: { type: "object", properties: { kind: { type: "string" } } } },
  "x-stream-definitions": {
    WatchResponse: { type: "object", required: ["result"], properties: { result: { $ref: "#/definitions/Event" } } },
  },
});

describe("documents as servers publish them", () => {
  it.each([
    { given: "YAML merge keys sharing error answers (PowerDNS)", file: "zones.yaml", text: MERGE_KEYS, op: "listZones", status: 404, valid: { error: "no such zone" }, invalid: { message: "x" } },
    {
      given: "refs to schemas kept under a root extension (etcd's #/x-stream-definitions)",
      file: "watch.json",
      text: ROOT_EXTENSION_REFS,
      op: "watch",
      status: 200,
      valid: { result: { kind: "PUT" } },
      invalid: { result: "x" },
    },
  ])("$given: generates, and its validators read the schema as the document means it", async ({ file, text, op, status, valid, invalid }) => {
    const dir = workspaceTmpDir("cg-published-");
    writeFileSync(path.join(dir, file), text);
    const out = path.join(dir, "pkg");
    const r = await runCli(["generate", path.join(dir, file), "--out", out, "--name", "pkg", "--quiet"]);
    expect(r.code, r.stderr).toBe(0);
    const validators = (await import(pathToFileURL(path.join(out, "src/validators.ts")).href)) as {
      validateResponse: (id: string, status: number, contentType: string, body: unknown) => { valid: boolean };
    };
    expect(validators.validateResponse(op, status, "application/json", valid).valid).toBe(true);
    expect(validators.validateResponse(op, status, "application/json", invalid).valid).toBe(false);
  });
});
