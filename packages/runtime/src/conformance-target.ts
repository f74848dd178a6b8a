/**
 * Which server a conformance suite checks. The runtime knows no particular server: the target is
 * `CONTRACT_BASE_URL` (with `CONTRACT_AUTH` and `CONTRACT_DESTRUCTIVE`), or a module named by
 * `CONTRACT_TARGET` that starts one and says how to authenticate against it (a workspace points this
 * at its mock server).
 */
import type { AuthConfig } from "./auth.js";

export interface ConformanceTarget {
  readonly baseUrl: string;
  readonly auth: AuthConfig;
  /** State scenarios may change data (delete objects, invalidate tokens). */
  readonly destructive: boolean;
  readonly close?: () => Promise<void>;
}

/** What a `CONTRACT_TARGET` module exports. */
export interface ConformanceTargetModule {
  startTarget(): Promise<ConformanceTarget>;
}

function parseAuth(text: string | undefined): AuthConfig {
  if (text === undefined || text === "") return {};
  try {
    return JSON.parse(text) as AuthConfig;
  } catch (err) {
    throw new Error(`CONTRACT_AUTH is not JSON (${(err as Error).message}): give the client's auth option, e.g. {"bearer":"…"}`);
  }
}

export async function resolveTarget(env: Readonly<Record<string, string | undefined>> = process.env): Promise<ConformanceTarget> {
  const baseUrl = env["CONTRACT_BASE_URL"];
  if (baseUrl) return { baseUrl, auth: parseAuth(env["CONTRACT_AUTH"]), destructive: env["CONTRACT_DESTRUCTIVE"] === "1" };
  const name = env["CONTRACT_TARGET"];
  if (!name) {
    throw new Error("no server to test: set CONTRACT_BASE_URL (contractgen test --base-url <url>) or CONTRACT_TARGET (a module exporting startTarget())");
  }
  // Loaded by name at run time so the runtime depends on no server.
  const mod = (await import(name)) as Partial<ConformanceTargetModule>;
  if (typeof mod.startTarget !== "function") throw new Error(`CONTRACT_TARGET module ${name} exports no startTarget()`);
  return mod.startTarget();
}
