/**
 * Letter case in a text filter counts only as far as the contract says. Where it says nothing
 * (`x-filter` without `caseInsensitive`), a server that folds case and one that does not both pass:
 * an object matching in another case is neither demanded nor refused. Where it says case counts
 * (`caseInsensitive: false`), the folding server lists objects the filter does not match.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runCli } from "../generator/helpers.js";
import { call, startMock, type RunningMock } from "../mock/helpers.js";
import { proxy } from "./proxy.js";
import { notesWithListParameters } from "./notes-variant.js";

const plain = (s: string): string => s.replace(/\x1b\[[0-9;]*m/g, "");

/** The notes contract whose list also takes `q`, a prefix filter on the text, saying `caseRule` of case. */
function withPrefixFilter(caseRule: string): string {
  return notesWithListParameters([
    "        - name: q",
    "          in: query",
    `          x-filter: { match: prefix, member: text${caseRule} }`,
    "          schema: { type: string, minLength: 1, maxLength: 20 }",
  ]);
}

/** The mock behind a proxy that matches `q` without regard to case: it asks for the whole list and keeps what folds to the prefix. */
async function foldingServer(upstream: string): Promise<Awaited<ReturnType<typeof proxy>>> {
  return proxy(
    upstream,
    (method, url, body) => {
      const q = new URLSearchParams(url.hash.slice(1)).get("q");
      if (method !== "GET" || q === null || typeof body !== "object" || body === null) return undefined;
      const data = (body as { data?: unknown }).data;
      if (!Array.isArray(data)) return undefined;
      const kept = data.filter((n: unknown) => typeof (n as { text?: unknown }).text === "string" && (n as { text: string }).text.toLowerCase().startsWith(q.toLowerCase()));
      return { ...(body as object), data: kept };
    },
    (method, url) => {
      const q = url.searchParams.get("q");
      // A q the contract refuses goes on as it came, so the mock still refuses it.
      if (method !== "GET" || url.pathname !== "/notes" || q === null || q.length < 1 || q.length > 20) return url;
      // The prefix travels in the fragment, which fetch never sends, so the rewrite can apply it.
      const out = new URL(url);
      out.searchParams.delete("q");
      out.hash = new URLSearchParams({ q }).toString();
      return out;
    },
  );
}

describe("letter case in a prefix filter", () => {
  const dirs: string[] = [];
  let mock: RunningMock;
  beforeAll(async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "cg-filter-case-"));
    dirs.push(dir);
    writeFileSync(path.join(dir, "notes.yaml"), withPrefixFilter(""));
    mock = await startMock(["--spec", path.join(dir, "notes.yaml")]);
    // Every listed note again with its case flipped, so whichever beginning the suite asks with, a
    // folding server keeps more than an exact one.
    const listed = await call(`${mock.url}/notes`);
    const texts = (listed.body as { data: { text: string }[] }).data.map((n) => n.text).filter((t) => t.length <= 200);
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts) {
      const flipped = text.toUpperCase() !== text ? text.toUpperCase() : text.toLowerCase();
      expect((await call(`${mock.url}/notes`, { method: "POST", body: { text: flipped } })).status).toBe(201);
    }
  });
  afterAll(async () => {
    await mock?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const run = async (caseRule: string, url: string): Promise<{ code: number; out: string }> => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "cg-filter-case-"));
    dirs.push(dir);
    writeFileSync(path.join(dir, "notes.yaml"), withPrefixFilter(caseRule));
    const r = await runCli(["test", "--spec", "notes.yaml", "--base-url", url], dir);
    return { code: r.code, out: plain(r.stdout + r.stderr) };
  };

  it("where the contract does not say, passes a server that matches the exact case (the mock)", async () => {
    const r = await run("", mock.url);
    expect(r.code, r.out).toBe(0);
  });

  it("where the contract does not say, passes a server that folds case", async () => {
    const folding = await foldingServer(mock.url);
    try {
      const r = await run("", folding.url);
      expect(r.code, r.out).toBe(0);
    } finally {
      folding.server.close();
    }
  });

  it("where the contract says case counts, fails the server that folds it", async () => {
    const folding = await foldingServer(mock.url);
    try {
      const r = await run(", caseInsensitive: false", folding.url);
      expect(r.code, r.out).toBe(1);
      expect(r.out).toMatch(/listNotes \(GET \/notes\) with q="[^"]+" lists objects it does not match/);
    } finally {
      folding.server.close();
    }
  });
});
