/** `contractgen init`: writes a commented `contractgen.config.ts` listing the specs it finds. */
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { literal, raw } from "../emit/ts.js";
import { discoverTargets } from "../pipeline.js";
import { fillTemplate } from "../templates/fill.js";
import { loadTemplate } from "../templates/template.js";
import { CONFIG_FILES } from "./load.js";
import { DEFAULT_LAYOUT } from "./targets.js";

export interface InitResult {
  /** Path written, or undefined when a config already exists (named in `existing`). */
  readonly written?: string;
  readonly existing?: string;
  readonly specs: number;
}

export async function initConfig(cwd: string, templates: string | undefined): Promise<InitResult> {
  const existing = CONFIG_FILES.find((f) => existsSync(path.join(cwd, f)));
  if (existing) return { existing, specs: 0 };
  const specDir = path.join(cwd, DEFAULT_LAYOUT.specDir);
  const targets = existsSync(specDir) ? await discoverTargets(cwd, DEFAULT_LAYOUT) : [];
  const entries = targets.map((t) => ({ spec: t.specPath.split(path.sep).join("/"), out: (path.relative(cwd, t.outDir) || ".").split(path.sep).join("/") }));
  const specs = entries.length === 0 ? raw(`[\n    // { spec: "spec/api.yaml", out: "packages/api" },\n  ]`) : raw(`[\n${entries.map((e) => `    ${literal(e).text},`).join("\n")}\n  ]`);
  const text = fillTemplate(await loadTemplate("config/contractgen.config.ts", templates, cwd), {
    scope: { value: DEFAULT_LAYOUT.scope, about: "the npm scope", required: false },
    specs: { value: specs, about: "the specs found in spec/, one entry per line", required: true },
  });
  const file = path.join(cwd, "contractgen.config.ts");
  await writeFile(file, text);
  return { written: "contractgen.config.ts", specs: entries.length };
}
