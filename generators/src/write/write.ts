import { mkdir, readdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import type { GeneratedFile } from "../emit/emitter.js";
import { checkText, type TextCheck } from "./chunks.js";

/** Folders of a package the generator owns entirely: files there that it did not write are stale. */
export const OWNED_DIRS = ["src", "test"] as const;

export interface Drift {
  readonly changed: string[];
  readonly added: string[];
  readonly stale: string[];
}

async function listFiles(dir: string, prefix = ""): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  const out: string[] = [];
  for (const e of entries) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await listFiles(path.join(dir, e.name), rel)));
    else out.push(rel);
  }
  return out;
}

/** What writing a package would change, and the sha256 of each new file (what the no-op check records). */
export interface OutputScan {
  readonly drift: Drift;
  /** By file path inside the package. */
  readonly hashes: ReadonlyMap<string, string>;
}

/**
 * What writing `files` into `outDir` would change, without writing anything. Files on disk are
 * compared with the new contents a slice at a time, hashing them on the way: reading them whole
 * would hold a second copy of the package (50 MB for GitHub's) while the new one is in memory.
 */
export function scanOutput(outDir: string, files: readonly GeneratedFile[]): Promise<OutputScan> {
  return scan(outDir, files);
}

/**
 * Files checked at once. A check waits for its reads and writes (on libuv's threads) a slice at a
 * time; with a few in flight, this thread encodes and hashes one file's slice while another's is
 * being written. GitHub's package (90 MB): one at a time left this thread idle a third of the scan.
 * @default 3
 */
const CHECKS_IN_FLIGHT = 3;

/** The scan; with `staging`, each file that differs or is new is also written there, from the same bytes. */
async function scan(outDir: string, files: readonly GeneratedFile[], staging?: string): Promise<OutputScan> {
  const drift: Drift = { changed: [], added: [], stale: [] };
  const hashes = new Map<string, string>();
  const checks: TextCheck[] = new Array<TextCheck>(files.length);
  let next = 0;
  const checker = async (): Promise<void> => {
    while (next < files.length) {
      const i = next++;
      const file = files[i] as GeneratedFile;
      let copyTo: string | undefined;
      if (staging !== undefined) {
        copyTo = path.join(staging, file.path);
        await mkdir(path.dirname(copyTo), { recursive: true });
      }
      checks[i] = await checkText(path.join(outDir, file.path), file.contents, copyTo);
    }
  };
  // Every check ends before a failure is reported: none may still write into the staging folder
  // when the caller removes it.
  const ended = await Promise.allSettled(Array.from({ length: Math.min(CHECKS_IN_FLIGHT, files.length) }, checker));
  const failed = ended.find((e): e is PromiseRejectedResult => e.status === "rejected");
  if (failed !== undefined) throw failed.reason;
  // In file order, whatever order the checks ended in.
  files.forEach((file, i) => {
    const { onDisk, sha256 } = checks[i] as TextCheck;
    hashes.set(file.path, sha256);
    if (onDisk === "missing") drift.added.push(file.path);
    else if (onDisk === "different") drift.changed.push(file.path);
  });
  drift.stale.push(...(await staleFiles(outDir, files)));
  sortDrift(drift);
  return { drift, hashes };
}

/** Files in the owned folders that none of `files` is. */
async function staleFiles(outDir: string, files: readonly GeneratedFile[]): Promise<string[]> {
  const wanted = new Set(files.map((f) => f.path));
  const stale: string[] = [];
  for (const dir of OWNED_DIRS) {
    for (const rel of await listFiles(path.join(outDir, dir), dir)) if (!wanted.has(rel)) stale.push(rel);
  }
  return stale;
}

function sortDrift(drift: Drift): void {
  const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  drift.changed.sort(byCodeUnit);
  drift.added.sort(byCodeUnit);
  drift.stale.sort(byCodeUnit);
}

/** What writing `files` into `outDir` would change, without writing anything. */
export async function diffOutput(outDir: string, files: readonly GeneratedFile[]): Promise<Drift> {
  return (await scanOutput(outDir, files)).drift;
}

/** The staging folder beside a package folder, where new files wait until all of them are written. */
const stagingOf = (outDir: string): string => path.join(path.dirname(outDir), `.${path.basename(outDir)}.contractgen-staging`);

/**
 * Writes a package and says what changed (as `scanOutput` would have). Every file is encoded once:
 * its bytes are hashed and compared with the file on disk, and a file that differs or is new is
 * written from the same bytes to a staging folder beside the output. Those files are then renamed
 * into place, so a failure while writing leaves the previous files as they were. Unchanged files are
 * not touched (their timestamps stay, watchers stay quiet); stale files are removed last.
 */
export async function scanAndWriteOutput(outDir: string, files: readonly GeneratedFile[]): Promise<OutputScan> {
  const staging = stagingOf(outDir);
  await rm(staging, { recursive: true, force: true });
  try {
    const scanned = await scan(outDir, files, staging);
    for (const rel of [...scanned.drift.changed, ...scanned.drift.added]) {
      const target = path.join(outDir, rel);
      await mkdir(path.dirname(target), { recursive: true });
      await rename(path.join(staging, rel), target);
    }
    for (const rel of scanned.drift.stale) await rm(path.join(outDir, rel), { force: true });
    return scanned;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
