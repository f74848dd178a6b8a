/**
 * Versions and changelogs follow the contract's history: the first generation takes the spec's
 * version; each later one bumps it by the size of the change since the last generated contract
 * (major for breaking, minor for additions and deprecations, patch for documentation), and adds
 * a changelog entry naming the operations and types concerned. Same history, same output.
 */
import { describe, expect, it } from "vitest";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { FIXTURES, runCli, snapshotTree, workspaceTmpDir } from "./helpers.js";

function project(): string {
  const dir = workspaceTmpDir("release-");
  cpSync(path.join(FIXTURES, "multi-file"), path.join(dir, "spec"), { recursive: true });
  return dir;
}

const generate = (dir: string) => runCli(["generate", "spec/openapi.yaml", "--out", "out", "--name", "@t/pkg"], dir);
const version = (dir: string): string => (JSON.parse(readFileSync(path.join(dir, "out/package.json"), "utf8")) as { version: string }).version;
const changelog = (dir: string): string => readFileSync(path.join(dir, "out/CHANGELOG.md"), "utf8");
const edit = (dir: string, file: string, f: (s: string) => string): void => {
  const p = path.join(dir, "spec", file);
  writeFileSync(p, f(readFileSync(p, "utf8")));
};

const NEW_OPERATION = `  /parts:
    get:
      operationId: listParts
      responses:
        '200':
          description: the parts
          content:
            application/json:
              schema:
                type: array
                items:
                  $ref: './components/schemas.yaml#/Part'
components:`;

describe("package versions and changelogs", () => {
  it("starts at the spec's version with a first entry", async () => {
    const dir = project();
    expect((await generate(dir)).code).toBe(0);
    expect(version(dir)).toBe("1.2.3");
    expect(changelog(dir)).toContain("## 1.2.3\n\nFirst generated from `spec/openapi.yaml`.");
  });

  it("bumps minor for an added operation and lists it; an unchanged contract adds nothing", async () => {
    const dir = project();
    await generate(dir);
    edit(dir, "openapi.yaml", (s) => s.replace("components:", NEW_OPERATION));
    await generate(dir);
    expect(version(dir)).toBe("1.3.0");
    expect(changelog(dir)).toMatch(/## 1\.3\.0\n\n- Operations added: `listParts`/);
    const before = snapshotTree(path.join(dir, "out"));
    await runCli(["generate", "spec/openapi.yaml", "--out", "out", "--name", "@t/pkg", "--force"], dir);
    expect(snapshotTree(path.join(dir, "out"))).toEqual(before);
  });

  it("bumps major for a breaking change and says so", async () => {
    const dir = project();
    await generate(dir);
    // A function replacement: in a replacement string, `$'` would mean "the text after the match".
    edit(dir, "components/parameters.yaml", (s) => s.replace("pattern: '^[0-9]+$'", () => "pattern: '^[0-9]{1,5}$'"));
    await generate(dir);
    expect(version(dir)).toBe("2.0.0");
    expect(changelog(dir)).toMatch(/## 2\.0\.0\n\nBreaking: 1 change\(s\)/);
    expect(changelog(dir)).toMatch(/Operations changed: `getWidget`/);
    // Older entries stay below the new one.
    expect(changelog(dir).indexOf("## 2.0.0")).toBeLessThan(changelog(dir).indexOf("## 1.2.3"));
  });

  it("bumps patch for documentation only", async () => {
    const dir = project();
    await generate(dir);
    edit(dir, "openapi.yaml", (s) => s.replace("description: the widget", "description: the widget, as stored"));
    await generate(dir);
    expect(version(dir)).toBe("1.2.4");
  });

  it("follows a contract that raises its own version past the bump", async () => {
    const dir = project();
    await generate(dir);
    edit(dir, "openapi.yaml", (s) => s.replace("version: 1.2.3", "version: 4.0.0").replace("components:", NEW_OPERATION));
    await generate(dir);
    expect(version(dir)).toBe("4.0.0");
  });

  it("is what check expects: after a spec change, check reports the package as drifted until regenerated", async () => {
    const dir = project();
    await generate(dir);
    edit(dir, "openapi.yaml", (s) => s.replace("components:", NEW_OPERATION));
    const drift = await runCli(["check", "spec/openapi.yaml", "--out", "out", "--name", "@t/pkg"], dir);
    expect(drift.code).toBe(1);
    expect(drift.stdout).toContain("changed  out/package.json");
    expect(drift.stdout).toContain("changed  out/CHANGELOG.md");
    await generate(dir);
    expect((await runCli(["check", "spec/openapi.yaml", "--out", "out", "--name", "@t/pkg"], dir)).code).toBe(0);
  });
});
