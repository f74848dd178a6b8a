/**
 * What a generated server does with one request, apart from any HTTP framework: authenticate per
 * the route's security alternatives, validate with the precompiled validators, call the handler,
 * answer in the contract's shapes (and check the reply in development). The Fastify plugin
 * (server.ts) and the generated MSW handlers (`./msw`) both answer through `answerRequest`, so a
 * request is judged the same way whichever of them receives it.
 */
import { parseOAuth1Authorization, verifyOAuth1, type NonceStore } from "../oauth1/index.js";
import { reasonPhrase } from "../shared/problem.js";
import { apiKeyPlacement, type SchemeKind, type SecurityAlternatives } from "../shared/security.js";
import type { RequestInput, RequestValidation, ResponseValidation } from "../shared/validation.js";
import { own, setOwn } from "../shared/own.js";

export interface RouteSpec {
  readonly id: string;
  readonly method: string;
  /** OpenAPI path template, `/2/posts/{id}`. */
  readonly path: string;
  readonly security?: SecurityAlternatives;
  /** Largest accepted body in bytes (`x-limits` bodyBytes). @default Fastify's 1 MiB */
  readonly bodyLimit?: number;
  readonly deprecated?: { readonly at?: string; readonly sunset?: string; readonly replacedByPath?: string };
  /** What the contract leaves unshown: said in the 501 answer of an unimplemented handler. */
  readonly unspecified?: string;
  /**
   * OAuth 1.0a protocol parameters the contract lists as query parameters (`oauth_callback`,
   * `oauth_verifier` …). RFC 5849 lets a client send them in the Authorization header instead, as
   * generated clients do; a value found there satisfies the declared parameter.
   */
  readonly oauthParams?: readonly string[];
}

/** Who made the request, as the verifier that accepted it says. */
export interface AuthContext {
  readonly scheme: SchemeKind;
  /** Whatever the verifier returned for the credentials (a user, an app, a token record). */
  readonly principal: unknown;
  /** The raw credential: the bearer token, the Basic user name, or the OAuth 1.0a access token. */
  readonly credential: string | undefined;
  /** OAuth 1.0a: every protocol parameter of the verified header (`oauth_callback`, `oauth_verifier` …). */
  readonly oauthParams?: Readonly<Record<string, string>>;
}

export interface HandlerReply {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** @default application/json for a body, application/problem+json when the body is a problem */
  readonly contentType?: string;
}

/**
 * Credential checks the server calls. Each returns the principal, or undefined to refuse; a scheme
 * without a verifier is never accepted.
 */
export interface SecurityVerifiers {
  /** Any bearer token (`bearerAuth`). @default undefined */
  readonly bearer?: (token: string) => unknown | Promise<unknown>;
  /** The OAuth 2.0 app-only bearer token. @default the bearer verifier */
  readonly appOnly?: (token: string) => unknown | Promise<unknown>;
  /** An OAuth 2.0 user-context bearer token. @default the bearer verifier */
  readonly userToken?: (token: string) => unknown | Promise<unknown>;
  /** API key and secret as Basic credentials. @default undefined */
  readonly basic?: (username: string, password: string) => unknown | Promise<unknown>;
  /** The key of an API key scheme, with the name it travels under (`X-API-Key`). @default undefined */
  readonly apiKey?: (key: string, name: string) => unknown | Promise<unknown>;
  /** OAuth 1.0a: secrets by key and token; principal is `{ consumerKey, token }`. @default undefined */
  readonly oauth1?: {
    readonly consumerSecret: (consumerKey: string) => string | undefined | Promise<string | undefined>;
    /** Secret of an access or request token; undefined refuses the token. */
    readonly tokenSecret: (token: string) => string | undefined | Promise<string | undefined>;
    /** @default an in-memory store */
    readonly nonces?: NonceStore;
    /** Accepted clock skew in seconds. @default 300 */
    readonly windowSeconds?: number;
  };
}

/** An error the server answers itself (an invalid request, missing credentials …), before it is sent. */
export interface ServerError {
  /** Undefined when no operation took the request (a body Fastify could not parse on an unknown path). */
  readonly operationId: string | undefined;
  readonly status: number;
  /** The problem the server would send: `type`, `title`, `status`, `detail`, and `errors` for an invalid request. */
  readonly problem: Readonly<Record<string, unknown>>;
}

