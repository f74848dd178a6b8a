/**
 * The pure parts of the bench's reporting (scripts/bench): the CPU-profile summariser behind
 * `npm run bench:profile`, and the section splicing that keeps hand-written sections of
 * docs/benchmarks.md. The bench itself is slow and stays out of the test run.
 */
import { describe, expect, it } from "vitest";
import { packageOf, selfTimes, stageOfStack, summarise, type CallFrame, type CpuProfile } from "../../scripts/bench/cpu-profile.mjs";
import { splitSections, upsertSections } from "../../scripts/bench/doc-sections.mjs";

const root = "/ws";
const frame = (functionName: string, url = "", lineNumber = 0): CallFrame => ({ functionName, url, lineNumber });

// (root) → main (cli) → render (pipeline) → emit (types emitter) → kebabCase (model helper)
//                                         → formatFiles (format) → format (prettier)
// (root) → (garbage collector); (root) → (idle); (root) → later (prettier, after an await)
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame("(root)"), children: [2, 8, 9, 10] },
    { id: 2, callFrame: frame("main", "file:///ws/generators/dist/cli.js", 9), children: [3] },
    { id: 3, callFrame: frame("render", "file:///ws/generators/dist/pipeline.js", 99), children: [4, 6] },
    { id: 4, callFrame: frame("emit", "file:///ws/generators/dist/emit/types.js", 11), children: [5] },
    { id: 5, callFrame: frame("kebabCase", "file:///ws/generators/dist/model/naming.js", 4) },
    { id: 6, callFrame: frame("formatFiles", "file:///ws/generators/dist/write/format.js", 2), children: [7] },
    { id: 7, callFrame: frame("format", "file:///ws/node_modules/prettier/index.mjs", 500) },
    { id: 8, callFrame: frame("(garbage collector)") },
    { id: 9, callFrame: frame("(idle)") },
    { id: 10, callFrame: frame("later", "file:///ws/node_modules/prettier/index.mjs", 700) },
  ],
  samples: [5, 5, 4, 7, 8, 9, 10, 3],
  timeDeltas: [100, 100, 50, 300, 200, 1000, 25, 10],
  startTime: 0,
  endTime: 1785,
};

describe("the CPU-profile summariser", () => {
  it("gives each sample's interval to its leaf node", () => {
    expect(Object.fromEntries(selfTimes(profile))).toEqual({ 5: 200, 4: 50, 7: 300, 8: 200, 9: 1000, 10: 25, 3: 10 });
  });

  it("names packages (scoped ones whole), workspace files and V8's pseudo frames", () => {
    expect(packageOf(frame("f", "file:///ws/node_modules/a/node_modules/@scope/pkg/x.js"), root)).toBe("@scope/pkg");
    expect(packageOf(frame("f", "file:///ws/generators/dist/emit/types.js"), root)).toBe("generators/dist/emit/types.js");
    expect(packageOf(frame("f", "node:internal/fs"), root)).toBe("node built-ins");
    expect(packageOf(frame("(garbage collector)"), root)).toBe("(garbage collector)");
  });

  it("counts a helper for the stage the pipeline called, and a worker's stack for the module its task runs", () => {
    const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
    const stack = (...ids: number[]) => ids.map((id) => byId.get(id) as CallFrame);
    expect(stageOfStack(stack(1, 2, 3, 4, 5), root)).toBe("types");
    expect(stageOfStack(stack(1, 2, 3, 6, 7), root)).toBe("format");
    expect(stageOfStack(stack(1, 2, 3), root)).toBe("pipeline");
    expect(
      stageOfStack(
        [
          frame("(root)"),
          frame("answer", "file:///ws/generators/dist/workers/thread.js"),
          frame("compileUnits", "file:///ws/generators/dist/emit/validators/compile.js"),
          frame("compile", "file:///ws/node_modules/ajv/dist/x.js"),
        ],
        root,
      ),
    ).toBe("validators");
    expect(stageOfStack(stack(1, 10), root)).toBe("prettier (no contractgen caller on the stack)");
    expect(stageOfStack(stack(1, 8), root)).toBe("(garbage collector)");
  });

  it("sums CPU over threads and keeps idle time apart", () => {
    const s = summarise([profile, profile], root);
    expect(s.cpuUs).toBe(2 * 785);
    expect(s.idleUs).toBe(2000);
    expect(s.threads).toHaveLength(2);
    expect(s.byStage[0]).toEqual(["format", 600]);
    expect(Object.fromEntries(s.byStage)).toMatchObject({ types: 500, "(garbage collector)": 400, pipeline: 20 });
    expect(s.byPackage[0]).toEqual(["prettier", 650]);
    expect(s.byFunction[0]).toEqual(["format prettier/index.mjs:501", 600]);
    expect(s.byFunction).toContainEqual(["kebabCase generators/dist/model/naming.js:5", 400]);
  });
});

describe("docs/benchmarks.md sections", () => {
  const doc = "# Benchmarks\n\n| a |\n\n## Ratios\n\nr\n\n## Validators\n\nv\n\n## Work in progress (issue 13)\n\nhand-written\n\n### Mock\n\nkept\n";

  it("replaces a section in place and inserts a new one before the first of `before`", () => {
    const out = upsertSections(
      doc,
      [
        { key: "Ratios", text: "## Ratios\n\nnew r" },
        { key: "Peers", text: "## Peers: x\n\np" },
      ],
      { before: ["Validators"] },
    );
    expect(splitSections(out).map((s) => s.heading)).toEqual(["", "Ratios", "Peers: x", "Validators", "Work in progress (issue 13)"]);
    expect(out).toContain("new r");
    expect(out).toContain("hand-written\n\n### Mock\n\nkept\n");
  });

  it("matches a heading by its start, so a dated title is replaced, not duplicated", () => {
    const once = upsertSections(doc, [{ key: "Where the time goes", text: "## Where the time goes: run 1\n\none" }]);
    const twice = upsertSections(once, [{ key: "Where the time goes", text: "## Where the time goes: run 2\n\ntwo" }]);
    expect(twice).toContain("two");
    expect(twice).not.toContain("one");
    expect(splitSections(twice).at(-2)?.heading).toBe("Where the time goes: run 2");
  });
});
