/** Newline-delimited JSON (one JSON text per line), as streaming endpoints deliver events. */

import { NetworkError, StreamParseError } from "./errors.js";
import { abortReason } from "./retry.js";

export interface NdjsonOptions {
  /**
   * Longest line accepted, in UTF-16 code units; a longer one is a `StreamParseError`, so a server
   * that never sends a newline cannot exhaust memory.
   * @default 16_777_216
   */
  readonly maxLineLength?: number;
}

/**
 * Parses a byte stream of newline-delimited JSON into values, in order. Lines may be split across
 * chunks anywhere, multibyte characters included; `\r\n` endings work; blank lines (servers send
 * them as keep-alives) are skipped.
 *
 * A malformed line throws a `StreamParseError` carrying the line, which ends the iteration: after a
 * corrupt line, framing can no longer be trusted, and a reconnect (see `streamWithReconnect`) is the
 * way to resynchronise. A connection lost mid-stream throws a `NetworkError`; an abort throws the
 * abort reason. Leaving the loop early cancels the body, which closes the connection.
 */
export async function* readNdjson(body: ReadableStream<Uint8Array>, signal?: AbortSignal, options: NdjsonOptions = {}): AsyncGenerator<unknown, void, undefined> {
  const maxLineLength = options.maxLineLength ?? 16_777_216;
  const reader = body.getReader();
  const decoder = new TextDecoder("utf-8");
  let buffer = "";
  let lineNumber = 0;
  let finished = false;
  const onAbort = (): void => {
    reader.cancel(abortReason(signal as AbortSignal)).catch(() => undefined);
  };
  signal?.addEventListener("abort", onAbort, { once: true });

  const parse = (raw: string): { value: unknown } | undefined => {
    lineNumber++;
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") return undefined;
    try {
      return { value: JSON.parse(line) as unknown };
    } catch (cause) {
      throw new StreamParseError(line, lineNumber, { cause });
    }
  };

  try {
    for (;;) {
      if (signal?.aborted) throw abortReason(signal);
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (cause) {
        if (signal?.aborted) throw abortReason(signal);
        throw new NetworkError("The stream connection failed", { cause });
      }
      // A cancel on abort makes read() resolve as done rather than reject.
      if (signal?.aborted) throw abortReason(signal);
      if (chunk.done) {
        finished = true;
        buffer += decoder.decode();
        break;
      }
      buffer += decoder.decode(chunk.value, { stream: true });
      let start = 0;
      for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n", start)) {
        const parsed = parse(buffer.slice(start, nl));
        start = nl + 1;
        if (parsed) yield parsed.value;
      }
      buffer = buffer.slice(start);
      if (buffer.length > maxLineLength) {
        throw new StreamParseError(buffer, lineNumber + 1, { reason: `Line longer than ${maxLineLength} characters` });
      }
    }
    const last = parse(buffer);
    if (last) yield last.value;
  } finally {
    signal?.removeEventListener("abort", onAbort);
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
