// Spec files are read through js-yaml when it gives exactly the data `yaml` gives, and through
// `yaml` otherwise (generators/src/load/yaml-fast.ts). These tests hold the two to that: scalar
// forms, keys and aliases where they could differ, and every YAML file in the repository and its
// dependencies, none written for this test.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { parseDocument } from "yaml";
import { describe, expect, it } from "vitest";
import { fastYamlData } from "../../generators/src/load/yaml-fast.js";
import { ROOT, runCli, tmpDir } from "../generator/helpers.js";

/** What `yaml` gives (the loader's options), or "error". */
function slow(text: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) return "error";
  try {
    return doc.toJS({ maxAliasCount: 10_000 });
  } catch {
    return "error";
  }
}

describe("plain scalars resolve as YAML 1.2's core schema says", () => {
  const scalars = [
    "17",
    "+17",
    "-17",
    "-0",
    "0o17",
    "0x1F",
    "017",
    "1_000",
    "0b101",
    "0o8",
    "0xG",
    "1.5",
    "-.5",
    ".5",
    "5.",
    "1e3",
    "1.0E-2",
    "+1e+3",
    ".inf",
    "-.Inf",
    "+.INF",
    ".nan",
    ".NaN",
    "Infinity",
    "true",
    "True",
    "TRUE",
    "tRUE",
    "yes",
    "no",
    "on",
    "off",
    "y",
    "null",
    "Null",
    "NULL",
    "~",
    "nULL",
    "",
    "2024-01-01",
    "2001-12-14t21:59:43.10-05:00",
    "12:30:00",
    "1:20",
    "0.1.2",
    "'17'",
    '"true"',
    "=",
    "9007199254740993",
    "123456789012345678901234567890",
  ];
  it.each(scalars)("value %j", (scalar) => {
    const text = `v: ${scalar}\nlist: [${scalar || "''"}]\n`;
    const fast = fastYamlData(text);
    expect(fast).toBeDefined();
    // isDeepStrictEqual compares numbers with Object.is: NaN equals NaN, -0 differs from 0.
    expect(isDeepStrictEqual(fast?.data, slow(text)), JSON.stringify([fast?.data, slow(text)])).toBe(true);
  });

  it.each(["200", "1.0", "0x10", "true", ".inf", "'null'"])("key %s becomes the same string key", (key) => {
    const text = `${key}: a\n`;
    expect(fastYamlData(text)?.data).toStrictEqual(slow(text));
  });
});

describe("what is left to yaml", () => {
  const leftToYaml: { given: string; why: string }[] = [
    { given: "%YAML 1.1\n---\nv: yes\n", why: "a YAML 1.1 directive changes the schema" },
    { given: "v: !!int '17'\n", why: "an explicit tag" },
    { given: "v: !custom x\n", why: "a local tag" },
    { given: "null: a\n", why: 'yaml makes a null key "", js-yaml "null"' },
    { given: "~: a\n", why: "a ~ key" },
    { given: "? [a, b]\n: c\n", why: "an explicit complex key" },
    { given: "[a, b]: c\n", why: "a flow collection as key" },
    { given: "a: [1,\n2]\n", why: "a flow collection over two lines, indented too little for yaml" },
    { given: "a: |\n  func() {\n  }\nb: [1,\n 2]\n", why: "a flow collection over two lines after a block scalar" },
    { given: "a: 1\na: 2\n", why: "a duplicate key" },
    { given: "a: 1\n---\nb: 2\n", why: "two documents" },
    { given: "a: &x\n  b: *x\n", why: "a cyclic alias" },
    { given: "a: [unclosed\n", why: "a syntax error: yaml's message names it" },
  ];
  it.each(leftToYaml)("$why", ({ given }) => {
    expect(fastYamlData(given)).toBeUndefined();
  });

  it("reads brackets inside block scalars (code samples) as text", () => {
    const text = "a: |\n  func main() {\n    x := []int{\n  }\n- item: >-\n    {\nb: 1\n".replace("- item: >-\n    {\n", "c:\n  - item: >-\n      {\n");
    expect(fastYamlData(text)?.data).toStrictEqual(slow(text));
  });

  it("takes aliases of scalars and collections, sharing objects as yaml does", () => {
    const text = "note: &n a note\nuse: *n\nbase: &b {x: 1}\none: *b\ntwo: *b\n";
    const fast = fastYamlData(text)?.data as Record<string, unknown>;
    expect(fast).toStrictEqual(slow(text));
    const viaYaml = slow(text) as Record<string, unknown>;
    expect(fast["one"] === fast["two"]).toBe(viaYaml["one"] === viaYaml["two"]);
  });

  it("leaves an alias bomb to yaml, which refuses it; the CLI names the file (exit 2)", async () => {
    let bomb = 'openapi: 3.1.0\ninfo: {title: t, version: "1"}\npaths: {}\nx-a: &a [x, x, x, x, x, x, x, x, x, x]\n';
    for (let i = 1; i < 9; i++)
      bomb += `x-${i}: &a${i} [${Array(10)
        .fill(i === 1 ? "*a" : `*a${i - 1}`)
        .join(", ")}]\n`;
    expect(fastYamlData(bomb)).toBeUndefined();
    const dir = tmpDir();
    writeFileSync(path.join(dir, "bomb.yaml"), bomb);
    const r = await runCli(["generate", path.join(dir, "bomb.yaml"), "--out", path.join(dir, "out")], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("bomb.yaml:1:1");
    expect(r.stderr).toContain("resource exhaustion");
  });
});

describe("every YAML file in the repository and its dependencies", () => {
  const files = execFileSync("find", ["spec", "test/fixtures", "node_modules", "(", "-name", "*.yaml", "-o", "-name", "*.yml", ")", "-type", "f"], { cwd: ROOT, encoding: "utf8" }).trim().split("\n");

  it("gets the data yaml gives whenever js-yaml reads it, and js-yaml reads the repository's specs", () => {
    expect(files.length).toBeGreaterThan(300);
    const differing: string[] = [];
    let fastCount = 0;
    for (const f of files) {
      const text = readFileSync(path.join(ROOT, f), "utf8");
      const fast = fastYamlData(text);
      if (!fast) continue;
      fastCount++;
      const want = slow(text);
      if (want === "error" || !isDeepStrictEqual(fast.data, want)) differing.push(f);
    }
    expect(differing).toEqual([]);
    // Most files take the fast path, or it would not be worth having.
    expect(fastCount).toBeGreaterThan(files.length * 0.9);
    for (const spec of ["spec/core.yaml", "spec/ads-audiences.yaml", "spec/ads-campaigns.yaml", "spec/common/core-objects.yaml"]) {
      expect(fastYamlData(readFileSync(path.join(ROOT, spec), "utf8")), spec).toBeDefined();
    }
  }, 120_000);
});
