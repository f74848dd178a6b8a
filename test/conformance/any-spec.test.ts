/**
 * `contractgen test` on a document that is none of the workspace's three, generated outside the
 * workspace (under the OS temp folder, with no node_modules and no linking), against small loopback
 * servers this test starts: it passes on a server that keeps the contract and fails on one that
 * breaks it; a baseline turns known deviations into "known" and still fails on new ones.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { ROOT, runCli } from "../generator/helpers.js";

/** A bookshelf API: a list, an item by id, bounded paging; served under the relative base path /v1. */
const DOCUMENT = `openapi: 3.0.3
info: { title: Bookshelf, version: 1.0.0 }
servers: [{ url: /v1 }]
paths:
  /books:
    get:
      operationId: listBooks
      parameters:
        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 50, default: 10 } }
      responses:
        "200":
          description: books
          content:
            application/json:
              schema:
                type: object
                required: [data]
                properties: { data: { type: array, items: { $ref: "#/components/schemas/Book" } } }
        "400": { $ref: "#/components/responses/Invalid" }
  /books/{book_id}:
    get:
      operationId: getBook
      parameters:
        - { name: book_id, in: path, required: true, schema: { type: string, pattern: "^[0-9]+$" }, example: "1" }
      responses:
        "200":
          description: a book
          content:
            application/json:
              schema: { type: object, required: [data], properties: { data: { $ref: "#/components/schemas/Book" } } }
        "400": { $ref: "#/components/responses/Invalid" }
        "404": { $ref: "#/components/responses/Invalid" }
components:
  responses:
    Invalid:
      description: refused
      content:
        application/json:
          schema: { type: object, required: [error], properties: { error: { type: string } } }
  schemas:
    Book:
      type: object
      required: [id, title, pages]
      properties:
        id: { type: string }
        title: { type: string }
        pages: { type: integer, minimum: 1 }
`;

/** A second document served by the same server, to see how two suites share it. */
const AUTHORS = `openapi: 3.0.3
info: { title: Authors, version: 1.0.0 }
servers: [{ url: /v1 }]
paths:
  /authors:
    get:
      operationId: listAuthors
      parameters:
        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 50 } }
      responses:
        "200":
          description: authors
          content:
            application/json:
              schema: { type: object, required: [data], properties: { data: { type: array, items: { type: string } } } }
        "400":
          description: refused
          content:
            application/json:
              schema: { type: object, required: [error], properties: { error: { type: string } } }
`;

interface Behaviour {
  /** The pages of book 1 as served: 0 breaks the contract's minimum of 1. */
  readonly pages: number;
  /** Whether limit is checked: a server that does not accepts values outside 1..50. */
  readonly checksLimit: boolean;
}

const BOOKS = [
  { id: "1", title: "Dune" },
  { id: "2", title: "Solaris" },
];

/** A small server for the document, under /v1; `behaviour` decides what it gets wrong. */
async function bookshelf(behaviour: Behaviour): Promise<{ url: string; server: Server; paths: string[] }> {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    paths.push(url.pathname);
    const send = (status: number, body: unknown): void => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const book = (b: { id: string; title: string }): unknown => ({ ...b, pages: b.id === "1" ? behaviour.pages : 300 });
    if (req.method === "GET" && url.pathname === "/v1/books") {
      const raw = url.searchParams.get("limit");
      const limit = raw === null ? 10 : Number(raw);
      if (behaviour.checksLimit && (!/^-?\d+$/.test(raw ?? "10") || limit < 1 || limit > 50)) return send(400, { error: "limit must be an integer from 1 to 50" });
      return send(200, { data: BOOKS.slice(0, Math.max(0, limit)).map(book) });
    }
    if (req.method === "GET" && url.pathname === "/v1/authors") {
      const raw = url.searchParams.get("limit");
      if (raw !== null && (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 50)) return send(400, { error: "limit must be an integer from 1 to 50" });
      return send(200, { data: ["Herbert", "Lem"] });
    }
    const m = /^\/v1\/books\/([^/]+)$/.exec(url.pathname);
    if (req.method === "GET" && m) {
      const id = decodeURIComponent(m[1] ?? "");
      if (!/^[0-9]+$/.test(id)) return send(400, { error: "book_id must be digits" });
      const found = BOOKS.find((b) => b.id === id);
      return found ? send(200, { data: book(found) }) : send(404, { error: "no such book" });
    }
    send(404, { error: "no such path" });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, paths };
}

