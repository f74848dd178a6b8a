import type { GeneratedFile } from "../emit/emitter.js";
import { NO_CACHE, cacheKey, type ContentCache } from "./content-cache.js";
import { maskVolatile } from "./format-mask.js";
import { defaultWorkerCount, orInline, poolOf, sizedBatches } from "../workers/pool.js";

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

/**
 * Prettier's parser per extension. TypeScript goes through `babel-ts`: the printer is the same as
 * with the `typescript` parser and so is the output (every generated package and GitHub's, compared
 * byte for byte; format.test.ts compares with the `typescript` parser), at about three quarters
 * of the CPU, the difference being TypeScript's own parser and its conversion to prettier's tree.
 * Markdown is written as emitted: emit/markdown.ts aligns tables as prettier did, and prettier's
 * markdown pass cost about 0.25 s of CPU in the three specs' cold run (its plugin loaded for READMEs alone)
 * while it could only restyle the spec's own prose.
 */
const PARSERS: Record<string, string> = { ts: "babel-ts", json: "json" };

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

export function topLevelPieces(contents: string): string[] {
  return contents.split(PIECE_BOUNDARY);
}

/** One text for prettier, with the parser for it. */
export interface FormatItem {
  readonly text: string;
  readonly parser: string;
}

/**
 * Prettier's answer for each item, or `null` for one that does not parse (a piece that is not a
 * program alone). The one function that formats, on whichever thread: a worker runs this very code.
 * Consecutive TypeScript pieces are formatted together (see formatJoined): most of a small piece's
 * cost is prettier's per-call option handling, about 1 ms, against about 3 µs per byte of code.
 */
export async function formatItems(items: readonly FormatItem[]): Promise<(string | null)[]> {
  const prettier = await import("prettier");
  const one = async ({ text, parser }: FormatItem): Promise<string | null> => {
    try {
      return await prettier.format(text, { ...PRETTIER_OPTIONS, parser });
    } catch {
      return null;
    }
  };
  const out: (string | null)[] = [];
  for (const group of joinableGroups(items)) {
    const joined = group.length > 1 ? await formatJoined(prettier, group) : undefined;
    if (joined) out.push(...joined);
    else for (const item of group) out.push(await one(item));
  }
  return out;
}

/**
 * A statement placed between joined pieces. Where a piece ends a top-level statement, prettier
 * prints it alone on a line at column 0 (the `;`s keep it apart from its neighbours); anywhere
 * else (inside a template literal, a comment, a function or a class) it stays verbatim or is
 * indented, and inside a type it does not parse: each of those sends the group back to one call per
 * piece.
 */
const BOUNDARY_NAME = "__contractgen_piece_boundary__";
const BOUNDARY = `;${BOUNDARY_NAME};`;
const BOUNDARY_OUT = `\n\n${BOUNDARY_NAME};\n\n`;

const isJoinable = (item: FormatItem): boolean => item.parser === "babel-ts" && item.text.trim() !== "" && !item.text.includes(BOUNDARY_NAME);

/**
 * Consecutive TypeScript items of up to JOIN_MAX_BYTES together; other items alone. The groups
 * depend on the items only, and an item's answer never depends on its group (formatJoined).
 */
function joinableGroups(items: readonly FormatItem[]): FormatItem[][] {
  const groups: FormatItem[][] = [];
  let bytes = 0;
  for (const item of items) {
    const last = groups[groups.length - 1];
    if (isJoinable(item) && last?.[0] && isJoinable(last[0]) && bytes + item.text.length <= JOIN_MAX_BYTES) {
      last.push(item);
      bytes += item.text.length;
    } else {
      groups.push([item]);
      bytes = item.text.length;
    }
  }
  return groups;
}

/**
 * Pieces joined per prettier call, by bytes of text: large enough that the per-call cost is small
 * beside the work, small enough that a group sent back to one call per piece costs little.
 * @default 32_768
 */
const JOIN_MAX_BYTES = 32_768;

/**
 * The pieces of `group` formatted in one prettier call, each answer what formatting it alone gives:
 * top-level statements print independently of their neighbours, with blank lines kept as one, and
 * the boundary statement between them is one more such statement. Undefined when the boundaries
 * did not all come out as top-level statements (a piece that is not a program alone) or the joined
 * text does not parse: the caller formats each piece alone, which is what says `null` for a piece.
 * format.test.ts holds this to formatting each piece alone over every generated package.
 */
