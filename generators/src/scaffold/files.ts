/**
 * The scaffold's files that come from templates: the project skeleton (written once, when the
 * project is new), fresh handler modules and the handler index, and the README's status section.
 * Every slot value is escaped for its target by templates/fill.ts.
 */
import type { ApiModel } from "../model/ir.js";
import { ident, jsdoc, literal, type Code } from "../emit/ts.js";
import { Md, mdInlineCode, mdTable } from "../emit/markdown.js";
import { fillTemplate, type JsonValue, type Slot } from "../templates/fill.js";
import { loadTemplate, type Template } from "../templates/template.js";
import type { PlannedModule, ScaffoldPlan } from "./plan.js";
import type { FreshTexts, HandlerStatus } from "./reconcile.js";

/** Facts about the project every template may use. */
export interface ProjectFacts {
  readonly model: ApiModel;
  readonly plan: ScaffoldPlan;
  /** npm name of the contract package (`@devplatform/core`). */
  readonly packageName: string;
  /** npm name of the server project. */
  readonly projectName: string;
  /** The contract package folder relative to the project (`contract`, `../packages/core`). */
  readonly contractDir: string;
  /** The semver range of `@contractgen/runtime` the project depends on (`^0.1.0`). */
  readonly runtimeRange: string;
  /** Whether `build` compiles the contract package too (it lives inside the project). */
  readonly buildsContract: boolean;
  /** The scaffold command as run from the project folder. */
  readonly command: string;
}

export const SCAFFOLD_TEMPLATES = [
  "scaffold/package.json",
  "scaffold/tsconfig.json",
  "scaffold/vitest.config.ts",
  "scaffold/README.md",
  "scaffold/src/main.ts",
  "scaffold/src/app.ts",
  "scaffold/src/security.ts",
  "scaffold/src/handlers/index.ts",
  "scaffold/src/handlers/module.ts",
  "scaffold/test/conformance.test.ts",
] as const;
export type ScaffoldTemplateKey = (typeof SCAFFOLD_TEMPLATES)[number];

export type Templates = ReadonlyMap<ScaffoldTemplateKey, Template>;

export async function loadScaffoldTemplates(overrides: string | undefined, cwd: string): Promise<Templates> {
  const out = new Map<ScaffoldTemplateKey, Template>();
  for (const key of SCAFFOLD_TEMPLATES) out.set(key, await loadTemplate(key, overrides, cwd));
  return out;
}

const DEFAULT_PORT = 3000;

type AnySlot = Slot<Code | Md | JsonValue>;
const slot = (value: Code | Md | JsonValue, about: string, required = false): AnySlot => ({ value, about, ...(required ? { required } : {}) });

function serverModule(f: ProjectFacts): string {
  return `${f.packageName}/server`;
}

