/**
 * Long-lived event streams: NDJSON parsing plus reconnection with backoff. Streaming connections of
 * the platform end with a problem event (`operational-disconnect`, `streaming-connection`); the
 * generated package maps those to its problem classes through `classify`.
 */

import { readResponse } from "./body.js";
import { HttpStatusError, NetworkError, StreamEndedError, StreamParseError, TimeoutError } from "./errors.js";
import { readNdjson, type NdjsonOptions } from "./ndjson.js";
import { ApiError, Problem } from "../shared/problem.js";
import { abortReason, backoffDelay, serverDelayMs, sleep } from "./retry.js";
import { startDeadline } from "./signals.js";

export { readNdjson, type NdjsonOptions } from "./ndjson.js";

export interface ReconnectBackoff {
  /**
   * Ceiling of the first reconnect delay, in milliseconds (full jitter draws below it).
   * @default 1_000
   */
  readonly minDelayMs?: number;
  /**
   * Longest wait before a reconnect, in milliseconds; also caps a `Retry-After` from the server.
   * @default 60_000
   */
  readonly maxDelayMs?: number;
  /** @default 2 */
  readonly factor?: number;
  /**
   * Consecutive reconnects allowed without an event in between; then the last error is thrown.
   * Unlimited by default because a stream is meant to run until the caller aborts, and errors that
   * reconnecting cannot fix (auth, configuration, too many connections) already stop it through
   * `shouldReconnect`.
   * @default Infinity
   */
  readonly maxReconnects?: number;
}

export interface StreamWithReconnectOptions extends NdjsonOptions {
  /** Opens one connection; `signal` aborts it. `Transport.open` fits here. */
  readonly connect: (signal: AbortSignal) => Promise<Response>;
  /**
   * Maps a parsed event, or the parsed body of a non-2xx connect answer, to the error it stands for
   * (a problem event, say); undefined for an ordinary event, which is yielded.
   * @default () => undefined
   */
  readonly classify?: ((value: unknown) => Error | undefined) | undefined;
  /**
   * Whether an error ends in a reconnect rather than being thrown to the consumer.
   * @default isTransientStreamError
   */
  readonly shouldReconnect?: ((error: Error) => boolean) | undefined;
  /** @default the ReconnectBackoff defaults */
  readonly backoff?: ReconnectBackoff | undefined;
  /** Ends the stream: the iterator throws the abort reason and does not reconnect. @default undefined */
  readonly signal?: AbortSignal | undefined;
  /** Told before each reconnect wait: the consecutive attempt number (from 1) and why. @default undefined */
  readonly onReconnect?: ((attempt: number, reason: Error) => void) | undefined;
  /** @default a timer-based sleep that rejects on abort */
  readonly sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  /** @default Math.random */
  readonly random?: (() => number) | undefined;
}

function problemSlug(type: string): string {
  return type.slice(type.lastIndexOf("/") + 1);
}

const retryableStatus = (status: number | undefined): boolean => status !== undefined && (status === 429 || status >= 500);

/**
 * The default reconnect policy. Reconnects after: a network failure or timeout, a connection that
 * ended, a corrupt line, a 429 or 5xx connect answer, an `operational-disconnect` problem (the server
 * closed the connection for its own reasons). Does not reconnect after a `streaming-connection`
 * problem (too many connections, rule trouble: reconnecting repeats the problem), other 4xx answers
 * or anything unrecognised.
 */
export function isTransientStreamError(error: Error): boolean {
  if (error instanceof NetworkError || error instanceof TimeoutError || error instanceof StreamEndedError || error instanceof StreamParseError) {
    return true;
  }
  if (error instanceof HttpStatusError || error instanceof ApiError) return retryableStatus(error.status);
  if (error instanceof Problem) {
    const slug = problemSlug(error.type);
    if (slug === "operational-disconnect") return true;
    if (slug === "streaming-connection") return false;
    return retryableStatus(error.status);
  }
  return false;
}

/** fetch reports network failures as a TypeError with a cause; those are NetworkErrors here. */
function asError(error: unknown): Error {
  if (error instanceof TypeError && error.cause !== undefined) {
    return new NetworkError("The stream connection failed", { cause: error });
  }
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Events of a stream that reconnects itself. Each connection's NDJSON values pass through `classify`;
 * ordinary events are yielded, an error either triggers a reconnect (when `shouldReconnect` says so)
 * or is thrown. A connection that ends, fails, or answers non-2xx is retried with exponential
 * full-jitter backoff (a `Retry-After` or `x-rate-limit-reset` on the answer wins), and the backoff
 * starts over once an event has been delivered. Breaking out of the loop closes the connection.
 */
export async function* streamWithReconnect(options: StreamWithReconnectOptions): AsyncGenerator<unknown, void, undefined> {
  const { signal } = options;
  const backoff = {
    minDelayMs: options.backoff?.minDelayMs ?? 1_000,
    maxDelayMs: options.backoff?.maxDelayMs ?? 60_000,
    factor: options.backoff?.factor ?? 2,
  };
  const maxReconnects = options.backoff?.maxReconnects ?? Infinity;
  const classify = options.classify ?? ((): undefined => undefined);
  const shouldReconnect = options.shouldReconnect ?? isTransientStreamError;
  const wait = options.sleep ?? sleep;
  const random = options.random ?? Math.random;
  const ndjson: NdjsonOptions = options.maxLineLength !== undefined ? { maxLineLength: options.maxLineLength } : {};
  let failures = 0;

  for (;;) {
    if (signal?.aborted) throw abortReason(signal);
    const link = startDeadline(undefined, signal);
    let reason: Error;
    let hintHeaders: Headers | undefined;
    try {
      const response = await options.connect(link.signal);
      if (!response.ok) {
        const raw = await readResponse(response, "GET");
        hintHeaders = raw.headers;
        reason = classify(raw.body) ?? new HttpStatusError("The stream connection was refused", raw.status, raw.body, raw.headers);
      } else if (response.body === null) {
        reason = new StreamEndedError();
      } else {
        let classified: Error | undefined;
        for await (const value of readNdjson(response.body, link.signal, ndjson)) {
          classified = classify(value);
          if (classified) break;
          failures = 0;
          yield value;
        }
        reason = classified ?? new StreamEndedError();
      }
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal);
      reason = asError(error);
    } finally {
      link.dispose();
    }

    if (!shouldReconnect(reason) || failures >= maxReconnects) throw reason;
    failures++;
    const hint = hintHeaders === undefined ? undefined : serverDelayMs(hintHeaders);
    const delay = Math.min(hint ?? backoffDelay(failures - 1, backoff, random), backoff.maxDelayMs);
    options.onReconnect?.(failures, reason);
    await wait(delay, signal);
  }
}
