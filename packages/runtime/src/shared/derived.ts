/**
 * Values a response rule derives one member from others: a `template` (`card_uri` is
 * `card://{/id}`, literal parts and JSON pointers into the same object) and an `offset` (`end_time`
 * is `start_time` plus a duration). One implementation for the contract tests, which check them,
 * and the mock engine, which answers by them.
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

const UNIT_MS = { second: 1_000, minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;

/** The unit an `offset` rule counts its duration in. */
export type OffsetUnit = keyof typeof UNIT_MS;

/**
 * The instant (ms since the epoch) `by` units after `start`: `start` an ISO 8601 text, `by` a number
 * or numeric text; undefined where either is not.
 */
export function offsetEnd(start: unknown, by: unknown, unit: OffsetUnit): number | undefined {
  const from = typeof start === "string" ? Date.parse(start) : NaN;
  const n = typeof by === "number" ? by : typeof by === "string" && by.trim() !== "" ? Number(by) : NaN;
  return Number.isNaN(from) || Number.isNaN(n) ? undefined : from + n * UNIT_MS[unit];
}
