/**
 * The mutant catalogue behind `npm run mutants` stays usable: every mutant still applies exactly
 * once to the current mock-server source (a refactor of the mock must not silently turn a mutant
 * into a no-op), and each one is a distinct, documented bug. The mutation run itself is slow and
 * lives outside the default test run (docs/mutants.md holds its results).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { mutants, type Mutant } from "../../scripts/mutants/catalogue.mjs";
import { MOCK_DIR, applyMutant, occurrences } from "../../scripts/mutants/patch.mjs";

const source = (file: string): string => readFileSync(path.join(MOCK_DIR, file), "utf8");

describe("the mutant catalogue", () => {
  it("holds at least 25 mutants, spread over the three APIs", () => {
    expect(mutants.length).toBeGreaterThanOrEqual(25);
    for (const api of ["core", "ads-audiences", "ads-campaigns"] as const) expect(mutants.filter((m) => m.api === api).length, api).toBeGreaterThanOrEqual(5);
  });

  it("explains every mutant it calls equivalent, and calls few of them so (they leave the kill rate)", () => {
    const equivalent = mutants.filter((m) => m.equivalent !== undefined);
    expect(equivalent.length).toBeLessThanOrEqual(Math.floor(mutants.length * 0.05));
    for (const m of equivalent) expect(m.equivalent?.length ?? 0, m.id).toBeGreaterThan(80);
  });

  it("names every mutant once, with its API's prefix", () => {
    const ids = mutants.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    const prefix = { core: "core-", "ads-audiences": "aud-", "ads-campaigns": "camp-" } as const;
    for (const m of mutants) expect(m.id, m.id).toMatch(new RegExp(`^${prefix[m.api]}[a-z0-9]+(-[a-z0-9]+)*$`));
  });

  it("cites for every mutant the document fact it breaks, the bug and the check that would catch it", () => {
    for (const m of mutants) {
      expect(m.fact, m.id).toMatch(/^doc[123] /);
      expect(m.bug.length, m.id).toBeGreaterThan(20);
      expect(m.detect.length, m.id).toBeGreaterThan(20);
    }
  });

  it.each(mutants.map((m) => [m.id, m] as const))("%s applies exactly once to the current mock-server source and changes it", (_id, m) => {
    expect(existsSync(path.join(MOCK_DIR, m.file)), `${m.file} exists`).toBe(true);
    const text = source(m.file);
    expect(occurrences(text, m.search)).toBe(1);
    const mutated = applyMutant(text, m);
    expect(mutated).not.toBe(text);
    expect(mutated.length).toBe(text.length - m.search.length + m.replace.length);
  });

  it("refuses a patch whose search text is missing or ambiguous", () => {
    const m = mutants[0];
    if (!m) throw new Error("empty catalogue");
    expect(() => applyMutant("nothing to find here", m)).toThrow(/occurs 0 times/);
    expect(() => applyMutant(`${m.search}\n${m.search}`, m)).toThrow(/occurs 2 times/);
  });

  it("gives no two mutants the same edit", () => {
    const edits = mutants.map((m) => `${m.file}\n${m.search}\n${m.replace}`);
    expect(new Set(edits).size).toBe(edits.length);
  });
});

// The blind batches (bugs written from the documents and the mock's source only, never from the
// suites; docs/mutants-blind.md) stay runnable against the mock as it changes.
describe.each(["batch-1", "batch-2", "batch-3", "batch-4", "batch-5", "batch-6"])("the blind mutants, %s", (batch) => {
  it("applies, every one exactly once, to the current mock-server source", async () => {
    const { mutants: blind } = (await import(`../../scripts/mutants/blind/${batch}.mjs`)) as { mutants: Mutant[] };
    expect(blind.length).toBeGreaterThanOrEqual(40);
    for (const m of blind) {
      const text = source(m.file);
      expect(occurrences(text, m.search), m.id).toBe(1);
      expect(applyMutant(text, m), m.id).not.toBe(text);
    }
  });
});
