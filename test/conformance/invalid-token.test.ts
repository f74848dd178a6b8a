/**
 * A scheme's `x-invalid-token` states how a token the server does not know is refused: a server
 * answering a wrong bearer token with 401 and code 89 passes the wrong-token cases, one answering
 * code 32 fails them, and a request without any credentials is judged by its status alone (the
 * statement is about unknown tokens, not missing ones). The engine mock (`contractgen mock --spec`)
 * answers a token it does not know with the stated refusal.
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

const TOKEN = "diary-token-0123";
const WRONG = "listEntries: refuses credentials with a wrong bearer token with 401 in the contract's shape";
const SHORT = "listEntries: refuses credentials with the right bearer token cut short by one character with 401 in the contract's shape";
const NONE = "listEntries: refuses a request without credentials with 401 in the contract's shape";

/** The diary: `unknownCode` is the error code it gives a token it does not know; a missing header always gets code 215. */
async function diaryServer(unknownCode: number): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const send = (status: number, body: unknown): void => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const auth = req.headers.authorization;
    if (auth === undefined) return send(401, { errors: [{ code: 215, message: "Bad authentication data" }] });
    if (auth !== `Bearer ${TOKEN}`) return send(401, { errors: [{ code: unknownCode, message: "Invalid or expired token" }] });
    if (req.url === "/entries" && req.method === "GET") return send(200, [{ id: "e1" }]);
    send(401, { errors: [{ code: 0, message: "no such path" }] });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe("the refusal a scheme states for a token it does not know (x-invalid-token)", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "cg-invalid-token-"));
    copyFileSync(path.join(ROOT, FIXTURE("tokens.openapi.yaml")), path.join(dir, "tokens.yaml"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const run = async (url: string, label: string, token = TOKEN): Promise<{ code: number | null; xml: string }> => {
    const report = path.join(dir, `report-${label}.xml`);
    const r = await runCli(["test", "--spec", "tokens.yaml", "--base-url", url, "--auth", JSON.stringify({ bearer: token }), "--reporter", "junit", "--output", report], dir);
    return { code: r.code, xml: readFileSync(report, "utf8") };
  };

  it("passes a server that answers an unknown token with the stated code, and a missing one with another", async () => {
    const s = await diaryServer(89);
    try {
      const { code, xml } = await run(s.url, "right");
      expect(outcome(xml, WRONG)).toBe("passed");
      expect(outcome(xml, SHORT)).toBe("passed");
      expect(outcome(xml, NONE)).toBe("passed");
      expect(code).toBe(0);
    } finally {
      s.server.close();
    }
  });

  it("fails a server that answers an unknown token with another code, naming the statement", async () => {
    const s = await diaryServer(32);
    try {
      const { code, xml } = await run(s.url, "wrong-code");
      expect(outcome(xml, WRONG)).toMatch(/^failed: .*not the refusal of an unknown token the contract states \(Authentication: an invalid token gets HTTP 401 with error code 89\)/s);
      expect(outcome(xml, SHORT)).toMatch(/^failed: /);
      expect(outcome(xml, NONE)).toBe("passed");
      expect(code).toBe(1);
    } finally {
      s.server.close();
    }
  });

  it("passes the engine mock, which answers a token it does not know with the stated refusal", async () => {
    const mock = await startMock(["--spec", FIXTURE("tokens.openapi.yaml"), "--check-credentials"]);
    try {
      const { code, xml } = await run(mock.url, "mock", "mock-bearer-token");
      expect(outcome(xml, WRONG)).toBe("passed");
      expect(outcome(xml, SHORT)).toBe("passed");
      expect(code).toBe(0);
    } finally {
      await mock.stop();
    }
  });
});
