/**
 * A member sent and missing from the object read afterwards. A server may take members it never
 * stores (PowerDNS takes a zone's `nameservers` and never shows them), so by default a missing
 * member fails only where the server shows it elsewhere. A contract that marks every member its
 * objects do not show (`x-read-back-complete`) makes the read-back map the word: there, a server
 * that drops an optional member is caught, and the mock, which keeps it, still passes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT, runCli } from "../generator/helpers.js";
import { FIXTURE, startMock, type RunningMock } from "../mock/helpers.js";
import { proxy } from "./proxy.js";

const plain = (s: string): string => s.replace(/\x1b\[[0-9;]*m/g, "");
type Rec = Record<string, unknown>;

/** The notes contract with an optional `colour` a note is made with and shows. */
function withColour(complete: boolean): string {
  const text = readFileSync(path.join(ROOT, FIXTURE("notes.openapi.yaml")), "utf8")
    .replace(
      "                text: { type: string, minLength: 1, maxLength: 200 }\n      responses:",
      "                text: { type: string, minLength: 1, maxLength: 200 }\n                colour: { type: string, enum: [red, green, blue] }\n      responses:",
    )
    .replace("        archived: { type: boolean }\n", "        archived: { type: boolean }\n        colour: { type: string, enum: [red, green, blue] }\n")
    .replace("paths:\n", complete ? "x-read-back-complete: true\npaths:\n" : "paths:\n");
  expect(text.match(/colour:/g)?.length).toBe(2);
  return text;
}

/** Every note an answer carries, without its colour. */
function dropColour(body: unknown): unknown {
  const strip = (n: unknown): unknown => {
    if (n === null || typeof n !== "object" || Array.isArray(n)) return n;
    const { colour: _dropped, ...rest } = n as Rec;
    return rest;
  };
  const data = (body as Rec | undefined)?.["data"];
  return { ...(body as Rec), data: Array.isArray(data) ? data.map(strip) : strip(data) };
}

describe("x-read-back-complete: an optional member dropped by the server", () => {
  const dirs: Record<"lenient" | "complete", string> = { lenient: "", complete: "" };
  let mock: RunningMock;
  beforeAll(async () => {
    for (const kind of ["lenient", "complete"] as const) {
      dirs[kind] = mkdtempSync(path.join(os.tmpdir(), `cg-readback-${kind}-`));
      writeFileSync(path.join(dirs[kind], "notes.yaml"), withColour(kind === "complete"));
    }
    mock = await startMock(["--spec", path.join(dirs.complete, "notes.yaml")]);
  });
  afterAll(async () => {
    await mock?.stop();
    for (const d of Object.values(dirs)) if (d) rmSync(d, { recursive: true, force: true });
  });

  const run = (dir: string, url: string): Promise<{ code: number; out: string }> =>
    runCli(["test", "--spec", "notes.yaml", "--base-url", url, "--destructive"], dir).then((r) => ({ code: r.code, out: plain(r.stdout + r.stderr) }));

  it("passes against the mock, which keeps what it is sent", async () => {
    const r = await run(dirs.complete, mock.url);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/ 0 failed/);
  });

  it("fails a server that drops the colour where the contract says its objects show every member", async () => {
    const broken = await proxy(mock.url, (_method, _url, body) => dropColour(body));
    try {
      const r = await run(dirs.complete, broken.url);
      expect(r.code, r.out).toBe(1);
      expect(r.out).toMatch(/sent "(red|green|blue)", the object has no colour/);
    } finally {
      broken.server.close();
    }
  });

  it("does not fail the same server where the contract does not say so (a member may be taken and not stored)", async () => {
    const broken = await proxy(mock.url, (_method, _url, body) => dropColour(body));
    try {
      const r = await run(dirs.lenient, broken.url);
      expect(r.code, r.out).toBe(0);
      expect(r.out).not.toMatch(/the object has no colour/);
    } finally {
      broken.server.close();
    }
  });
});
