/**
 * Filters asked together keep what every one of them matches: a list applying both passes the case,
 * one that keeps a book when either filter matches fails it, naming both values.
 */
import { describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import { fixtureRuns, listening } from "./against-server.js";
import { outcome } from "./junit-outcome.js";

const CASE = "listBooks: filters asked together (genre, author) keep only the objects every one matches";

const BOOKS = [
  { id: "b1", genre: "crime", author: "ada" },
  { id: "b2", genre: "crime", author: "bo" },
  { id: "b3", genre: "poetry", author: "ada" },
  { id: "b4", genre: "poetry", author: "bo" },
];

/** The books; `either` keeps a book when any filter asked matches it instead of every one. */
async function booksServer(either: boolean): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const asked = (["genre", "author"] as const).filter((k) => url.searchParams.has(k));
    const hit = (b: (typeof BOOKS)[number], k: "genre" | "author"): boolean => b[k] === url.searchParams.get(k);
    const kept = asked.length === 0 ? BOOKS : BOOKS.filter((b) => (either ? asked.some((k) => hit(b, k)) : asked.every((k) => hit(b, k))));
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(kept));
  });
  return listening(server);
}

describe("filters asked together", () => {
  const run = fixtureRuns("shelves-filters.openapi.yaml", "books.yaml");
  const caseAgainst = async (url: string, label: string): Promise<string> => outcome((await run(url, label)).xml, CASE);

  it("passes a list that keeps what both filters match", async () => {
    const s = await booksServer(false);
    try {
      expect(await caseAgainst(s.url, "and")).toBe("passed");
    } finally {
      s.server.close();
    }
  });

  it("fails a list that keeps what either filter matches", async () => {
    const s = await booksServer(true);
    try {
      expect(await caseAgainst(s.url, "or")).toMatch(/^failed: .*with genre=&quot;crime&quot; and author=&quot;(ada|bo)&quot; lists objects one of them does not match/s);
    } finally {
      s.server.close();
    }
  });
});
