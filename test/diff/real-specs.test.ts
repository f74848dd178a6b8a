import { describe, expect, it } from "vitest";
import path from "node:path";
import { diffSpecs } from "../../generators/src/diff/index.js";
import { loadSpec, type OpenApiDocument } from "../../generators/src/load/load.js";
import { ROOT } from "./helpers.js";

const load = async (spec: string): Promise<OpenApiDocument> => (await loadSpec(path.join(ROOT, spec), { cwd: ROOT })).document;
type Obj = Record<string, Record<string, unknown>>;

describe("the real contracts", () => {
  it.each(["spec/core.yaml", "spec/ads-audiences.yaml", "spec/ads-campaigns.yaml"])("%s against itself: no change, bump none", async (spec) => {
    const result = diffSpecs(await load(spec), await load(spec));
    expect(result.changes).toEqual([]);
    expect(result.bump).toBe("none");
  });

  // Identical documents are answered without a walk; a new version label forces the full comparison.
  it.each(["spec/core.yaml", "spec/ads-audiences.yaml", "spec/ads-campaigns.yaml"])("%s against itself under a new info.version: walked in full, no change", async (spec) => {
    const before = await load(spec);
    const after = structuredClone(before);
    (after["info"] as Record<string, unknown>)["version"] = "99.0";
    expect(diffSpecs(before, after)).toEqual({ changes: [], bump: "none" });
  });

  it("core with one operation deleted: exactly that removal", async () => {
    const before = await load("spec/core.yaml");
    const after = structuredClone(before);
    const paths = after["paths"] as Obj;
    const [firstPath, item] = Object.entries(paths)[0] as [string, Record<string, unknown>];
    const method = ["get", "put", "post", "delete", "patch"].find((m) => m in item) as string;
    const removed = (item[method] as { operationId: string }).operationId;
    delete item[method];
    const result = diffSpecs(before, after);
    expect(result.changes.map((c) => [c.kind, c.operation, c.path])).toEqual([["operation-removed", removed, firstPath]]);
    expect(result.bump).toBe("major");
  });

  it("core with a property dropped from User: removed wherever User is sent or received, pointed at User", async () => {
    const before = await load("spec/core.yaml");
    const after = structuredClone(before);
    const user = ((after["components"] as Obj)["schemas"] as Obj)["User"] as { properties: Record<string, unknown> };
    const dropped = Object.keys(user.properties)[0] as string;
    delete user.properties[dropped];
    const result = diffSpecs(before, after);
    expect(result.changes.length).toBeGreaterThan(0);
    for (const c of result.changes) {
      expect(["request-property-removed", "response-property-removed"]).toContain(c.kind);
      expect(c.pointer).toBe(`#/components/schemas/User/properties/${dropped}`);
      expect(c.side).toBe("old");
    }
    expect(result.bump).toBe("major");
  });
});
