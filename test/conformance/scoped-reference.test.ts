/**
 * `x-scoped`: a request member naming an object of the path's parent (a card made on a board takes
 * one of that board's labels). The suite finds a second board, a label listed only under it, and
 * sends it: a server that refuses it passes the case, one that takes it fails it. The engine mock
 * (`contractgen mock --spec`) refuses a key another parent holds, so it passes too.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { ROOT, runCli } from "../generator/helpers.js";
import { FIXTURE, startMock } from "../mock/helpers.js";
import { outcome } from "./junit-outcome.js";

const CASE = "createCard: refuses a label_key of another board_id";
const LABELS: Record<string, string[]> = { "bd-one": ["urgent", "later"], "bd-two": ["blocked"] };

/** A small server of the contract; `checksScope` false takes any label, as a server that forgot the board would. */
async function cardsServer(checksScope: boolean): Promise<{ url: string; server: Server }> {
  let made = 0;
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (d: Buffer) => (text += d.toString()));
    req.on("end", () => {
      const send = (status: number, body: unknown, type = "application/json"): void => {
        res.writeHead(status, { "content-type": type });
        res.end(JSON.stringify(body));
      };
      const url = new URL(req.url ?? "/", "http://x");
      if (req.method === "GET" && url.pathname === "/boards")
        return send(
          200,
          Object.keys(LABELS).map((board_id) => ({ board_id })),
        );
      const labels = /^\/boards\/([^/]+)\/labels$/.exec(url.pathname);
      if (req.method === "GET" && labels)
        return send(
          200,
          (LABELS[labels[1] ?? ""] ?? []).map((label_key) => ({ label_key })),
        );
      const cards = /^\/boards\/([^/]+)\/cards$/.exec(url.pathname);
      if (req.method === "POST" && cards) {
        let body: { title?: unknown; label_key?: unknown } = {};
        try {
          body = JSON.parse(text) as typeof body;
        } catch {
          return send(400, { status: 400, detail: "body is not JSON" }, "application/problem+json");
        }
        const known = Object.values(LABELS).flat();
        const own = LABELS[cards[1] ?? ""] ?? [];
        if (typeof body.title !== "string" || body.title.length === 0 || body.title.length > 40 || typeof body.label_key !== "string")
          return send(400, { status: 400, detail: "title and label_key are required" }, "application/problem+json");
        if (!(checksScope ? own : known).includes(body.label_key)) return send(400, { status: 400, detail: `label_key ${body.label_key} is not a label of this board` }, "application/problem+json");
        return send(201, { card_id: `c${++made}`, title: body.title, label_key: body.label_key });
      }
      send(404, { status: 404, detail: "no such path" }, "application/problem+json");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe("x-scoped: a reference to an object of another parent", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "cg-scoped-"));
    copyFileSync(path.join(ROOT, FIXTURE("cards.openapi.yaml")), path.join(dir, "cards.yaml"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const caseAgainst = async (checksScope: boolean): Promise<string> => {
    const s = await cardsServer(checksScope);
    try {
      const report = path.join(dir, `report-${String(checksScope)}.xml`);
      await runCli(["test", "--spec", "cards.yaml", "--base-url", s.url, "--reporter", "junit", "--output", report], dir);
      return outcome(readFileSync(report, "utf8"), CASE);
    } finally {
      s.server.close();
    }
  };

  it("passes a server that refuses another board's label", async () => {
    expect(await caseAgainst(true)).toBe("passed");
  });

  it("passes the engine mock, which refuses a label another board holds", async () => {
    const mock = await startMock(["--spec", FIXTURE("cards.openapi.yaml")]);
    try {
      const report = path.join(dir, "report-mock.xml");
      const r = await runCli(["test", "--spec", "cards.yaml", "--base-url", mock.url, "--reporter", "junit", "--output", report], dir);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(outcome(readFileSync(report, "utf8"), CASE)).toBe("passed");
    } finally {
      await mock.stop();
    }
  });

  it("fails a server that takes another board's label", async () => {
    expect(await caseAgainst(false)).toMatch(/^failed: .*took label_key blocked, listed under board_id bd-two, for board_id bd-one: answered 201/s);
  });
});
