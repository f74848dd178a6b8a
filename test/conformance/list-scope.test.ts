/**
 * A list under one parent shows that parent's children only: a sock the suite makes in drawer A is
 * not listed in drawer B. A server that keeps each drawer's socks apart passes the case, one that
 * lists every sock in every drawer fails it, a server with a single drawer has no other to look in
 * (skipped), and the engine mock (`contractgen mock --spec`) passes it.
 */
import { describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import { FIXTURE, startMock } from "../mock/helpers.js";
import { fixtureRuns, listening } from "./against-server.js";
import { outcome } from "./junit-outcome.js";

const CASE = "listSocks: lists no sock_id made under another drawer_id";

/** A small server of the contract; `leaks` lists the socks of every drawer under each, as a list that forgets its parent would. */
async function drawersServer(opts: { leaks: boolean; drawers: readonly string[] }): Promise<{ url: string; server: Server }> {
  const socks = new Map<string, { drawer: string; colour: string }>([["s-1", { drawer: opts.drawers[0] ?? "d-a", colour: "red" }]]);
  let made = 0;
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (d: Buffer) => (text += d.toString()));
    req.on("end", () => {
      const send = (status: number, body: unknown, type = "application/json"): void => {
        res.writeHead(status, { "content-type": type });
        res.end(JSON.stringify(body));
      };
      const refuse = (status: number, detail: string): void => send(status, { status, detail }, "application/problem+json");
      const url = new URL(req.url ?? "/", "http://x");
      if (url.pathname === "/drawers" && req.method === "GET")
        return send(
          200,
          opts.drawers.map((drawer_id) => ({ drawer_id })),
        );
      const under = /^\/drawers\/([^/]+)\/socks(?:\/([^/]+))?$/.exec(url.pathname);
      const drawer = decodeURIComponent(under?.[1] ?? "");
      if (!under || !opts.drawers.includes(drawer)) return refuse(404, "no such drawer");
      const sockId = under[2] === undefined ? undefined : decodeURIComponent(under[2]);
      if (sockId === undefined && req.method === "GET")
        return send(
          200,
          [...socks].filter(([, s]) => opts.leaks || s.drawer === drawer).map(([sock_id, s]) => ({ sock_id, colour: s.colour })),
        );
      if (sockId === undefined && req.method === "POST") {
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          return refuse(400, "the body is not JSON");
        }
        const colour = (body as { colour?: unknown } | null)?.colour;
        if (typeof colour !== "string" || colour.length === 0 || colour.length > 20 || Object.keys(body as object).length !== 1) return refuse(400, "colour is required");
        const sock_id = `s-${String(100 + ++made)}`;
        socks.set(sock_id, { drawer, colour });
        return send(201, { sock_id, colour });
      }
      const sock = sockId === undefined ? undefined : socks.get(sockId);
      if (sock === undefined || sock.drawer !== drawer) return refuse(404, "no such sock in this drawer");
      return send(200, { sock_id: sockId, colour: sock.colour });
    });
  });
  return listening(server);
}

describe("a list under one parent shows none of another's children", () => {
  const run = fixtureRuns("drawers.openapi.yaml", "drawers.yaml");
  const caseAgainst = async (url: string, label: string): Promise<{ code: number | null; verdict: string }> => {
    const { code, xml } = await run(url, label);
    return { code, verdict: outcome(xml, CASE) };
  };

  it("passes a server that lists each drawer's own socks", async () => {
    const s = await drawersServer({ leaks: false, drawers: ["d-a", "d-b"] });
    try {
      const { code, verdict } = await caseAgainst(s.url, "apart");
      expect(verdict).toBe("passed");
      expect(code).toBe(0);
    } finally {
      s.server.close();
    }
  });

  it("fails a server that lists every drawer's socks in each", async () => {
    const s = await drawersServer({ leaks: true, drawers: ["d-a", "d-b"] });
    try {
      const { verdict } = await caseAgainst(s.url, "leaky");
      expect(verdict).toMatch(/^failed: .*under drawer_id d-b lists sock_id s-\d+, which the suite made under drawer_id d-a/s);
    } finally {
      s.server.close();
    }
  });

  it("is skipped where a single drawer is listed: there is no other to look in", async () => {
    const s = await drawersServer({ leaks: true, drawers: ["d-a"] });
    try {
      expect((await caseAgainst(s.url, "single")).verdict).toBe("skipped");
    } finally {
      s.server.close();
    }
  });

  it("passes the engine mock, which keeps each parent's children apart", async () => {
    const mock = await startMock(["--spec", FIXTURE("drawers.openapi.yaml")]);
    try {
      const { code, verdict } = await caseAgainst(mock.url, "mock");
      expect(verdict).toBe("passed");
      expect(code).toBe(0);
    } finally {
      await mock.stop();
    }
  });
});
