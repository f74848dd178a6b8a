/**
 * What the contract tests ask a server to store: every optional member once (falsy values too), on
 * creates and on updates, and updates checked even where the collection's create is refused because
 * the contract's cap of objects held at once is reached. Generated outside the workspace from a
 * small document, run against loopback servers that each get one thing wrong.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { runCli } from "../generator/helpers.js";

/** One note per user (x-limits outstanding 1); a note has optional members of each falsy kind. */
const DOCUMENT = `openapi: 3.1.0
info: { title: Notes, version: 1.0.0 }
paths:
  /notes:
    get:
      operationId: listNotes
      responses:
        "200":
          description: the notes
          content:
            application/json:
              schema: { type: object, required: [data], properties: { data: { type: array, items: { $ref: "#/components/schemas/Note" } } } }
    post:
      operationId: createNote
      x-limits:
        - { kind: outstanding, max: 1, per: user, description: One note per user. }
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: "#/components/schemas/NoteInput" }
      responses:
        "201":
          description: the new note
          content:
            application/json:
              schema: { type: object, required: [data], properties: { data: { $ref: "#/components/schemas/Note" } } }
        "4XX": { $ref: "#/components/responses/Refused" }
  /notes/{note_id}:
    parameters:
      - { name: note_id, in: path, required: true, schema: { type: string, pattern: "^n[0-9]+$" } }
    get:
      operationId: getNote
      responses:
        "200":
          description: a note
          content:
            application/json:
              schema: { type: object, required: [data], properties: { data: { $ref: "#/components/schemas/Note" } } }
        "4XX": { $ref: "#/components/responses/Refused" }
    put:
      operationId: updateNote
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: "#/components/schemas/NoteInput" }
      responses:
        "200":
          description: the note
          content:
            application/json:
              schema: { type: object, required: [data], properties: { data: { $ref: "#/components/schemas/Note" } } }
        "4XX": { $ref: "#/components/responses/Refused" }
    delete:
      operationId: deleteNote
      responses:
        "204": { description: deleted }
        "4XX": { $ref: "#/components/responses/Refused" }
components:
  responses:
    Refused:
      description: refused
      content:
        application/json:
          schema: { type: object, required: [error], properties: { error: { type: string } } }
  schemas:
    NoteInput:
      type: object
      required: [title]
      additionalProperties: false
      properties:
        title: { type: string, minLength: 1, maxLength: 40 }
        pinned: { type: boolean }
        priority: { type: integer, minimum: 0, maximum: 5 }
        color: { type: [string, "null"], enum: [red, green, blue, null] }
    Note:
      type: object
      required: [id, title, pinned, priority, color]
      properties:
        id: { type: string }
        title: { type: string }
        pinned: { type: boolean }
        priority: { type: integer }
        color: { type: [string, "null"] }
`;

interface Behaviour {
  /** A create stores a number only when truthy (`if (body.priority) …`): a 0 sent is lost; updates store it. */
  readonly createDropsZero?: boolean;
  /** An update ignores `color`. */
  readonly updateIgnoresColor?: boolean;
}

type Note = { id: string; title: string; pinned: boolean; priority: number; color: string | null };

