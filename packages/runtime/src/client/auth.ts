/**
 * Credentials and how they become request headers. The authenticator picks, per request, the first
 * alternative of the operation's security requirement that the configuration can satisfy.
 */

import { AppOnlyTokenCache, type ClientCredentials } from "./app-only-token.js";
import { AuthConfigError } from "./errors.js";
import { signOAuth1 } from "../oauth1/sign.js";
import { apiKeyPlacement, type SchemeKind, type SecurityAlternatives } from "../shared/security.js";

export type { SchemeKind, SecurityAlternatives } from "../shared/security.js";
export type { ClientCredentials } from "./app-only-token.js";

export interface BasicCredentials {
  readonly username: string;
  readonly password: string;
}

/** OAuth 1.0a client credentials, plus the access token once the 3-legged flow has produced one. */
export interface OAuth1Credentials {
  readonly consumerKey: string;
  readonly consumerSecret: string;
  /** @default undefined */
  readonly token?: string;
  /** @default undefined */
  readonly tokenSecret?: string;
}

/**
 * What the client may authenticate with. Give any subset; each operation uses the first of its
 * accepted schemes that is configured.
 */
export interface AuthConfig {
  /**
   * A bearer token (OAuth 2.0 user-context or app-only), or a function returning the current one,
   * called for every request so it can refresh tokens.
   * @default undefined
   */
  readonly bearer?: string | (() => string | Promise<string>);
  /** @default undefined */
  readonly basic?: BasicCredentials;
  /** @default undefined */
  readonly oauth1?: OAuth1Credentials;
  /**
   * API key and secret: the app-only bearer token is obtained from them and cached.
   * @default undefined
   */
  readonly clientCredentials?: ClientCredentials;
  /**
   * The key of API key schemes: one key for every such scheme, or keys by the name they travel
   * under (`{ "X-API-Key": "…" }`).
   * @default undefined
   */
  readonly apiKey?: string | Readonly<Record<string, string>>;
}

/** Per-request OAuth 1.0a parameters of the 3-legged flow's steps. */
export interface OAuth1RequestOptions {
  /** `oauth_callback` for the request-token step. @default undefined */
  readonly callback?: string;
  /** `oauth_verifier` for the access-token step. @default undefined */
  readonly verifier?: string;
  /** Replaces the configured token (the request token on the access-token step); `null` sends none. @default the configured token */
  readonly token?: string | null;
  /** Secret of `token`. @default the configured token secret */
  readonly tokenSecret?: string | null;
  /** @default undefined */
  readonly realm?: string;
}

export interface AuthorizeRequest {
  readonly method: string;
  /** The full URL, query included: OAuth 1.0a signs it. */
  readonly url: string;
  /** Form-encoded body parameters: OAuth 1.0a signs them. */
  readonly form?: URLSearchParams | undefined;
  /**
   * The operation's requirement. Undefined means "whatever is configured": the first of bearer,
   * oauth1, app-only and basic that is, or no authentication when none is.
   */
  readonly security?: SecurityAlternatives | undefined;
  readonly oauth1?: OAuth1RequestOptions | undefined;
  readonly signal?: AbortSignal | undefined;
}

export interface AppliedAuth {
  /** Headers to add to the request (empty when the chosen alternative needs none). */
  readonly headers: Readonly<Record<string, string>>;
  /** Query parameters to add (an API key that travels in the query). @default undefined */
  readonly query?: Readonly<Record<string, string>>;
  /** The scheme used, or undefined when the request goes without authentication. */
  readonly scheme: SchemeKind | undefined;
  /** The cached app-only token that was sent, so a 401 can drop exactly that token. */
  readonly appOnlyToken: string | undefined;
}

export interface AuthenticatorOptions {
  /** The API address: the app-only token endpoints live under it. */
  readonly baseUrl: string;
  /** @default globalThis.fetch */
  readonly fetch?: typeof fetch;
  /**
   * Time limit of token requests, in milliseconds.
   * @default 30_000
   */
  readonly timeoutMs?: number;
  /** @default undefined */
  readonly userAgent?: string;
}

const NONE: AppliedAuth = { headers: {}, scheme: undefined, appOnlyToken: undefined };

export class Authenticator {
  readonly #config: AuthConfig;
  readonly #appOnly: AppOnlyTokenCache | undefined;

  constructor(config: AuthConfig, options: AuthenticatorOptions) {
    this.#config = config;
    if (config.basic?.username.includes(":")) {
      // RFC 7617 §2: the user-id cannot contain a colon; the header would be misread.
      throw new TypeError("auth.basic.username may not contain ':'");
    }
    this.#appOnly = config.clientCredentials
      ? new AppOnlyTokenCache({
          baseUrl: options.baseUrl,
          credentials: config.clientCredentials,
          ...(options.fetch ? { fetch: options.fetch } : {}),
          ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
          ...(options.userAgent !== undefined ? { userAgent: options.userAgent } : {}),
        })
      : undefined;
  }

  /** Whether the configuration can produce credentials for one scheme. */
  satisfies(scheme: SchemeKind): boolean {
    const c = this.#config;
    const key = apiKeyPlacement(scheme);
    if (key) return this.#apiKey(key.name) !== undefined;
    switch (scheme) {
      case "bearer":
        return c.bearer !== undefined || c.clientCredentials !== undefined;
      case "userToken":
        return c.bearer !== undefined;
      case "appOnly":
        return c.clientCredentials !== undefined || c.bearer !== undefined;
      case "basic":
        return c.basic !== undefined;
      case "oauth1":
        return c.oauth1 !== undefined;
      default:
        return false;
    }
  }

