/**
 * The HTTP transport generated clients call: builds the URL and body, authenticates each attempt,
 * retries per the retry policy, enforces the call's deadline, and parses the answer. It never throws
 * for an HTTP status: mapping statuses to results and problems is the generated client's job.
 */

import { Authenticator, type AuthConfig, type AppliedAuth, type OAuth1RequestOptions } from "./auth.js";
import { encodeBody, type EncodedBody, type RawResponse } from "./body.js";
import { NetworkError } from "./errors.js";
import { readBody, sendRequest } from "./http.js";
import { isIdempotent, resolveRetryOptions, retryDelay, type ResolvedRetryOptions, type RetryOptions } from "./retry.js";
import type { SecurityAlternatives } from "../shared/security.js";
import { startDeadline } from "./signals.js";
import { buildUrl, type PathParams, type QueryParam } from "./url.js";

export type { RawResponse } from "./body.js";

export type HttpMethod = "GET" | "HEAD" | "OPTIONS" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RequestSpec {
  readonly method: HttpMethod | Lowercase<HttpMethod>;
  /** Path template relative to the base URL, e.g. `/2/posts/{id}`. */
  readonly path: string;
  /** Values for the template's placeholders, percent-encoded on the way in. @default undefined */
  readonly pathParams?: PathParams | undefined;
  /** Query parameters in the order to send them. @default undefined */
  readonly query?: readonly QueryParam[] | undefined;
  /** Headers of this request; auth headers take precedence over them. @default undefined */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** The body, encoded by `contentType` (see `encodeBody`). @default undefined */
  readonly body?: unknown;
  /** @default inferred from the body: JSON for plain values */
  readonly contentType?: string | undefined;
  /** The operation's security requirement. @default undefined: whatever credentials are configured */
  readonly security?: SecurityAlternatives | undefined;
  /** OAuth 1.0a parameters of the 3-legged flow's steps. @default undefined */
  readonly oauth1?: OAuth1RequestOptions | undefined;
  /** Aborts the call, retries and waits included. @default undefined */
  readonly signal?: AbortSignal | undefined;
  /** Limit for the whole call, retries and waits included; `Infinity` for none. @default the transport's timeoutMs */
  readonly timeoutMs?: number | undefined;
  /** Whether repeating the request is safe, overriding the method's default. @default by method */
  readonly idempotent?: boolean | undefined;
}

export interface TransportOptions {
  /** The API address, e.g. `https://api.example.com`; request paths are appended to it. */
  readonly baseUrl: string;
  /** @default {} (no credentials) */
  readonly auth?: AuthConfig;
  /** Retry policy, or `false` to never retry. @default {} (the RetryOptions defaults) */
  readonly retry?: RetryOptions | false;
  /**
   * Default limit of one call, retries and waits included, in milliseconds; `Infinity` for none.
   * @default 30_000
   */
  readonly timeoutMs?: number;
  /** @default globalThis.fetch */
  readonly fetch?: typeof fetch;
  /** Headers sent with every request. @default {} */
  readonly headers?: Readonly<Record<string, string>>;
  /** `User-Agent` of every request. @default fetch's own */
  readonly userAgent?: string;
}

export interface Transport {
  /** Sends a request and resolves with the parsed response, whatever its status. */
  request(spec: RequestSpec): Promise<RawResponse>;
  /**
   * Sends a request once (no retries) and resolves with the unread fetch `Response` as soon as its
   * head arrives; for streams. The timeout covers only the wait for the head.
   */
  open(spec: RequestSpec): Promise<Response>;
  /** The URL a spec addresses. */
  url(spec: Pick<RequestSpec, "path" | "pathParams" | "query">): string;
  readonly auth: Authenticator;
  readonly baseUrl: string;
}

interface Prepared {
  readonly method: string;
  readonly url: string;
  readonly encoded: EncodedBody;
  readonly spec: RequestSpec;
}

