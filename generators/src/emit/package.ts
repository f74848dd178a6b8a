import type { ApiModel } from "../model/ir.js";
import { defineEmitter, type EmitContext } from "./emitter.js";
import { markdownHeader, tsHeader } from "./header.js";
import { mdAligned, mdBlock, mdCell, mdCode, mdInlineCode, mdTidy, type Md } from "./markdown.js";
import { fillTemplate, type JsonValue, type Slot } from "../templates/fill.js";
import { TemplateError } from "../templates/template.js";
import { ident, stringLiteral } from "./ts.js";
import { camelCase } from "../model/naming.js";
import { quickStart } from "./readme-quick-start.js";

/** OpenAPI versions are free text; npm needs semver. `2.166` → `2.166.0`; anything else keeps its numbers. */
export function packageVersion(apiVersion: string): string {
  const semver = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?$/;
  if (semver.test(apiVersion)) return apiVersion;
  const nums = (apiVersion.match(/\d+/g) ?? []).slice(0, 3).map((n) => String(Number(n)));
  while (nums.length < 3) nums.push("0");
  return nums.join(".");
}

/**
 * package.json, tsconfig.json, README.md (filled from templates/package/) and the `src/index.ts`
 * barrel.
 */
export const packageEmitter = defineEmitter({
  name: "package",
  readsRelease: true,
  emit(ctx) {
    const { model, templates } = ctx;
    return [
      { path: "package.json", contents: packageJson(ctx) },
      { path: "tsconfig.json", contents: fillTemplate(templates.tsconfig, {}) },
      { path: "README.md", contents: readme(ctx) },
      { path: "CHANGELOG.md", contents: ctx.release.changelog, format: false },
      // The contract this generation came from: the next one diffs against it for the version.
      { path: "contract.json", contents: `${JSON.stringify(model.document, null, 1)}\n`, format: false },
      { path: "src/index.ts", contents: barrel(model, ctx.exports, ctx.namespaced, ctx.unbarrelled) },
    ];
  },
});

const slot = (value: JsonValue | Md | string, about: string, required = false): Slot<JsonValue | Md> => ({ value, about, ...(required ? { required } : {}) });

/**
 * The template is the base; what the enabled emitters need (dependencies, optional peers) is
 * computed and placed before the `contractgen` member.
 */
function packageJson({ model, packageName, exports, dependencies, optionalPeers, release, templates }: EmitContext): string {
  const entry = (module: string): Record<string, string> => ({
    types: `./dist/${module}.d.ts`,
    default: `./dist/${module}.js`,
  });
  const map: Record<string, Record<string, string>> = { ".": entry("index") };
  for (const [subpath, module] of exports) map[subpath] = entry(module);
  const t = templates.packageJson;
  const filled = fillTemplate(t, {
    name: slot(packageName, "the npm name", true),
    version: slot(release.version, "the version (from contractgen diff against the last generation)", true),
    description: slot(`${model.info.title} ${model.info.version}: generated from ${model.source.path}`.replace(/[\r\n]+/g, " "), "one line: title, API version, spec"),
    exports: slot(map, "the subpath exports of the enabled artifacts", true),
    contractgen: slot({ spec: model.source.path, specHash: model.source.hash, apiVersion: model.info.version }, "the spec, its hash and API version (read back by the next generation)", true),
  });
  let base: unknown;
  try {
    base = JSON.parse(filled);
  } catch (e) {
    throw new TemplateError([
      { file: t.file, line: 1, col: 1, message: `template ${t.key} no longer fits: filled, it is not JSON (${(e as Error).message})`, fix: "compare it with templates/package/package.json.tpl" },
    ]);
  }
  if (base === null || typeof base !== "object" || Array.isArray(base)) {
    throw new TemplateError([
      { file: t.file, line: 1, col: 1, message: `template ${t.key} no longer fits: filled, it is not a JSON object`, fix: "compare it with templates/package/package.json.tpl" },
    ]);
  }
  const computed: Record<string, unknown> = {
    ...(Object.keys(dependencies).length > 0 ? { dependencies } : {}),
    ...(Object.keys(optionalPeers).length > 0
      ? {
          peerDependencies: optionalPeers,
          peerDependenciesMeta: Object.fromEntries(Object.keys(optionalPeers).map((name) => [name, { optional: true }])),
        }
      : {}),
  };
  const out: Record<string, unknown> = {};
  let placed = false;
  for (const [key, value] of Object.entries(base as Record<string, unknown>)) {
    if (key === "contractgen") {
      Object.assign(out, computed);
      placed = true;
    }
    out[key] = value;
  }
  if (!placed) Object.assign(out, computed);
  return JSON.stringify(out, null, 2) + "\n";
}

function barrel(model: ApiModel, exports: ReadonlyMap<string, string>, namespaced: ReadonlySet<string>, unbarrelled: ReadonlySet<string>): string {
  const lines = [...exports.values()]
    .filter((module) => !unbarrelled.has(module))
    .map((module) =>
      namespaced.has(module) ? `export * as ${ident(camelCase(module)).text} from ${stringLiteral(`./${module}.js`).text};` : `export * from ${stringLiteral(`./${module}.js`).text};`,
    );
  return `${tsHeader(model)}${lines.join("\n")}\n`;
}

