/**
 * Hostile specs: documents nested 1,000 and 10,000 levels deep (JSON, YAML flow, YAML block),
 * `$ref`s that reach outside the spec's folder, patterns RE2 cannot express, alias bombs, and
 * patterns that make a backtracking sampler or matcher explode. Each is refused with a located
 * error (exit 2) or handled, in bounded time; none ends in an internal error (exit 4) or a hang,
 * and nothing outside the spec's folder is read.
 */
import { describe, expect, it } from "vitest";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { loadSpec } from "../../generators/dist/load/load.js";
import { SpecError } from "../../generators/dist/load/errors.js";
import { sampleRegex, MAX_SAMPLE_LENGTH } from "../../packages/runtime/dist/mock/regex-sample.js";
import { createRng } from "../../packages/runtime/dist/shared/prng.js";
import { patternRegExp } from "@contractgen/runtime/pattern";
import { runCli, tmpDir, workspaceTmpDir } from "../generator/helpers.js";

const HEAD = 'openapi: 3.1.0\ninfo: {title: deep, version: "1"}\n';

/** A schema nested `n` levels (each an object with one property), as JSON text. */
function nestedJson(n: number): string {
  return `${'{"type":"object","properties":{"a":'.repeat(n)}{"type":"string"}${"}}".repeat(n)}`;
}
/**
 * YAML block style nested `n` levels under an extension: mappings one space deeper per level up to
 * 1,000 (half a million characters), then compact sequences (`- - - …`), block style too.
 */
function nestedBlock(n: number): string {
  const maps = Math.min(n, 1_000);
  const lines = Array.from({ length: maps }, (_, i) => `${" ".repeat(i + 1)}a:`);
  lines.push(`${" ".repeat(maps + 1)}${"- ".repeat(n - maps)}leaf`);
  return lines.join("\n");
}
const withSchema = (schema: string): string =>
  `paths:\n  /x:\n    post:\n      operationId: post\n      requestBody:\n        content:\n          application/json:\n            schema: ${schema}\n      responses:\n        "200": {description: ok}\n`;

