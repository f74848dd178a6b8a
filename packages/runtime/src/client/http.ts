/** One HTTP exchange over fetch, with failures mapped to the runtime's typed errors. */

import { readResponse, type EncodedBody, type RawResponse } from "./body.js";
import { NetworkError, ResponseParseError } from "./errors.js";

export interface Exchange {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  readonly body?: EncodedBody["body"];
  readonly signal: AbortSignal;
}

/** Origin and path only: query strings may carry secrets that do not belong in error messages. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return "(invalid URL)";
  }
}

/**
 * Sends the request and resolves with the response head. A failure that is not an abort becomes a
 * `NetworkError`; aborts are rethrown as they are, for the caller's deadline to explain.
 */
export async function sendRequest(fetchFn: typeof fetch, exchange: Exchange): Promise<Response> {
  try {
    return await fetchFn(exchange.url, {
      method: exchange.method,
      headers: exchange.headers,
      body: exchange.body ?? null,
      signal: exchange.signal,
    });
  } catch (cause) {
    if (exchange.signal.aborted) throw cause;
    throw new NetworkError(`${exchange.method} ${describeUrl(exchange.url)} failed`, { cause });
  }
}

/** Reads the whole body. A connection lost mid-body is a `NetworkError`; aborts are rethrown as they are. */
export async function readBody(response: Response, exchange: Pick<Exchange, "method" | "url" | "signal">): Promise<RawResponse> {
  try {
    return await readResponse(response, exchange.method);
  } catch (cause) {
    if (exchange.signal.aborted || cause instanceof ResponseParseError) throw cause;
    throw new NetworkError(`Reading the response of ${exchange.method} ${describeUrl(exchange.url)} failed`, { cause });
  }
}

/** Sends the request and reads the whole body. */
export async function exchangeOnce(fetchFn: typeof fetch, exchange: Exchange): Promise<RawResponse> {
  return readBody(await sendRequest(fetchFn, exchange), exchange);
}
