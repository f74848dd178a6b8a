/**
 * A collection holds more than one object: the lifecycle makes a second object beside its first
 * (the first's request with its texts changed, else the same request again) and asks for a key of
 * its own, with the first still holding what it was sent (a server that keeps one object of the
 * kind answers the same key, and must then show what the second sent). Against `contractgen mock --spec` the
 * notes lifecycle passes; a server that answers a new note with the key of one whose text starts
 * alike fails.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT, runCli } from "../generator/helpers.js";
import { FIXTURE, startMock, type RunningMock } from "../mock/helpers.js";
import { proxy } from "./proxy.js";
import { outcome } from "./junit-outcome.js";

const plain = (s: string): string => s.replace(/\x1b\[[0-9;]*m/g, "");
const LIFECYCLE = "createNote → getNote (reads back what was sent) → listNotes → deleteNote: soft delete (archived=true), listed only with include_archived";

describe("a second object gets a key of its own (notes)", () => {
  let mock: RunningMock;
  let dir: string;
  beforeAll(async () => {
    mock = await startMock(["--spec", FIXTURE("notes.openapi.yaml")]);
    dir = mkdtempSync(path.join(os.tmpdir(), "cg-second-"));
    copyFileSync(path.join(ROOT, FIXTURE("notes.openapi.yaml")), path.join(dir, "notes.yaml"));
  });
  afterAll(async () => {
    await mock?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("passes against the mock, lifecycle included", async () => {
    const report = path.join(dir, "pass.xml");
    const r = await runCli(["test", "--spec", "notes.yaml", "--base-url", mock.url, "--destructive", "--reporter", "junit", "--output", report], dir);
    expect(r.code, plain(r.stdout + r.stderr)).toBe(0);
    expect(outcome(readFileSync(report, "utf8"), LIFECYCLE)).toBe("passed");
  });

  it("fails a server that takes a note whose text starts like another's for that one", async () => {
    const byStart = new Map<string, string>();
    const deduping = await proxy(mock.url, (method, url, body) => {
      if (method !== "POST" || url.pathname !== "/notes") return undefined;
      const data = (body as { data: { id: string; text: string } }).data;
      const seen = byStart.get(data.text.slice(0, 10));
      if (seen !== undefined) return { ...(body as object), data: { ...data, id: seen } };
      byStart.set(data.text.slice(0, 10), data.id);
      return undefined;
    });
    try {
      const report = path.join(dir, "fail.xml");
      const r = await runCli(["test", "--spec", "notes.yaml", "--base-url", deduping.url, "--destructive", "--reporter", "junit", "--output", report], dir);
      expect(r.code, plain(r.stdout + r.stderr)).toBe(1);
      expect(outcome(readFileSync(report, "utf8"), LIFECYCLE)).toMatch(
        /createNote \(POST \/notes\) answered a second create with the key of the first, n\d+, and getNote \(GET \/notes\/\{note_id\}\) shows nothing of what the second sent \(text\)/,
      );
    } finally {
      deduping.server.close();
    }
  });
});
