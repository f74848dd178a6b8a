/**
 * A write names one object: another of its collection reads the same afterwards. Against
 * `contractgen mock --spec` the pets suite passes; a server that applies every update to each pet
 * it holds fails, naming the write, the other pet and what changed on it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { changes } from "../../packages/runtime/src/conformance/views.js";
import { ROOT, runCli } from "../generator/helpers.js";
import { FIXTURE, startMock, type RunningMock } from "../mock/helpers.js";
import { forward } from "./proxy.js";

const plain = (s: string): string => s.replace(/\x1b\[[0-9;]*m/g, "");

describe("changes: what differs between two reads of one view", () => {
  const table: readonly { given: [unknown, unknown]; want: string[] }[] = [
    { given: [{ a: 1 }, { a: 1 }], want: [] },
    { given: [{ a: 1 }, { a: 2 }], want: ["a: 1 became 2"] },
    // Unlike two views, one view that loses a member or empties it has changed.
    { given: [{ a: "x" }, {}], want: ['a: "x" became undefined'] },
    { given: [{ a: "x" }, { a: null }], want: ['a: "x" became null'] },
    { given: [{ data: { tags: ["a"] } }, { data: { tags: ["a", "b"] } }], want: ['data.tags: ["a"] became ["a","b"]'] },
    { given: [{ data: { at: "2026-01-01T00:00:00Z" } }, { data: { at: "2026-01-01T00:00:00.000Z" } }], want: [] },
    {
      given: [
        [1, 2],
        [1, 2],
      ],
      want: [],
    },
    {
      given: [
        [1, 2],
        [2, 1],
      ],
      want: [": [1,2] became [2,1]"],
    },
  ];
  for (const { given, want } of table) {
    it(`${JSON.stringify(given[0])} then ${JSON.stringify(given[1])}`, () => {
      expect(changes(given[0], given[1])).toEqual(want);
    });
  }
});

/** The mock behind a server that, after each update of one pet, sends the same update to every other pet. */
const updatesEveryPet = (target: string): ReturnType<typeof forward> =>
  forward(target, {
    after: async (method, _url, text, status) => {
      if (method !== "PATCH" || status >= 300) return;
      const pets = (await (await fetch(new URL("/pets", target))).json()) as { name: string }[];
      for (const p of pets) await fetch(new URL(`/pets/${p.name}`, target), { method: "PATCH", headers: { "content-type": "application/json" }, body: text });
    },
  });

describe("a write changes only the object it names (pets)", () => {
  let mock: RunningMock;
  let dir: string;
  beforeAll(async () => {
    mock = await startMock(["--spec", FIXTURE("pets.openapi.yaml")]);
    dir = mkdtempSync(path.join(os.tmpdir(), "cg-isolation-"));
    copyFileSync(path.join(ROOT, FIXTURE("pets.openapi.yaml")), path.join(dir, "pets.yaml"));
  });
  afterAll(async () => {
    await mock?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("passes against the mock", async () => {
    const r = await runCli(["test", "--spec", "pets.yaml", "--base-url", mock.url], dir);
    expect(r.code, plain(r.stdout + r.stderr)).toBe(0);
  });

  it("fails a server that applies an update of one pet to every pet", async () => {
    const broken = await updatesEveryPet(mock.url);
    try {
      const r = await runCli(["test", "--spec", "pets.yaml", "--base-url", broken.url], dir);
      const out = plain(r.stdout + r.stderr);
      expect(r.code, out).toBe(1);
      expect(out).toMatch(/updatePet \(PATCH \/pets\/\{name\}\) on [a-z0-9-]+ changed another object, [a-z0-9-]+, as getPet \(GET \/pets\/\{name\}\) reads it: (species|age):/);
    } finally {
      broken.server.close();
    }
  });
});
