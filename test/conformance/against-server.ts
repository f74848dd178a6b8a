/**
 * What the tests of one conformance case share: a small server of a fixture contract on a loopback
 * port, the fixture copied into a folder of its own, and one `contractgen test` run against a URL
 * with its JUnit report read back.
 */
import { afterAll, beforeAll } from "vitest";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { ROOT, runCli } from "../generator/helpers.js";
import { FIXTURE } from "../mock/helpers.js";

/** `server` listening on a free loopback port, and its URL. */
export async function listening(server: Server): Promise<{ url: string; server: Server }> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/**
 * A folder holding the fixture `fixture` as `name` for the tests of one `describe` (made before
 * them, removed after), and a run of `contractgen test` there: its exit code and JUnit report.
 */
export function fixtureRuns(fixture: string, name: string): (url: string, label: string, extra?: readonly string[]) => Promise<{ code: number | null; xml: string }> {
  let dir = "";
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), `cg-${path.basename(name, path.extname(name))}-`));
    copyFileSync(path.join(ROOT, FIXTURE(fixture)), path.join(dir, name));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return async (url, label, extra = []) => {
    const report = path.join(dir, `report-${label}.xml`);
    const r = await runCli(["test", "--spec", name, "--base-url", url, ...extra, "--reporter", "junit", "--output", report], dir);
    return { code: r.code, xml: readFileSync(report, "utf8") };
  };
}
