/**
 * A PUT is idempotent (RFC 9110 §9.2.2): the lifecycle sends its first accepted update twice, and
 * the object read after the second holds what was sent. Against `contractgen mock --spec` the
 * lockers lifecycle passes (the fixture declares no refusal on two operations, which the suite
 * reports on its own); a server that treats a PUT repeating the stored label as "add to it" fails.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT, runCli } from "../generator/helpers.js";
import { FIXTURE, startMock, type RunningMock } from "../mock/helpers.js";
import { forward } from "./proxy.js";

const plain = (s: string): string => s.replace(/\x1b\[[0-9;]*m/g, "");

/** The mock behind a server whose PUT of the label an item already has doubles its last letter. */
const notIdempotent = (target: string): ReturnType<typeof forward> =>
  forward(target, {
    body: async (method, url, text) => {
      if (method !== "PUT") return text;
      const now = await fetch(url);
      const sent = JSON.parse(text) as { label?: string };
      const stored = now.ok ? ((await now.json()) as { label?: string }) : {};
      return typeof sent.label === "string" && stored.label === sent.label ? JSON.stringify({ ...sent, label: `${sent.label}${sent.label.slice(-1)}`.slice(0, 30) }) : text;
    },
  });

describe("a PUT sent twice leaves the object as one does (lockers)", () => {
  let mock: RunningMock;
  let dir: string;
  beforeAll(async () => {
    mock = await startMock(["--spec", FIXTURE("lockers.openapi.yaml")]);
    dir = mkdtempSync(path.join(os.tmpdir(), "cg-put-twice-"));
    copyFileSync(path.join(ROOT, FIXTURE("lockers.openapi.yaml")), path.join(dir, "lockers.yaml"));
  });
  afterAll(async () => {
    await mock?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("passes the mock's lifecycle and updates (its only failures are the fixture's undeclared refusals)", async () => {
    const r = await runCli(["test", "--spec", "lockers.yaml", "--base-url", mock.url, "--destructive", "--values", JSON.stringify({ locker_id: "l-one" })], dir);
    const out = plain(r.stdout + r.stderr);
    expect(out).toMatch(/✓ createItem → getItem \(reads back what was sent\) → listItems → replaceItem/);
    expect(out).toMatch(/✓ replaceItem: the answer and getItem hold what the update sent/);
    const failed = out.split("\n").filter((l) => / FAIL /.test(l));
    expect(
      failed.every((l) => /declares how it refuses invalid requests/.test(l)),
      out,
    ).toBe(true);
  });

  it("fails a server whose repeated PUT changes the label again", async () => {
    const broken = await notIdempotent(mock.url);
    try {
      const r = await runCli(["test", "--spec", "lockers.yaml", "--base-url", broken.url, "--destructive", "--values", JSON.stringify({ locker_id: "l-one" })], dir);
      const out = plain(r.stdout + r.stderr);
      expect(r.code, out).toBe(1);
      expect(out).toMatch(
        /replaceItem \(PUT \/lockers\/\{locker_id\}\/items\/\{item_id\}\) answers the update of i-[a-z0-9]+ with other values than it was sent: label: sent "[^"]+", reads back "[^"]+"/,
      );
    } finally {
      broken.server.close();
    }
  });
});
