/**
 * A workflow step may call another contract's operation (`operationId:
 * $sourceDescriptions.<name>.<operationId>`): a memo made through the memos API must be found by
 * the search API. The search server is given with `--source search=<url>`; without it the workflow
 * is skipped, naming the flag, rather than sent to the wrong server. A search server that finds the
 * memo passes, one that answers another text fails the step, naming the source.
 */
import { describe, expect, it } from "vitest";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { ROOT, runCli } from "../generator/helpers.js";
import { FIXTURE } from "../mock/helpers.js";
import { listening } from "./against-server.js";
import { outcome } from "./junit-outcome.js";

const CASE = "memoIsSearchable: a memo made here is found by the search API with its text";

/** One store behind two servers: memos (POST /memos) and search (GET /search?id=); `garbles` makes search answer another text. */
async function servers(garbles: boolean): Promise<{ memos: string; search: string; close: () => void }> {
  const memos = new Map<string, string>();
  const json = (res: import("node:http").ServerResponse, status: number, body: unknown, type = "application/json"): void => {
    res.writeHead(status, { "content-type": type });
    res.end(JSON.stringify(body));
  };
  const memoServer = createServer((req, res) => {
    let text = "";
    req.on("data", (d: Buffer) => (text += d.toString()));
    req.on("end", () => {
      if (req.url !== "/memos" || req.method !== "POST") return json(res, 404, { detail: "no such route" }, "application/problem+json");
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return json(res, 400, { detail: "not JSON" }, "application/problem+json");
      }
      const t = (body as { text?: unknown } | null)?.text;
      if (typeof t !== "string" || t.length === 0 || t.length > 40 || Object.keys(body as object).length !== 1) return json(res, 400, { detail: "text" }, "application/problem+json");
      const memo_id = `m-${memos.size + 1}`;
      memos.set(memo_id, t);
      json(res, 201, { memo_id, text: t });
    });
  });
  const searchServer = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const found = url.pathname === "/search" ? memos.get(url.searchParams.get("id") ?? "") : undefined;
    if (found === undefined) return json(res, 404, { detail: "not found" }, "application/problem+json");
    json(res, 200, { text: garbles ? found.toUpperCase().replace("MEMO", "note") : found });
  });
  const a: { url: string; server: Server } = await listening(memoServer);
  const b: { url: string; server: Server } = await listening(searchServer);
  return {
    memos: a.url,
    search: b.url,
    close: () => {
      a.server.close();
      b.server.close();
    },
  };
}

describe("workflow steps that call another contract", () => {
  let dir = "";
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "cg-memos-"));
    copyFileSync(path.join(ROOT, FIXTURE("memos.openapi.yaml")), path.join(dir, "memos.yaml"));
    copyFileSync(path.join(ROOT, FIXTURE("memos.arazzo.yaml")), path.join(dir, "memos.arazzo.yaml"));
    copyFileSync(path.join(ROOT, FIXTURE("search.openapi.yaml")), path.join(dir, "search.yaml"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = async (url: string, label: string, extra: readonly string[]): Promise<{ code: number | null; verdict: string; stdout: string }> => {
    const report = path.join(dir, `report-${label}.xml`);
    const r = await runCli(["test", "--spec", "memos.yaml", "--base-url", url, "--destructive", ...extra, "--reporter", "junit", "--output", report], dir);
    return { code: r.code, verdict: outcome(readFileSync(report, "utf8"), CASE), stdout: r.stdout };
  };

  it("passes when the other contract's server finds what this one made", async () => {
    const s = await servers(false);
    try {
      const r = await run(s.memos, "finds", ["--source", `search=${s.search}`]);
      expect(r.verdict).toBe("passed");
      expect(r.code).toBe(0);
    } finally {
      s.close();
    }
  });

  it("fails, naming the source, when the other server answers another text", async () => {
    const s = await servers(true);
    try {
      const r = await run(s.memos, "garbles", ["--source", `search=${s.search}`]);
      // The report is JUnit XML: quotes and ampersands come escaped.
      expect(r.verdict).toMatch(/^failed: .*step find: search&apos;s findDocument \(GET \/search\): .*does not hold: .*\$response\.body#\/text = &quot;note \d+&quot;/s);
      expect(r.code).toBe(1);
    } finally {
      s.close();
    }
  });

  it("is skipped, naming --source, when the other contract's server is not given", async () => {
    const s = await servers(false);
    try {
      const r = await run(s.memos, "unplaced", []);
      expect(r.verdict).toBe("skipped");
      expect(r.stdout).toContain("its steps also call the source search: give its base URL with contractgen test --source search=<url>");
    } finally {
      s.close();
    }
  });
});
