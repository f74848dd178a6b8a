import { createHash } from "node:crypto";
import { createReadStream, fstatSync, openSync, closeSync, readFileSync, readdirSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sha256Text } from "./chunks.js";

/**
 * The no-op check: a run whose spec files, generator and outputs all hash as last time has nothing
 * to do. It reads only hashes and files, never loads the heavy pipeline, so it answers in
 * milliseconds.
 */
export interface CacheEntry {
  readonly fingerprint: string;
  readonly sources: Readonly<Record<string, string>>;
  readonly outputs: Readonly<Record<string, string>>;
}

const sha = (data: string | Buffer): string => createHash("sha256").update(data).digest("hex");

let fingerprintMemo: string | undefined;

/** Identity of the generator build: its own compiled files plus the options of this run. */
export async function generatorFingerprint(extra: string): Promise<string> {
  if (!fingerprintMemo) {
    const dist = path.dirname(fileURLToPath(import.meta.url));
    const root = path.dirname(dist);
    const files = readdirSync(root, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".js") || f.endsWith(".cjs"))
      .sort();
    const h = createHash("sha256");
    // Synchronous reads: a hundred small files read this way take a few milliseconds, a tenth of
    // what the same reads cost through promises, and every no-op run pays for them.
    for (const f of files) h.update(f).update(readFileSync(path.join(root, f)));
    fingerprintMemo = h.digest("hex");
  }
  return sha(`${fingerprintMemo}\0${extra}`);
}

function cacheFile(cacheDir: string, outDir: string): string {
  return path.join(cacheDir, `${sha(path.resolve(outDir)).slice(0, 24)}.json`);
}

export async function readCache(cacheDir: string, outDir: string): Promise<CacheEntry | undefined> {
  try {
    return JSON.parse(await readFile(cacheFile(cacheDir, outDir), "utf8")) as CacheEntry;
  } catch {
    return undefined;
  }
}

export async function writeCache(cacheDir: string, outDir: string, entry: CacheEntry): Promise<void> {
  await mkdir(cacheDir, { recursive: true });
  await writeFile(cacheFile(cacheDir, outDir), JSON.stringify(entry));
}

/**
 * Files up to this size are hashed from one synchronous read; larger ones (GitHub's validators
 * module is 19 MB) are streamed so that memory stays flat.
 * @default 4 MiB
 */
const READ_WHOLE_BELOW_BYTES = 4 * 1024 * 1024;

/**
 * sha256 of a file. A no-op run hashes every output (75 files for the repo's three packages):
 * synchronous reads do that in about 3 ms where streams took 40-60 ms.
 */
async function hashFile(file: string): Promise<string> {
  const hash = createHash("sha256");
  const fd = openSync(file, "r");
  try {
    if (fstatSync(fd).size < READ_WHOLE_BELOW_BYTES) return hash.update(readFileSync(fd)).digest("hex");
  } finally {
    closeSync(fd);
  }
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

export async function hashFiles(files: readonly string[]): Promise<Record<string, string> | undefined> {
  const out: Record<string, string> = {};
  for (const f of files) {
    try {
      out[f] = await hashFile(f);
    } catch {
      return undefined;
    }
  }
  return out;
}

/** The hash `hashFiles` gives the file written from `contents`. */
export function hashContents(contents: string): string {
  return sha256Text(contents);
}

/** True when every recorded source and output still has the hash it had. */
export async function isUpToDate(entry: CacheEntry, fingerprint: string): Promise<boolean> {
  if (entry.fingerprint !== fingerprint) return false;
  for (const group of [entry.sources, entry.outputs]) {
    const now = await hashFiles(Object.keys(group));
    if (!now) return false;
    for (const [f, h] of Object.entries(group)) if (now[f] !== h) return false;
  }
  return true;
}
