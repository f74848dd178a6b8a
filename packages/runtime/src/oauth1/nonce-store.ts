/**
 * Replay protection for OAuth 1.0a servers (RFC 5849 §3.3): a nonce may be used once per
 * timestamp, client and token.
 */

export interface NonceEntry {
  readonly consumerKey: string;
  readonly token: string | undefined;
  readonly nonce: string;
  readonly timestamp: number;
  /** The verifier's clock, in seconds. */
  readonly nowSeconds: number;
  /**
   * When the entry may be forgotten, in seconds: past it the timestamp is outside the accepted
   * window, so a replay is refused by the timestamp check anyway.
   */
  readonly expiresAtSeconds: number;
}

/** Where a server records nonces. Back it with a shared store when several processes verify. */
export interface NonceStore {
  /** Records the nonce and returns true, or returns false when it was already recorded (a replay). */
  useOnce(entry: NonceEntry): boolean | Promise<boolean>;
}

/**
 * A single-process `NonceStore`. Entries are grouped by expiry second, so forgetting old ones costs
 * at most one step per distinct second in the window, whatever the request rate.
 */
export class InMemoryNonceStore implements NonceStore {
  readonly #seen = new Set<string>();
  readonly #byExpiry = new Map<number, string[]>();
  /** The earliest expiry of a bucket kept (Infinity when none). */
  #earliest = Infinity;

  /** Number of nonces currently remembered. */
  get size(): number {
    return this.#seen.size;
  }

  useOnce(entry: NonceEntry): boolean {
    this.#forget(entry.nowSeconds);
    // JSON keeps the parts apart whatever characters they contain.
    const key = JSON.stringify([entry.consumerKey, entry.token ?? null, entry.timestamp, entry.nonce]);
    if (this.#seen.has(key)) return false;
    this.#seen.add(key);
    const bucket = this.#byExpiry.get(entry.expiresAtSeconds);
    if (bucket) bucket.push(key);
    else this.#byExpiry.set(entry.expiresAtSeconds, [key]);
    this.#earliest = Math.min(this.#earliest, entry.expiresAtSeconds);
    return true;
  }

  #forget(nowSeconds: number): void {
    // Nothing has expired yet: no need to walk the buckets (one per second of the window) on every request.
    if (nowSeconds <= this.#earliest) return;
    let earliest = Infinity;
    for (const [expiry, keys] of this.#byExpiry) {
      if (expiry >= nowSeconds) {
        earliest = Math.min(earliest, expiry);
        continue;
      }
      for (const key of keys) this.#seen.delete(key);
      this.#byExpiry.delete(expiry);
    }
    this.#earliest = earliest;
  }
}
