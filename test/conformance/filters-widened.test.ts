/**
 * A filter holds on a widened list too. A list flag that defaults to false and widens the list
 * (`include_archived`: archived notes as well) must not let objects past the filter: the suite asks
 * again with each such flag set. The engine mock keeps the filter; a server that forgets it once
 * the flag is set is caught.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../mock/helpers.js";
import { proxy } from "./proxy.js";
import { notesWithListParameters, serveNotesVariant, type NotesVariant } from "./notes-variant.js";

describe("a filter on a list widened by its flags", () => {
  let notes: NotesVariant;
  beforeAll(async () => {
    // The list also takes `q`, a prefix filter on the text.
    notes = await serveNotesVariant(
      notesWithListParameters(["        - name: q", "          in: query", "          x-filter: { match: prefix, member: text }", "          schema: { type: string, minLength: 1, maxLength: 20 }"]),
    );
    // Notes of two beginnings, so a prefix keeps some and not others.
    for (const text of ["milk and eggs", "milk again", "call the bank", "call back"]) expect((await call(`${notes.mock.url}/notes`, { method: "POST", body: { text } })).status).toBe(201);
  });
  afterAll(async () => notes?.stop());
  const run = (url: string): Promise<{ code: number; out: string }> => notes.run(url);

  it("passes the mock, which filters the widened list too", async () => {
    const r = await run(notes.mock.url);
    expect(r.code, r.out).toBe(0);
  });

  it("fails a server that drops q once include_archived=true", async () => {
    const broken = await proxy(
      notes.mock.url,
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