function readme({ model, packageName, exports, templates }: EmitContext): string {
  const entryRows = [[mdCode(packageName), "everything below"]];
  for (const [subpath] of exports) entryRows.push([mdCode(packageName + subpath.slice(1)), ENTRY_DESCRIPTIONS[subpath] ?? ""]);
  const entries = [mdAligned(["import", "contents"], entryRows).text];
  const operationRows = model.operations.map((op) => {
    const deprecated = op.deprecated ? `yes${op.deprecation?.at ? ` (${mdCell(op.deprecation.at)})` : ""}${op.deprecation?.replacedBy ? `, use ${mdCode(op.deprecation.replacedBy)}` : ""}` : "";
    const shape = op.unspecified !== undefined ? "not shown by the document" : "";
    return [op.method.toUpperCase(), mdCode(op.path), mdCode(op.id), deprecated, shape];
  });
  const operations = [mdAligned(["method", "path", "operationId", "deprecated", "shape"], operationRows).text];
  const deliveries: string[] = [];
  if (model.deliveries.length > 0) {
    deliveries.push("", `## Deliveries (${model.deliveries.length})`, "");
    deliveries.push("What the API sends to your server (webhooks and callbacks); `./receiver` types, validates and routes them.", "");
    const rows = model.deliveries.map((d) => [d.kind, d.method.toUpperCase(), mdCode(d.name), mdCode(d.id), d.unspecified !== undefined ? "not shown by the document" : ""]);
    deliveries.push(mdAligned(["kind", "method", "name", "delivery id", "shape"], rows).text);
  }
  const unspecified: string[] = [];
  if (model.unspecifiedOperations.length > 0) {
    // Two blank lines: one after a deliveries table, which ends without a newline; without one,
    // mdTidy makes the two one.
    unspecified.push("", "", "## Named by the document without a path", "");
    unspecified.push("These have no client method: the document does not give enough to call them.", "");
    for (const u of model.unspecifiedOperations) unspecified.push(`- ${mdCell(u.name)} (${mdCell(u.tag)}): ${mdCell(u.missing)}`);
  }
  // Empty slots (no description, no deliveries) leave blank-line runs: made one, as prettier did.
  const filled = fillTemplate(templates.readme, {
    header: slot(mdBlock([markdownHeader(model).trimEnd()]), "the generated-file comment (spec and hash)"),
    packageName: slot(mdInlineCode(packageName), "the npm name"),
    title: slot(model.info.title, "the contract's info.title"),
    version: slot(mdInlineCode(model.info.version), "the contract's info.version"),
    source: slot(mdInlineCode(model.source.path), "the spec"),
    description: slot(model.info.description ? firstParagraph(model.info.description) : "", "the first paragraph of info.description"),
    quickStart: slot(quickStart(model, packageName, exports), "install, create the client, authenticate, one call, a problem handled; then server, mocks, MCP (empty without a client)"),
    entryPoints: slot(mdBlock(entries), "the table of subpath exports"),
    operationCount: slot(String(model.operations.length), "how many operations"),
    operations: slot(mdBlock(operations), "the table of operations", true),
    deliveries: slot(mdBlock(deliveries), "the table of webhook and callback deliveries (empty when none)"),
    unspecified: slot(mdBlock(unspecified), "operations named by the document without a path (empty when none)"),
  });
  return mdTidy(filled);
}

const ENTRY_DESCRIPTIONS: Record<string, string> = {
  "./types": "`paths`, `components`, `operations` and one alias per schema",
  "./operations": "operation metadata: id, method, path, tags, deprecation",
  "./validators": "precompiled validators: `schemaValidators`, `validateRequest`, `validateResponse`",
  "./problems": "problem classes (`instanceof`), `parseProblem`, `ApiError`, error-response classes",
  "./client": "the typed client factory: one method per operation, `raw`, `iterate`, `batch`, `stream`",
  "./server": "`<Name>Handlers` and the Fastify 5 plugin (not in the root export; Fastify is an optional peer)",
  "./mcp": "an MCP server: one tool per operation, client profiles, stdio and Streamable HTTP (not in the root export; the MCP SDK is an optional peer)",
  "./receiver": "`<Name>ReceiverHandlers` and the Fastify 5 plugin that validates and routes webhook and callback deliveries (not in the root export)",
  "./mocks": "deterministic seeded data per schema (`mockSchema`, `mockSchemas`) and an example response per operation",
  "./deliveries": "example deliveries built from the mocks: `exampleDelivery`, `exampleDeliveries`, `invalidDeliveries`",
};

/**
 * The first paragraph of `text`, each line trimmed and its runs of spaces made one, as prettier
 * laid it out: README.md is written as it is, and an indented line in a paragraph only shifts it
 * (four spaces at its start would make it code). Spec text holds no code spans (mdText escapes
 * backticks), so no spacing that matters is lost.
 */
function firstParagraph(text: string): string {
  return (text.trim().split(/\n\s*\n/)[0] ?? "")
    .split("\n")
    .map((line) => line.trim().replace(/[ \t]{2,}/g, " "))
    .join("\n");
}
