/**
 * The notes fixture with parameters of a test's own on its list, served by `contractgen mock
 * --spec` from a folder of its own, and `contractgen test` run against any URL with that contract.
 * Filter tests stage one server behaviour each (the mock, or the mock behind a proxy) on it.
 */
import { expect } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT, runCli } from "../generator/helpers.js";
import { FIXTURE, startMock, type RunningMock } from "../mock/helpers.js";

const plain = (s: string): string => s.replace(/\x1b\[[0-9;]*m/g, "");

/** The notes contract with `parameters` (YAML lines, indented as list items of listNotes' parameters) added to its list. */
export function notesWithListParameters(parameters: readonly string[]): string {
  const anchor = "      operationId: listNotes\n      parameters:\n";
  const text = readFileSync(path.join(ROOT, FIXTURE("notes.openapi.yaml")), "utf8").replace(anchor, `${anchor}${parameters.map((l) => `${l}\n`).join("")}`);
  expect(text).not.toBe(readFileSync(path.join(ROOT, FIXTURE("notes.openapi.yaml")), "utf8"));
  return text;
}

export interface NotesVariant {
  readonly mock: RunningMock;
  /** `contractgen test` of the variant against `url` (the mock's, or a proxy's in front of it). */
  run(url: string): Promise<{ code: number; out: string }>;
  stop(): Promise<void>;
}

/** Serves `contract` (a notes variant) with the engine mock, from a temporary folder of its own. */
export async function serveNotesVariant(contract: string): Promise<NotesVariant> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "cg-notes-"));
  writeFileSync(path.join(dir, "notes.yaml"), contract);
  const mock = await startMock(["--spec", path.join(dir, "notes.yaml")]);
  return {
    mock,
    run: async (url) => {
      const r = await runCli(["test", "--spec", "notes.yaml", "--base-url", url], dir);
      return { code: r.code, out: plain(r.stdout + r.stderr) };
    },
    stop: async () => {
      await mock.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
