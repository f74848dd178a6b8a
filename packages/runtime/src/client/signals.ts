/**
 * Cancellation plumbing: one signal per call that fires on the caller's abort or on the call's
 * timeout, and a way to tell the two apart afterwards.
 */

import { TimeoutError } from "./errors.js";
import { abortReason } from "./retry.js";

export interface Deadline {
  /** Aborts when the caller aborts or the time runs out. */
  readonly signal: AbortSignal;
  /**
   * What to throw for a failure seen while the deadline was active: the `TimeoutError` when time ran
   * out, the caller's abort reason when the caller aborted, else the failure itself (fetch reports
   * both kinds of abort as the same DOMException, which would lose the distinction).
   */
  explain(error: unknown): unknown;
  /** Stops the timer and detaches from the caller's signal. Call it once the call settles. */
  dispose(): void;
}

/**
 * Starts a deadline. A `timeoutMs` of `Infinity` (or undefined) means no timer. Listeners are
 * attached and removed by hand rather than with `AbortSignal.any`, so a long-lived caller signal
 * does not accumulate one dependant per call.
 */
export function startDeadline(timeoutMs: number | undefined, caller?: AbortSignal): Deadline {
  const controller = new AbortController();
  let timeout: TimeoutError | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onAbort = (): void => controller.abort(abortReason(caller as AbortSignal));
  if (caller?.aborted) controller.abort(abortReason(caller));
  else caller?.addEventListener("abort", onAbort, { once: true });
  if (timeoutMs !== undefined && Number.isFinite(timeoutMs) && !controller.signal.aborted) {
    timer = setTimeout(
      () => {
        timeout = new TimeoutError(timeoutMs);
        controller.abort(timeout);
      },
      Math.max(0, timeoutMs),
    );
  }
  return {
    signal: controller.signal,
    explain(error) {
      if (timeout !== undefined) return timeout;
      if (caller?.aborted) return abortReason(caller);
      return error;
    },
    dispose() {
      if (timer !== undefined) clearTimeout(timer);
      caller?.removeEventListener("abort", onAbort);
    },
  };
}

/**
 * Waits for `promise` but gives up with the abort reason when `signal` aborts first. The promise
 * itself keeps running: use it for work shared with other callers, which one caller must not cancel.
 */
export function raceSignal<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortReason(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
