import type { GeneratedFile } from "../emit/emitter.js";
import { NO_CACHE, cacheKey, type ContentCache } from "./content-cache.js";

/**
 * Pinned formatting: the config lives here, not in the user's .prettierrc, so output is the same
 * wherever it is generated.
 */
export const PRETTIER_OPTIONS = {
  printWidth: 100,
  tabWidth: 2,
  useTabs: false,
  semi: true,
  singleQuote: false,
  quoteProps: "as-needed",
  trailingComma: "all",
  bracketSpacing: true,
  arrowParens: "always",
  endOfLine: "lf",
  proseWrap: "preserve",
} as const;

const PARSERS: Record<string, string> = { ts: "typescript", json: "json", md: "markdown" };

/**
 * Files larger than this are left as their emitter wrote them (one entry per line for the
 * per-operation tables; openapi-typescript's own layout for types). Prettier costs about 4 µs per
 * byte: on GitHub's spec it took 17 s of CPU for six table files (server.ts alone 8 s), more than
 * every emitter together, and changes nothing but whitespace.
 * @default 131_072
 */
export const FORMAT_MAX_BYTES = 131_072;

const OPTIONS_KEY = JSON.stringify(PRETTIER_OPTIONS);

/**
 * Formats each file with its parser. A file whose exact text was formatted before (the cache,
 * keyed by text, parser and options; its caller salts it with prettier's version) is not formatted
 * again: after a small spec change, most generated files are byte-identical before formatting.
 */
export async function formatFiles(files: readonly GeneratedFile[], cache: ContentCache = NO_CACHE): Promise<GeneratedFile[]> {
  const prettier = await import("prettier");
  return Promise.all(
    files.map(async (file) => {
      const ext = file.path.slice(file.path.lastIndexOf(".") + 1);
      const parser = PARSERS[ext];
      if (!parser || file.format === false || file.contents.length > FORMAT_MAX_BYTES) return file;
      const key = cacheKey("format", parser, OPTIONS_KEY, file.contents);
      const hit = cache.get(key);
      if (hit !== undefined) return { path: file.path, contents: hit };
      const contents = await prettier.format(file.contents, { ...PRETTIER_OPTIONS, parser });
      cache.set(key, contents);
      return { path: file.path, contents };
    }),
  );
}