async function formatJoined(prettier: typeof import("prettier"), group: readonly FormatItem[]): Promise<string[] | undefined> {
  let formatted: string;
  try {
    formatted = await prettier.format(group.map((i) => i.text).join(`\n\n${BOUNDARY}\n\n`), { ...PRETTIER_OPTIONS, parser: "babel-ts" });
  } catch {
    return undefined;
  }
  const parts = formatted.split(BOUNDARY_OUT);
  if (parts.length !== group.length || parts.some((p) => p.includes(BOUNDARY_NAME))) return undefined;
  return parts.map((p, i) => (i < parts.length - 1 ? `${p}\n` : p));
}

/** Options of formatFiles. */
export interface FormatOptions {
  /** Worker threads to format on at most; 0 formats on the calling thread. @default defaultWorkerCount() */
  readonly workers?: number;
  /**
   * Below this many bytes left to format (what the cache did not hold), prettier runs on the calling
   * thread. A worker's first tasks run prettier cold (loaded and not yet optimised by V8), and V8's
   * own background threads already use the second core: on the repository's three specs (the
   * largest group 0.1 MB) formatting on workers took 15–17 s of CPU against 13–14 s in place, for
   * no gain in wall time. Only a large amount is worth posting; prettier takes about 3 µs per byte.
   * @default 524_288
   */
  readonly inlineBelowBytes?: number;
}

/** A batch is at least this large, so a task's messaging stays small beside its work. */
const MIN_BATCH_BYTES = 16_384;

const FORMAT_MODULE = new URL("./format.js", import.meta.url).href;

/** Formats `items`: on worker threads in batches of about equal size when worth it, else here. */
async function formatAll(items: readonly FormatItem[], options: FormatOptions): Promise<(string | null)[]> {
  const workers = options.workers ?? defaultWorkerCount();
  const bytes = items.reduce((n, i) => n + i.text.length, 0);
  const pool = bytes >= (options.inlineBelowBytes ?? 524_288) ? poolOf(workers) : undefined;
  if (!pool) return formatItems(items);
  const batches = sizedBatches(items, (i) => i.text.length, Math.min(workers * 2, Math.floor(bytes / MIN_BATCH_BYTES)));
  const done = await Promise.all(batches.map((b) => orInline(pool.run<(string | null)[]>(FORMAT_MODULE, "formatItems", [b]), () => formatItems(b))));
  return done.flat();
}

/**
 * What a file is formatted as: its pieces (see topLevelPieces) or itself whole, or nothing; `laid`
 * holds, per piece, the text the emitter laid out itself (GeneratedFile.laidOut), written as it is
 * with the one newline prettier ends a piece with, or undefined for a piece to format.
 */
type Plan = { readonly file: GeneratedFile; readonly parser?: string; readonly pieces: readonly string[]; readonly laid: readonly (string | undefined)[] };

/**
 * Formats each file with its parser. TypeScript modules are formatted piece by piece (top-level
 * statements, see topLevelPieces), each piece cached by its text: after a one-schema change most
 * pieces of every file are the text they were, so only the changed ones go through prettier again.
 * The pieces are joined with one blank line, as prettier keeps them; a module with a piece that
 * does not parse alone is formatted whole. Either way the result depends on the text alone, not on
 * the cache or on the thread that formatted it.
 */