describe("a spec nested deeper than 256 levels is refused where it gets too deep (exit 2, never 4)", () => {
  const dir = tmpDir("cg-deep-");
  for (const n of [1_000, 10_000]) {
    const cases: [string, string][] = [
      [
        `json-${n}.json`,
        `{"openapi":"3.1.0","info":{"title":"deep","version":"1"},"paths":{"/x":{"post":{"operationId":"post","requestBody":{"content":{"application/json":{"schema":${nestedJson(n)}}}},"responses":{"200":{"description":"ok"}}}}}}`,
      ],
      [`flow-${n}.yaml`, HEAD + withSchema(nestedJson(n).replace(/"/g, ""))],
      [`block-${n}.yaml`, `${HEAD}paths: {}\nx-deep:\n${nestedBlock(n)}\n`],
    ];
    for (const [name, text] of cases) {
      it(name, async () => {
        writeFileSync(path.join(dir, name), text);
        const t = performance.now();
        const r = await runCli(["generate", name, "--out", path.join(dir, `out-${name}`), "-q"], dir);
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toMatch(new RegExp(`${name.replace(".", "\\.")}:\\d+:\\d+ `));
        expect(r.stderr).toContain("more than 256 levels deep");
        expect(r.stderr).not.toMatch(/call stack|internal error/i);
        expect(performance.now() - t).toBeLessThan(60_000);
      });
    }
  }

  it("aliases that build depth the text does not show are refused too, at their pointer", async () => {
    const anchors = ["a0: &a0 {v: 1}", ...Array.from({ length: 300 }, (_, i) => `a${i + 1}: &a${i + 1} {v: *a${i}}`)];
    const file = path.join(dir, "aliases.yaml");
    writeFileSync(file, `${HEAD}paths: {}\nx-chain:\n${anchors.map((a) => `  ${a}`).join("\n")}\n`);
    await expect(loadSpec(file, { cwd: dir })).rejects.toThrow(/more than 256 levels deep/);
  });

  it("an alias bomb (billion laughs) is refused, quickly", async () => {
    const levels = [
      'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
      ...Array.from({ length: 8 }, (_, i) => `${"bcdefghi"[i]}: &${"bcdefghi"[i]} [${Array(9).fill(`*${"abcdefgh"[i]}`).join(",")}]`),
    ];
    const file = path.join(dir, "bomb.yaml");
    writeFileSync(file, `${HEAD}paths: {}\nx-bomb:\n${levels.map((l) => `  ${l}`).join("\n")}\n`);
    const t = performance.now();
    await expect(loadSpec(file, { cwd: dir })).rejects.toBeInstanceOf(SpecError);
    expect(performance.now() - t).toBeLessThan(10_000);
  });
});

describe("$refs stay inside the spec's folder", () => {
  const root = tmpDir("cg-refs-");
  const specDir = path.join(root, "api");
  mkdirSync(path.join(specDir, "parts"), { recursive: true });
  writeFileSync(path.join(root, "secret.yaml"), "Secret: { type: string, description: TOP-SECRET-CONTENT }\n");
  writeFileSync(path.join(specDir, "parts", "ok.yaml"), "Ok: { type: string }\n");
  symlinkSync(path.join(root, "secret.yaml"), path.join(specDir, "parts", "link.yaml"));
  const spec = (ref: string): string => {
    const file = path.join(specDir, `spec-${Math.random().toString(36).slice(2)}.yaml`);
    writeFileSync(file, `${HEAD}paths: {}\ncomponents:\n  schemas:\n    Inside: { $ref: "./parts/ok.yaml#/Ok" }\n    Target: { $ref: "${ref}" }\n`);
    return file;
  };
  const refused = async (ref: string, refRoots?: string[]): Promise<SpecError> => {
    const err = await loadSpec(spec(ref), { cwd: root, ...(refRoots ? { refRoots } : {}) }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SpecError);
    return err as SpecError;
  };

  for (const [what, ref] of [
    ["a relative path up and out", "../secret.yaml#/Secret"],
    ["an absolute path", `${path.join(root, "secret.yaml")}#/Secret`],
    ["a symlink inside the folder whose target is outside", "./parts/link.yaml#/Secret"],
  ]) {
    it(`refuses ${what}, at the $ref's line and column`, async () => {
      const err = await refused(ref as string);
      const issue = err.issues[0];
      expect(issue?.message).toContain("outside the spec's folder");
      expect(issue?.pointer).toBe("#/components/schemas/Target/$ref");
      expect(issue?.line).toBe(7);
      expect(err.message).not.toContain("TOP-SECRET");
    });
  }

  it("reads a folder the config names (security.refRoots), and still refuses remote refs", async () => {
    const loaded = await loadSpec(spec("../secret.yaml#/Secret"), { cwd: root, refRoots: [root] });
    expect(JSON.stringify(loaded.document)).toContain("TOP-SECRET-CONTENT");
    const remote = await refused("https://example.com/x.yaml#/X", [root]);
    expect(remote.issues[0]?.message).toContain("remote $ref");
  });

  it("generation through the CLI is refused with exit 2 and writes nothing", async () => {
    const file = spec("../secret.yaml#/Secret");
    const out = path.join(root, "out");
    const r = await runCli(["generate", path.relative(root, file), "--out", out, "-q"], root);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/:7:\d+ #\/components\/schemas\/Target\/\$ref/);
    expect(existsSync(out)).toBe(false);
  });
});

describe("patterns RE2 cannot express", () => {
  const project = workspaceTmpDir("cg-patterns-");
  writeFileSync(
    path.join(project, "api.yaml"),
    `${HEAD}paths:\n  /x/{v}:\n    get:\n      operationId: getX\n      parameters:\n        - name: v\n          in: path\n          required: true\n          schema: { type: string, pattern: '^(a+)\\1$' }\n      responses:\n        "204": {description: ok}\n`,
  );

  it("are refused at generation with file:line:col and the pointer, and the fix names the config", async () => {
    const r = await runCli(["generate", "api.yaml", "--out", "out", "-q"], project);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain("api.yaml:11:");
    expect(r.stderr).toContain("#/paths/~1x~1{v}/get/parameters/0/schema/pattern");
    expect(r.stderr).toContain("a backreference");
    expect(r.stderr).toContain("backtrackingPatterns");
  });

  it("run, once allowed in the config, on RegExp for values of at most 256 characters", async () => {
    writeFileSync(path.join(project, "contractgen.config.json"), JSON.stringify({ specs: [{ spec: "api.yaml", out: "out", name: "@t/patterns" }], security: { backtrackingPatterns: ["^(a+)\\1$"] } }));
    const r = await runCli(["generate", "-q"], project);
    expect(r.code, r.stderr).toBe(0);
    const compiled = readFileSync(path.join(project, "out/compiled/validators.params.js"), "utf8");
    expect(compiled).toContain("@contractgen/runtime/pattern");
    // The runtime engine the module calls: the allowed pattern keeps its meaning on short values
    // and refuses a long one at once instead of backtracking on it.
    const p = patternRegExp("^(a+)\\1$", "u");
    expect([p.test("aaaa"), p.test("aaa")]).toEqual([true, false]);
    const t = performance.now();
    expect(p.test(`${"a".repeat(100_000)}!`)).toBe(false);
    expect(performance.now() - t).toBeLessThan(100);
    const mod = (await import(pathToFileURL(path.join(project, "out/compiled/validators.params.js")).href)) as Record<string, (d: unknown) => boolean>;
    expect(Object.values(mod).some((v) => typeof v === "function")).toBe(true);
  });
});

describe("the mock's pattern sampling stays bounded", () => {
  for (const pattern of ["^(a+)+$", "^(https?:\\/\\/)?([\\da-z\\.-]+)\\.([a-z\\.]{2,6})([\\/\\w \\.-]*)*\\/?$", "^((a{0,1000}){0,1000}){0,1000}$", "^(x{1000}){1000}$"]) {
    it(pattern, () => {
      const t = performance.now();
      const check = patternRegExp(pattern, "u");
      for (let i = 0; i < 20; i++) {
        let sample: string | undefined;
        try {
          sample = sampleRegex(pattern, createRng(i), { maxLength: 64 });
        } catch (err) {
          // Refused (a shortest match over the budget) rather than built.
          expect(String(err)).toContain(String(MAX_SAMPLE_LENGTH));
          continue;
        }
        expect(sample.length).toBeLessThanOrEqual(MAX_SAMPLE_LENGTH);
        // What the mock does next: check the sample with the validators' engine (a miss must be quick).
        check.test(sample);
        check.test(`${sample}!`);
      }
      expect(performance.now() - t).toBeLessThan(5_000);
    });
  }
});
