/**
 * Fixed-window request counters, the way the platform's limits are stated ("1500 per 1 minute",
 * "200 per 15 minutes"): a window opens with the first request of a key and resets when it ends.
 */

export interface RateVerdict {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** End of the window, in seconds since the epoch (the `x-rate-limit-reset` value). */
  readonly resetSeconds: number;
}

export interface RateRule {
  readonly max: number;
  readonly windowMs: number;
}

export class RateLimiter {
  readonly #windows = new Map<string, { start: number; used: number }>();
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  /** Counts one request of `key` and says whether it fits the rule. */
  hit(key: string, rule: RateRule): RateVerdict {
    const now = this.#now();
    let window = this.#windows.get(key);
    if (!window || now >= window.start + rule.windowMs) {
      window = { start: now, used: 0 };
      this.#windows.set(key, window);
    }
    const allowed = window.used < rule.max;
    if (allowed) window.used++;
    return {
      allowed,
      limit: rule.max,
      remaining: Math.max(0, rule.max - window.used),
      resetSeconds: Math.ceil((window.start + rule.windowMs) / 1000),
    };
  }
}

/** The headers the platform sends with rate-limited answers. */
export function rateHeaders(verdict: RateVerdict): Record<string, string> {
  return {
    "x-rate-limit-limit": String(verdict.limit),
    "x-rate-limit-remaining": String(verdict.remaining),
    "x-rate-limit-reset": String(verdict.resetSeconds),
  };
}
