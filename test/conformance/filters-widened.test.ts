/**
 * A filter holds on a widened list too. A list flag that defaults to false and widens the list
 * (`include_archived`: archived notes as well) must not let objects past the filter: the suite asks
 * again with each such flag set. The engine mock keeps the filter; a server that forgets it once
 * the flag is set is caught.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT, runCli } from "../generator/helpers.js";
import { call, FIXTURE, startMock, type RunningMock } from "../mock/helpers.js";
import { proxy } from "./proxy.js";

const plain = (s: string): string => s.replace(/\x1b\[[0-9;]*m/g, "");

/** The notes contract whose list also takes `q`, a prefix filter on the text. */
function withPrefixFilter(): string {
  const text = readFileSync(path.join(ROOT, FIXTURE("notes.openapi.yaml")), "utf8").replace(
    "      operationId: listNotes\n      parameters:\n",
    "      operationId: listNotes\n      parameters:\n        - name: q\n          in: query\n          x-filter: { match: prefix, member: text }\n          schema: { type: string, minLength: 1, maxLength: 20 }\n",
  );
  expect(text).toContain("x-filter");
  return text;
}

describe("a filter on a list widened by its flags", () => {
  let dir: string;
  let mock: RunningMock;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "cg-widened-"));
    writeFileSync(path.join(dir, "notes.yaml"), withPrefixFilter());
    mock = await startMock(["--spec", path.join(dir, "notes.yaml")]);
    // Notes of two beginnings, so a prefix keeps some and not others.
    for (const text of ["milk and eggs", "milk again", "call the bank", "call back"]) expect((await call(`${mock.url}/notes`, { method: "POST", body: { text } })).status).toBe(201);
  });
  afterAll(async () => {
    await mock?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const run = async (url: string): Promise<{ code: number; out: string }> => {
    const r = await runCli(["test", "--spec", "notes.yaml", "--base-url", url], dir);
    return { code: r.code, out: plain(r.stdout + r.stderr) };
  };

  it("passes the mock, which filters the widened list too", async () => {
    const r = await run(mock.url);
    expect(r.code, r.out).toBe(0);
  });

  it("fails a server that drops q once include_archived=true", async () => {
    const broken = await proxy(
      mock.url,
      () => undefined,
      (method, url) => {
        if (method !== "GET" || url.searchParams.get("include_archived") !== "true") return url;
        const out = new URL(url);
        out.searchParams.delete("q");
        return out;
      },
    );
    try {
      const r = await run(broken.url);
      expect(r.code, r.out).toBe(1);
      expect(r.out).toMatch(/listNotes \(GET \/notes\) with q="[^"]+" and include_archived=true lists objects it does not match/);
    } finally {
      broken.server.close();
    }
  });
});
