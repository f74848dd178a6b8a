import { createHash } from "node:crypto";
import { mkdir, readFile, rename } from "node:fs/promises";
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
 * One file of entries per package and kind of step. Only entries this run used are written back,
 * so the file holds what the current contract needs and does not grow with every edit.
 */
export class PackCache implements ContentCache {
  readonly #entries: Map<string, string>;
  readonly #used = new Set<string>();
  #dirty = false;

  private constructor(
    readonly file: string,
    entries: Map<string, string>,
  ) {
    this.#entries = entries;
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

  /** Reads the file now, bypassing the process's memo of opened packs. */
  static async load(file: string): Promise<PackCache> {
    let entries = new Map<string, string>();
    try {
      const parsed = JSON.parse(await readFile(file, "utf8")) as { format?: unknown; entries?: unknown };
      if (parsed.format === FORMAT && parsed.entries !== null && typeof parsed.entries === "object") {
        entries = new Map(Object.entries(parsed.entries as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === "string"));
      }
    } catch {
      // Missing or damaged: start empty.
    }
    return new PackCache(file, entries);
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
   * Keeps the entries this run used and drops the rest, then writes them, atomically, when anything
   * was added or dropped. The next run (in this process too) starts counting use afresh.
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
    const sorted = [...this.#entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    await mkdir(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    await writeTexts(tmp, packJson(sorted));
    await rename(tmp, this.file);
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
