/**
 * Soft deletes in a contract's own words. The suite and the mock take the marking member and the
 * flag that still shows a deleted object from the contract (`x-transitions` on `archived`, a
 * boolean `include_archived` on the list and the read), not from one API's names: against
 * `contractgen mock --spec` the deletion checks pass, and a server whose list leaves archived notes
 * out even when asked for them, whose delete leaves the mark unset, or whose delete takes the other
 * notes with it, is caught.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT, runCli } from "../generator/helpers.js";
import { call, FIXTURE, startMock, type RunningMock } from "../mock/helpers.js";
import { proxy } from "./proxy.js";

const plain = (s: string): string => s.replace(/\x1b\[[0-9;]*m/g, "");
type Note = { id: string; text: string; archived: boolean };

describe("soft deletes named by the contract (archived, include_archived)", () => {
  let mock: RunningMock;
  let dir: string;
  beforeAll(async () => {
    mock = await startMock(["--spec", FIXTURE("notes.openapi.yaml")]);
    dir = mkdtempSync(path.join(os.tmpdir(), "cg-soft-"));
    copyFileSync(path.join(ROOT, FIXTURE("notes.openapi.yaml")), path.join(dir, "notes.yaml"));
  });
  afterAll(async () => {
    await mock?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("the mock keeps a deleted note, marked archived, shown only with include_archived=true", async () => {
    const made = await call(`${mock.url}/notes`, { method: "POST", body: { text: "milk" } });
    expect(made.status).toBe(201);
    const id = (made.body as { data: Note }).data.id;
    const gone = await call(`${mock.url}/notes/${id}`, { method: "DELETE" });
    expect(gone.status).toBe(200);
    expect((gone.body as { data: Note }).data.archived).toBe(true);
    expect((await call(`${mock.url}/notes/${id}`)).status).toBe(404);
    const shown = await call(`${mock.url}/notes/${id}?include_archived=true`);
    expect(shown.status).toBe(200);
    expect((shown.body as { data: Note }).data).toMatchObject({ id, archived: true });
    const ids = async (query: string): Promise<string[]> => ((await call(`${mock.url}/notes${query}`)).body as { data: Note[] }).data.map((n) => n.id);
    expect(await ids("")).not.toContain(id);
    expect(await ids("?include_archived=true")).toContain(id);
  });

  it("the mock's seeded notes drawn archived are deleted ones: listed and read only with include_archived=true", async () => {
    const listed = async (query: string): Promise<Note[]> => ((await call(`${mock.url}/notes${query}`)).body as { data: Note[] }).data;
    const plainList = await listed("");
    const wide = await listed("?include_archived=true");
    expect(
      plainList.every((n) => !n.archived),
      JSON.stringify(plainList),
    ).toBe(true);
    const archived = wide.filter((n) => n.archived);
    // The seed draws some archived notes; without any the test would prove nothing.
    expect(archived.length, JSON.stringify(wide)).toBeGreaterThan(0);
    for (const n of archived) {
      expect((await call(`${mock.url}/notes/${n.id}`)).status).toBe(404);
      expect((await call(`${mock.url}/notes/${n.id}?include_archived=true`)).status).toBe(200);
    }
  });

  it("contractgen test passes against the mock, having run the deletion checks", async () => {
    const report = path.join(dir, "report.xml");
    const r = await runCli(["test", "--spec", "notes.yaml", "--base-url", mock.url, "--destructive", "--reporter", "junit", "--output", report], dir);
    const out = plain(r.stdout + r.stderr);
    expect(r.code, out).toBe(0);
    expect(out).toMatch(/ 0 failed/);
    // The lifecycle ran with the contract's names, and passed (neither failed nor skipped).
    const xml = readFileSync(report, "utf8");
    const lifecycle = /<testcase [^>]*name="[^"]*deleteNote: soft delete \(archived=true\), listed only with include_archived"[^>]*(\/>|>([\s\S]*?)<\/testcase>)/.exec(xml);
    expect(lifecycle, xml).not.toBeNull();
    expect(lifecycle?.[2] ?? "").not.toMatch(/<failure|<skipped/);
  });

  it("fails a list that leaves archived notes out even with include_archived=true", async () => {
    const broken = await proxy(mock.url, (method, url, body) =>
      method === "GET" && url.pathname === "/notes" && url.searchParams.get("include_archived") === "true" ? { data: (body as { data: Note[] }).data.filter((n) => !n.archived) } : undefined,
    );
    try {
      const r = await runCli(["test", "--spec", "notes.yaml", "--base-url", broken.url, "--destructive"], dir);
      const out = plain(r.stdout + r.stderr);
      expect(r.code, out).toBe(1);
      expect(out).toMatch(/listNotes \(GET \/notes\) does not list deleted n\d+ with include_archived=true/);
    } finally {
      broken.server.close();
    }
  });

  it("fails a delete that takes the other notes with it (the list shows none of them after it)", async () => {
    // After the first delete the plain list is empty, as if every note had gone with the one named.
    let deleted = false;
    const broken = await proxy(mock.url, (method, url) => {
      if (method === "DELETE") deleted = true;
      return deleted && method === "GET" && url.pathname === "/notes" && url.searchParams.get("include_archived") !== "true" ? { data: [] } : undefined;
    });
    try {
      const r = await runCli(["test", "--spec", "notes.yaml", "--base-url", broken.url, "--destructive"], dir);
      const out = plain(r.stdout + r.stderr);
      expect(r.code, out).toBe(1);
      expect(out).toMatch(/deleteNote \(DELETE [^)]+\) deleting n\d+ also removed n\d+, which listNotes \(GET \/notes\) listed just before: a delete takes only the object it names/);
    } finally {
      broken.server.close();
    }
  });

  it("fails a soft delete that re-stamps what never changes (an x-immutable created_at)", async () => {
    // The same contract with a creation time the notes keep for good.
    const stamped = readFileSync(path.join(ROOT, FIXTURE("notes.openapi.yaml")), "utf8").replace(
      "        archived: { type: boolean }\n      x-transitions:",
      "        archived: { type: boolean }\n        created_at: { type: string, format: date-time, x-immutable: true }\n      x-transitions:",
    );
    expect(stamped).toContain("x-immutable");
    const sub = mkdtempSync(path.join(os.tmpdir(), "cg-soft-stamp-"));
    writeFileSync(path.join(sub, "notes.yaml"), stamped);
    const own = await startMock(["--spec", path.join(sub, "notes.yaml")]);
    const restamping = await proxy(own.url, (method, _url, body) => {
      if (method !== "DELETE") return undefined;
      const data = (body as { data?: Record<string, unknown> }).data;
      return data ? { ...(body as object), data: { ...data, created_at: "2031-01-01T00:00:00Z" } } : undefined;
    });
    try {
      const passes = await runCli(["test", "--spec", "notes.yaml", "--base-url", own.url, "--destructive"], sub);
      expect(passes.code, plain(passes.stdout + passes.stderr)).toBe(0);
      const r = await runCli(["test", "--spec", "notes.yaml", "--base-url", restamping.url, "--destructive"], sub);
      const out = plain(r.stdout + r.stderr);
      expect(r.code, out).toBe(1);
      expect(out).toMatch(/deleteNote \(DELETE [^)]+\): deleting n\d+ changed what never changes \(its answer\): created_at was "[^"]+", is now "2031-01-01T00:00:00Z"/);
    } finally {
      restamping.server.close();
      await own.stop();
      rmSync(sub, { recursive: true, force: true });
    }
  });

  it("fails a delete that answers the note without the archived mark", async () => {
    const broken = await proxy(mock.url, (method, _url, body) => (method === "DELETE" ? { data: { ...(body as { data: Note }).data, archived: false } } : undefined));
    try {
      const r = await runCli(["test", "--spec", "notes.yaml", "--base-url", broken.url, "--destructive"], dir);
      const out = plain(r.stdout + r.stderr);
      expect(r.code, out).toBe(1);
      expect(out).toMatch(/deleteNote \(DELETE [^)]+\): the deleted object answers archived=false, expected true|deleteNote \(DELETE [^)]+\): a soft delete must answer the object with archived=true/);
    } finally {
      broken.server.close();
    }
  });
});

describe("a soft delete that answers no body (204), reached by the deletion scenario", () => {
  let mock: RunningMock | undefined;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "cg-soft204-"));
    // The same contract without its create (so no lifecycle: the deletion scenario deletes a listed
    // note), and a delete that answers 204 without a body: nothing to hold to the mark.
    let text = readFileSync(path.join(ROOT, FIXTURE("notes.openapi.yaml")), "utf8").replace(
      /"200":\n {10}description: the note, now archived\n {10}content:\n {12}application\/json:\n {14}schema: \{ \$ref: "#\/components\/schemas\/NoteAnswer" \}/,
      '"204":\n          description: archived',
    );
    text = text.slice(0, text.indexOf("    post:\n      operationId: createNote")) + text.slice(text.indexOf("  /notes/{note_id}:"));
    expect(text).toContain("description: archived");
    expect(text).not.toContain("createNote");
    writeFileSync(path.join(dir, "notes.yaml"), text);
    mock = await startMock(["--spec", path.join(dir, "notes.yaml")]);
  });
  afterAll(async () => {
    await mock?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("passes: the mark is read back and listed, not demanded of an answer that declares none", async () => {
    const report = path.join(dir, "report.xml");
    const r = await runCli(["test", "--spec", "notes.yaml", "--base-url", mock?.url ?? "", "--destructive", "--disposable", "--reporter", "junit", "--output", report], dir);
    const out = plain(r.stdout + r.stderr);
    expect(r.code, out).toBe(0);
    expect(out).toMatch(/ 0 failed/);
    const xml = readFileSync(report, "utf8");
    const deletion = /<testcase [^>]*name="[^"]*deletions &gt; deleteNote: marks it archived=true, listed only with include_archived=true"[^>]*(\/>|>([\s\S]*?)<\/testcase>)/.exec(xml);
    expect(deletion, xml).not.toBeNull();
    expect(deletion?.[2] ?? "").not.toMatch(/<failure|<skipped/);
  });
});
