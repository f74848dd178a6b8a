/**
 * Retry policy: which answers and failures are worth another attempt, and how long to wait.
 * Exponential backoff with full jitter (a uniform draw below the exponential ceiling) spreads
 * clients that failed together, so they do not come back together.
 */

export interface RetryOptions {
  /**
   * Attempts after the first one.
   * @default 2
   */
  readonly retries?: number;
  /**
   * Ceiling of the first backoff, in milliseconds.
   * @default 250
   */
  readonly minDelayMs?: number;
  /**
   * Longest wait between attempts, in milliseconds; also caps `Retry-After` and `x-rate-limit-reset`.
   * @default 30_000
   */
  readonly maxDelayMs?: number;
  /**
   * Growth of the backoff ceiling per attempt.
   * @default 2
   */
  readonly factor?: number;
  /**
   * Statuses that are retried.
   * @default [429, 503]
   */
  readonly retryOn?: readonly number[];
  /**
   * Retry POST and PATCH too. Off by default: a request that reached the server may have taken
   * effect, and repeating it could apply it twice.
   * @default false
   */
  readonly retryNonIdempotent?: boolean;
  /**
   * Which requests a failure below HTTP (a reset, a refused connection) repeats: `idempotent` keeps
   * POST and PATCH from being sent twice when only their answer was lost, even with
   * `retryNonIdempotent` (which then covers the statuses in `retryOn` only).
   * @default "all"
   */
  readonly retryNetworkErrors?: "all" | "idempotent";
  /**
   * Source of randomness in [0, 1) for the jitter; replace it in tests.
   * @default Math.random
   */
  readonly random?: () => number;
  /**
   * How to wait; replace it in tests. Must reject with `signal.reason` when the signal aborts.
   * @default a timer-based sleep
   */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * Clock for HTTP-date and epoch hints, in milliseconds.
   * @default Date.now
   */
  readonly now?: () => number;
}

export type ResolvedRetryOptions = Required<RetryOptions>;

export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

/** RFC 9110 §9.2.2 idempotent methods (TRACE aside, which clients do not send). */
export function isIdempotent(method: string): boolean {
  return IDEMPOTENT_METHODS.has(method.toUpperCase());
}

/** The abort reason as something throwable. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/** Waits `ms` milliseconds; rejects with the abort reason as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortReason(signal as AbortSignal));
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export function resolveRetryOptions(options: RetryOptions = {}): ResolvedRetryOptions {
  return {
    retries: options.retries ?? 2,
    minDelayMs: options.minDelayMs ?? 250,
    maxDelayMs: options.maxDelayMs ?? 30_000,
    factor: options.factor ?? 2,
    retryOn: options.retryOn ?? [429, 503],
    retryNonIdempotent: options.retryNonIdempotent ?? false,
    retryNetworkErrors: options.retryNetworkErrors ?? "all",
    random: options.random ?? Math.random,
    sleep: options.sleep ?? sleep,
    now: options.now ?? Date.now,
  };
}

/** Options that size a backoff, shared by request retries and stream reconnects. */
export interface BackoffOptions {
  readonly minDelayMs: number;
  readonly maxDelayMs: number;
  readonly factor: number;
}

/**
 * Full-jitter backoff before retry number `attempt` (0 for the first retry): uniform in
 * [0, min(maxDelayMs, minDelayMs × factor^attempt)).
 */
export function backoffDelay(attempt: number, options: BackoffOptions, random: () => number = Math.random): number {
  const ceiling = Math.min(options.maxDelayMs, options.minDelayMs * options.factor ** attempt);
  return Math.floor(random() * ceiling);
}

/**
 * How long the server asked us to wait, in milliseconds, or undefined when it did not say:
 * `Retry-After` (delay-seconds or an HTTP-date, RFC 9110 §10.2.3) first, then `x-rate-limit-reset`
 * (epoch seconds at which the rate-limit window reopens).
 */
export function serverDelayMs(headers: Headers, now: number = Date.now()): number | undefined {
  const retryAfter = headers.get("retry-after")?.trim();
  if (retryAfter) {
    if (/^\d+$/.test(retryAfter)) return Number(retryAfter) * 1000;
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  const reset = headers.get("x-rate-limit-reset")?.trim();
  if (reset && /^\d+$/.test(reset)) return Math.max(0, Number(reset) * 1000 - now);
  return undefined;
}

/**
 * The wait before retry number `attempt`: the server's hint when it gave one, else the jittered
 * backoff; never more than `maxDelayMs`.
 */
export function retryDelay(attempt: number, options: ResolvedRetryOptions, headers?: Headers): number {
  const hint = headers === undefined ? undefined : serverDelayMs(headers, options.now());
  const delay = hint ?? backoffDelay(attempt, options, options.random);
  return Math.min(delay, options.maxDelayMs);
}
