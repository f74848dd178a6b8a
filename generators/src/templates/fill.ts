/**
 * Fills a template's slots, each through the escaping layer of the template's target: `ts` for
 * code (a string becomes a quoted literal, only `Code` passes raw), `markdown.ts` for Markdown (a
 * string is escaped, only `Md` passes raw), `JSON.stringify` for JSON.
 */
import { Code, stringLiteral } from "../emit/ts.js";
import { Md, mdText } from "../emit/markdown.js";
import { TemplateError, type Template, type TemplateIssue } from "./template.js";

export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** One slot the generator offers a template. */
export interface Slot<V> {
  readonly value: V;
  /** What it holds, for the error that lists the slots and for docs/templates.md. */
  readonly about: string;
  /**
   * The generator relies on the template using it (a handler module without `{{exportName}}` is
   * no longer one scaffold can edit). @default false
   */
  readonly required?: boolean;
}

/** The text of `template` with every slot filled; throws `TemplateError` naming the template's file:line:col. */
export function fillTemplate(template: Template, slots: Readonly<Record<string, Slot<Code | Md | JsonValue>>>): string {
  const issues: TemplateIssue[] = [];
  const names = Object.keys(slots).sort();
  for (const use of template.slots) {
    if (!Object.hasOwn(slots, use.name)) {
      issues.push({
        file: template.file,
        line: use.line,
        col: use.col,
        message: `unknown slot {{${use.name}}} in template ${template.key}`,
        fix: `use one of: ${names.map((n) => `{{${n}}}`).join(", ")}`,
      });
    }
  }
  for (const [name, slot] of Object.entries(slots)) {
    if (slot.required && !template.slots.some((u) => u.name === name)) {
      issues.push({
        file: template.file,
        line: 1,
        col: 1,
        message: `template ${template.key} no longer fits: it has no {{${name}}} slot (${slot.about})`,
        fix: `put {{${name}}} back where the built-in template has it`,
      });
    }
  }
  if (issues.length > 0) throw new TemplateError(issues);
  let out = "";
  let last = 0;
  for (const use of template.slots) {
    const slot = slots[use.name] as Slot<Code | Md | JsonValue>;
    const lineStart = template.text.lastIndexOf("\n", use.start - 1) + 1;
    const indent = /^[ \t]*/.exec(template.text.slice(lineStart, use.start))?.[0] ?? "";
    out += template.text.slice(last, use.start) + render(template, use.name, slot.value, indent);
    last = use.end;
  }
  return out + template.text.slice(last);
}

function render(template: Template, name: string, value: Code | Md | JsonValue, indent: string): string {
  switch (template.kind) {
    case "ts":
      if (value instanceof Code) return value.text;
      if (typeof value === "string") return stringLiteral(value).text;
      break;
    case "md":
      if (value instanceof Md) return value.text;
      if (typeof value === "string") return mdText(value);
      break;
    case "json":
      if (!(value instanceof Code) && !(value instanceof Md)) return JSON.stringify(value, null, 2).replace(/\n/g, `\n${indent}`);
      break;
  }
  // A bug in the generator, not in the template: it offered a value this target cannot escape.
  throw new TypeError(`slot {{${name}}} of ${template.key}: a ${template.kind} template cannot take this value`);
}
