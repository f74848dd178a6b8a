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
 * Where a TypeScript module is cut into pieces: a blank line after a `;` or `}` that ends a line,
 * before a line that starts (at column 0) with a doc comment, a line comment or a declaration
 * keyword. Nothing before such a line can continue into it (no `(`, `[` or template can start the
 * next piece, so automatic semicolons read the pieces as the whole does). A cut that falls inside a
 * construct (a template literal or comment with a blank line) leaves a piece that does not parse
 * alone, and the module is then formatted whole.
 */
const PIECE_BOUNDARY = /(?<=[;}])\n\n+(?=\/\*\*|\/\/|(?:export|import|const|let|function|class|interface|type|declare|enum|async|abstract)\b)/;

function topLevelPieces(contents: string): string[] {
  return contents.split(PIECE_BOUNDARY);
}

type Prettier = typeof import("prettier");

/** Prettier's answer for one text, from the cache when the same text was formatted before. */
async function formatText(prettier: Prettier, text: string, parser: string, cache: ContentCache): Promise<string> {
  const key = cacheKey("format", parser, OPTIONS_KEY, text);
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const formatted = await prettier.format(text, { ...PRETTIER_OPTIONS, parser });
  cache.set(key, formatted);
  return formatted;
}

/**
 * Formats each file with its parser. TypeScript modules are formatted piece by piece (top-level
 * statements, see topLevelPieces), each piece cached by its text: after a one-schema change most
 * pieces of every file are the text they were, so only the changed ones go through prettier again.
 * The pieces are joined with one blank line, as prettier keeps them; a module with a piece that
 * does not parse alone is formatted whole. Either way the result depends on the text alone.
 */
export async function formatFiles(files: readonly GeneratedFile[], cache: ContentCache = NO_CACHE): Promise<GeneratedFile[]> {
  const prettier = await import("prettier");
  return Promise.all(
    files.map(async (file) => {
      const ext = file.path.slice(file.path.lastIndexOf(".") + 1);
      const parser = PARSERS[ext];
      if (!parser || file.format === false || file.contents.length > FORMAT_MAX_BYTES) return file;
      const pieces = parser === "typescript" ? topLevelPieces(file.contents) : [];
      if (pieces.length > 1) {
        try {
          const formatted = await Promise.all(pieces.map((piece) => formatText(prettier, piece, parser, cache)));
          return { path: file.path, contents: formatted.join("\n") };
        } catch {
          // A piece that is not a program alone: format the module whole, below.
        }
      }
      return { path: file.path, contents: await formatText(prettier, file.contents, parser, cache) };
    }),
  );
}
