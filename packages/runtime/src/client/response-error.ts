/** Turning an unsuccessful answer to a runtime-initiated request into the most specific error. */

import { mediaType, type RawResponse } from "./body.js";
import { HttpStatusError } from "./errors.js";
import { ApiError, Problem, readLegacyErrors, readProblem } from "../shared/problem.js";

/**
 * The error for a non-2xx answer: `ApiError` for the legacy `{errors:[{code,message}]}` envelope
 * (the token endpoint's 403 code 99), a base `Problem` for `application/problem+json`, else an
 * `HttpStatusError` carrying the parsed body.
 */
export function errorFromResponse(response: RawResponse, what: string): Error {
  const legacy = readLegacyErrors(response.body);
  if (legacy) return new ApiError(legacy, response.status);
  if (mediaType(response.contentType) === "application/problem+json") {
    return new Problem(readProblem(response.body, response.status));
  }
  return new HttpStatusError(what, response.status, response.body, response.headers);
}