const plain = (s: string): string => s.replace(/\x1b\[[0-9;]*m/g, "");

describe("contractgen test on any spec, generated anywhere", () => {
  let dir: string;
  type Running = Awaited<ReturnType<typeof bookshelf>>;
  let good: Running;
  let badPages: Running;
  let badBoth: Running;

  beforeAll(async () => {
    // Outside the workspace: nothing here can find the workspace's node_modules by walking up.
    dir = mkdtempSync(path.join(os.tmpdir(), "cg-any-spec-"));
    expect(path.relative(ROOT, dir).startsWith("..")).toBe(true);
    writeFileSync(path.join(dir, "bookshelf.yaml"), DOCUMENT);
    writeFileSync(path.join(dir, "authors.yaml"), AUTHORS);
    good = await bookshelf({ pages: 250, checksLimit: true });
    badPages = await bookshelf({ pages: 0, checksLimit: true });
    badBoth = await bookshelf({ pages: 0, checksLimit: false });
  });
  afterAll(() => {
    for (const s of [good, badPages, badBoth]) s?.server.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("generates the package outside the workspace and passes against a server that keeps the contract", async () => {
    const gen = await runCli(["generate", "bookshelf.yaml", "--out", "pkg", "--quiet"], dir);
    expect(gen.code, gen.stderr).toBe(0);
    expect(existsSync(path.join(dir, "pkg", "node_modules"))).toBe(false);
    // The server's own origin: the contract's base path /v1 is added by contractgen test.
    const r = await runCli(["test", "--spec", path.join(dir, "pkg"), "--base-url", good.url], dir);
    const out = plain(r.stdout + r.stderr);
    expect(plain(r.stdout).trim().split("\n").at(-1)).toMatch(/^[1-9]\d* passed, 0 failed, \d+ skipped$/);
    expect(r.code, out).toBe(0);
  });

  it("fails (exit 1) on a server that breaks it, naming the operation and the violation; a document works as --spec", async () => {
    const r = await runCli(["test", "--spec", "bookshelf.yaml", "--base-url", badPages.url, "--quiet"], dir);
    const out = plain(r.stdout + r.stderr);
    expect(r.code, out).toBe(1);
    expect(out).toMatch(/getBook \(GET \/books\/\{book_id\}\) answered 200/);
    expect(out).toMatch(/pages must be >= 1/);
    expect(plain(r.stdout).trim().split("\n").at(-1)).toMatch(/^\d+ passed, [1-9]\d* failed, \d+ skipped$/);
    // Generated once into the cache of the folder it ran in, and reused.
    const cache = path.join(dir, "node_modules", ".cache", "contractgen", "test");
    expect(readdirSync(cache).filter((f) => !f.startsWith("."))).toHaveLength(1);
    const again = await runCli(["test", "--spec", "bookshelf.yaml", "--base-url", badPages.url], dir);
    expect(plain(again.stderr)).toMatch(/up to date/);
  });

  it("with a baseline, fails only on new deviations and reports fixed ones", async () => {
    const baseline = path.join(dir, "contract-baseline.json");
    const pkg = path.join(dir, "pkg");
    const record = await runCli(["test", "--spec", pkg, "--base-url", badPages.url, "--baseline", baseline, "--update-baseline"], dir);
    expect(record.code, plain(record.stdout + record.stderr)).toBe(0);
    const known = (JSON.parse(readFileSync(baseline, "utf8")) as { known: { package: string; operation: string; check: string }[] }).known;
    // Book 1 breaks its schema in the list and on its own: the deviations are those two operations'
    // cases that read it (each valid request, the paging walk), recorded by check.
    expect([...new Set(known.map((k) => `${k.package} ${k.operation}`))].sort()).toEqual(["bookshelf getBook", "bookshelf listBooks"]);
    expect(known.some((k) => /^getBook: answers valid request \d+ with a declared status, media type and body$/.test(k.check))).toBe(true);
    // Drawn-request failures of one operation are one entry (which drawn request shows a deviation
    // is the seed's choice), so the run knows at least as many failing cases as the file has entries.
    const last = plain(record.stdout).trim().split("\n").at(-1) ?? "";
    expect(last).toMatch(/^\d+ passed, 0 failed, \d+ known, \d+ skipped$/);
    const n = Number(/(\d+) known/.exec(last)?.[1]);
    expect(n).toBeGreaterThanOrEqual(known.length);
    expect(known.filter((k) => /valid request/.test(k.check)).every((k, i, all) => all.findIndex((o) => o.operation === k.operation && /valid request/.test(o.check)) === i)).toBe(true);

    // The same deviations: known, not failed.
    const same = await runCli(["test", "--spec", pkg, "--base-url", badPages.url, "--baseline", baseline], dir);
    expect(plain(same.stdout).trim().split("\n").at(-1)).toMatch(new RegExp(`^\\d+ passed, 0 failed, ${n} known, \\d+ skipped$`));
    expect(same.code).toBe(0);

    // A new deviation (limit no longer checked) fails the run and is listed; the known one stays known.
    const worse = await runCli(["test", "--spec", pkg, "--base-url", badBoth.url, "--baseline", baseline], dir);
    const worseOut = plain(worse.stdout);
    expect(worse.code).toBe(1);
    expect(worseOut).toMatch(/new failures, not in the baseline/);
    expect(worseOut).toMatch(/bookshelf › listBooks › listBooks: refuses a request with limit above its maximum/);
    expect(worseOut.trim().split("\n").at(-1)).toMatch(new RegExp(`^\\d+ passed, [1-9]\\d* failed, ${n} known, \\d+ skipped$`));

    // Fixed on the server: reported, and the run passes.
    const fixed = await runCli(["test", "--spec", pkg, "--base-url", good.url, "--baseline", baseline], dir);
    const fixedOut = plain(fixed.stdout);
    expect(fixed.code).toBe(0);
    expect(fixedOut).toMatch(/fixed: these baselined cases pass now \(run with --update-baseline/);
    expect(fixedOut).toMatch(/bookshelf › getBook › getBook: answers valid request 1/);
    expect(fixedOut.trim().split("\n").at(-1)).toMatch(/^\d+ passed, 0 failed, 0 known, \d+ skipped$/);
  });

  it("runs suites that share one server one after another, in the order given", async () => {
    for (const [doc, out] of [
      ["authors.yaml", "authors-pkg"],
      ["bookshelf.yaml", "pkg"],
    ] as const) {
      // The bookshelf package is there when the first case ran; this one may run alone (-t).
      if (existsSync(path.join(dir, out))) continue;
      const gen = await runCli(["generate", doc, "--out", out, "--quiet"], dir);
      expect(gen.code, gen.stderr).toBe(0);
    }
    const kinds = (): string[] => good.paths.map((p) => (p.startsWith("/v1/authors") ? "authors" : "books")).filter((k, i, all) => i === 0 || all[i - 1] !== k);
    for (const order of [
      ["pkg", "authors-pkg"],
      ["authors-pkg", "pkg"],
    ]) {
      good.paths.length = 0;
      const r = await runCli(["test", "--spec", ...order, "--base-url", good.url], dir);
      expect(r.code, plain(r.stdout + r.stderr)).toBe(0);
      // Every request of the first suite before any of the second: no interleaving, the given order.
      expect(kinds()).toEqual(order.map((o) => (o === "pkg" ? "books" : "authors")));
    }
  });

  it("refuses what it cannot run with a usage error (exit 3), before running anything", async () => {
    const cases: [string[], RegExp][] = [
      [["test", "--spec", "nothing-here", "--base-url", good.url], /--spec nothing-here: not a package under/],
      [["test", "--spec", "pkg"], /give the server to test with --base-url/],
      [["test", "--spec", "pkg", "--base-url", good.url, "--update-baseline"], /--update-baseline needs --baseline/],
      [["test", "--spec", "pkg", "--base-url", good.url, "--seed", "1.5"], /--seed 1\.5: give an integer/],
      [["test", "--spec", "pkg", "--base-url", good.url, "--baseline", "missing.json"], /cannot read the baseline/],
      [["test", "--spec", "pkg", "--base-url", good.url, "--auth", "{not json"], /--auth is not JSON/],
    ];
    writeFileSync(path.join(dir, "broken-baseline.json"), "{}");
    cases.push([["test", "--spec", "pkg", "--base-url", good.url, "--baseline", "broken-baseline.json"], /has no "known" list/]);
    for (const [args, message] of cases) {
      const r = await runCli(args, dir);
      expect({ args, code: r.code }).toEqual({ args, code: 3 });
      expect(r.stderr).toMatch(message);
    }
  });
});
