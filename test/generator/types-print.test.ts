/**
 * A large contract's types print on a worker thread (types.ts); what the worker prints must be what
 * the calling thread prints, and printing must leave the model's document as it was.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildModel, loadSpec } from "../../generators/dist/index.js";
import { printTypes, type TypesInput } from "../../generators/dist/emit/types-print.js";
import { poolOf } from "../../generators/dist/workers/pool.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PRINT_MODULE = new URL("../../generators/dist/emit/types-print.js", import.meta.url).href;

async function inputOf(name: string): Promise<Omit<TypesInput, "owned">> {
  const model = buildModel(await loadSpec(path.join(ROOT, "spec", `${name}.yaml`), { cwd: ROOT }), name);
  return {
    document: model.document as Record<string, unknown>,
    deliveries: model.deliveries.map((d) => ({ pointer: d.pointer, typesKey: d.typesKey, kind: d.kind })),
    typeNames: model.schemas.map((s) => [s.name, s.typeName] as const),
  };
}

describe("printing types", () => {
  // core has webhooks and callbacks (copied under `webhooks`) and schemas renamed for their aliases.
  it.each(["core", "ads-campaigns"])("prints on a worker thread what it prints here, and leaves the document alone: %s", async (name) => {
    const input = await inputOf(name);
    const before = JSON.stringify(input.document);
    const here = await printTypes({ ...input, owned: false });
    expect(JSON.stringify(input.document)).toBe(before);
    expect(here).toContain("export interface paths");
    const pool = poolOf(1, "large");
    expect(pool).toBeDefined();
    const onWorker = await pool?.run<string>(PRINT_MODULE, "printTypes", [{ ...input, owned: true }]);
    expect(onWorker).toBe(here);
  });

  it("answers a worker's failure as an error naming what failed", async () => {
    const pool = poolOf(1, "large");
    await expect(pool?.run(PRINT_MODULE, "noSuchFunction", [])).rejects.toThrow("exports no function noSuchFunction");
  });
});
