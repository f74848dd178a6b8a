/**
 * An id filter met at its stated limit ("up to N ids") keeps all N: the suite fills it with N ids,
 * the last of them ids the list shows, and expects their objects back. A server that reads only the
 * first part of a long filter leaves them out.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT, runCli } from "../generator/helpers.js";
import { FIXTURE, startMock, type RunningMock } from "../mock/helpers.js";
import { proxy } from "./proxy.js";

const plain = (s: string): string => s.replace(/\x1b\[[0-9;]*m/g, "");

/** The notes contract whose list also takes `note_ids`: up to 5 ids, the notes with those ids. */
function withIdFilter(): string {
  const text = readFileSync(path.join(ROOT, FIXTURE("notes.openapi.yaml")), "utf8").replace(
    "      operationId: listNotes\n      parameters:\n",
    [
      "      operationId: listNotes",
      "      parameters:",
      "        - name: note_ids",
      "          in: query",
      "          style: form",
      "          explode: false",
      "          x-filter: { match: in, member: id }",
      '          schema: { type: array, maxItems: 5, items: { type: string, pattern: "^n[0-9]{1,9}$" } }',
      "",
    ].join("\n"),
  );
  expect(text).toContain("note_ids");
  return text;
}

describe("an id filter at its limit", () => {
  let dir: string;
  let mock: RunningMock;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "cg-at-limit-"));
    writeFileSync(path.join(dir, "notes.yaml"), withIdFilter());
    mock = await startMock(["--spec", path.join(dir, "notes.yaml")]);
  });
  afterAll(async () => {
    await mock?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const run = async (url: string): Promise<{ code: number; out: string }> => {
    const r = await runCli(["test", "--spec", "notes.yaml", "--base-url", url], dir);
    return { code: r.code, out: plain(r.stdout + r.stderr) };
  };

  it("passes the mock, which keeps every id of a full filter", async () => {
    const r = await run(mock.url);
    expect(r.code, r.out).toBe(0);
  });

  it("fails a server that reads only the first 3 ids", async () => {
    const short = await proxy(
      mock.url,
      () => undefined,
      (method, url) => {
        const ids = url.searchParams.get("note_ids");
        if (method !== "GET" || ids === null) return url;
        const out = new URL(url);
        out.searchParams.set("note_ids", ids.split(",").slice(0, 3).join(","));
        return out;
      },
    );
    try {
      const r = await run(short.url);
      expect(r.code, r.out).toBe(1);
      expect(r.out).toMatch(/listNotes \(GET \/notes\) with note_ids at its 5-item limit, the last 2 being listed ones, left out n\d+/);
    } finally {
      short.server.close();
    }
  });
});
