/**
 * One object seen through two operations shows the same values. The comparison takes only members
 * both views carry with a value (a summary may leave some out, or show them null or empty) and
 * leaves out what moves on its own between two reads. Against `contractgen mock --spec` the notes
 * suite passes; a server whose list shows a note's text otherwise than its read, or whose lifecycle
 * read shows another text than the list just after, fails.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { disagreements, moving } from "../../packages/runtime/src/conformance/views.js";
import { ROOT, runCli } from "../generator/helpers.js";
import { FIXTURE, startMock, type RunningMock } from "../mock/helpers.js";
import { proxy } from "./proxy.js";

const plain = (s: string): string => s.replace(/\x1b\[[0-9;]*m/g, "");

describe("disagreements: members both views show with a value", () => {
  const table: readonly { given: [unknown, unknown]; want: string[] }[] = [
    { given: [{ name: "Ada" }, { name: "Ada" }], want: [] },
    { given: [{ name: "Ada Lovelace" }, { name: "Ada Lovel" }], want: ['name: "Ada Lovelace" against "Ada Lovel"'] },
    // A summary leaves members out, or shows them empty: nothing to compare.
    { given: [{ name: "Ada", key: "s3cret" }, { name: "Ada" }], want: [] },
    {
      given: [
        { key: "s3cret", rrsets: [{ name: "a." }] },
        { key: "", rrsets: [] },
      ],
      want: [],
    },
    { given: [{ content: "text" }, { content: null }], want: [] },
    // Text on the wire and one instant in two spellings are one value.
    { given: [{ count: 5 }, { count: "5" }], want: [] },
    { given: [{ at: "2026-01-01T00:00:00Z" }, { at: "2026-01-01T00:00:00.000Z" }], want: [] },
    { given: [{ at: "2026-01-01T00:00:00Z" }, { at: "2026-01-01T00:00:01Z" }], want: ['at: "2026-01-01T00:00:00Z" against "2026-01-01T00:00:01Z"'] },
    // Nested objects member by member, arrays item by item.
    { given: [{ owner: { id: "1", name: "x" } }, { owner: { id: "1" } }], want: [] },
    { given: [{ owner: { id: "1" } }, { owner: { id: "2" } }], want: ['owner.id: "1" against "2"'] },
    { given: [{ tags: ["a", "b"] }, { tags: ["a"] }], want: ["tags: 2 items against 1"] },
    { given: [{ tags: ["a", "b"] }, { tags: ["b", "a"] }], want: ['tags[0]: "a" against "b"', 'tags[1]: "b" against "a"'] },
    { given: [{ flag: false }, { flag: true }], want: ["flag: false against true"] },
    { given: [{ amount: 0 }, { amount: 10 }], want: ["amount: 0 against 10"] },
    // Hostile text is quoted, not interpreted.
    { given: [{ q: '"); drop --' }, { q: "x" }], want: ['q: "\\"); drop --" against "x"'] },
  ];
  for (const { given, want } of table) {
    it(`${JSON.stringify(given[0])} and ${JSON.stringify(given[1])}`, () => {
      expect(disagreements(given[0], given[1])).toEqual(want);
    });
  }

  it("leaves out the top-level members it is told to", () => {
    expect(disagreements({ last_activity: "a", name: "n" }, { last_activity: "b", name: "n" }, new Set(["last_activity"]))).toEqual([]);
  });

  it("moving: the members two reads of one object show differently, including one that came or went", () => {
    expect([...moving({ state: "starting", name: "k", seen: null }, { state: "idle", name: "k", seen: "2026-01-01T00:00:00Z" })].sort()).toEqual(["seen", "state"]);
    expect([...moving({ name: "k", tags: ["a"] }, { name: "k", tags: ["a"] })]).toEqual([]);
  });
});

describe("a list and a read of one object agree (notes)", () => {
  let mock: RunningMock;
  let dir: string;
  beforeAll(async () => {
    mock = await startMock(["--spec", FIXTURE("notes.openapi.yaml")]);
    dir = mkdtempSync(path.join(os.tmpdir(), "cg-views-"));
    copyFileSync(path.join(ROOT, FIXTURE("notes.openapi.yaml")), path.join(dir, "notes.yaml"));
  });
  afterAll(async () => {
    await mock?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("passes against the mock", async () => {
    const r = await runCli(["test", "--spec", "notes.yaml", "--base-url", mock.url, "--destructive"], dir);
    expect(r.code, plain(r.stdout + r.stderr)).toBe(0);
  });

  it("fails a list that cuts every note's text to 3 characters, on listed notes and on one it made", async () => {
    const cut = await proxy(mock.url, (method, url, body) => {
      if (method !== "GET" || url.pathname !== "/notes") return undefined;
      const data = (body as { data: { text: string }[] }).data.map((n) => ({ ...n, text: n.text.slice(0, 3) }));
      return { ...(body as object), data };
    });
    try {
      const r = await runCli(["test", "--spec", "notes.yaml", "--base-url", cut.url, "--destructive"], dir);
      const out = plain(r.stdout + r.stderr);
      expect(r.code, out).toBe(1);
      const failing = out.split("\n").filter((l) => / FAIL /.test(l));
      // A read of a note the server listed, and the lifecycle's read of the note it made.
      expect(
        failing.some((l) => /getNote: answers valid request 1/.test(l)),
        out,
      ).toBe(true);
      expect(
        failing.some((l) => /state sequences > createNote → getNote/.test(l)),
        out,
      ).toBe(true);
      const text = String.raw`text: \\?"[^"\\]{4,}\\?" against \\?"[^"\\]{1,3}\\?"`;
      expect(out).toMatch(new RegExp(String.raw`listNotes \(GET /notes\) shows n\d+ otherwise than getNote \(GET /notes/\{note_id\}\) reads it: ` + text));
      expect(out).toMatch(new RegExp(String.raw`listNotes \(GET /notes\) lists n\d+ otherwise than getNote \(GET /notes/\{note_id\}\) reads it: ` + text));
    } finally {
      cut.server.close();
    }
  });
});
