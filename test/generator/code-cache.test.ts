/**
 * code-cache.ts: TypeScript required through the build's V8 code cache is the module `require`
 * gives, shared with the packages that require it themselves; a cache V8 refuses (another build,
 * damaged) costs time, never behaviour. Each case runs in a fresh process (a fresh require cache).
 */
import { spawnSync } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers.js";

const MODULE = path.join(ROOT, "generators/dist/code-cache.js");

/** Runs an ES module body in a fresh node with `requireCached`, `codeCacheFile` and `require` in scope; its stdout. */
function fresh(body: string): string {
  const code = `import { requireCached, codeCacheFile } from ${JSON.stringify(MODULE)};
import { createRequire } from "node:module";
const require = createRequire(${JSON.stringify(path.join(ROOT, "package.json"))});
${body}`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], { cwd: ROOT, encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.trim();
}

describe("requireCached", () => {
  it("loads TypeScript from the build's cache, the same instance openapi-typescript then requires", () => {
    expect(existsSync(fresh(`console.log(codeCacheFile("typescript"));`))).toBe(true);
    const out = fresh(`
const ts = requireCached("typescript");
const fromOts = createRequire(require.resolve("openapi-typescript")).call(null, "typescript");
const printed = ts.createPrinter().printNode(ts.EmitHint.Unspecified, ts.factory.createTypeAliasDeclaration(undefined, "A", undefined, ts.factory.createKeywordTypeNode(ts.SyntaxKind.StringKeyword)), ts.createSourceFile("a.ts", "", ts.ScriptTarget.ESNext));
console.log(JSON.stringify([fromOts === ts, requireCached("typescript") === ts, ts.version === require("typescript/package.json").version, printed]));`);
    expect(JSON.parse(out)).toEqual([true, true, true, "type A = string;"]);
  });

  it("works as require does when V8 refuses the cache, and when there is none", () => {
    // js-yaml stands in for TypeScript: small, CommonJS, and read through requireCached nowhere else.
    const file = fresh(`console.log(codeCacheFile("js-yaml"));`);
    const load = `console.log(JSON.stringify(requireCached("js-yaml").load("a: [1, two]")));`;
    try {
      expect(JSON.parse(fresh(load))).toEqual({ a: [1, "two"] });
      writeFileSync(file, Buffer.from("not a V8 code cache"));
      expect(JSON.parse(fresh(load))).toEqual({ a: [1, "two"] });
    } finally {
      rmSync(file, { force: true });
    }
  });
});