/**
 * Shapes the errors the server answers itself: another declared status (an operation that refuses
 * invalid requests with 422), another body (the contract's own error object). Undefined keeps the
 * server's answer.
 */
export type ErrorShaper = (error: ServerError) => { readonly status: number; readonly body: unknown; readonly contentType: string } | undefined;

export interface Validation {
  validateRequest(operationId: never, input: RequestInput): RequestValidation;
  validateResponse(operationId: never, status: number, contentType: string | undefined, body: unknown): ResponseValidation;
}

/** What a generated plugin tells the runtime about its contract. */
export interface ContractFacts {
  /** Some schema has a member named `__proto__`: JSON bodies must keep it as data. @default false */
  readonly protoKeys?: boolean;
}

/** One request as the framework received it, parsed. */
export interface PlainRequest {
  readonly method: string;
  /** Path and query as sent (`/2/posts?ids=1`). */
  readonly url: string;
  /** `http` or `https`: with `host`, the URL an OAuth 1.0a signature covers. */
  readonly protocol: string;
  readonly host: string;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly query: Record<string, unknown>;
  /** Path parameter values by the contract's names. */
  readonly path: Record<string, unknown>;
  /** The parsed body: JSON data, a form as a record, other media as text; undefined when none. */
  readonly body: unknown;
}

/** An answer ready to send: the payload is already text. */
export interface PlainReply {
  readonly status: number;
  readonly contentType: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly payload: string | undefined;
  /** Why the server answered 500, for its error log. @default undefined */
  readonly log?: string;
}

/** The handler input the core builds; `request` is whatever the framework's request is. */
export interface CoreHandlerInput {
  readonly operationId: string;
  readonly path: unknown;
  readonly query: unknown;
  readonly headers: Record<string, unknown>;
  readonly cookies: Record<string, unknown>;
  readonly body: unknown;
  readonly auth: AuthContext | undefined;
  readonly request: unknown;
}

export type CoreHandler = (input: CoreHandlerInput) => HandlerReply | Promise<HandlerReply>;

export const PROBLEM = "application/problem+json";

/** Thrown by `notImplemented`; the route answers it with the contract's 501 problem. */
export class NotImplementedError extends Error {
  constructor(readonly operationId: string) {
    super(`${operationId} is not implemented`);
    this.name = "NotImplementedError";
  }
}

/** A problem body for the errors the server answers itself. */
export function problemBody(status: number, detail: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: "about:blank", title: reasonPhrase(status) ?? "Error", status, detail, ...extra };
}

/** The legacy 401 answer: code 89, invalid or expired token. */
export const INVALID_TOKEN = { errors: [{ code: 89, message: "Invalid or expired token" }] } as const;

/**
 * The 401 body an operation declares: the legacy envelope, a bare `{code, message}` Error object,
 * or a problem, whichever its contract accepts first; the legacy envelope when it declares none
 * (document 1 gives code 89 for every invalid or invalidated token).
 */
export function unauthorizedReply(validation: Validation, operationId: string): { body: unknown; type: string } {
  const candidates = [
    { body: INVALID_TOKEN, type: "application/json" },
    { body: { code: 89, message: "Invalid or expired token" }, type: "application/json" },
    { body: problemBody(401, "invalid or expired credentials"), type: PROBLEM },
  ];
  return candidates.find((c) => validation.validateResponse(operationId as never, 401, c.type, c.body).valid) ?? (candidates[0] as { body: unknown; type: string });
}

/** `/2/posts/{id}` → `/2/posts/:p0`, with a map back to the contract's names (which may not be identifiers). */
export function toFastifyPath(path: string): { url: string; params: readonly string[] } {
  const params: string[] = [];
  const parts = path.split(/(\{[^}]+\})/);
  const url = parts
    .map((part, i) => {
      const m = /^\{([^}]+)\}$/.exec(part);
      if (m) {
        params.push(m[1] as string);
        // A parameter followed by a colon in its segment (Google's `/v1/{name}:cancel`): the router
        // would read the escaped colon as part of the parameter's name (`p0::cancel`, holding
        // `abc:cancel`) and take it for the same route as `/v1/{name}`. A pattern ends the name.
        return (parts[i + 1] ?? "").startsWith(":") ? `:p${params.length - 1}([^/]*)` : `:p${params.length - 1}`;
      }
      return part.replace(/:/g, "::");
    })
    .join("");
  return { url, params };
}

