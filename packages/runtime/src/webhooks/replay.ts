/**
 * What keeps a receiver from acting on a delivery twice or on one nobody signed: a bounded,
 * time-limited store of the delivery ids already handled, and the Standard Webhooks signature check
 * (HMAC-SHA256 over `<id>.<timestamp>.<body>`, compared in constant time, the timestamp within a
 * tolerance of the receiver's clock).
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Where a receiver remembers delivery ids. `begin` claims an id: "new" (handle it), "in-flight"
 * (another request is handling it now) or "done" (handled before); `end` records the outcome, and
 * an id whose handling failed is forgotten so the sender's retry runs again. A deployment of several
 * processes gives a shared implementation (a database, Redis) instead of the in-memory one.
 */
export interface DeliveryIds {
  begin(id: string): "new" | "in-flight" | "done" | Promise<"new" | "in-flight" | "done">;
  end(id: string, handled: boolean): void | Promise<void>;
}

export interface DeliveryIdStoreOptions {
  /** How long a handled id is remembered, in seconds. @default 86,400 (a day: senders retry for hours) */
  readonly ttlSeconds?: number;
  /** Most ids remembered; the oldest go first. @default 100,000 */
  readonly maxEntries?: number;
  /** The clock, in milliseconds. @default Date.now */
  readonly now?: () => number;
}

/** The in-memory DeliveryIds: insertion-ordered, so expiry and eviction look at the oldest only. */
export class DeliveryIdStore implements DeliveryIds {
  readonly #ids = new Map<string, { readonly state: "in-flight" | "done"; readonly at: number }>();
  readonly #ttl: number;
  readonly #max: number;
  readonly #now: () => number;

  constructor(options: DeliveryIdStoreOptions = {}) {
    this.#ttl = (options.ttlSeconds ?? 86_400) * 1000;
    this.#max = options.maxEntries ?? 100_000;
    this.#now = options.now ?? Date.now;
  }

  /** Ids remembered now (expired ones may still count until the next `begin`). */
  get size(): number {
    return this.#ids.size;
  }

  begin(id: string): "new" | "in-flight" | "done" {
    const now = this.#now();
    for (const [key, entry] of this.#ids) {
      if (now - entry.at < this.#ttl && this.#ids.size <= this.#max) break;
      this.#ids.delete(key);
    }
    const known = this.#ids.get(id);
    if (known !== undefined && now - known.at < this.#ttl) return known.state;
    this.#ids.delete(id);
    this.#ids.set(id, { state: "in-flight", at: now });
    while (this.#ids.size > this.#max) this.#ids.delete(this.#ids.keys().next().value as string);
    return "new";
  }

  end(id: string, handled: boolean): void {
    if (!handled) this.#ids.delete(id);
    else if (this.#ids.has(id)) {
      this.#ids.delete(id);
      this.#ids.set(id, { state: "done", at: this.#now() });
    }
  }
}

/** A header's value as one string (Fastify gives arrays for repeated headers). */
function header(headers: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const v = headers[name];
  return typeof v === "string" ? v : undefined;
}

/**
 * Checks a Standard Webhooks signature: `webhook-id`, `webhook-timestamp` (Unix seconds, within
 * `toleranceSeconds` of now) and `webhook-signature` (space-separated `v1,<base64>` entries, any of
 * which may match) against each secret (`whsec_<base64>`, or raw text without the prefix). Returns
 * undefined when it verifies, else what failed (never which byte, nor the expected value).
 */
export function verifyStandardWebhook(headers: Readonly<Record<string, unknown>>, body: string, secrets: readonly string[], toleranceSeconds: number, nowMs: number = Date.now()): string | undefined {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signature = header(headers, "webhook-signature");
  if (id === undefined || timestamp === undefined || signature === undefined) return "webhook-id, webhook-timestamp and webhook-signature are required";
  if (!/^\d{1,12}$/.test(timestamp)) return "webhook-timestamp is not Unix seconds";
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > toleranceSeconds) return `webhook-timestamp is more than ${toleranceSeconds} s from the receiver's clock`;
  const offered = signature
    .split(" ")
    .filter((s) => s.startsWith("v1,"))
    .map((s) => Buffer.from(s.slice(3), "base64"));
  for (const secret of secrets) {
    const key = secret.startsWith("whsec_") ? Buffer.from(secret.slice("whsec_".length), "base64") : Buffer.from(secret, "utf8");
    const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`, "utf8").digest();
    // timingSafeEqual needs equal lengths; a length mismatch says nothing about the secret.
    if (offered.some((o) => o.length === expected.length && timingSafeEqual(o, expected))) return undefined;
  }
  return "no webhook-signature entry matches";
}

/** Signs a delivery as Standard Webhooks does (for senders and tests): the `webhook-signature` value. */
export function signStandardWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = secret.startsWith("whsec_") ? Buffer.from(secret.slice("whsec_".length), "base64") : Buffer.from(secret, "utf8");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestampSeconds}.${body}`, "utf8").digest("base64")}`;
}