/** A notes server holding one note already (the cap), right but for what `behaviour` says. */
async function notes(behaviour: Behaviour): Promise<{ url: string; server: Server }> {
  const held = new Map<string, Note>([["n1", { id: "n1", title: "first", pinned: true, priority: 3, color: "red" }]]);
  let next = 2;
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString()));
    req.on("end", () => {
      const send = (status: number, body?: unknown): void => {
        res.writeHead(status, body === undefined ? {} : { "content-type": "application/json" });
        res.end(body === undefined ? undefined : JSON.stringify(body));
      };
      const url = new URL(req.url ?? "/", "http://localhost");
      let body: Record<string, unknown> = {};
      try {
        body = raw === "" ? {} : (JSON.parse(raw) as Record<string, unknown>);
      } catch {
        return send(400, { error: "body is not JSON" });
      }
      const apply = (note: Note, update: boolean): string | undefined => {
        if (typeof body["title"] !== "string" || body["title"] === "" || body["title"].length > 40) return "title";
        for (const k of Object.keys(body)) if (!["title", "pinned", "priority", "color"].includes(k)) return k;
        if ("pinned" in body && typeof body["pinned"] !== "boolean") return "pinned";
        const priority = body["priority"];
        if ("priority" in body && !(typeof priority === "number" && Number.isInteger(priority) && priority >= 0 && priority <= 5)) return "priority";
        if ("color" in body && ![null, "red", "green", "blue"].includes(body["color"] as string | null)) return "color";
        note.title = body["title"];
        for (const k of ["pinned", "priority", "color"] as const) {
          if (!(k in body)) continue;
          if (!update && behaviour.createDropsZero && body[k] === 0) continue;
          if (update && k === "color" && behaviour.updateIgnoresColor) continue;
          (note as Record<string, unknown>)[k] = body[k];
        }
        return undefined;
      };
      if (url.pathname === "/notes" && req.method === "GET") return send(200, { data: [...held.values()] });
      if (url.pathname === "/notes" && req.method === "POST") {
        if (held.size >= 1) return send(409, { error: "one note per user" });
        // Defaults that are not falsy: a dropped `false` or `0` then reads back as something else.
        const note: Note = { id: `n${next++}`, title: "", pinned: true, priority: 3, color: "blue" };
        const bad = apply(note, false);
        if (bad) return send(400, { error: `invalid ${bad}` });
        held.set(note.id, note);
        return send(201, { data: note });
      }
      const m = /^\/notes\/([^/]+)$/.exec(url.pathname);
      const note = m ? held.get(decodeURIComponent(m[1] ?? "")) : undefined;
      if (!m) return send(404, { error: "no such path" });
      if (!note) return send(404, { error: "no such note" });
      if (req.method === "GET") return send(200, { data: note });
      if (req.method === "PUT") {
        const copy = { ...note };
        const bad = apply(copy, true);
        if (bad) return send(400, { error: `invalid ${bad}` });
        Object.assign(note, copy);
        return send(200, { data: note });
      }
      if (req.method === "DELETE") {
        held.delete(note.id);
        return send(204);
      }
      send(405, { error: "method" });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const plain = (s: string): string => s.replace(/\x1b\[[0-9;]*m/g, "");

describe("contract tests ask a server to store every member, falsy ones too", () => {
  let dir: string;
  const servers: Server[] = [];
  const run = async (behaviour: Behaviour): Promise<{ code: number | null; out: string }> => {
    const s = await notes(behaviour);
    servers.push(s.server);
    const r = await runCli(["test", "--spec", "notes.yaml", "--base-url", s.url, "--destructive", "--disposable"], dir);
    return { code: r.code, out: plain(r.stdout + r.stderr) };
  };

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "cg-writes-"));
    writeFileSync(path.join(dir, "notes.yaml"), DOCUMENT);
  });
  afterAll(() => {
    for (const s of servers) s.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("passes a server that keeps the contract, making room under the one-note cap instead of skipping", async () => {
    const r = await run({});
    expect(r.code, r.out).toBe(0);
    expect(r.out).not.toMatch(/refused every valid create/);
    expect(r.out).not.toMatch(/no note_id/);
  });

  it("fails a server whose create drops an optional member sent as 0", async () => {
    const r = await run({ createDropsZero: true });
    expect(r.code, r.out).toBe(1);
    expect(r.out).toMatch(/createNote[^\n]*every optional member[^\n]*priority: sent 0, reads back 3/);
  });

  it("fails a server whose update ignores a member, read back after the write", async () => {
    const r = await run({ updateIgnoresColor: true });
    expect(r.code, r.out).toBe(1);
    expect(r.out).toMatch(/updateNote[^\n]*color/);
  });
});
