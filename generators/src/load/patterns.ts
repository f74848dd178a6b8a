/**
 * Patterns RE2 cannot express. Generated validators run every contract pattern on RE2 (linear
 * time, `@contractgen/runtime/pattern`); a pattern with a backreference or a lookaround would need
 * the backtracking `RegExp`, where one crafted value can take seconds or hours. Such a pattern is
 * refused here, located, unless the project's config allows it by its text
 * (`security.backtrackingPatterns`), and then it runs on `RegExp` for values of at most 256
 * characters only.
 */
import { re2Unsupported } from "@contractgen/runtime/pattern";
import { SpecError, type SpecIssue } from "./errors.js";
import { locateIssue, type LoadedSpec } from "./load.js";
import { unicodePattern } from "../emit/validators/json-schema.js";
import type { SourceFile } from "./source.js";

/** Members whose values are data, never schemas: a `pattern` inside them is text. */
const DATA = new Set(["example", "examples", "enum", "const", "default"]);

export interface PatternSite {
  /** Pointer segments in the bundled document, ending at `pattern` or the `patternProperties` name. */
  readonly at: readonly string[];
  readonly pattern: string;
}

/**
 * Every schema pattern of a document: `pattern` strings and `patternProperties` names, outside data
 * and extensions (but inside the `schema` of an `x-rules` entry, which validators compile).
 * Iterative, so no nesting depth overflows it.
 */
export function patternSites(document: unknown): PatternSite[] {
  const out: PatternSite[] = [];
  const stack: { node: unknown; at: string[] }[] = [{ node: document, at: [] }];
  while (stack.length > 0) {
    const { node, at } = stack.pop() as { node: unknown; at: string[] };
    if (node === null || typeof node !== "object") continue;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push({ node: node[i], at: [...at, String(i)] });
      continue;
    }
    const entries = Object.entries(node as Record<string, unknown>);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, value] = entries[i] as [string, unknown];
      if (DATA.has(key)) continue;
      if (key === "x-rules" && Array.isArray(value)) {
        value.forEach((rule, j) => {
          if (rule !== null && typeof rule === "object" && "schema" in rule) stack.push({ node: (rule as { schema: unknown }).schema, at: [...at, key, String(j), "schema"] });
        });
        continue;
      }
      if (key.startsWith("x-")) continue;
      if (key === "pattern" && typeof value === "string") out.push({ at: [...at, key], pattern: value });
      else if (key === "patternProperties" && value !== null && typeof value === "object" && !Array.isArray(value)) {
        for (const name of Object.keys(value)) out.push({ at: [...at, key, name], pattern: name });
        stack.push({ node: value, at: [...at, key] });
      } else stack.push({ node: value, at: [...at, key] });
    }
  }
  return out;
}

/**
 * Throws a SpecError naming every pattern RE2 cannot express that `allowed` (the config's
 * `security.backtrackingPatterns`, patterns as the spec writes them) does not list. Patterns that
 * do not compile as ECMAScript at all are left to the validators, which drop them as before.
 */
export function checkPatterns(spec: LoadedSpec, allowed: readonly string[]): void {
  const allow = new Set(allowed);
  const verdicts = new Map<string, string | undefined>();
  const issues: SpecIssue[] = [];
  let files: Map<string, SourceFile> | undefined;
  for (const site of patternSites(spec.document)) {
    if (allow.has(site.pattern)) continue;
    let why = verdicts.get(site.pattern);
    if (!verdicts.has(site.pattern)) {
      const compiled = unicodePattern(site.pattern);
      why = compiled === undefined ? undefined : re2Unsupported(compiled);
      verdicts.set(site.pattern, why);
    }
    if (why === undefined) continue;
    files ??= new Map(spec.files.map((f) => [f.absPath, f]));
    issues.push(
      locateIssue(
        files,
        spec.root.absPath,
        site.at,
        `pattern ${JSON.stringify(site.pattern)} uses ${why}, which the linear-time engine (RE2) the validators run cannot express; on a backtracking engine one crafted value can stall the server`,
        `rewrite the pattern without backreferences or lookaround, or allow it in contractgen.config.ts (security: { backtrackingPatterns: [${JSON.stringify(site.pattern)}] }): it then runs on RegExp for values of at most 256 characters`,
      ),
    );
  }
  if (issues.length > 0) throw new SpecError(issues);
}
