/**
 * Test harness: an in-process mock server and a request helper that signs like a client does
 * (OAuth 1.0a over the exact URL sent, Basic, bearer), through `app.inject`.
 */
import { signOAuth1 } from "@contractgen/runtime";
import type { FastifyInstance } from "fastify";
import { createMockServer, type MockCredentials, type MockServerOptions, type MockState } from "../../src/index.js";

export type Auth =
  | { readonly oauth1: { readonly token?: string; readonly tokenSecret?: string; readonly consumerKey?: string; readonly consumerSecret?: string } }
  | { readonly bearer: string }
  | { readonly basic: readonly [string, string] }
  | "user"
  | "none";

export type QueryValue = string | number | boolean | readonly (string | number)[] | undefined;

export interface CallOptions {
  readonly query?: Readonly<Record<string, QueryValue>>;
  /** A JSON body. */
  readonly body?: unknown;
  /** A form-encoded body (signed with OAuth 1.0a, as RFC 5849 asks). */
  readonly form?: Readonly<Record<string, string>>;
  /** @default "user" (OAuth 1.0a with the fixed access token) */
  readonly auth?: Auth;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | number | undefined>;
  readonly text: string;
  // Test convenience: bodies are read with deep paths and checked with matchers.
  readonly body: any;
}

export interface Harness {
  readonly app: FastifyInstance;
  readonly state: MockState;
  readonly credentials: MockCredentials;
  call(method: string, path: string, options?: CallOptions): Promise<Answer>;
}

export function queryString(query: Readonly<Record<string, QueryValue>> | undefined): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined) continue;
    params.append(k, Array.isArray(v) ? v.join(",") : String(v));
  }
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
}

export async function harness(options: MockServerOptions = {}): Promise<Harness> {
  const { app, state, credentials } = await createMockServer(options);
  const call = async (method: string, path: string, o: CallOptions = {}): Promise<Answer> => {
    const url = `${path}${queryString(o.query)}`;
    const headers: Record<string, string> = { host: "localhost:80", ...(o.headers ?? {}) };
    let payload: string | undefined;
    if (o.form) {
      payload = new URLSearchParams(o.form).toString();
      headers["content-type"] = "application/x-www-form-urlencoded";
    } else if (o.body !== undefined) {
      payload = JSON.stringify(o.body);
      headers["content-type"] = "application/json";
    }
    const auth = o.auth ?? "user";
    if (auth === "user" || (typeof auth === "object" && "oauth1" in auth)) {
      const c = auth === "user" ? { token: credentials.accessToken, tokenSecret: credentials.accessTokenSecret } : auth.oauth1;
      headers["authorization"] = signOAuth1({
        method,
        url: `http://localhost:80${url}`,
        ...(o.form ? { form: o.form } : {}),
        consumerKey: c.consumerKey ?? credentials.apiKey,
        consumerSecret: c.consumerSecret ?? credentials.apiSecret,
        ...(c.token !== undefined ? { token: c.token } : {}),
        ...(c.tokenSecret !== undefined ? { tokenSecret: c.tokenSecret } : {}),
      }).authorization;
    } else if (typeof auth === "object" && "bearer" in auth) {
      headers["authorization"] = `Bearer ${auth.bearer}`;
    } else if (typeof auth === "object" && "basic" in auth) {
      headers["authorization"] = `Basic ${Buffer.from(`${auth.basic[0]}:${auth.basic[1]}`).toString("base64")}`;
    }
    const res = await app.inject({ method: method as "GET", url, headers, ...(payload !== undefined ? { payload } : {}) });
    let body: unknown = undefined;
    try {
      body = res.body === "" ? undefined : JSON.parse(res.body);
    } catch {
      body = res.body;
    }
    return { status: res.statusCode, headers: res.headers, text: res.body, body };
  };
  return { app, state, credentials, call };
}
