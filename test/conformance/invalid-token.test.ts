/**
 * A scheme's `x-invalid-token` states how a token the server does not know is refused: a server
 * answering a wrong bearer token with 401 and code 89 passes the wrong-token cases, one answering
 * code 32 fails them, and a request without any credentials is judged by its status alone (the
 * statement is about unknown tokens, not missing ones). The engine mock (`contractgen mock --spec`)
 * answers a token it does not know with the stated refusal.
 */
import { describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import { FIXTURE, startMock } from "../mock/helpers.js";
import { fixtureRuns, listening } from "./against-server.js";
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
  return listening(server);
}

describe("the refusal a scheme states for a token it does not know (x-invalid-token)", () => {
  const runs = fixtureRuns("tokens.openapi.yaml", "tokens.yaml");
  const run = (url: string, label: string, token = TOKEN): Promise<{ code: number | null; xml: string }> => runs(url, label, ["--auth", JSON.stringify({ bearer: token })]);

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
