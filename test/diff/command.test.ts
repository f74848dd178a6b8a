import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runDiffCommand } from "../../generators/src/diff/index.js";
import type { JsonReport } from "../../generators/src/diff/index.js";
import { ROOT } from "./helpers.js";

const F = "test/fixtures/diff";
let out = "";
let err = "";

beforeEach(() => {
  out = "";
  err = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => ((out += String(chunk)), true));
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => ((err += String(chunk)), true));
});
afterEach(() => vi.restoreAllMocks());

const run = (oldSpec: string, newSpec: string, opts: { allowBreaking?: boolean; format?: "text" | "json" } = {}) =>
  runDiffCommand({ old: oldSpec, new: newSpec, allowBreaking: opts.allowBreaking ?? false, format: opts.format ?? "text", cwd: ROOT });

describe("contractgen diff exit codes", () => {
  const cases = [
    { case: "breaking change", pair: "parameter-removed", allowBreaking: false, code: 1, bump: "major" },
    { case: "breaking change with --allow-breaking", pair: "parameter-removed", allowBreaking: true, code: 0, bump: "major" },
    { case: "non-breaking change", pair: "operation-added", allowBreaking: false, code: 0, bump: "minor" },
    { case: "documentation change", pair: "description-changed", allowBreaking: false, code: 0, bump: "patch" },
  ];
  for (const c of cases) {
    it(`${c.case} → exit ${c.code}, bump ${c.bump}`, async () => {
      expect(await run(`${F}/${c.pair}/old.yaml`, `${F}/${c.pair}/new.yaml`, { allowBreaking: c.allowBreaking })).toBe(c.code);
      expect(out).toContain(`semver bump: ${c.bump}\n`);
      expect(err).toBe("");
    });
  }

  it("identical specs → exit 0, no changes, bump none", async () => {
    expect(await run(`${F}/parameter-removed/old.yaml`, `${F}/parameter-removed/old.yaml`)).toBe(0);
    expect(out).toBe(`contractgen diff ${F}/parameter-removed/old.yaml → ${F}/parameter-removed/old.yaml\nno changes\nsemver bump: none\n`);
  });

  it("an invalid spec → exit 2 with the located issue on stderr, as generate reports it", async () => {
    expect(await run(`${F}/invalid/old.yaml`, `${F}/invalid/new.yaml`)).toBe(2);
    expect(err).toMatch(
      new RegExp(
        `^${F}/invalid/new\\.yaml:30:23 #/paths/~1posts/get/responses/200/content/application~1json/schema/properties/data/items/\\$ref\n  error: \\$ref '#/components/schemas/Post' does not resolve`,
      ),
    );
    expect(err).toContain("  fix: point the $ref at an existing component");
    expect(err).toContain("1 problem(s) in the spec; nothing was compared\n");
    expect(out).toBe("");
  });

  it("a missing spec file → exit 2", async () => {
    expect(await run(`${F}/nowhere.yaml`, `${F}/parameter-removed/new.yaml`)).toBe(2);
    expect(err).toContain(`${F}/nowhere.yaml #\n  error: spec file not found`);
  });

  it("the JSON report's exit code follows the same rule", async () => {
    expect(await run(`${F}/parameter-removed/old.yaml`, `${F}/parameter-removed/new.yaml`, { format: "json" })).toBe(1);
  });
});

describe("the text report", () => {
  it("groups by operation and names the kind, the change, the pointer and the file position", async () => {
    await run(`${F}/parameter-removed/old.yaml`, `${F}/parameter-removed/new.yaml`);
    expect(out).toBe(
      [
        `contractgen diff ${F}/parameter-removed/old.yaml → ${F}/parameter-removed/new.yaml`,
        "1 breaking, 0 non-breaking, 0 documentation",
        "semver bump: major",
        "",
        "listPosts (GET /posts)",
        `  breaking       parameter-removed  query parameter 'pagination_token' removed  [old #/paths/~1posts/get/parameters/1 ${F}/parameter-removed/old.yaml:15:11]`,
        "",
      ].join("\n"),
    );
  });

  it("lists breaking groups first and points into the file that holds a referenced schema", async () => {
    await run(`${F}/enum-value-removed-in-file/old/openapi.yaml`, `${F}/enum-value-removed-in-file/new/openapi.yaml`);
    const lines = out.split("\n");
    expect(lines.filter((l) => /^\S/.test(l)).slice(3)).toEqual(["replaceWidget (PUT /widgets/{widget_id})", "getWidget (GET /widgets/{widget_id})"]);
    expect(out).toContain(`[old #/components/schemas/Part/properties/kind/enum ${F}/enum-value-removed-in-file/old/schemas/widgets.yaml:23:11]`);
  });
});

describe("the JSON report", () => {
  it("carries the bump, counts, summary and every change with its location", async () => {
    await run(`${F}/operation-added/old.yaml`, `${F}/operation-added/new.yaml`, { format: "json" });
    const report = JSON.parse(out) as JsonReport;
    expect(report).toEqual({
      old: `${F}/operation-added/old.yaml`,
      new: `${F}/operation-added/new.yaml`,
      bump: "minor",
      counts: { breaking: 0, nonBreaking: 1, documentation: 0 },
      summary: { added: ["getPost"], changed: [], deprecated: [], removed: [] },
      changes: [
        {
          kind: "operation-added",
          severity: "non-breaking",
          operation: "getPost",
          method: "GET",
          path: "/posts/{id}",
          pointer: "#/paths/~1posts~1{id}/get",
          side: "new",
          message: "operation GET /posts/{id} added",
          location: `${F}/operation-added/new.yaml:32:5`,
        },
      ],
    });
  });
});