/** The project skeleton: path → text, for a project folder that has none yet. */
export function projectFiles(f: ProjectFacts, templates: Templates, status: readonly HandlerStatus[]): Map<string, string> {
  const t = (key: ScaffoldTemplateKey): Template => templates.get(key) as Template;
  const { model, plan } = f;
  const title = model.info.title;
  const schemes = model.securitySchemes.map((s) => `${s.name} (${s.kind ?? s.type})`);
  const deps: Record<string, string> = { [f.packageName]: `file:${f.contractDir}`, "@contractgen/runtime": f.runtimeRange, fastify: "^5.0.0" };
  const files = new Map<string, string>();
  files.set(
    "package.json",
    fillTemplate(t("scaffold/package.json"), {
      name: slot(f.projectName, "npm name of the server project"),
      description: slot(`Server for ${title} ${model.info.version}, scaffolded by contractgen`.replace(/[\r\n]+/g, " "), "one line about the project"),
      buildCommand: slot(f.buildsContract ? "tsc -p contract/tsconfig.json && tsc -p tsconfig.json" : "tsc -p tsconfig.json", "the build script"),
      dependencies: slot(sorted(deps), "the contract package, the runtime, Fastify"),
      devDependencies: slot({ "@types/node": "^20.19.9", typescript: "^5.9.3", vitest: "^4.1.12" }, "TypeScript, vitest, Node types"),
      // The contract package and the project ask for the runtime by compatible ranges: one copy.
      overrides: slot({}, "npm overrides"),
    }),
  );
  files.set("tsconfig.json", fillTemplate(t("scaffold/tsconfig.json"), {}));
  files.set("vitest.config.ts", fillTemplate(t("scaffold/vitest.config.ts"), {}));
  files.set(
    "README.md",
    fillTemplate(t("scaffold/README.md"), {
      title: slot(title, "the contract's info.title"),
      version: slot(model.info.version, "the contract's info.version"),
      source: slot(mdInlineCode(model.source.path), "the spec the project was scaffolded from"),
      port: slot(String(DEFAULT_PORT), "the default port"),
      scaffoldCommand: slot(mdInlineCode(f.command), "the scaffold command, run from the project folder"),
      checkCommand: slot(mdInlineCode(`${f.command} --check`), "the CI check command"),
      status: slot(statusMarkdown(status), "the handler status table scaffold refreshes between the status markers", true),
    }),
  );
  files.set("src/main.ts", fillTemplate(t("scaffold/src/main.ts"), { title: slot(title, "the contract's info.title"), port: slot(literal(DEFAULT_PORT), "the default port") }));
  files.set(
    "src/app.ts",
    fillTemplate(t("scaffold/src/app.ts"), {
      pluginName: slot(ident(plan.pluginName), "the generated Fastify plugin", true),
      serverModule: slot(serverModule(f), "the contract package's ./server module"),
      about: slot(jsdoc(`The server for ${title} ${model.info.version}: the generated plugin with this project's handlers and credential checks.`), "a JSDoc block about the app"),
    }),
  );
  files.set(
    "src/security.ts",
    fillTemplate(t("scaffold/src/security.ts"), {
      about: slot(
        jsdoc(
          `Credential checks: each verifier returns the principal or undefined to refuse. None is set, so operations that require authentication answer 401 until you add the ones your contract uses${schemes.length ? `: ${schemes.join(", ")}` : ""}.`,
        ),
        "a JSDoc block naming the contract's security schemes",
      ),
    }),
  );
  files.set(
    "test/conformance.test.ts",
    fillTemplate(t("scaffold/test/conformance.test.ts"), {
      validatorsModule: slot(`${f.packageName}/validators`, "the contract package's ./validators module"),
      planModule: slot(`../${f.contractDir}/test/conformance.plan.js`.replace(/^\.\.\/\.\//, "../"), "the contract package's conformance plan"),
    }),
  );
  return files;
}

/** Fresh handler modules and index, for `reconcile`. */
export function freshTexts(f: ProjectFacts, templates: Templates): FreshTexts {
  const mod = templates.get("scaffold/src/handlers/module.ts") as Template;
  const index = templates.get("scaffold/src/handlers/index.ts") as Template;
  const tag = (m: PlannedModule): string | undefined => f.model.tags.find((x) => x.name === m.tag)?.description;
  return {
    moduleTemplateFile: mod.file,
    indexTemplateFile: index.file,
    module: (m) =>
      fillTemplate(mod, {
        about: slot(jsdoc(`Handlers of the ${m.tag} operations.${tag(m) ? `\n\n${tag(m) as string}` : ""}`), "a JSDoc block about the tag"),
        serverModule: slot(serverModule(f), "the contract package's ./server module"),
        exportName: slot(ident(m.exportName), "the exported handler object scaffold adds handlers to", true),
        handlersType: slot(ident(f.plan.handlersType), "the generated <Name>Handlers interface"),
      }),
    index: () =>
      fillTemplate(index, {
        serverModule: slot(serverModule(f), "the contract package's ./server module"),
        handlersType: slot(ident(f.plan.handlersType), "the generated <Name>Handlers interface"),
      }),
  };
}

export const STATUS_START = "<!-- contractgen:status -->";
export const STATUS_END = "<!-- /contractgen:status -->";

/** The status section: one row per handler of the contract, and every stale handler. */
export function statusMarkdown(status: readonly HandlerStatus[]): Md {
  const count = (s: HandlerStatus["state"]): number => status.filter((x) => x.state === s).length;
  const summary = `${count("implemented")} implemented, ${count("stub")} to do (answer 501), ${count("missing")} missing, ${count("stale")} stale (operation left the contract: delete).`;
  const rows = status.map((s) => [s.methodName, s.method && s.path ? `${s.method} ${s.path}` : "not in the contract", s.file, s.state]);
  // The summary is the generator's own words and numbers; spec text reaches only the table cells.
  return new Md(`${summary}\n\n${mdTable(["handler", "operation", "file", "state"], rows).text}`);
}

/** README text with its status section replaced; unchanged when the markers are gone. */
export function refreshStatus(readme: string, status: readonly HandlerStatus[]): string {
  const start = readme.indexOf(STATUS_START);
  const end = readme.indexOf(STATUS_END, start + STATUS_START.length);
  if (start < 0 || end < 0) return readme;
  return `${readme.slice(0, start + STATUS_START.length)}\n${statusMarkdown(status).text}\n${readme.slice(end)}`;
}

function sorted(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
