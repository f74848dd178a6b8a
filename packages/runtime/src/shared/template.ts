/**
 * Response rules of kind `template` (`card_uri` is `card://{/id}`): a text made of literal parts and
 * JSON pointers into the same object. One implementation for the contract tests, which check it, and
 * the mock engine, which answers by it.
 */
import { getAt } from "./pointer.js";

/** `card://{/id}` with each `{pointer}` replaced by the text at that pointer of `scope`; undefined when one is missing. */
export function fillTemplate(template: string, scope: unknown): string | undefined {
  return fillTemplateWith(template, (pointer) => getAt(scope, pointer));
}

/** The same, each pointer read through `read`. */
export function fillTemplateWith(template: string, read: (pointer: string) => unknown): string | undefined {
  let missing = false;
  const out = template.replace(/\{(\/[^}]*)\}/g, (_m, pointer: string) => {
    const v = read(pointer);
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return String(v);
    missing = true;
    return "";
  });
  return missing ? undefined : out;
}