export async function formatFiles(files: readonly GeneratedFile[], cache: ContentCache = NO_CACHE, options: FormatOptions = {}): Promise<GeneratedFile[]> {
  const plans: Plan[] = files.map((file) => {
    const ext = file.path.slice(file.path.lastIndexOf(".") + 1);
    const parser = PARSERS[ext];
    if (!parser || file.format === false || file.contents.length > FORMAT_MAX_BYTES) return { file, pieces: [], laid: [] };
    const pieces = ext === "ts" ? topLevelPieces(file.contents) : [file.contents];
    const laid = pieces.map((text) => {
      const bare = withoutNewlines(text);
      return file.laidOut?.has(bare) ? `${bare}\n` : undefined;
    });
    return { file, parser, pieces, laid };
  });
  const pieceResults = await maskedFormat(
    plans.flatMap((p) => (p.parser === undefined ? [] : p.pieces.flatMap((text, i) => (p.laid[i] === undefined ? [{ text, parser: p.parser as string, path: p.file.path }] : [])))),
    cache,
    options,
  );
  let at = 0;
  const whole: { index: number; item: FormatItem & { readonly path: string } }[] = [];
  const out: (GeneratedFile | undefined)[] = plans.map((p, index) => {
    if (p.parser === undefined) return p.file;
    const formatted = p.laid.map((text) => text ?? pieceResults[at++] ?? null);
    if (formatted.every((f): f is string => f !== null)) return { path: p.file.path, contents: formatted.join("\n") };
    // A piece that is not a program alone: format the module whole, below.
    whole.push({ index, item: { text: p.file.contents, parser: p.parser, path: p.file.path } });
    return undefined;
  });
  if (whole.length > 0) {
    const results = await maskedFormat(
      whole.map((w) => w.item),
      cache,
      options,
    );
    whole.forEach(({ index, item }, n) => {
      const formatted = results[n];
      if (formatted !== null && formatted !== undefined) out[index] = { path: (plans[index] as Plan).file.path, contents: formatted };
    });
    // A whole module that does not parse is an emitter's bug: prettier's own error says where.
    const broken = whole.find(({ index }) => out[index] === undefined);
    if (broken) await prettierError(broken.item);
  }
  return out as GeneratedFile[];
}

/** `text` without the newlines that end it. */
function withoutNewlines(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 10) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** Throws prettier's error for a text it cannot format. */
async function prettierError({ text, parser }: FormatItem): Promise<never> {
  const prettier = await import("prettier");
  await prettier.format(text, { ...PRETTIER_OPTIONS, parser });
  throw new Error(`prettier formatted on this thread what it could not format on a worker (${parser})`);
}

/**
 * cachedFormat with each text's volatile parts masked (format-mask.ts), so a text that differs from
 * a cached one only there is a hit. A text whose parts do not come back from prettier as they went
 * in is formatted as it is.
 */
async function maskedFormat(items: readonly (FormatItem & { readonly path: string })[], cache: ContentCache, options: FormatOptions): Promise<(string | null)[]> {
  const masks = items.map((i) => maskVolatile(i.text, i.path));
  const results = await cachedFormat(
    items.map((i, n) => ({ text: masks[n]?.text ?? i.text, parser: i.parser })),
    cache,
    options,
  );
  const out = results.map((r, n): string | null | undefined => (r === null ? null : (masks[n]?.unmask(r) ?? (masks[n] ? undefined : r))));
  const refused = out.flatMap((r, n) => (r === undefined ? [n] : []));
  if (refused.length > 0) {
    const again = await cachedFormat(
      refused.map((n) => items[n] as FormatItem),
      cache,
      options,
    );
    refused.forEach((n, k) => (out[n] = again[k] ?? null));
  }
  return out.map((r) => r ?? null);
}

/** Each item's formatted text (null when it does not parse), from the cache or prettier; successes are cached. */
async function cachedFormat(items: readonly FormatItem[], cache: ContentCache, options: FormatOptions): Promise<(string | null)[]> {
  const keys = items.map((i) => cacheKey("format", i.parser, OPTIONS_KEY, i.text));
  const results: (string | null)[] = keys.map((k) => cache.get(k) ?? null);
  // Distinct texts only: the same piece (a shared import block) in several files is formatted once.
  const missing = new Map<string, number>();
  keys.forEach((k, i) => {
    if (results[i] === null && !missing.has(k)) missing.set(k, i);
  });
  if (missing.size === 0) return results;
  const order = [...missing.values()];
  const formatted = await formatAll(
    order.map((i) => items[i] as FormatItem),
    options,
  );
  const byKey = new Map<string, string | null>();
  order.forEach((i, n) => {
    const f = formatted[n] ?? null;
    byKey.set(keys[i] as string, f);
    if (f !== null) cache.set(keys[i] as string, f);
  });
  return keys.map((k, i) => results[i] ?? byKey.get(k) ?? null);
}
