/**
 * Token lifecycles of document 1: the one app-only bearer token per app, and the OAuth 1.0a
 * request token → approval → access token flow with invalidation.
 */
import type { Random } from "../random.js";
import type { AccessTokenRecord, RequestTokenRecord } from "../store/records.js";

export type ExchangeResult =
  | { readonly ok: true; readonly access: AccessTokenRecord }
  | { readonly ok: false; readonly reason: string };

export class TokenStore {
  readonly #random: Random;
  #appToken: string | undefined;
  readonly #revokedAppTokens = new Set<string>();
  readonly requestTokens = new Map<string, RequestTokenRecord>();
  readonly accessTokens = new Map<string, AccessTokenRecord>();

  constructor(random: Random, fixedAccess: { token: string; secret: string; userId: string }) {
    this.#random = random;
    this.accessTokens.set(fixedAccess.token, { ...fixedAccess, invalidated: false });
  }

  /** The outstanding app-only token, issuing one when none is (the same token until invalidated). */
  appToken(): string {
    if (this.#appToken === undefined) {
      let token: string;
      // Hex from a seeded stream cannot repeat in practice; the loop makes "a new one differs" certain.
      do token = `AAAA-mock-app-${this.#random.hex(40)}`;
      while (this.#revokedAppTokens.has(token));
      this.#appToken = token;
    }
    return this.#appToken;
  }

  get outstandingAppToken(): string | undefined {
    return this.#appToken;
  }

  /** Revokes the outstanding app-only token; returns it, or undefined when none was outstanding. */
  invalidateAppToken(): string | undefined {
    const token = this.#appToken;
    if (token !== undefined) this.#revokedAppTokens.add(token);
    this.#appToken = undefined;
    return token;
  }

  isLiveAppToken(token: string): boolean {
    return token === this.#appToken;
  }

  createRequestToken(consumerKey: string, callback: string): RequestTokenRecord {
    const record: RequestTokenRecord = {
      token: `req-${this.#random.hex(32)}`,
      secret: this.#random.hex(40),
      consumerKey,
      callback,
      verifier: undefined,
      userId: undefined,
    };
    this.requestTokens.set(record.token, record);
    return record;
  }

  /** The browser step: the user approves, the token gets a verifier (a 7-digit PIN in `oob` mode). */
  approve(record: RequestTokenRecord, userId: string): string {
    record.userId = userId;
    record.verifier = record.callback === "oob" ? String(this.#random.int(1_000_000, 9_999_999)) : this.#random.hex(32);
    return record.verifier;
  }

  /** The access-token step: a matching verifier spends the request token and issues an access token. */
  exchange(requestToken: string, verifier: string): ExchangeResult {
    const record = this.requestTokens.get(requestToken);
    if (!record) return { ok: false, reason: "the request token is unknown or already exchanged" };
    if (record.verifier === undefined || record.userId === undefined) return { ok: false, reason: "the request token has not been authorized" };
    if (record.verifier !== verifier) return { ok: false, reason: "oauth_verifier does not match the request token" };
    this.requestTokens.delete(requestToken);
    const access: AccessTokenRecord = {
      token: `${record.userId}-${this.#random.hex(40)}`,
      secret: this.#random.hex(40),
      userId: record.userId,
      invalidated: false,
    };
    this.accessTokens.set(access.token, access);
    return { ok: true, access };
  }

  /** A live access token, or undefined for unknown and invalidated ones. */
  liveAccess(token: string): AccessTokenRecord | undefined {
    const record = this.accessTokens.get(token);
    return record && !record.invalidated ? record : undefined;
  }
}
