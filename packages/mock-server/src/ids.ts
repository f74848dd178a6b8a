/**
 * Deterministic identifiers. Every id the mock hands out (seeded or created later) comes from one
 * counter per kind, offset by the seed, so the same seed and the same requests give the same ids.
 */

/** Numeric ids stay below 2^53: the advertiser post contract carries them as JSON integers too. */
const SAFE_BASE = 1_000_000_000_000_000;

export class IdFactory {
  readonly #counters = new Map<string, number>();
  readonly #offset: number;

  constructor(seed: number) {
    // Spreads seeds apart so ids of two seeds rarely look alike, while staying well inside 2^53.
    this.#offset = ((Math.trunc(Math.abs(seed)) % 9973) + 1) * 100_000_000;
  }

  #bump(kind: string): number {
    const n = (this.#counters.get(kind) ?? 0) + 1;
    this.#counters.set(kind, n);
    return n;
  }

  /**
   * A 16-digit numeric id. `band` (0–8) sets the leading digit, so related kinds look alike; ids
   * are counted per band, which keeps every id unique whatever `kind` says (it names the use only).
   */
  numeric(_kind: string, band: number): string {
    return String(SAFE_BASE * (band + 1) + this.#offset + this.#bump(`band:${band}`));
  }

  /** A media key in the platform's `<category>_<id>` form. */
  mediaKey(category: number): string {
    return `${category}_${this.numeric("media", 8)}`;
  }

  /** A user id: 10 digits, like the examples of the documents. */
  user(): string {
    return String(2_000_000_000 + this.#offset / 100_000 + this.#bump("user"));
  }
}
