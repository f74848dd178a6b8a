/**
 * Errors as text an assistant can act on. The typed errors of the runtime and of generated packages
 * (problems, the legacy envelope, error-response classes, transport and auth errors) each say what
 * happened and what to change. Errors are recognised by `name` as well as by class, so two copies of
 * the runtime (a package and its consumer) still describe each other's errors.
 */
import { describeSecurity } from "../client/errors.js";
import type { McpToolSpec } from "./tools.js";
import { ApiError, Problem, ResponseError, reasonPhrase } from "../shared/problem.js";
import type { SchemeKind } from "../shared/security.js";
import type { SecurityAlternatives } from "../shared/security.js";

/** What the caller can do about the legacy error codes the contracts name. */
const CODE_HINTS: Readonly<Record<number, string>> = {
  [ApiError.INVALID_OR_EXPIRED_TOKEN]: "the access token is invalid or expired: obtain a new token and restart the MCP server with it (or send it with the request over HTTP)",
  [ApiError.TOKEN_REQUESTED_TOO_OFTEN]: "a bearer token was requested too often: wait before calling again, and reuse the cached token",
};

const STATUS_HINTS: Readonly<Record<number, string>> = {
  400: "change the arguments the message names",
  401: "the credentials were refused: check the token or keys the server was started with",
  403: "the credentials lack permission for this operation",
  404: "nothing exists under the identifiers given: check them (a search or list tool can find valid ones)",
  409: "the resource is not in a state that allows this: read it first",
  413: "the request is too large: send fewer items",
  422: "the values are well-formed but not acceptable: change the ones the message names",
  429: "rate limited: wait before calling again",
  501: "the API does not implement this operation: use another tool",
};

const statusHint = (status: number | undefined): string | undefined =>
  status === undefined ? undefined : (STATUS_HINTS[status] ?? (status >= 500 ? "the API failed on its side: try again later" : undefined));

function isNamed(err: unknown, name: string): err is Error & Record<string, unknown> {
  return err instanceof Error && err.name === name;
}

/** The variables (after `<PREFIX>_`) that give a scheme its credentials (see mcp-auth.ts). */
function variablesFor(kind: SchemeKind, prefix: string): string {
  const v = (...names: string[]): string => names.map((n) => `${prefix}_${n}`).join(", ");
  switch (kind) {
    case "bearer":
    case "userToken":
      return v("BEARER_TOKEN");
    case "appOnly":
      return `${v("API_KEY", "API_SECRET")} (or ${v("BEARER_TOKEN")})`;
    case "basic":
      return `${v("USERNAME", "PASSWORD")} (or ${v("API_KEY", "API_SECRET")})`;
    case "oauth1":
      return v("API_KEY", "API_SECRET", "ACCESS_TOKEN", "ACCESS_TOKEN_SECRET");
    default:
      return v("API_KEY");
  }
}

/** One text for any error a tool call can meet. */
export function describeToolError(tool: McpToolSpec, err: unknown, envPrefix?: string): string {
  const head = `${tool.name} (${tool.httpMethod} ${tool.path})`;
  if (err instanceof ApiError || isNamed(err, "ApiError")) {
    const e = err as ApiError;
    const hints = e.errors.map((x) => CODE_HINTS[x.code]).filter((h): h is string => h !== undefined);
    const hint = hints[0] ?? statusHint(e.status);
    return `${head} failed${e.status !== undefined ? ` with HTTP ${e.status}` : ""}: ${e.errors.map((x) => `code ${x.code}: ${x.message}`).join("; ")}.${hint ? ` What to do: ${hint}.` : ""}`;
  }
  if (err instanceof Problem || (err instanceof Error && typeof (err as { toJSON?: unknown }).toJSON === "function" && "type" in err && "title" in err)) {
    const p = err as Problem;
    const body = p.toJSON();
    const hint = statusHint(p.status);
    return `${head} failed with problem ${p.name} (HTTP ${p.status ?? "?"}): ${p.title}${p.detail ? `: ${p.detail}` : ""}.${hint ? ` What to do: ${hint}.` : ""}\n${JSON.stringify(body)}`;
  }
  if (err instanceof ResponseError || isNamed(err, "ResponseError") || (err instanceof Error && typeof (err as { status?: unknown }).status === "number" && "body" in err)) {
    const e = err as ResponseError;
    const hint = statusHint(e.status);
    const message = e.message.startsWith("HTTP ") ? "" : ` ${e.message}.`;
    return `${head} failed with HTTP ${e.status}${reasonPhrase(e.status) ? ` ${reasonPhrase(e.status)}` : ""}.${message}${hint ? ` What to do: ${hint}.` : ""}${e.body !== undefined ? `\n${JSON.stringify(e.body)}` : ""}`;
  }
  if (isNamed(err, "AuthConfigError")) {
    const accepted = (err as { accepted?: SecurityAlternatives }).accepted ?? tool.security;
    const how = envPrefix !== undefined ? accepted.map((all) => all.map((k) => variablesFor(k, envPrefix)).join(" and ")).join(", or ") : undefined;
    return `${head} needs credentials the MCP server was not given: it accepts ${describeSecurity(accepted)}. ${how ? `Restart the server with ${how}` : "Restart the server with the matching credentials"} (environment variables, or the matching flags of contractgen mcp).`;
  }
  if (isNamed(err, "TimeoutError")) return `${head} timed out: ${err instanceof Error ? err.message : ""}. Try again, or ask for less.`;
  if (isNamed(err, "NetworkError")) return `${head} could not reach the API: ${err instanceof Error ? err.message : ""}. Check the base URL the server was started with and that the API is up.`;
  if (err instanceof Error) return `${head} failed before an answer arrived: ${err.name}: ${err.message}. Check the arguments against the tool's input schema.`;
  return `${head} failed: ${String(err)}.`;
}
