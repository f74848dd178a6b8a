/**
 * An id filter met at its stated limit ("up to N ids") keeps all N: the suite fills it with N ids,
 * the last of them ids the list shows, and expects their objects back. A server that reads only the
 * first part of a long filter leaves them out.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { proxy } from "./proxy.js";
import { notesWithListParameters, serveNotesVariant, type NotesVariant } from "./notes-variant.js";

describe("an id filter at its limit", () => {
  let notes: NotesVariant;
  beforeAll(async () => {
    // The list also takes `note_ids`: up to 5 ids, the notes with those ids.
    notes = await serveNotesVariant(
      notesWithListParameters([
        "        - name: note_ids",
        "          in: query",
        "          style: form",
        "          explode: false",
        "          x-filter: { match: in, member: id }",
        '          schema: { type: array, maxItems: 5, items: { type: string, pattern: "^n[0-9]{1,9}$" } }',
      ]),
    );
  });
  afterAll(async () => notes?.stop());
  const run = (url: string): Promise<{ code: number; out: string }> => notes.run(url);

  it("passes the mock, which keeps every id of a full filter", async () => {
    const r = await run(notes.mock.url);
    expect(r.code, r.out).toBe(0);
  });

  it("fails a server that reads only the first 3 ids", async () => {
    const short = await proxy(
      notes.mock.url,
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
