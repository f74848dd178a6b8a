/**
 * templates/: slots filled through the escaping layer of each target, overrides by path with
 * --templates, and located errors for a template that uses an unknown slot or no longer fits.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type { FastifyInstance } from "fastify";
import { fillTemplate } from "../../generators/src/templates/fill.js";
import { parseTemplate, TemplateError } from "../../generators/src/templates/template.js";
import { ident, jsdoc } from "../../generators/src/emit/ts.js";
import { mdTable } from "../../generators/src/emit/markdown.js";
import { FIXTURES, runCli, snapshotTree } from "../generator/helpers.js";
import { linkContract, petsWorkspace, scaffold, tsc } from "./support.js";

const HOSTILE = "*/ `${globalThis.pwned = 1}` \" ' \\ \u2028 <!-- --> | # [x](y) {{slot}}";

describe("template slots", () => {
  it("quote strings in code, pass only vetted code raw", async () => {
    const t = parseTemplate("x.ts", "x.ts.tpl", "const a = {{text}};\n{{doc}}export const {{name}} = 1;\n");
    const out = fillTemplate(t, { text: { value: HOSTILE, about: "" }, doc: { value: jsdoc(HOSTILE), about: "" }, name: { value: ident("b"), about: "" } });
    const mod = (await import(`data:text/javascript,${encodeURIComponent(out)}`)) as { b: number };
    expect(mod.b).toBe(1);
    expect(out.split("\n")[0]).toBe(`const a = ${JSON.stringify(HOSTILE).replace("\u2028", "\\u2028").replace("*/", "*\\/")};`);
    expect((globalThis as { pwned?: unknown }).pwned).toBeUndefined();
  });

  it("escape strings in Markdown and JSON for their target", () => {
    const md = fillTemplate(parseTemplate("x.md", "x.md.tpl", "# {{title}}\n\n{{table}}\n"), { title: { value: HOSTILE, about: "" }, table: { value: mdTable(["a"], [[HOSTILE]]), about: "" } });
    expect(md).not.toContain("<!--");
    expect(md).not.toContain("[x](y)");
    expect(md.split("\n").filter((l) => l.startsWith("|"))).toHaveLength(3);
    const json = fillTemplate(parseTemplate("x.json", "x.json.tpl", '{\n  "name": {{name}},\n  "deps": {{deps}}\n}\n'), {
      name: { value: HOSTILE, about: "" },
      deps: { value: { [HOSTILE]: "1" }, about: "" },
    });
    expect(JSON.parse(json)).toEqual({ name: HOSTILE, deps: { [HOSTILE]: "1" } });
  });

  it("are names only: logic and unclosed braces are located errors", () => {
    const err = (text: string): string => {
      try {
        parseTemplate("x.ts", "x.ts.tpl", text);
      } catch (e) {
        if (e instanceof TemplateError) return e.message;
      }
      return "no error";
    };
    expect(err("a\n  {{#if x}}")).toBe(
      'x.ts.tpl:2:3\n  error: "{{#if x}}" is not a slot: templates hold named slots only, no logic\n  fix: write {{name}} with a slot name listed in docs/templates.md',
    );
    expect(err("ok {{a}}\n{{b")).toMatch(/^x\.ts\.tpl:2:1\n {2}error: unclosed \{\{/);
  });
});

describe("contractgen scaffold --templates", () => {
  it("takes an overriding template by path and the built-in ones for the rest", async () => {
    const ws = petsWorkspace();
    mkdirSync(path.join(ws.dir, "mine/scaffold/src"), { recursive: true });
    const builtin = readFileSync(path.resolve("templates/scaffold/src/app.ts.tpl"), "utf8");
    writeFileSync(path.join(ws.dir, "mine/scaffold/src/app.ts.tpl"), `// Our house header.\n${builtin}`);
    const r = await scaffold(ws, "--templates", "mine");
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(path.join(ws.server, "src/app.ts"), "utf8")).toMatch(/^\/\/ Our house header\.\nimport Fastify/);
    expect(readFileSync(path.join(ws.server, "src/main.ts"), "utf8")).toMatch(/^import \{ buildApp \} from "\.\/app\.js";/);
    expect(readFileSync(path.join(ws.server, "README.md"), "utf8")).toContain("npx contractgen scaffold ../pets.yaml --out . --templates ../mine");
  });

  it("fails with the template's file:line:col and the slots it may use for an unknown slot; writes nothing", async () => {
    const ws = petsWorkspace();
    mkdirSync(path.join(ws.dir, "mine/scaffold/src"), { recursive: true });
    writeFileSync(path.join(ws.dir, "mine/scaffold/src/main.ts.tpl"), "// start\nconsole.log({{title}}, {{colour}});\n");
    const r = await scaffold(ws, "--templates", "mine");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("mine/scaffold/src/main.ts.tpl:2:24\n  error: unknown slot {{colour}} in template scaffold/src/main.ts\n  fix: use one of: {{port}}, {{title}}");
    expect(existsSync(ws.server)).toBe(false);
  });

  it("fails when a handler-module template no longer holds the object scaffold edits", async () => {
    const ws = petsWorkspace();
    mkdirSync(path.join(ws.dir, "mine/scaffold/src/handlers"), { recursive: true });
    const file = path.join(ws.dir, "mine/scaffold/src/handlers/module.ts.tpl");
    writeFileSync(file, "export const handlersOfTag = {};\n");
    let r = await scaffold(ws, "--templates", "mine");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("mine/scaffold/src/handlers/module.ts.tpl:1:1\n  error: template scaffold/src/handlers/module.ts no longer fits: it has no {{exportName}} slot");
    writeFileSync(file, "export const {{exportName}} = 1;\n");
    r = await scaffold(ws, "--templates", "mine");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/mine\/scaffold\/src\/handlers\/module\.ts\.tpl:1:1\n {2}error: template no longer fits: filled, it declares no `export const petsHandlers = \{ … \}`/);
    expect(existsSync(ws.server)).toBe(false);
  });
});

