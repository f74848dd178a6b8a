/** The templates of a generated package (templates/package/), loaded once per target. */
import { createHash } from "node:crypto";
import { loadTemplate, type Template } from "./template.js";

export interface PackageTemplates {
  readonly packageJson: Template;
  readonly tsconfig: Template;
  readonly readme: Template;
}

/** Built-in templates, or those of `overrides` by path (`<overrides>/package/README.md.tpl`). */
export async function loadPackageTemplates(overrides: string | undefined, cwd: string): Promise<PackageTemplates> {
  const [packageJson, tsconfig, readme] = await Promise.all(["package/package.json", "package/tsconfig.json", "package/README.md"].map((k) => loadTemplate(k, overrides, cwd)));
  return { packageJson: packageJson as Template, tsconfig: tsconfig as Template, readme: readme as Template };
}

/** Part of a target's cache key: an edited template regenerates the package. */
export function templatesHash(t: PackageTemplates): string {
  return createHash("sha256")
    .update(JSON.stringify([t.packageJson.text, t.tsconfig.text, t.readme.text]))
    .digest("hex")
    .slice(0, 16);
}