  #apiKey(name: string): string | undefined {
    const k = this.#config.apiKey;
    if (k === undefined) return undefined;
    if (typeof k === "string") return k;
    // Header names are case-insensitive: `x-api-key` names `X-API-Key`.
    return Object.prototype.hasOwnProperty.call(k, name) ? k[name] : Object.entries(k).find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
  }

  /**
   * The scheme this configuration uses for a requirement: undefined for no authentication, or
   * throws `AuthConfigError` when no alternative can be met. Each scheme writes the
   * `Authorization` header, so an alternative that requires two different schemes at once cannot
   * be met.
   */
  select(security: SecurityAlternatives | undefined): SchemeKind | undefined {
    if (security === undefined) {
      return (["bearer", "oauth1", "appOnly", "basic"] as const).find((s) => this.satisfies(s));
    }
    if (security.length === 0) return undefined;
    for (const alternative of security) {
      const schemes = [...new Set(alternative)];
      if (schemes.length === 0) return undefined;
      if (schemes.length === 1 && this.satisfies(schemes[0] as SchemeKind)) return schemes[0];
    }
    throw new AuthConfigError(security, `No configured credentials (configured: ${this.#configured()}) satisfy this operation`);
  }

  /** The headers that authenticate one request. */
  async authorize(request: AuthorizeRequest): Promise<AppliedAuth> {
    const scheme = this.select(request.security);
    const c = this.#config;
    const key = scheme === undefined ? undefined : apiKeyPlacement(scheme);
    if (key) {
      const value = this.#apiKey(key.name) as string;
      if (key.in === "query") return { headers: {}, query: { [key.name]: value }, scheme, appOnlyToken: undefined };
      if (key.in === "cookie") return { headers: { cookie: `${key.name}=${encodeURIComponent(value)}` }, scheme, appOnlyToken: undefined };
      return { headers: { [key.name.toLowerCase()]: value }, scheme, appOnlyToken: undefined };
    }
    switch (scheme) {
      case undefined:
        return NONE;
      case "basic": {
        const { username, password } = c.basic as BasicCredentials;
        const encoded = Buffer.from(`${username}:${password}`, "utf8").toString("base64");
        return { headers: { authorization: `Basic ${encoded}` }, scheme, appOnlyToken: undefined };
      }
      case "oauth1":
        return { headers: { authorization: this.#oauth1(request) }, scheme, appOnlyToken: undefined };
      case "userToken":
        return this.#given(scheme, request.security);
      case "bearer":
        return c.bearer !== undefined ? this.#given(scheme, request.security) : this.#fetched(scheme, request.signal);
      case "appOnly":
        return this.#appOnly ? this.#fetched(scheme, request.signal) : this.#given(scheme, request.security);
      default:
        return NONE;
    }
  }

  /** The app-only bearer token (cached, or obtained with the client credentials). */
  appOnlyToken(signal?: AbortSignal): Promise<string> {
    return this.#requireAppOnly().get(signal);
  }

  /**
   * Revokes the cached app-only token at the server and clears the cache; the next request obtains
   * a new token. Resolves to false when no token was cached.
   */
  invalidate(signal?: AbortSignal): Promise<boolean> {
    return this.#requireAppOnly().invalidate(signal);
  }

  /** Forgets the cached app-only token without revoking it (the transport does this after a 401). */
  dropAppOnlyToken(token?: string): void {
    this.#appOnly?.drop(token);
  }

  #requireAppOnly(): AppOnlyTokenCache {
    if (!this.#appOnly) {
      throw new AuthConfigError([["appOnly"]], "The app-only token needs auth.clientCredentials, which is not configured");
    }
    return this.#appOnly;
  }

  #configured(): string {
    const names = (["bearer", "basic", "oauth1", "clientCredentials", "apiKey"] as const).filter((k) => this.#config[k] !== undefined);
    return names.length === 0 ? "none" : names.join(", ");
  }

  async #given(scheme: SchemeKind, security: SecurityAlternatives | undefined): Promise<AppliedAuth> {
    const { bearer } = this.#config;
    const token = typeof bearer === "function" ? await bearer() : bearer;
    if (typeof token !== "string" || token === "") {
      throw new AuthConfigError(security ?? [[scheme]], "auth.bearer gave an empty token");
    }
    return { headers: { authorization: `Bearer ${token}` }, scheme, appOnlyToken: undefined };
  }

  async #fetched(scheme: SchemeKind, signal: AbortSignal | undefined): Promise<AppliedAuth> {
    const token = await this.#requireAppOnly().get(signal);
    return { headers: { authorization: `Bearer ${token}` }, scheme, appOnlyToken: token };
  }

  #oauth1(request: AuthorizeRequest): string {
    const creds = this.#config.oauth1 as OAuth1Credentials;
    const extra = request.oauth1 ?? {};
    const token = extra.token === undefined ? creds.token : (extra.token ?? undefined);
    const tokenSecret = extra.tokenSecret === undefined ? creds.tokenSecret : (extra.tokenSecret ?? undefined);
    return signOAuth1({
      method: request.method,
      url: request.url,
      consumerKey: creds.consumerKey,
      consumerSecret: creds.consumerSecret,
      ...(request.form ? { form: request.form } : {}),
      ...(token !== undefined ? { token } : {}),
      ...(tokenSecret !== undefined ? { tokenSecret } : {}),
      ...(extra.callback !== undefined ? { callback: extra.callback } : {}),
      ...(extra.verifier !== undefined ? { verifier: extra.verifier } : {}),
      ...(extra.realm !== undefined ? { realm: extra.realm } : {}),
    }).authorization;
  }
}
