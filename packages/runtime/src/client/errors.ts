/**
 * Typed errors of the runtime. Each sets `name`, so they stay recognisable after crossing a
 * boundary where `instanceof` fails (two copies of the package, structured clone, logs).
 */

import type { SchemeKind, SecurityAlternatives } from "../shared/security.js";

/** The call took longer than its `timeoutMs`, counting every retry and the waits between them. */
export class TimeoutError extends Error {
  override readonly name = "TimeoutError";
  readonly timeoutMs: number;

  constructor(timeoutMs: number) {
    super(`Request timed out after ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/** The exchange failed below HTTP: DNS, refused or reset connection, TLS, a body cut short. */
export class NetworkError extends Error {
  override readonly name = "NetworkError";

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The auth configuration satisfies none of the alternatives an operation accepts. */
export class AuthConfigError extends Error {
  override readonly name = "AuthConfigError";
  /** The operation's security requirement, as given. */
  readonly accepted: SecurityAlternatives;

  constructor(accepted: SecurityAlternatives, detail?: string) {
    super(`${detail ?? "No configured credentials satisfy this operation"}; it accepts ${describeSecurity(accepted)}`);
    this.accepted = accepted;
  }
}

const SCHEME_LABEL: Readonly<Record<Exclude<SchemeKind, `apiKey:${string}`>, string>> = {
  bearer: "bearer (auth.bearer or auth.clientCredentials)",
  basic: "basic (auth.basic)",
  oauth1: "oauth1 (auth.oauth1)",
  appOnly: "appOnly (auth.clientCredentials or auth.bearer)",
  userToken: "userToken (auth.bearer)",
};

/** `bearer OR (oauth1 AND basic)` style text for error messages. */
export function describeSecurity(accepted: SecurityAlternatives): string {
  if (accepted.length === 0) return "no authentication";
  return accepted
    .map((all) => (all.length === 0 ? "no authentication" : all.map((s) => (s.startsWith("apiKey:") ? `${s} (auth.apiKey)` : SCHEME_LABEL[s as keyof typeof SCHEME_LABEL])).join(" AND ")))
    .join(" OR ");
}

/** One line of a newline-delimited JSON stream is not JSON (or is longer than allowed). */
export class StreamParseError extends Error {
  override readonly name = "StreamParseError";
  /** The offending line, without its line terminator (cut to 1000 characters when longer). */
  readonly line: string;
  /** 1-based, counting blank keep-alive lines. */
  readonly lineNumber: number;

  constructor(line: string, lineNumber: number, options?: { cause?: unknown; reason?: string }) {
    super(`${options?.reason ?? "Malformed JSON"} on stream line ${lineNumber}`, options);
    this.line = line.length > 1000 ? line.slice(0, 1000) : line;
    this.lineNumber = lineNumber;
  }
}

/** A stream connection ended without an error the server explained; the stream reconnects. */
export class StreamEndedError extends Error {
  override readonly name = "StreamEndedError";

  constructor() {
    super("The stream connection ended");
  }
}

/** An item that alone exceeds a batch's byte limit, so no chunking can send it. */
export class BatchItemTooLargeError extends Error {
  override readonly name = "BatchItemTooLargeError";
  /** Index of the item in the input. */
  readonly index: number;
  /** Serialized size of a chunk holding only this item. */
  readonly size: number;
  readonly maxBytes: number;

  constructor(index: number, size: number, maxBytes: number) {
    super(`Item ${index} serializes to ${size} bytes on its own, over the ${maxBytes}-byte limit`);
    this.index = index;
    this.size = size;
    this.maxBytes = maxBytes;
  }
}

/** A response the runtime itself had to understand (token endpoint, stream connect) was not a success. */
export class HttpStatusError extends Error {
  override readonly name = "HttpStatusError";
  readonly status: number;
  /** The parsed body (see `RawResponse.body`). */
  readonly body: unknown;
  readonly headers: Headers;

  constructor(message: string, status: number, body: unknown, headers: Headers) {
    super(`${message}: HTTP ${status}`);
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

/** A response declared JSON (or form-encoded) whose body does not parse as such. */
export class ResponseParseError extends Error {
  override readonly name = "ResponseParseError";
  readonly status: number;
  readonly contentType: string | undefined;
  /** The body as text. */
  readonly text: string;
  /** The response's headers, where the reader had them. */
  readonly headers: Headers | undefined;

  constructor(status: number, contentType: string | undefined, text: string, options?: { cause?: unknown; headers?: Headers }) {
    super(`Response body (HTTP ${status}, ${contentType ?? "no content type"}) is not valid for its content type`, options?.cause !== undefined ? { cause: options.cause } : undefined);
    this.status = status;
    this.contentType = contentType;
    this.text = text;
    this.headers = options?.headers;
  }
}

/** The token endpoint answered 2xx but not with a usable bearer token. */
export class TokenResponseError extends Error {
  override readonly name = "TokenResponseError";
  readonly status: number;
  readonly body: unknown;

  constructor(message: string, status: number, body: unknown) {
    super(message);
    this.status = status;
    this.body = body;
  }
}
