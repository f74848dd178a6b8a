/**
 * Templates: text with named slots (`{{name}}`) and no logic, for what the generator fills rather
 * than computes (the scaffold's app, handler module, README …). Each slot is escaped for the
 * template's target by `fill.ts`; this module finds, reads and parses templates and locates errors.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** What a template produces, from its file name (`app.ts.tpl` → code). */
export type TemplateKind = "ts" | "md" | "json";

/** One `{{slot}}` occurrence, located for error messages. */
export interface SlotUse {
  readonly name: string;
  /** Offsets of `{{` and just past `}}` in the template text. */
  readonly start: number;
  readonly end: number;
  readonly line: number;
  readonly col: number;
}

export interface Template {
  /** Key relative to the templates folder, without `.tpl` (`scaffold/app.ts`). */
  readonly key: string;
  /** Where it was read from, as displayed (relative to the working directory when inside it). */
  readonly file: string;
  readonly kind: TemplateKind;
  readonly text: string;
  readonly slots: readonly SlotUse[];
}

/** A template the generator cannot fill: located, with what to change. */
export interface TemplateIssue {
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly message: string;
  readonly fix: string;
}

export class TemplateError extends Error {
  constructor(readonly issues: readonly TemplateIssue[]) {
    super(issues.map(formatTemplateIssue).join("\n"));
    this.name = "TemplateError";
  }
}

export function formatTemplateIssue(issue: TemplateIssue): string {
  return `${issue.file}:${issue.line}:${issue.col}\n  error: ${issue.message}\n  fix: ${issue.fix}`;
}

/**
 * The templates that ship with contractgen: `templates/` at the top of the repository, which the
 * published package carries as its own `templates/` (copied in by `prepack`, beside `dist/`).
 */
export const BUILTIN_TEMPLATES = builtinTemplates(path.dirname(fileURLToPath(import.meta.url)));

function builtinTemplates(here: string): string {
  const packaged = path.resolve(here, "../../templates");
  return existsSync(packaged) ? packaged : path.resolve(here, "../../../templates");
}

export function kindOf(key: string): TemplateKind {
  if (key.endsWith(".md")) return "md";
  if (key.endsWith(".json")) return "json";
  if (key.endsWith(".ts")) return "ts";
  throw new Error(`template ${key}: no escaping is known for this file type`);
}

const SLOT = /\{\{\s*([^{}]*?)\s*\}\}/g;
const SLOT_NAME = /^[A-Za-z][A-Za-z0-9]*$/;

/** Parses `text`; every `{{…}}` must be a slot name (no expressions, loops or conditions). */
export function parseTemplate(key: string, file: string, text: string): Template {
  const slots: SlotUse[] = [];
  const issues: TemplateIssue[] = [];
  const at = (offset: number): { line: number; col: number } => {
    const before = text.slice(0, offset);
    const line = before.split("\n").length;
    return { line, col: offset - before.lastIndexOf("\n") };
  };
  for (const m of text.matchAll(SLOT)) {
    const name = m[1] ?? "";
    const { line, col } = at(m.index);
    if (!SLOT_NAME.test(name)) {
      issues.push({ file, line, col, message: `${JSON.stringify(m[0])} is not a slot: templates hold named slots only, no logic`, fix: "write {{name}} with a slot name listed in docs/templates.md" });
      continue;
    }
    slots.push({ name, start: m.index, end: m.index + m[0].length, line, col });
  }
  // A lone `{{` that never closes is a slot typed wrong, not text.
  const stripped = text.replace(SLOT, (s) => " ".repeat(s.length));
  const lone = stripped.indexOf("{{");
  if (lone >= 0) {
    const { line, col } = at(lone);
    issues.push({ file, line, col, message: "unclosed {{", fix: "close the slot with }}" });
  }
  if (issues.length > 0) throw new TemplateError(issues);
  return { key, file, kind: kindOf(key), text, slots };
}

/**
 * Reads template `key` (`scaffold/app.ts`): from `overrides` when that folder has `<key>.tpl`,
 * else the built-in one. Overriding is by path, one file at a time.
 */
export async function loadTemplate(key: string, overrides: string | undefined, cwd: string): Promise<Template> {
  const candidates = [...(overrides ? [path.resolve(cwd, overrides, `${key}.tpl`)] : []), path.join(BUILTIN_TEMPLATES, `${key}.tpl`)];
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new Error(`built-in template ${key}.tpl is missing from ${BUILTIN_TEMPLATES}`);
  const rel = path.relative(cwd, found);
  const shown = rel.startsWith("..") || path.isAbsolute(rel) ? found : rel;
  return parseTemplate(key, shown.split(path.sep).join("/"), await readFile(found, "utf8"));
}