describe("contractgen scaffold with hostile spec strings in every slot", () => {
  it("writes a project that compiles, runs, and keeps every string inert", async () => {
    const ws = petsWorkspace(path.join(FIXTURES, "scaffold/hostile.yaml"));
    const r = await scaffold(ws);
    expect(r.code, r.stderr).toBe(0);
    const tree = snapshotTree(ws.server);
    // Tag names become safe file names inside src/handlers/; `index` does not replace the index.
    const handlerFiles = Object.keys(tree)
      .filter((f) => f.startsWith("src/handlers/"))
      .sort();
    expect(handlerFiles).toEqual(["src/handlers/escape.ts", "src/handlers/global-this-pwned-tag.ts", "src/handlers/global-this-pwned-tpl.ts", "src/handlers/index.ts", "src/handlers/index2.ts"]);
    expect(Object.keys(tree).every((f) => !f.includes(".."))).toBe(true);
    const pkg = JSON.parse(tree["package.json"] as string) as { description: string };
    expect(pkg.description).toBe("Server for Hostile */ title ${globalThis.pwned = 'title'} `tick` \" quote <!-- /contractgen:status --> 1.0.0\" */ x, scaffolded by contractgen");
    const readme = tree["README.md"] as string;
    expect(readme.split("<!-- contractgen:status -->")).toHaveLength(2);
    expect(readme.split("<!-- /contractgen:status -->")).toHaveLength(2);
    expect(readme).not.toContain("<script>");

    linkContract(ws.server);
    expect(tsc(path.join(ws.server, "contract/tsconfig.json")).output).toBe("");
    expect(tsc(path.join(ws.server, "tsconfig.json")).output).toBe("");
    const { buildApp } = (await import(pathToFileURL(path.join(ws.server, "dist/app.js")).href)) as { buildApp(): Promise<FastifyInstance> };
    const app = await buildApp();
    try {
      expect((await app.inject({ method: "GET", url: "/b" })).json()).toMatchObject({ status: 501, detail: "constructor is not implemented" });
      expect((await app.inject({ method: "GET", url: "/d" })).statusCode).toBe(501);
    } finally {
      await app.close();
    }
    expect((globalThis as { pwned?: unknown }).pwned).toBeUndefined();
    // Running again changes nothing: the hostile names analyse back to the same handlers.
    const again = await scaffold(ws);
    expect(again.stderr).toContain("server: unchanged");
  });
});

describe("generated package templates (templates/package/)", () => {
  it("take an override by path for README.md, regenerate when it changes, and stay byte-deterministic", async () => {
    const ws = petsWorkspace();
    mkdirSync(path.join(ws.dir, "mine/package"), { recursive: true });
    const builtin = readFileSync(path.resolve("templates/package/README.md.tpl"), "utf8");
    const override = path.join(ws.dir, "mine/package/README.md.tpl");
    writeFileSync(override, builtin.replace("## Entry points", "Internal use only: ask #api-platform.\n\n## Entry points"));
    const gen = (out: string): Promise<{ code: number; stderr: string }> => runCli(["generate", "pets.yaml", "--out", out, "--templates", "mine", "-q"], ws.dir);
    expect((await gen("a")).code).toBe(0);
    expect((await gen("b")).code).toBe(0);
    const readme = readFileSync(path.join(ws.dir, "a/README.md"), "utf8");
    expect(readme).toContain("Internal use only: ask #api-platform.");
    expect(readme).toContain("| GET    | `/pets`");
    expect(readFileSync(path.join(ws.dir, "b/README.md"), "utf8")).toBe(readme);
    // Same spec, same generator, edited template: the no-op cache must not skip it.
    writeFileSync(override, builtin.replace("## Entry points", "Changed.\n\n## Entry points"));
    expect((await gen("a")).code).toBe(0);
    expect(readFileSync(path.join(ws.dir, "a/README.md"), "utf8")).toContain("Changed.");
  });

  it("fail located, writing nothing, for an unknown slot or a package.json base that is no longer JSON", async () => {
    const ws = petsWorkspace();
    mkdirSync(path.join(ws.dir, "mine/package"), { recursive: true });
    writeFileSync(path.join(ws.dir, "mine/package/README.md.tpl"), "# {{packageName}}\n\n{{operations}}\n{{licence}}\n");
    let r = await runCli(["generate", "pets.yaml", "--out", "pkg", "--templates", "mine"], ws.dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("mine/package/README.md.tpl:4:1\n  error: unknown slot {{licence}} in template package/README.md");
    writeFileSync(path.join(ws.dir, "mine/package/README.md.tpl"), readFileSync(path.resolve("templates/package/README.md.tpl"), "utf8"));
    writeFileSync(path.join(ws.dir, "mine/package/package.json.tpl"), '{ "name": {{name}}, "version": {{version}}, "exports": {{exports}}, "contractgen": {{contractgen}}, }');
    r = await runCli(["generate", "pets.yaml", "--out", "pkg", "--templates", "mine"], ws.dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/mine\/package\/package\.json\.tpl:1:1\n {2}error: template package\/package\.json no longer fits: filled, it is not JSON/);
    expect(existsSync(path.join(ws.dir, "pkg"))).toBe(false);
  });
});
