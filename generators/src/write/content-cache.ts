import { createHash } from "node:crypto";
import { appendFile, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { textSlices, writeTexts } from "./chunks.js";

/**
 * Content-addressed results of pure, costly steps (a validator unit's compiled code, a formatted
 * file): the key is a hash of everything the result depends on, so a hit is by construction what
 * the step would compute again. Deleting the cache only makes the next run slower.
 */
export interface ContentCache {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}

/** A cache that remembers nothing: every lookup misses. */
export const NO_CACHE: ContentCache = { get: () => undefined, set: () => undefined };

/** The hash a cache key is made of: each part, separated so that no two lists join alike. */
export function cacheKey(...parts: readonly string[]): string {
  const h = createHash("sha256");
  for (const p of parts) h.update(p).update("\0");
  return h.digest("hex");
}

const FORMAT = 1;

/**
 * One file of entries per package and kind of step, and a journal beside it. A save that adds a
 * few entries appends them to the journal (`<file>.log`, one JSON line each) instead of rewriting
 * the file: after a one-schema edit GitHub's units pack gained a few entries and was rewritten whole,
 * 43 MB, about a second of every incremental run. The file is rewritten (and the journal emptied)
 * when the journal grows past half of it or a quarter of its entries went unused, so it holds
 * about what the current contract needs and does not grow with every edit. Entries are content-
 * addressed: one read from either place, or from both after a crash between the two, is right.
 */
export class PackCache implements ContentCache {
  readonly #entries: Map<string, string>;
  readonly #used = new Set<string>();
  /** Keys on disk, in the file or its journal. */
  readonly #stored: Set<string>;
  /** Characters of the file, and of the journal's entries as read or written (0: no journal in use). */
  #fileBytes: number;
  #journalBytes: number;
  #dirty = false;

  private constructor(
    readonly file: string,
    entries: Map<string, string>,
    fileBytes: number,
    journalBytes: number,
  ) {
    this.#entries = entries;
    this.#stored = new Set(entries.keys());
    this.#fileBytes = fileBytes;
    this.#journalBytes = journalBytes;
  }

  /**
   * Opens the pack, or starts an empty one when it is missing or unreadable (a cache never fails a
   * run). A process opens each file once: `--watch` keeps the pack in memory between runs instead
   * of reading it again.
   */
  static open(file: string): Promise<PackCache> {
    let open = opened.get(file);
    if (!open) {
      open = PackCache.load(file);
      opened.set(file, open);
      // A failed read must not stay memoized: the next run tries again.
      open.catch(() => opened.delete(file));
    }
    return open;
  }

  /** Reads the file and its journal now, bypassing the process's memo of opened packs. */
  static async load(file: string): Promise<PackCache> {
    let entries = new Map<string, string>();
    let fileBytes = 0;
    try {
      const text = await readFile(file, "utf8");
      const parsed = JSON.parse(text) as { format?: unknown; entries?: unknown };
      if (parsed.format === FORMAT && parsed.entries !== null && typeof parsed.entries === "object") {
        entries = new Map(Object.entries(parsed.entries as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === "string"));
        fileBytes = text.length;
      }
    } catch {
      // Missing or damaged: start empty.
    }
    let journalBytes = 0;
    try {
      const lines = (await readFile(journalOf(file), "utf8")).split("\n");
      // A journal of another format, or without its head line, is ignored whole.
      if (lines[0] === JOURNAL_HEAD) {
        for (const line of lines.slice(1)) {
          journalBytes += line.length + 1;
          try {
            const entry = JSON.parse(line) as unknown;
            if (Array.isArray(entry) && entry.length === 2 && typeof entry[0] === "string" && typeof entry[1] === "string") entries.set(entry[0], entry[1]);
          } catch {
            // A line cut short (a run stopped mid-append) or empty: skipped.
          }
        }
      }
    } catch {
      // No journal.
    }
    return new PackCache(file, entries, fileBytes, journalBytes);
  }

  get(key: string): string | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) this.#used.add(key);
    return value;
  }

  set(key: string, value: string): void {
    this.#entries.set(key, value);
    this.#used.add(key);
    this.#dirty = true;
  }

  /**
   * Keeps the entries this run used and drops the rest, then, when anything was added or dropped,
   * appends the added ones to the journal or rewrites the file atomically (see the class). The next
   * run (in this process too) starts counting use afresh.
   */
  async save(): Promise<void> {
    const changed = this.#dirty || this.#used.size !== this.#entries.size;
    if (changed) {
      for (const key of [...this.#entries.keys()]) if (!this.#used.has(key)) this.#entries.delete(key);
    }
    this.#used.clear();
    this.#dirty = false;
    if (!changed) return;
    // Taken now: entries set while the file is being written belong to the next save.
    const added = [...this.#entries].filter(([key]) => !this.#stored.has(key));
    let unused = 0;
    for (const key of this.#stored) if (!this.#entries.has(key)) unused++;
    const addedBytes = added.reduce((n, [key, value]) => n + key.length + value.length + 8, 0);
    await mkdir(path.dirname(this.file), { recursive: true });
    if (this.#fileBytes > 0 && this.#journalBytes + addedBytes <= this.#fileBytes / 2 && unused <= this.#stored.size / 4) {
      if (added.length === 0) return;
      const lines = added.map((e) => `${JSON.stringify(e)}\n`).join("");
      // A journal not in use (none, or one a load ignored) is replaced: entries appended after a
      // head that does not match would never be read.
      if (this.#journalBytes === 0) await writeFile(journalOf(this.file), `${JOURNAL_HEAD}\n${lines}`);
      else await appendFile(journalOf(this.file), lines);
      this.#journalBytes += addedBytes;
      for (const [key] of added) this.#stored.add(key);
      return;
    }
    const sorted = [...this.#entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const tmp = `${this.file}.${process.pid}.tmp`;
    let bytes = 0;
    await writeTexts(
      tmp,
      counted(packJson(sorted), (n) => (bytes += n)),
    );
    await rename(tmp, this.file);
    // Removed after the file is in place: a stop in between leaves entries that are right anyway.
    await rm(journalOf(this.file), { force: true });
    this.#stored.clear();
    for (const [key] of sorted) this.#stored.add(key);
    this.#fileBytes = bytes;
    this.#journalBytes = 0;
  }
}

/** The first line of a journal: entries of another format are never read. */
const JOURNAL_HEAD = JSON.stringify({ format: FORMAT, journal: true });

const journalOf = (file: string): string => `${file}.log`;

/** `parts`, passing on each one's length. */
function* counted(parts: Iterable<string>, add: (n: number) => void): Generator<string> {
  for (const part of parts) {
    add(part.length);
    yield part;
  }
}

/**
 * `JSON.stringify({ format, entries })` of sorted entries, in small pieces written as they come:
 * the whole text of GitHub's units pack is 43 MB, and even one entry's JSON copy is large enough
 * to be kept until a full garbage collection, where small pieces are reclaimed young.
 */
function* packJson(sorted: readonly (readonly [string, string])[]): Generator<string> {
  yield `{"format":${FORMAT},"entries":{`;
  for (let i = 0; i < sorted.length; i++) {
    const [key, value] = sorted[i] as readonly [string, string];
    yield `${i === 0 ? "" : ","}${JSON.stringify(key)}:"`;
    yield* jsonStringBody(value);
    yield '"';
  }
  yield "}}";
}

/** Characters escaped at a time: escaping is per character, so the pieces join to `JSON.stringify(value)` less its quotes. */
const ESCAPE_SLICE = 16_384;

function* jsonStringBody(value: string): Generator<string> {
  // Slices keep surrogate pairs whole: a pair cut in two would be escaped as two lone halves (`\ud83d`).
  for (const slice of textSlices(value, ESCAPE_SLICE)) yield JSON.stringify(slice).slice(1, -1);
}

/** Packs this process has opened, by file. */
const opened = new Map<string, Promise<PackCache>>();

/** A view of a cache whose keys are namespaced by `salt` (the generator and tool versions). */
export function salted(cache: ContentCache, salt: string): ContentCache {
  return { get: (key) => cache.get(cacheKey(salt, key)), set: (key, value) => cache.set(cacheKey(salt, key), value) };
}

/** The caches of one package: compiled validator units, formatted files, and the loader's (parsed YAML spec files). */
export interface PackageCaches {
  readonly units: PackCache;
  readonly format: PackCache;
  readonly load: PackCache;
}

/** The file of one kind of pack of the package generated into `outDir`. */
export function packFile(cacheDir: string, outDir: string, kind: keyof PackageCaches): string {
  const id = cacheKey(path.resolve(outDir)).slice(0, 24);
  return path.join(cacheDir, "content", `${id}.${kind}.json`);
}

/** Opens the caches of the package generated into `outDir`, under `cacheDir`. */
export async function openPackageCaches(cacheDir: string, outDir: string): Promise<PackageCaches> {
  const [units, format, load] = await Promise.all((["units", "format", "load"] as const).map((kind) => PackCache.open(packFile(cacheDir, outDir, kind))));
  return { units: units as PackCache, format: format as PackCache, load: load as PackCache };
}
