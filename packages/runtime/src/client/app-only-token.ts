/**
 * The OAuth 2.0 app-only bearer token, following the lifecycle document 1 states: one token per
 * app, handed out again by every `POST /oauth2/token` until `POST /oauth2/invalidate_token`, after
 * which the next request yields a different one.
 */

import { FORM_URLENCODED } from "./body.js";
import { TokenResponseError } from "./errors.js";
import { exchangeOnce } from "./http.js";
import { errorFromResponse } from "./response-error.js";
import { raceSignal, startDeadline } from "./signals.js";

/** API key and secret of the app (document 1: "API key as user name, API key secret as password"). */
export interface ClientCredentials {
  readonly apiKey: string;
  readonly apiSecret: string;
}

export interface AppOnlyTokenOptions {
  /** The API address; the token paths are appended to it. */
  readonly baseUrl: string;
  readonly credentials: ClientCredentials;
  /** @default globalThis.fetch */
  readonly fetch?: typeof fetch;
  /**
   * Time limit of each token or invalidation request, in milliseconds.
   * @default 30_000
   */
  readonly timeoutMs?: number;
  /** @default undefined (fetch's own) */
  readonly userAgent?: string;
  /** @default "/oauth2/token" */
  readonly tokenPath?: string;
  /** @default "/oauth2/invalidate_token" */
  readonly invalidatePath?: string;
}

const formEncode = (text: string): string => new URLSearchParams({ v: text }).toString().slice(2);

/**
 * `Basic base64(key:secret)`. Key and secret are form-encoded first, as RFC 6749 §2.3.1 asks of
 * client credentials; for the usual alphanumeric keys that changes nothing.
 */
export function clientBasicAuthorization(credentials: ClientCredentials): string {
  const pair = `${formEncode(credentials.apiKey)}:${formEncode(credentials.apiSecret)}`;
  return `Basic ${Buffer.from(pair, "utf8").toString("base64")}`;
}

/**
 * Caches the app's bearer token. Concurrent callers share one in-flight token request; a token
 * request waits for an invalidation in progress, since until it completes the server would hand
 * back the token being invalidated.
 */
export class AppOnlyTokenCache {
  readonly #options: AppOnlyTokenOptions;
  readonly #fetch: typeof fetch;
  #token: string | undefined;
  #inflight: Promise<string> | undefined;
  #invalidating: Promise<void> | undefined;
  // Bumped whenever the cached token is dropped, so a request started earlier cannot store a stale token.
  #generation = 0;

  constructor(options: AppOnlyTokenOptions) {
    this.#options = options;
    this.#fetch = options.fetch ?? globalThis.fetch;
  }

  /** The cached token, if any. */
  get current(): string | undefined {
    return this.#token;
  }

  /** The token: the cached one, or one obtained from the token endpoint. */
  async get(signal?: AbortSignal): Promise<string> {
    while (this.#invalidating) await raceSignal(this.#invalidating, signal);
    if (this.#token !== undefined) return this.#token;
    if (!this.#inflight) {
      const generation = this.#generation;
      // Not tied to one caller's signal: the request serves every caller waiting for it.
      this.#inflight = this.#request()
        .then((token) => {
          if (generation === this.#generation) this.#token = token;
          return token;
        })
        .finally(() => {
          this.#inflight = undefined;
        });
    }
    return raceSignal(this.#inflight, signal);
  }

  /**
   * Forgets the cached token locally, without telling the server (after a 401, say). When `token`
   * is given, only that token is forgotten, so a caller holding an old token cannot drop a newer one.
   */
  drop(token?: string): void {
    if (token !== undefined && token !== this.#token) return;
    this.#token = undefined;
    this.#generation++;
  }

  /**
   * Clears the cache and revokes the cached token at the server. Resolves to false when there was
   * no token to revoke (call `get()` first to revoke the app's token after a restart). The request
   * shape is our choice, since the document shows only method and path: Basic client credentials
   * and the form body `access_token=<token>`.
   */
  async invalidate(signal?: AbortSignal): Promise<boolean> {
    const token = this.#token ?? (this.#inflight ? await raceSignal(this.#inflight, signal).catch(() => undefined) : undefined);
    this.drop();
    if (token === undefined) return false;
    const run = this.#post(this.#options.invalidatePath ?? "/oauth2/invalidate_token", { access_token: token });
    // Token requests only need to know when the invalidation is over, not how it went.
    const over: Promise<void> = run
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        if (this.#invalidating === over) this.#invalidating = undefined;
      });
    this.#invalidating = over;
    const response = await raceSignal(run, signal);
    if (response.status < 200 || response.status > 299) throw errorFromResponse(response, "Token invalidation failed");
    return true;
  }

  /**
   * `POST /oauth2/token` with `grant_type=client_credentials`. The document does not show the
   * response's field names; `access_token` (and `token_type`, checked when present) follow
   * RFC 6749 §5.1.
   */
  async #request(): Promise<string> {
    const response = await this.#post(this.#options.tokenPath ?? "/oauth2/token", { grant_type: "client_credentials" });
    if (response.status < 200 || response.status > 299) throw errorFromResponse(response, "Token request failed");
    const body = response.body;
    const record = body !== null && typeof body === "object" ? (body as Record<string, unknown>) : {};
    const token = record["access_token"];
    const type = record["token_type"];
    if (typeof token !== "string" || token === "") {
      throw new TokenResponseError("The token response has no access_token", response.status, body);
    }
    if (type !== undefined && (typeof type !== "string" || type.toLowerCase() !== "bearer")) {
      throw new TokenResponseError(`The token response has token_type ${JSON.stringify(type)}, not bearer`, response.status, body);
    }
    return token;
  }

  async #post(path: string, form: Record<string, string>) {
    const deadline = startDeadline(this.#options.timeoutMs ?? 30_000);
    const headers = new Headers({
      authorization: clientBasicAuthorization(this.#options.credentials),
      "content-type": FORM_URLENCODED,
      accept: "application/json",
    });
    if (this.#options.userAgent !== undefined) headers.set("user-agent", this.#options.userAgent);
    try {
      return await exchangeOnce(this.#fetch, {
        method: "POST",
        url: `${this.#options.baseUrl.replace(/\/+$/, "")}${path}`,
        headers,
        body: new URLSearchParams(form),
        signal: deadline.signal,
      });
    } catch (error) {
      throw deadline.explain(error);
    } finally {
      deadline.dispose();
    }
  }
}
