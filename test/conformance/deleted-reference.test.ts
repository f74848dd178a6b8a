/**
 * A request member naming another object names one that exists: a note filed under a tag the
 * suite made and then deleted is refused. A server that checks its tags passes the case, one that
 * takes any tag id fails it, and the engine mock (`contractgen mock --spec`), which refuses a key
 * of a deleted object, passes it.
 */
import { describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import { FIXTURE, startMock } from "../mock/helpers.js";
import { fixtureRuns, listening } from "./against-server.js";
import { outcome } from "./junit-outcome.js";

const CASE = "createNote: refuses tag_id naming a deleted object";

/** A small server of the contract; `checksTags` false files a note under any tag id, as a server that never looks its tags up would. */
async function notesServer(checksTags: boolean): Promise<{ url: string; server: Server }> {
  const tags = new Map<string, string>([["t1", "home"]]);
  let made = 0;
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (d: Buffer) => (text += d.toString()));
    req.on("end", () => {
      const send = (status: number, body?: unknown, type = "application/json"): void => {
        res.writeHead(status, body === undefined ? {} : { "content-type": type });
        res.end(body === undefined ? undefined : JSON.stringify(body));
      };
      const refuse = (status: number, detail: string): void => send(status, { status, detail }, "application/problem+json");
      /** The body as an object holding only the members `allowed` (the contract closes both bodies). */
      const parsed = (...allowed: string[]): Record<string, unknown> | undefined => {
        try {
          const v: unknown = JSON.parse(text);
          if (v === null || typeof v !== "object" || Array.isArray(v)) return undefined;
          return Object.keys(v).every((k) => allowed.includes(k)) ? (v as Record<string, unknown>) : undefined;
        } catch {
          return undefined;
        }
      };
      const url = new URL(req.url ?? "/", "http://x");
      if (url.pathname === "/tags" && req.method === "GET")
        return send(
          200,
          [...tags].map(([tag_id, name]) => ({ tag_id, name })),
        );
      if (url.pathname === "/tags" && req.method === "POST") {
        const body = parsed("name");
        if (typeof body?.["name"] !== "string" || body["name"].length === 0 || body["name"].length > 20) return refuse(400, "name is required");
        const tag_id = `t${String(100 + ++made)}`;
        tags.set(tag_id, body["name"]);
        return send(201, { tag_id, name: body["name"] });
      }
      const one = /^\/tags\/([^/]+)$/.exec(url.pathname);
      if (one) {
        const id = decodeURIComponent(one[1] ?? "");
        const name = tags.get(id);
        if (name === undefined) return refuse(404, `no tag ${id}`);
        if (req.method === "GET") return send(200, { tag_id: id, name });
        if (req.method === "DELETE") {
          tags.delete(id);
          return send(204);
        }
      }
      if (url.pathname === "/notes" && req.method === "POST") {
        const body = parsed("text", "tag_id");
        const note = body?.["text"];
        const tag = body?.["tag_id"];
        if (typeof note !== "string" || note.length === 0 || note.length > 40 || typeof tag !== "string") return refuse(400, "text and tag_id are required");
        if (checksTags && !tags.has(tag)) return refuse(400, `tag_id ${tag} names no tag`);
        return send(201, { note_id: `n${String(++made)}`, text: note, tag_id: tag });
      }
      refuse(404, "no such path");
    });
  });
  return listening(server);
}

describe("a reference to a deleted object", () => {
  const run = fixtureRuns("tags.openapi.yaml", "tags.yaml");
  const caseAgainst = async (url: string, label: string, destructive = true): Promise<{ code: number | null; verdict: string }> => {
    const { code, xml } = await run(url, label, destructive ? ["--destructive"] : []);
    return { code, verdict: outcome(xml, CASE) };
  };

  it("passes a server that refuses a tag it deleted", async () => {
    const s = await notesServer(true);
    try {
      const { code, verdict } = await caseAgainst(s.url, "strict");
      expect(verdict).toBe("passed");
      expect(code).toBe(0);
    } finally {
      s.server.close();
    }
  });

  it("fails a server that files a note under a deleted tag", async () => {
    const s = await notesServer(false);
    try {
      const { verdict } = await caseAgainst(s.url, "lax");
      expect(verdict).toMatch(/^failed: .*took tag_id t\d+, which deleteTag had deleted: answered 201/s);
    } finally {
      s.server.close();
    }
  });

  it("is skipped without --destructive: it deletes the object it makes", async () => {
    const s = await notesServer(false);
    try {
      expect((await caseAgainst(s.url, "gentle", false)).verdict).toBe("skipped");
    } finally {
      s.server.close();
    }
  });

  it("passes the engine mock, which refuses a key of a deleted object", async () => {
    const mock = await startMock(["--spec", FIXTURE("tags.openapi.yaml")]);
    try {
      const { code, verdict } = await caseAgainst(mock.url, "mock");
      expect(verdict).toBe("passed");
      expect(code).toBe(0);
    } finally {
      await mock.stop();
    }
  });
});
