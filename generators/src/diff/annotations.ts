/**
 * Descriptions, examples, deprecation and `x-` extensions: the parts of a spec object that do not
 * change what goes over the wire, except the few extensions generated code acts on.
 */
import { escapePointerSegment } from "../load/errors.js";
import type { Finding } from "./change.js";
import type { PlainChangeKind } from "./kinds.js";
import { byCodeUnit, deepEqual, isObj, stableJson, type Loc } from "./view.js";

/** Extensions whose dates or replacement feed Deprecation/Sunset headers and docs. */
const DEPRECATION_EXTENSIONS = new Set(["x-deprecated-at", "x-sunset", "x-replaced-by", "x-removed"]);
/** Lists of constraints enforced by the generated validators (`x-rules`) or client batching (`x-limits`). */
const RULE_EXTENSIONS = new Set(["x-rules", "x-limits"]);
/** Extensions the generated client, server or validators act on; anything else `x-` is documentation. */
const BEHAVIOUR_EXTENSIONS = new Set(["x-hashed", "x-pagination", "x-stream", "x-problem-type", "x-unspecified", "x-oauth1"]);

const DOC_KIND: Readonly<Record<string, PlainChangeKind>> = {
  description: "description-changed",
  summary: "summary-changed",
  title: "title-changed",
  example: "example-changed",
  examples: "example-changed",
};

export interface AnnotationOptions {
  /** Documentation members to compare besides `x-` extensions (`description`, `examples`, …). */
  readonly docKeys: readonly string[];
  /** Kind reported when `deprecated` turns true. @default undefined: `deprecated` is not compared */
  readonly deprecated?: PlainChangeKind;
}

/** Compares the annotations of two objects (already dereferenced), naming them with `subject`. */
export function compareAnnotations(o: Loc, n: Loc, subject: string, options: AnnotationOptions): Finding[] {
  const out: Finding[] = [];
  const on = isObj(o.node) ? o.node : {};
  const nn = isObj(n.node) ? n.node : {};
  const at = (loc: Loc, key: string): string => `${loc.pointer}/${escapePointerSegment(key)}`;
  // The same string (or absent on both sides) needs no serializing: most annotations did not change.
  // Equal structures serialize alike, so an example object equal member for member is not
  // serialized either (GitHub's examples are most of what this compared by text).
  const changed = (key: string): boolean => on[key] !== nn[key] && !deepEqual(on[key], nn[key]) && stableJson(on[key]) !== stableJson(nn[key]);
  const where = (key: string): { side: "old" | "new"; pointer: string } => (key in nn ? { side: "new", pointer: at(n, key) } : { side: "old", pointer: at(o, key) });
  const verb = (key: string): string => (!(key in on) ? "added" : !(key in nn) ? "removed" : "changed");

  for (const key of options.docKeys) {
    if (!changed(key)) continue;
    out.push({ kind: DOC_KIND[key] ?? "annotation-changed", ...where(key), message: `${subject}: ${key} ${verb(key)}` });
  }
  if (options.deprecated !== undefined && (on["deprecated"] === true) !== (nn["deprecated"] === true)) {
    const now = nn["deprecated"] === true;
    out.push({
      kind: now ? options.deprecated : "deprecation-withdrawn",
      side: "deprecated" in nn ? "new" : "old",
      pointer: "deprecated" in nn ? at(n, "deprecated") : at(o, "deprecated"),
      message: `${subject}: ${now ? "deprecated" : "no longer deprecated"}`,
    });
  }
  const extensions = [...new Set([...Object.keys(on), ...Object.keys(nn)])].filter((k) => k.startsWith("x-")).sort(byCodeUnit);
  for (const key of extensions) {
    if (!changed(key)) continue;
    if (RULE_EXTENSIONS.has(key)) {
      out.push(...compareRules(key, on[key], nn[key], o, n, subject, at));
      continue;
    }
    const kind: PlainChangeKind = DEPRECATION_EXTENSIONS.has(key) ? "deprecation-changed" : BEHAVIOUR_EXTENSIONS.has(key) ? "behaviour-extension-changed" : "annotation-changed";
    out.push({ kind, ...where(key), message: `${subject}: ${key} ${verb(key)}` });
  }
  return out;
}

/** Entry by entry, so dropping a rule reads as relief and adding or editing one as a new constraint. */
function compareRules(key: string, before: unknown, after: unknown, o: Loc, n: Loc, subject: string, at: (l: Loc, k: string) => string): Finding[] {
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
  const oldEntries = list(before).map(stableJson);
  const newEntries = list(after).map(stableJson);
  const out: Finding[] = [];
  const label = (entry: string): string => {
    const parsed = JSON.parse(entry) as unknown;
    const name = isObj(parsed) ? (parsed["name"] ?? parsed["id"] ?? parsed["kind"] ?? parsed["message"]) : undefined;
    return typeof name === "string" ? ` '${name}'` : "";
  };
  oldEntries.forEach((e, i) => {
    if (!newEntries.includes(e))
      out.push({
        kind: "rule-removed",
        side: "old",
        pointer: Array.isArray(before) ? `${at(o, key)}/${i}` : at(o, key),
        message: `${subject}: ${key} entry${label(e)} removed or changed`,
      });
  });
  newEntries.forEach((e, i) => {
    if (!oldEntries.includes(e))
      out.push({
        kind: "rule-added",
        side: "new",
        pointer: Array.isArray(after) ? `${at(n, key)}/${i}` : at(n, key),
        message: `${subject}: ${key} entry${label(e)} added or changed`,
      });
  });
  return out;
}
