/**
 * A generated file as UTF-8 bytes, a slice at a time. GitHub's strict validators module is one 19 MB
 * string: encoding it whole for a write, a hash or a comparison costs another 19 MB each time (and
 * the hash's own decoder reserves three bytes per character), where slices cost a few hundred KB.
 */
import { createHash } from "node:crypto";
import { open, type FileHandle } from "node:fs/promises";

/**
 * Characters per slice: 1 Mi characters are at most 3 MiB of UTF-8, few reads and writes per file
 * and little memory (a slice's buffer is freed as soon as it is written, hashed or compared).
 */
const SLICE = 1_048_576;

/** `text` in slices of at most `size` characters; a surrogate pair is never split between two slices. */
export function* textSlices(text: string, size: number): Generator<string> {
  for (let start = 0; start < text.length;) {
    let end = Math.min(start + size, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    yield text.slice(start, end);
    start = end;
  }
}

/**
 * Bytes that hold the UTF-8 of any slice of `text`: three per UTF-16 code unit at most (a surrogate
 * pair, two units, is four bytes).
 */
const scratchBytes = (text: string): number => 3 * Math.min(SLICE, text.length);

/** A buffer for `text`'s slices (see scratchBytes). */
export const scratchFor = (text: string): Buffer => Buffer.allocUnsafe(scratchBytes(text));

/**
 * The UTF-8 bytes of `text`, slice by slice (see textSlices), each encoded into `scratch` (from
 * `scratchFor(text)`): a view that is valid until the next slice is asked for. Encoding into one
 * buffer is nearly three times as fast as a new buffer per slice (38 against 103 ms for GitHub's
 * 90 MB package), and leaves nothing for the collector.
 */
export function* utf8Chunks(text: string, scratch: Buffer = scratchFor(text)): Generator<Buffer> {
  for (const slice of textSlices(text, SLICE)) yield scratch.subarray(0, scratch.write(slice, 0, "utf8"));
}

/** sha256 (hex) of the UTF-8 bytes of `text`, the same as hashing the file written from it. */
export function sha256Text(text: string): string {
  const hash = createHash("sha256");
  for (const chunk of utf8Chunks(text)) hash.update(chunk);
  return hash.digest("hex");
}

/** Writes `text` as UTF-8 to `file` (created or truncated), a slice at a time. */
export function writeText(file: string, text: string): Promise<void> {
  return writeTexts(file, [text]);
}

/** Writes all of `bytes` at the handle's position (a write may take only part of them). */
async function writeAll(handle: FileHandle, bytes: Buffer): Promise<void> {
  for (let at = 0; at < bytes.length;) at += (await handle.write(bytes, at, bytes.length - at)).bytesWritten;
}

/**
 * Parts are joined into batches of about this many characters before they are encoded: small
 * enough for the batch to be reclaimed young, large enough for few writes.
 */
const BATCH = 32_768;

/**
 * Writes the concatenation of `parts` as UTF-8 to `file`, without ever holding it whole: a cache
 * pack of 43 MB is written from its entries as they are serialized.
 */
export async function writeTexts(file: string, parts: Iterable<string>): Promise<void> {
  const handle = await open(file, "w");
  // A batch is at most BATCH characters plus one part: one scratch buffer serves every batch below
  // a slice, and a longer one (a single large part) gets its own.
  let scratch: Buffer | undefined;
  const flush = async (text: string): Promise<void> => {
    if (scratch === undefined || scratch.length < scratchBytes(text)) scratch = scratchFor(text);
    for (const chunk of utf8Chunks(text, scratch)) await writeAll(handle, chunk);
  };
  try {
    let batch: string[] = [];
    let size = 0;
    for (const part of parts) {
      batch.push(part);
      size += part.length;
      if (size < BATCH) continue;
      await flush(batch.join(""));
      batch = [];
      size = 0;
    }
    await flush(batch.join(""));
  } finally {
    await handle.close();
  }
}

/** How a file on disk stands against new contents, and the sha256 (hex) of those contents. */
export interface TextCheck {
  readonly onDisk: "same" | "different" | "missing";
  readonly sha256: string;
}

/**
 * Compares `file` with the UTF-8 bytes of `text` and hashes them in the same pass, so the contents
 * are encoded once: slice by slice, never the whole file at once. The sizes are compared as the
 * slices come, not first: the UTF-8 length of a string with any character beyond Latin-1 costs as
 * much as encoding it (0.3 s over GitHub's package). With `copyTo`, a file that differs (or is
 * missing) is also written there (created or truncated) from the same bytes, so it is not encoded a
 * second time to be written: after an edit almost every generated file differs, in its header's
 * spec hash at least, and usually in its first slice. A file found the same writes nothing.
 */
export async function checkText(file: string, text: string, copyTo?: string): Promise<TextCheck> {
  const hash = createHash("sha256");
  let handle;
  try {
    handle = await open(file, "r");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  let copy: FileHandle | undefined;
  try {
    const size = handle === undefined ? 0 : (await handle.stat()).size;
    let same = handle !== undefined;
    let position = 0;
    let buffer = Buffer.alloc(0);
    let slices = 0;
    // Each slice is encoded into this one buffer, and used (hashed, compared, written) before the next.
    const scratch = scratchFor(text);
    const writeCopy = async (chunk: Buffer): Promise<void> => {
      if (copyTo === undefined) return;
      if (copy === undefined) {
        copy = await open(copyTo, "w");
        // The slices before this one matched the file on disk: encoded again, once, for the copy.
        let earlier = 0;
        // Encoded into a buffer of their own: `chunk` is in `scratch` and is written after them.
        const again = scratchFor(text);
        for (const before of utf8Chunks(text, again)) {
          if (earlier++ >= slices) break;
          await writeAll(copy, before);
        }
      }
      await writeAll(copy, chunk);
    };
    for (const chunk of utf8Chunks(text, scratch)) {
      hash.update(chunk);
      if (same && position + chunk.length > size) same = false;
      position += chunk.length;
      if (!same || !handle) {
        await writeCopy(chunk);
        slices++;
        continue;
      }
      if (buffer.length < chunk.length) buffer = Buffer.allocUnsafe(scratch.length);
      let got = 0;
      const from = position - chunk.length;
      while (got < chunk.length) {
        const { bytesRead } = await handle.read(buffer, got, chunk.length - got, from + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      same = got === chunk.length && buffer.compare(chunk, 0, chunk.length, 0, chunk.length) === 0;
      if (!same) await writeCopy(chunk);
      slices++;
    }
    // The file may go on past the new contents.
    same &&= position === size;
    // Every slice matched but the file is longer, or the text is empty and the file is missing.
    if (!same && copyTo !== undefined && copy === undefined) await writeCopy(Buffer.alloc(0));
    return { onDisk: handle === undefined ? "missing" : same ? "same" : "different", sha256: hash.digest("hex") };
  } finally {
    await handle?.close();
    await copy?.close();
  }
}
