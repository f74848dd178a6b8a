import { existsSync } from "node:fs";

/**
 * The workflow document for a spec, if there is one: `<name>.arazzo.{yaml,yml,json}` beside it.
 * Kept apart from the loader so a no-op run's cache check does not load the parser.
 */
export function workflowsPathFor(specAbsPath: string): string | undefined {
  const base = specAbsPath.replace(/\.(ya?ml|json)$/i, "");
  return [".arazzo.yaml", ".arazzo.yml", ".arazzo.json"].map((ext) => base + ext).find((p) => existsSync(p));
}
