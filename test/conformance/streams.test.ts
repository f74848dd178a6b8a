/**
 * A gRPC gateway's streaming answer (Swagger 2.0, `$ref: '#/x-stream-definitions/…'`): one JSON
 * message per line under `application/json`. `contractgen test`, on a package generated outside the
 * workspace, judges each message by the declared schema: a server that streams valid messages
 * passes, one whose second message breaks the schema fails naming that message.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { ROOT, runCli } from "../generator/helpers.js";

const DOCUMENT = JSON.stringify({
  swagger: "2.0",
  info: { title: "Backups", version: "1.0.0" },
  consumes: ["application/json"],
  produces: ["application/json"],
  paths: {
    "/v1/snapshot": {
      post: {
        operationId: "Snapshot",
        parameters: [{ name: "body", in: "body", required: true, schema: { $ref: "#/definitions/SnapshotRequest" } }],
        responses: {
          "200": { description: "A successful response.(streaming responses)", schema: { $ref: "#/x-stream-definitions/SnapshotResponse" } },
          default: { description: "An unexpected error response.", schema: { $ref: "#/definitions/Status" } },
        },
      },
    },
  },
  definitions: {
    SnapshotRequest: { type: "object" },
    SnapshotChunk: { type: "object", properties: { remaining_bytes: { type: "string", format: "uint64" }, blob: { type: "string", format: "byte" } } },
    Status: { type: "object", properties: { error: { type: "string" }, code: { type: "integer", format: "int32" } } },
  },
  "x-stream-definitions": {
    SnapshotResponse: {
      type: "object",
      properties: { result: { $ref: "#/definitions/SnapshotChunk" }, error: { $ref: "#/definitions/Status" } },
      title: "Stream result of SnapshotChunk",
    },
  },
});

async function backups(second: unknown): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/snapshot") {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: "not found", code: 5 }));
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.write(`${JSON.stringify({ result: { remaining_bytes: "4", blob: "AAAA" } })}\n`);
      res.end(`${JSON.stringify(second)}\n`);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const plain = (s: string): string => s.replace(/\x1b\[[0-9;]*m/g, "");

describe("contractgen test on a stream of JSON messages", () => {
  let dir: string;
  let good: Awaited<ReturnType<typeof backups>>;
  let bad: Awaited<ReturnType<typeof backups>>;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "cg-streams-"));
    expect(path.relative(ROOT, dir).startsWith("..")).toBe(true);
    writeFileSync(path.join(dir, "backups.json"), DOCUMENT);
    good = await backups({ result: { remaining_bytes: "0", blob: "BBBB" } });
    bad = await backups({ result: { remaining_bytes: 0, blob: "BBBB" } });
  });
  afterAll(() => {
    good?.server.close();
    bad?.server.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("passes where every message of the stream keeps the schema", async () => {
    const r = await runCli(["test", "--spec", "backups.json", "--base-url", good.url], dir);
    const out = plain(r.stdout + r.stderr);
    expect(out).not.toMatch(/not valid for its content type/);
    expect(plain(r.stdout).trim().split("\n").at(-1)).toMatch(/^[1-9]\d* passed, 0 failed, \d+ skipped$/);
    expect(r.code, out).toBe(0);
  });

  it("fails naming the message that breaks it", async () => {
    const r = await runCli(["test", "--spec", "backups.json", "--base-url", bad.url], dir);
    const out = plain(r.stdout + r.stderr);
    expect(r.code, out).toBe(1);
    expect(out).toMatch(/Snapshot \(POST \/v1\/snapshot\) answered 200 .*\(message 2 of its stream\), which breaks the contract: .*remaining_bytes must be string/);
  });
});
