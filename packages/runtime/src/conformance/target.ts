/**
 * Which server a conformance suite checks. The runtime knows no particular server: the target is
 * `CONTRACT_BASE_URL` (with `CONTRACT_AUTH` and `CONTRACT_DESTRUCTIVE`), or a module named by
 * `CONTRACT_TARGET` that starts one and says how to authenticate against it (a workspace points this
 * at its mock server).
 */
import type { AuthConfig } from "../client/auth.js";

export interface ConformanceTarget {
  readonly baseUrl: string;
  readonly auth: AuthConfig;
  /** State scenarios may change data (delete objects, invalidate tokens). */
  readonly destructive: boolean;
  /**
   * The server's quotas were fresh when the run started and only this run uses them: the stated
   * rate limits may be driven to their end (CONTRACT_RATE_LIMITS=1, contractgen test --rate-limits).
   */
  readonly rateLimits?: boolean;
  /**
   * Parameter values to use where the contract gives no way to discover one (a path id no list
   * operation returns): parameter name → value.
   */
  readonly values?: Readonly<Record<string, unknown>>;
  /**
   * The server's data is throw-away (a fresh test server): where the contract cannot make an object
   * for a case that deletes one, a listed object may be deleted (CONTRACT_DISPOSABLE=1,
   * contractgen test --disposable). @default false
   */
  readonly disposable?: boolean;
  /**
   * Base URLs of the other contracts a workflow's steps call, by the name of their Arazzo source
   * description (CONTRACT_SOURCES, contractgen test --source core=<url>). A workflow calling a source
   * not given here is skipped, naming the flag: sent to the wrong server its steps would fail for nothing.
   */
  readonly sources?: Readonly<Record<string, string>>;
  readonly close?: () => Promise<void>;
}

/** What a `CONTRACT_TARGET` module exports. */
export interface ConformanceTargetModule {
  startTarget(): Promise<ConformanceTarget>;
}

/**
 * The JSON object an environment variable holds, or undefined when it is unset or empty; an error
 * naming the variable and what to give (`what`, with an example) otherwise.
 */
function parseObject<T>(name: string, text: string | undefined, what: string, fits: (v: object) => boolean = () => true): Record<string, T> | undefined {
  if (text === undefined || text === "") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new Error(`${name} is not JSON (${(err as Error).message}): give ${what}`, { cause: err });
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed) || !fits(parsed)) throw new Error(`${name} must be a JSON object of ${what}`);
  return parsed as Record<string, T>;
}

const parseValues = (text: string | undefined): Record<string, unknown> | undefined => parseObject<unknown>("CONTRACT_VALUES", text, 'parameter names and values, e.g. {"account_id":"18ce54d4x5t"}');

const parseSources = (text: string | undefined): Record<string, string> | undefined =>
  parseObject<string>("CONTRACT_SOURCES", text, 'source names and base URLs, e.g. {"core":"http://127.0.0.1:8080"}', (v) => Object.values(v).every((x) => typeof x === "string"));

function parseAuth(text: string | undefined): AuthConfig {
  if (text === undefined || text === "") return {};
  try {
    return JSON.parse(text) as AuthConfig;
  } catch (err) {
    throw new Error(`CONTRACT_AUTH is not JSON (${(err as Error).message}): give the client's auth option, e.g. {"bearer":"…"}`, { cause: err });
  }
}

export async function resolveTarget(env: Readonly<Record<string, string | undefined>> = process.env): Promise<ConformanceTarget> {
  const baseUrl = env["CONTRACT_BASE_URL"];
  const values = parseValues(env["CONTRACT_VALUES"]);
  const rateLimits = env["CONTRACT_RATE_LIMITS"] === "1";
  const disposable = env["CONTRACT_DISPOSABLE"] === "1";
  const sources = parseSources(env["CONTRACT_SOURCES"]);
  if (baseUrl)
    return {
      baseUrl,
      auth: parseAuth(env["CONTRACT_AUTH"]),
      destructive: env["CONTRACT_DESTRUCTIVE"] === "1",
      ...(rateLimits ? { rateLimits } : {}),
      ...(disposable ? { disposable } : {}),
      ...(values ? { values } : {}),
      ...(sources ? { sources } : {}),
    };
  const name = env["CONTRACT_TARGET"];
  if (!name) {
    throw new Error("no server to test: set CONTRACT_BASE_URL (contractgen test --base-url <url>) or CONTRACT_TARGET (a module exporting startTarget())");
  }
  // Loaded by name at run time so the runtime depends on no server.
  const mod = (await import(name)) as Partial<ConformanceTargetModule>;
  if (typeof mod.startTarget !== "function") throw new Error(`CONTRACT_TARGET module ${name} exports no startTarget()`);
  const started = { ...(await mod.startTarget()), ...(rateLimits ? { rateLimits } : {}), ...(disposable ? { disposable } : {}), ...(sources ? { sources } : {}) };
  // Values given by hand win over the ones the target module knows.
  return values ? { ...started, values: { ...(started.values ?? {}), ...values } } : started;
}
