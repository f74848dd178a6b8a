/**
 * Lets a generated package that has no node_modules of its own (generated into /tmp, a cache folder,
 * another repository) run its conformance suite: every bare import it cannot resolve where it lies
 * (`@contractgen/runtime/*`, `ajv/dist/runtime/*`, `ajv-formats/*` …) is resolved from this
 * generator's installation, which depends on all of them. No linking, no install in the package.
 */
import { realpathSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "vitest/config";
import { isInside } from "./suites.js";

/** A bare module specifier: not relative, absolute, a URL, a Node builtin or a virtual module. */
function isBare(id: string): boolean {
  return !/^(\.{1,2}\/|\/|[A-Za-z]:[\\/]|\0|[A-Za-z][A-Za-z0-9+.-]*:)/.test(id) && !id.startsWith("virtual:");
}

/** Resolves `id` as this module would import it, or undefined when the installation lacks it. */
function fromGenerator(id: string): string | undefined {
  try {
    const url = import.meta.resolve(id);
    return url.startsWith("file:") ? realpathSync(fileURLToPath(url)) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The vite plugin. `vitest` itself is always the running one: a second copy (the package's own, or
 * another installation's) would register tests with a runner that is not running them.
 *
 * @param roots folders of the packages under test; imports from anywhere else resolve as usual
 */
export function generatorResolution(roots: readonly string[]): Plugin {
  const real = roots.map((r) => {
    try {
      return realpathSync(r);
    } catch {
      return r;
    }
  });
  const vitestEntry = fromGenerator("vitest");
  return {
    name: "contractgen:generator-resolution",
    enforce: "pre",
    async resolveId(source, importer, options) {
      if (!isBare(source) || importer === undefined) return null;
      const from = importer.split("?")[0] ?? importer;
      // Only the packages' own files: a dependency resolves its imports where it is installed.
      const root = real.find((r) => isInside(path.resolve(from), r));
      if (root === undefined || path.relative(root, from).split(path.sep).includes("node_modules")) return null;
      if (source === "vitest" && vitestEntry) return vitestEntry;
      // The package's own dependencies win when it has them (installed where it was generated).
      const own = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (own) return own;
      return fromGenerator(source) ?? null;
    },
  };
}
