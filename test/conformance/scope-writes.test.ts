/**
 * A write through another parent, where the client names the object (a label's name, as PowerDNS
 * sets zone metadata by kind): a PUT through another board may rightly make a label of that name
 * there, so the suite judges what the write did to the label under its own board, not the status.
 * Against the engine mock the case runs and passes, and a label of the same name that another
 * board has of its own is not taken for the first board's; a server that writes every label to
 * the first board whatever the path says is caught. A delete through another board may answer 204
 * (it had no such label): the label of the first board must still be there.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT, runCli } from "../generator/helpers.js";
import { call, FIXTURE, startMock, type RunningMock } from "../mock/helpers.js";
import { proxy } from "./proxy.js";

const plain = (s: string): string => s.replace(/\x1b\[[0-9;]*m/g, "");
const CASE = "setLabel: does not change a name of one board_id through another";

/** The XML of the case named `name` in a JUnit report, or null. */
function testcase(xml: string, name: string): string | null {
  const m = new RegExp(`<testcase [^>]*name="[^"]*${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"[^>]*(/>|>([\\s\\S]*?)</testcase>)`).exec(xml);
  return m ? (m[2] ?? "") : null;
}

describe("a write through another parent, where the client names the object", () => {
  let dir: string;
  let mock: RunningMock | undefined;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "cg-scope-writes-"));
    copyFileSync(path.join(ROOT, FIXTURE("labels.openapi.yaml")), path.join(dir, "labels.yaml"));
    return () => rmSync(dir, { recursive: true, force: true });
  });
  afterEach(async () => {
    await mock?.stop();
    mock = undefined;
  });

  const run = async (url: string): Promise<{ code: number; out: string; xml: string }> => {
    const report = path.join(dir, "report.xml");
    const r = await runCli(["test", "--spec", "labels.yaml", "--base-url", url, "--destructive", "--disposable", "--reporter", "junit", "--output", report], dir);
    return { code: r.code, out: plain(r.stdout + r.stderr), xml: readFileSync(report, "utf8") };
  };

  it("runs and passes against the mock, which sets the label on the board the path names", async () => {
    mock = await startMock(["--spec", FIXTURE("labels.openapi.yaml")]);
    const r = await run(mock.url);
    expect(r.code, r.out).toBe(0);
    const judged = testcase(r.xml, CASE);
    expect(judged, r.xml).not.toBeNull();
    expect(judged).not.toMatch(/<failure|<skipped/);
  });

  it("does not take another board's label of the same name for the first board's", async () => {
    mock = await startMock(["--spec", FIXTURE("labels.openapi.yaml")]);
    const made = await call(`${mock.url}/boards/bd-two/labels/urgent`, { method: "PUT", body: { colour: "blue" } });
    expect(made.status).toBe(200);
    const r = await run(mock.url);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/each other board_id tried lists a name urgent of its own/);
  });

  /** The run against a server that sends every `method` request to the first board, whatever board its path names. */
  const runRerouted = async (target: string, method: string): Promise<{ code: number; out: string; xml: string }> => {
    const broken = await proxy(
      target,
      () => undefined,
      (m, url) => (m === method ? new URL(url.pathname.replace(/^\/boards\/[^/]+\//, "/boards/bd-one/") + url.search, url) : url),
    );
    try {
      return await run(broken.url);
    } finally {
      broken.server.close();
    }
  };

  /** The mock, with more labels on the first board than the delete cases before the scope case use up. */
  const mockWithLabels = async (): Promise<RunningMock> => {
    const m = await startMock(["--spec", FIXTURE("labels.openapi.yaml")]);
    for (const name of ["later", "someday", "waiting", "review", "done", "maybe"])
      expect((await call(`${m.url}/boards/bd-one/labels/${name}`, { method: "PUT", body: { colour: "grey" } })).status).toBe(200);
    return m;
  };

  it("judges a delete through another board by what it leaves under the first, not by its 204", async () => {
    mock = await mockWithLabels();
    const r = await run(mock.url);
    expect(r.code, r.out).toBe(0);
    const judged = testcase(r.xml, "deleteLabel: does not reach a name through another board_id");
    expect(judged, r.xml).not.toBeNull();
    expect(judged).not.toMatch(/<failure|<skipped/);
  });

  it("fails a server that deletes the first board's label through another board", async () => {
    mock = await mockWithLabels();
    const r = await runRerouted(mock.url, "DELETE");
    expect(r.code, r.out).toBe(1);
    expect(r.out).toMatch(/deleteLabel \(DELETE [^)]+\) deleted name \w+ of board_id bd-one through board_id bd-two \(answered 204[^)]*\): it is gone from board_id bd-one/);
  });

  it("fails a server that writes every label to the first board, whatever board the path names", async () => {
    mock = await startMock(["--spec", FIXTURE("labels.openapi.yaml")]);
    const r = await runRerouted(mock.url, "PUT");
    expect(r.code, r.out).toBe(1);
    expect(r.out).toMatch(/setLabel \(PUT [^)]+\) changed name urgent of board_id bd-one through board_id bd-two \(answered 200[^)]*\): colour became "(red|green|blue|grey)"/);
  });
});