export function createTransport(options: TransportOptions): Transport {
  const fetchFn = options.fetch ?? globalThis.fetch;
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const defaultTimeout = options.timeoutMs ?? 30_000;
  const retry: ResolvedRetryOptions | undefined = options.retry === false ? undefined : resolveRetryOptions(options.retry);
  const auth = new Authenticator(options.auth ?? {}, {
    baseUrl,
    fetch: fetchFn,
    timeoutMs: defaultTimeout,
    ...(options.userAgent !== undefined ? { userAgent: options.userAgent } : {}),
  });

  const urlOf = (spec: Pick<RequestSpec, "path" | "pathParams" | "query">): string => buildUrl(baseUrl, spec.path, spec.pathParams, spec.query);

  const prepare = (spec: RequestSpec): Prepared => ({
    method: spec.method.toUpperCase(),
    url: urlOf(spec),
    encoded: encodeBody(spec.body, spec.contentType),
    spec,
  });

  function headersFor(p: Prepared, applied: AppliedAuth): Headers {
    const headers = new Headers(options.headers);
    if (options.userAgent !== undefined) headers.set("user-agent", options.userAgent);
    for (const [name, value] of Object.entries(p.spec.headers ?? {})) headers.set(name, value);
    if (p.encoded.contentType !== undefined) headers.set("content-type", p.encoded.contentType);
    // multipart: fetch must write the Content-Type with its own boundary.
    else if (p.encoded.body instanceof FormData) headers.delete("content-type");
    for (const [name, value] of Object.entries(applied.headers)) headers.set(name, value);
    return headers;
  }

  /**
   * One authenticated exchange. Auth is computed per attempt: an OAuth 1.0a signature needs a fresh
   * nonce and timestamp each time. A 401 to a cached app-only token drops that token and tries once
   * more with a fresh one; that repeat is safe for any method, since the server refused the first
   * request before acting on it.
   */
  async function attempt(p: Prepared, signal: AbortSignal): Promise<Response> {
    let refreshed = false;
    for (;;) {
      const applied = await auth.authorize({
        method: p.method,
        url: p.url,
        form: p.encoded.form,
        security: p.spec.security,
        oauth1: p.spec.oauth1,
        signal,
      });
      const response = await sendRequest(fetchFn, {
        method: p.method,
        url: withQuery(p.url, applied.query),
        headers: headersFor(p, applied),
        body: p.encoded.body,
        signal,
      });
      if (response.status !== 401 || applied.appOnlyToken === undefined || refreshed) return response;
      await response.body?.cancel();
      auth.dropAppOnlyToken(applied.appOnlyToken);
      refreshed = true;
    }
  }

  async function request(spec: RequestSpec): Promise<RawResponse> {
    const p = prepare(spec);
    const idempotent = spec.idempotent ?? isIdempotent(p.method);
    const policy = retry && (idempotent || retry.retryNonIdempotent) ? retry : undefined;
    const deadline = startDeadline(spec.timeoutMs ?? defaultTimeout, spec.signal);
    try {
      for (let n = 0; ; n++) {
        const canRetry = policy !== undefined && n < policy.retries;
        let response: RawResponse;
        try {
          response = await readBody(await attempt(p, deadline.signal), { method: p.method, url: p.url, signal: deadline.signal });
        } catch (error) {
          // Only failures below HTTP are retried: aborts, timeouts and config errors are final.
          if (!canRetry || deadline.signal.aborted || !(error instanceof NetworkError)) throw error;
          if (!idempotent && policy.retryNetworkErrors === "idempotent") throw error;
          await policy.sleep(retryDelay(n, policy), deadline.signal);
          continue;
        }
        if (!canRetry || !policy.retryOn.includes(response.status)) return response;
        await policy.sleep(retryDelay(n, policy, response.headers), deadline.signal);
      }
    } catch (error) {
      throw deadline.explain(error);
    } finally {
      deadline.dispose();
    }
  }

  async function open(spec: RequestSpec): Promise<Response> {
    const p = prepare(spec);
    const deadline = startDeadline(spec.timeoutMs ?? defaultTimeout, spec.signal);
    // The stream must outlive the head's deadline, yet still end when the caller aborts; so this
    // listener stays on the caller's signal for the life of the stream.
    const body = new AbortController();
    const onAbort = (): void => body.abort(spec.signal?.reason);
    if (spec.signal?.aborted) body.abort(spec.signal.reason);
    spec.signal?.addEventListener("abort", onAbort, { once: true });
    const onDeadline = (): void => {
      if (!body.signal.aborted) body.abort(deadline.signal.reason);
    };
    deadline.signal.addEventListener("abort", onDeadline, { once: true });
    try {
      const response = await attempt(p, body.signal);
      deadline.signal.removeEventListener("abort", onDeadline);
      return response;
    } catch (error) {
      spec.signal?.removeEventListener("abort", onAbort);
      throw deadline.explain(error);
    } finally {
      deadline.dispose();
    }
  }

  return { request, open, url: urlOf, auth, baseUrl };
}

/** `url` with an API key that travels in the query appended (encoded like any query value). */
function withQuery(url: string, query: Readonly<Record<string, string>> | undefined): string {
  if (query === undefined) return url;
  const extra = Object.entries(query)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join("&");
  return extra === "" ? url : `${url}${url.includes("?") ? "&" : "?"}${extra}`;
}
