/**
 * The validator compile pool: a module compiled on a worker thread is the module the calling
 * thread would compile, byte for byte, and a compile that fails on a worker fails the call (so the
 * generation fails before anything is written) instead of hanging or answering half a module.
 */
import { describe, expect, it } from "vitest";
import { compileStandalone, type CompileInput } from "../../generators/dist/emit/validators/compile.js";
import { compileAll } from "../../generators/dist/emit/validators/compile-pool.js";

const root = {
  components: {
    schemas: {
      Item: { type: "object", required: ["id"], properties: { id: { type: "string", pattern: "^[0-9]+$" }, tags: { type: "array", items: { $ref: "#/components/schemas/Tag" } } } },
      Tag: { type: "string", enum: ["a", "b"] },
      Page: { type: "object", properties: { items: { type: "array", items: { $ref: "#/components/schemas/Item" } }, next: { type: "string", format: "uri" } } },
    },
  },
};

const strict: CompileInput = {
  root,
  exports: new Map([
    ["s0", "#/components/schemas/Item"],
    ["s1", "#/components/schemas/Tag"],
    ["s2", "#/components/schemas/Page"],
  ]),
  coerce: false,
};
const coercing: CompileInput = { ...strict, coerce: true };

describe("validator compile pool", () => {
  it("compiles on worker threads exactly what the calling thread compiles, in input order", async () => {
    const inline = [compileStandalone(strict), compileStandalone(coercing)];
    const onWorkers = await compileAll([strict, coercing], { workers: 2, inlineBelowExports: 0 });
    expect(onWorkers).toEqual(inline);
    // The second use reuses the idle workers.
    expect(await compileAll([coercing, strict], { workers: 2, inlineBelowExports: 0 })).toEqual([inline[1], inline[0]]);
  });

  it("compiles in place without workers", async () => {
    expect(await compileAll([strict], { workers: 0 })).toEqual([compileStandalone(strict)]);
  });

  it("rejects when a worker's compile fails, and the pool still works afterwards", async () => {
    const broken: CompileInput = { ...strict, exports: new Map([["s0", "#/components/schemas/Missing"]]) };
    await expect(compileAll([broken, strict], { workers: 2, inlineBelowExports: 0 })).rejects.toThrow();
    expect(await compileAll([strict], { workers: 2, inlineBelowExports: 0 })).toEqual([compileStandalone(strict)]);
  });
});
