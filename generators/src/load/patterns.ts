/**
 * Patterns RE2 cannot express. Generated validators run every contract pattern on RE2 (linear
 * time, `@contractgen/runtime/pattern`); a pattern with a backreference or a lookaround would need
 * the backtracking `RegExp`, where one crafted value can take seconds or hours. Such a pattern is
 * refused here, located, unless the project's config allows it by its text
 * (`security.backtrackingPatterns`), and then it runs on `RegExp` for values of at most 256
 * characters only.
 */
import { re2Unsupported } from "@contractgen/runtime/pattern";
import { SpecError, toPointer, type SpecIssue } from "./errors.js";
import { SCHEMA_MAPS } from "./schema-keywords.js";
import { locateIssue, type LoadedSpec } from "./load.js";
import { unicodePattern } from "../emit/validators/json-schema.js";
import type { SourceFile } from "./source.js";

/** Members whose values are data, never schemas: a `pattern` inside them is text. */
const DATA = new Set(["example", "examples", "enum", "const", "default"]);

export type { PatternSite } from "./refs.js";
import type { PatternSite } from "./refs.js";

/**
 * Every schema pattern of a document: `pattern` strings and `patternProperties` names, outside data
 * and extensions (but inside the `schema` of an `x-rules` entry, which validators compile). One
 * path stack for the whole walk, copied only at a pattern (GitHub's description: a path per node
 * cost 75–180 ms); the loader bounds the depth (depth.ts), so the recursion is bounded too.
 */
export function patternSites(document: unknown): PatternSite[] {
  const out: PatternSite[] = [];
  const at: string[] = [];
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        at.push(String(i));
        walk(node[i]);
        at.pop();
      }
      return;
    }
    for (const key in node) {
      if (!Object.prototype.hasOwnProperty.call(node, key) || DATA.has(key)) continue;
      const value = (node as Record<string, unknown>)[key];
      if (key.charCodeAt(0) === 0x78 && key.startsWith("x-")) {
        if (key === "x-rules" && Array.isArray(value)) {
          value.forEach((rule: unknown, j) => {
            if (rule === null || typeof rule !== "object" || !("schema" in rule)) return;
            at.push(key, String(j), "schema");
            walk((rule as { schema: unknown }).schema);
            at.length -= 3;
          });
        }
        continue;
      }
      at.push(key);
      if (key === "pattern" && typeof value === "string") out.push({ at: [...at], pattern: value });
      else {
        if (key === "patternProperties" && value !== null && typeof value === "object" && !Array.isArray(value)) {
          for (const name of Object.keys(value)) out.push({ at: [...at, name], pattern: name });
        }
        walk(value);
      }
      at.pop();
    }
  };
  walk(document);
  return out;
}

/**
 * Whether a place is data or an extension rather than a schema: a segment that is a data member
 * (`example`, `enum`, …) or an `x-` extension (the `schema` of an `x-rules` entry excepted), names
 * under `properties` and the like not counting (a property may be called `example`).
 */
function inData(at: readonly string[]): boolean {
  for (let i = 0; i < at.length - 1; i++) {
    const seg = at[i] as string;
    if (SCHEMA_MAPS.has(seg)) i++;
    else if (DATA.has(seg)) return true;
    else if (seg.startsWith("x-") && !(seg === "x-rules" && at[i + 2] === "schema")) return true;
  }
  return false;
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
  // The loader's walk found them in their files; a LoadedSpec made otherwise is walked here.
  const sites = spec.patterns ?? patternSites(spec.document).map((s) => ({ ...s, file: undefined }));
  for (const site of sites) {
    if (allow.has(site.pattern) || (site.file !== undefined && inData(site.at))) continue;
    let why = verdicts.get(site.pattern);
    if (!verdicts.has(site.pattern)) {
      const compiled = unicodePattern(site.pattern);
      why = compiled === undefined ? undefined : re2Unsupported(compiled);
      verdicts.set(site.pattern, why);
    }
    if (why === undefined) continue;
    const message = `pattern ${JSON.stringify(site.pattern)} uses ${why}, which the linear-time engine (RE2) the validators run cannot express; on a backtracking engine one crafted value can stall the server`;
    const fix = `rewrite the pattern without backreferences or lookaround, or allow it in contractgen.config.ts (security: { backtrackingPatterns: [${JSON.stringify(site.pattern)}] }): it then runs on RegExp for values of at most 256 characters`;
    if (site.file !== undefined) {
      const pointer = toPointer(site.at);
      issues.push({ file: site.file.displayPath, ...site.file.locate(pointer), pointer, message, fix });
    } else {
      files ??= new Map(spec.files.map((f) => [f.absPath, f]));
      issues.push(locateIssue(files, spec.root.absPath, site.at, message, fix));
    }
  }
  if (issues.length > 0) throw new SpecError(issues);
}