function httpDate(iso: string): string | undefined {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? undefined : new Date(t).toUTCString();
}

export function deprecationHeaders(route: RouteSpec): Record<string, string> {
  const d = route.deprecated;
  if (!d) return {};
  const out: Record<string, string> = {};
  const at = d.at !== undefined ? Date.parse(d.at) : Number.NaN;
  // RFC 9745: an integer timestamp after "@"; "true"-style values are not allowed.
  out["deprecation"] = Number.isNaN(at) ? "@0" : `@${Math.floor(at / 1000)}`;
  const sunset = d.sunset !== undefined ? httpDate(d.sunset) : undefined;
  if (sunset) out["sunset"] = sunset;
  if (d.replacedByPath) out["link"] = `<${d.replacedByPath}>; rel="successor-version"`;
  return out;
}

const header = (request: PlainRequest, name: string): string | undefined => {
  const v = request.headers[name];
  return typeof v === "string" ? v : Array.isArray(v) ? v[0] : undefined;
};

/** The API key a request carries where the scheme says, if any. */
function apiKeyOf(request: PlainRequest, key: { readonly in: "header" | "query" | "cookie"; readonly name: string }): string | undefined {
  if (key.in === "header") {
    const v = header(request, key.name.toLowerCase());
    return v !== undefined && v !== "" ? v : undefined;
  }
  if (key.in === "query") {
    const v = own(request.query, key.name);
    return typeof v === "string" && v !== "" ? v : undefined;
  }
  for (const part of (header(request, "cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === key.name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

const BEARER = /^bearer$/i;
const BASIC = /^basic$/i;
const OAUTH = /^oauth$/i;

/** Base64 to UTF-8 text without Node's Buffer, so the core runs in a browser (MSW) too. */
function fromBase64(text: string): string {
  try {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return new TextDecoder().decode(bytes);
  } catch {
    return "";
  }
}

const accepted = (principal: unknown): boolean => principal !== undefined && principal !== null && principal !== false;

export async function authenticate(route: RouteSpec, request: PlainRequest, verifiers: SecurityVerifiers, nonces: NonceStore): Promise<{ ok: true; auth: AuthContext | undefined } | { ok: false }> {
  const alternatives = route.security;
  if (!alternatives || alternatives.length === 0 || alternatives.some((a) => a.length === 0)) return { ok: true, auth: undefined };
  const authorization = header(request, "authorization") ?? "";
  // `Scheme credentials`: the scheme is up to the first space, the rest (trimmed) is the credential.
  const space = authorization.indexOf(" ");
  const scheme = space === -1 ? authorization : authorization.slice(0, space);
  const rest = space === -1 ? "" : authorization.slice(space + 1).trim();
  for (const alternative of alternatives) {
    // One Authorization header carries one credential, so an alternative is met by its first scheme.
    const kind = alternative[0] as SchemeKind;
    const key = apiKeyPlacement(kind);
    if (key && verifiers.apiKey) {
      const given = apiKeyOf(request, key);
      const principal = given === undefined ? undefined : await verifiers.apiKey(given, key.name);
      if (given !== undefined && accepted(principal)) return { ok: true, auth: { scheme: kind, principal, credential: given } };
      continue;
    }
    if (BEARER.test(scheme) && (kind === "bearer" || kind === "appOnly" || kind === "userToken") && rest !== "") {
      const verify = kind === "bearer" ? verifiers.bearer : kind === "appOnly" ? (verifiers.appOnly ?? verifiers.bearer) : (verifiers.userToken ?? verifiers.bearer);
      const principal = verify ? await verify(rest) : undefined;
      if (accepted(principal)) return { ok: true, auth: { scheme: kind, principal, credential: rest } };
    }
    if (BASIC.test(scheme) && kind === "basic" && verifiers.basic) {
      const decoded = fromBase64(rest);
      const cut = decoded.indexOf(":");
      if (cut > 0) {
        const username = decoded.slice(0, cut);
        const principal = await verifiers.basic(username, decoded.slice(cut + 1));
        if (accepted(principal)) return { ok: true, auth: { scheme: "basic", principal, credential: username } };
      }
    }
    if (OAUTH.test(scheme) && kind === "oauth1" && verifiers.oauth1) {
      const o = verifiers.oauth1;
      const body = request.body;
      const form =
        body !== null && typeof body === "object" && !Array.isArray(body) && /x-www-form-urlencoded/.test(header(request, "content-type") ?? "") ? (body as Record<string, string>) : undefined;
      const verdict = await verifyOAuth1({
        method: request.method,
        url: `${request.protocol}://${request.host}${request.url}`,
        ...(form ? { form } : {}),
        authorization,
        lookupConsumerSecret: o.consumerSecret,
        lookupTokenSecret: o.tokenSecret,
        nonces: o.nonces ?? nonces,
        ...(o.windowSeconds !== undefined ? { windowSeconds: o.windowSeconds } : {}),
      });
      if (verdict.ok) {
        const oauthParams = Object.fromEntries(Object.entries(verdict.params).filter(([k]) => k.startsWith("oauth_") && k !== "oauth_signature"));
        return { ok: true, auth: { scheme: "oauth1", principal: { consumerKey: verdict.consumerKey, token: verdict.token }, credential: verdict.token, oauthParams } };
      }
    }
  }
  return { ok: false };
}

/**
 * The media type an error body goes out as: problem+json where the operation declares it for the
 * status, else application/json where the contract declares that (the advertising contracts do);
 * problem+json when the operation is unknown or declares neither.
 */
export function errorMedia(validation: Validation, operationId: string | undefined, status: number, body: unknown): string {
  if (operationId === undefined) return PROBLEM;
  for (const type of [PROBLEM, "application/json"]) {
    if (validation.validateResponse(operationId as never, status, type, body).valid) return type;
  }
  return PROBLEM;
}

/** Whether a media type carries JSON (`application/json`, `application/problem+json`, `…+json`). */
export function isJsonMedia(type: string): boolean {
  return /^[^;]*[/+]json\s*(;|$)/i.test(type);
}

/** A body as the text that goes on the wire: JSON for JSON media, text as it is for other media, forms encoded. */
export function payloadOf(body: unknown, type: string): string | undefined {
  if (body === undefined) return undefined;
  if (type === "application/x-www-form-urlencoded" && body !== null && typeof body === "object") {
    return new URLSearchParams(Object.entries(body as Record<string, unknown>).map(([k, v]) => [k, String(v)])).toString();
  }
  if (typeof body === "string" && !isJsonMedia(type)) return body;
  return JSON.stringify(body);
}

export const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** One route's answers, worked out once per route rather than per request. */
export interface RouteAnswerer {
  (request: PlainRequest, raw: unknown): Promise<PlainReply>;
}

export interface CoreOptions {
  readonly handlers: Readonly<Record<string, CoreHandler | undefined>>;
  readonly security: SecurityVerifiers;
  readonly validateResponses: boolean;
  readonly shapeError?: ErrorShaper;
  readonly nonces: NonceStore;
}

/**
 * An error answer of the server's own: the problem, unless the shaper gives the contract's own
 * status and body for it. `type` is the media the unshaped problem goes out as.
 */
export function serverError(
  validation: Validation,
  shapeError: ErrorShaper | undefined,
  operationId: string | undefined,
  status: number,
  problem: Record<string, unknown>,
  type?: string,
): { status: number; body: unknown; contentType: string } {
  const shaped = shapeError?.({ operationId, status, problem });
  if (shaped) return shaped;
  return { status, body: problem, contentType: type ?? errorMedia(validation, operationId, status, problem) };
}

/** The answerer of one route: authentication, validation, the handler, the reply. */
export function routeAnswerer(route: RouteSpec, validation: Validation, options: CoreOptions): RouteAnswerer {
  const extraHeaders: Readonly<Record<string, string>> = route.deprecated ? deprecationHeaders(route) : NO_HEADERS;
  const hasExtraHeaders = extraHeaders !== NO_HEADERS;
  const unauthorized = unauthorizedReply(validation, route.id);
  const { handlers, security, validateResponses, shapeError, nonces } = options;
  const reply = (status: number, body: unknown, contentType: string, headers: Readonly<Record<string, string>> = extraHeaders): PlainReply => ({
    status,
    contentType,
    headers,
    payload: payloadOf(body, contentType),
  });
  const failure = (status: number, problem: Record<string, unknown>, type?: string, headers: Readonly<Record<string, string>> = extraHeaders): PlainReply => {
    const e = serverError(validation, shapeError, route.id, status, problem, type);
    return reply(e.status, e.body, e.contentType, headers);
  };
  const unimplemented = (): PlainReply => {
    const detail = route.unspecified !== undefined ? `${route.id} is not implemented: the contract does not show its shape (${route.unspecified})` : `${route.id} is not implemented`;
    return failure(501, problemBody(501, detail));
  };

  return async (request, raw) => {
    const who = await authenticate(route, request, security, nonces);
    if (!who.ok) {
      const headers = { ...extraHeaders, "www-authenticate": "Bearer, Basic, OAuth" };
      const shaped = shapeError?.({ operationId: route.id, status: 401, problem: problemBody(401, "invalid or expired credentials") });
      return shaped ? reply(shaped.status, shaped.body, shaped.contentType, headers) : reply(401, unauthorized.body, unauthorized.type, headers);
    }
    const hasBody = request.body !== undefined && request.body !== null && request.body !== "";
    const contentType = header(request, "content-type");
    let query = request.query;
    if (route.oauthParams && route.oauthParams.length > 0) {
      const oauth = parseOAuth1Authorization(header(request, "authorization"));
      if (oauth) {
        query = { ...query };
        for (const name of route.oauthParams) if (query[name] === undefined && oauth.has(name)) query[name] = oauth.get(name);
      }
    }
    const checked = validation.validateRequest(route.id as never, {
      path: request.path,
      query,
      headers: request.headers as Record<string, unknown>,
      cookies: {},
      ...(hasBody ? { body: request.body, ...(contentType ? { contentType } : {}) } : {}),
    });
    if (!checked.valid) {
      const status = checked.unsupportedMediaType ? 415 : 400;
      return failure(status, { ...checked.problem, status });
    }
    const handler = own(handlers as Readonly<Record<string, unknown>>, route.id) as CoreHandler | undefined;
    if (!handler) return unimplemented();
    let out: HandlerReply;
    try {
      out = await handler({
        operationId: route.id,
        path: checked.value.path,
        query: checked.value.query,
        headers: checked.value.headers,
        cookies: checked.value.cookies,
        body: checked.value.body,
        auth: who.auth,
        request: raw,
      });
    } catch (err) {
      // A scaffolded stub answers exactly as a missing handler does.
      if (err instanceof NotImplementedError) return unimplemented();
      throw err;
    }
    const isProblem = out.body !== null && typeof out.body === "object" && typeof (out.body as Record<string, unknown>)["type"] === "string" && out.status >= 400;
    const type = out.contentType ?? (out.body === undefined ? "application/json" : isProblem ? PROBLEM : "application/json");
    if (validateResponses) {
      const verdict = validation.validateResponse(route.id as never, out.status, out.body === undefined ? undefined : type, out.body);
      if (!verdict.valid) {
        const detail = `the reply of ${route.id} does not match the contract: ${verdict.errors.map((e) => e.message).join("; ")}`;
        return { ...reply(500, problemBody(500, detail), PROBLEM), log: detail };
      }
    }
    const headers = out.headers === undefined ? extraHeaders : hasExtraHeaders ? { ...extraHeaders, ...out.headers } : out.headers;
    return reply(out.status, out.body, type, headers);
  };
}

/** Path values from a route's positional parameters (`p0`, `p1` …) under the contract's names. */
export function pathValuesOf(params: readonly string[], raw: Readonly<Record<string, string>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < params.length; i++) setOwn(out, params[i] as string, raw[`p${i}`]);
  return out;
}
