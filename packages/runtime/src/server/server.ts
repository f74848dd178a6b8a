/**
 * The server core every generated `./server` plugin runs on: Fastify routes from the contract's
 * operations, request validation with the precompiled validators (Fastify's own schema compiler is
 * never used, so start-up compiles nothing), authentication per security requirement, the
 * contract's error shapes, and response validation in development.
 *
 * Fastify is imported for types only: it is an optional peer of the generated packages.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/**
 * The Fastify instance a generated plugin registers on. Generated code names it through the
 * runtime, not through "fastify": a program that compiles a generated package without Fastify
 * installed (a client-only use, with skipLibCheck) then builds, and the type is Fastify's wherever
 * Fastify is installed.
 */
export type ServerApp = FastifyInstance;
import { parseOAuth1Authorization, verifyOAuth1, type NonceStore } from "../oauth1/index.js";
import { InMemoryNonceStore } from "../oauth1/nonce-store.js";
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

export interface HandlerInput<P = Record<string, unknown>, Q = Record<string, unknown>, B = unknown> {
  readonly operationId: string;
  readonly path: P;
  readonly query: Q;
  readonly headers: Record<string, unknown>;
  readonly cookies: Record<string, unknown>;
  readonly body: B;
  /** Undefined for operations without a security requirement. */
  readonly auth: AuthContext | undefined;
  readonly request: FastifyRequest;
}

export interface HandlerReply {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** @default application/json for a body, application/problem+json when the body is a problem */
  readonly contentType?: string;
}

export type Handler = (input: HandlerInput<never, never, never>) => HandlerReply | Promise<HandlerReply>;

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

export interface ServerOptions<H> {
  /** Operation handlers by operationId; missing ones answer 501 problem+json. */
  readonly handlers: Partial<H>;
  /** @default {} (no scheme is accepted, so secured operations answer 401) */
  readonly security?: SecurityVerifiers;
  /**
   * Check every reply against the contract and answer 500 problem+json when it does not fit.
   * @default true unless NODE_ENV is "production"
   */
  readonly validateResponses?: boolean;
  /** Called after each request with its operation, status and duration (the mock logs with it). @default undefined */
  readonly onResponse?: (info: { operationId: string; method: string; url: string; status: number; ms: number }) => void;
}

/** What a generated plugin tells the runtime about its contract. */
export interface ContractFacts {
  /** Some schema has a member named `__proto__`: JSON bodies must keep it as data. @default false */
  readonly protoKeys?: boolean;
}

export interface Validation {
  validateRequest(operationId: never, input: RequestInput): RequestValidation;
  validateResponse(operationId: never, status: number, contentType: string | undefined, body: unknown): ResponseValidation;
}

const PROBLEM = "application/problem+json";

/** Thrown by `notImplemented`; the route answers it with the contract's 501 problem. */
export class NotImplementedError extends Error {
  constructor(readonly operationId: string) {
    super(`${operationId} is not implemented`);
    this.name = "NotImplementedError";
  }
}

/**
 * The body of a handler nobody has written yet (`contractgen scaffold` puts it in every stub): the
 * request answers 501 problem+json, as if the handler were missing. Typed `never` so it stands in
 * for any reply the operation declares.
 */
export function notImplemented(input: { readonly operationId: string }): never {
  throw new NotImplementedError(input.operationId);
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
function unauthorizedReply(validation: Validation, operationId: string): { body: unknown; type: string } {
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
  const url = path
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const m = /^\{([^}]+)\}$/.exec(part);
      if (m) {
        params.push(m[1] as string);
        return `:p${params.length - 1}`;
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

function deprecationHeaders(route: RouteSpec): Record<string, string> {
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

/** The API key a request carries where the scheme says, if any. */
function apiKeyOf(request: FastifyRequest, key: { readonly in: "header" | "query" | "cookie"; readonly name: string }): string | undefined {
  if (key.in === "header") {
    const v = request.headers[key.name.toLowerCase()];
    return typeof v === "string" && v !== "" ? v : undefined;
  }
  if (key.in === "query") {
    const q = request.query;
    const v = q !== null && typeof q === "object" && Object.prototype.hasOwnProperty.call(q, key.name) ? (q as Record<string, unknown>)[key.name] : undefined;
    return typeof v === "string" && v !== "" ? v : undefined;
  }
  const cookie = typeof request.headers.cookie === "string" ? request.headers.cookie : "";
  for (const part of cookie.split(";")) {
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

async function authenticate(
  route: RouteSpec,
  request: FastifyRequest,
  body: unknown,
  verifiers: SecurityVerifiers,
  nonces: NonceStore,
): Promise<{ ok: true; auth: AuthContext | undefined } | { ok: false }> {
  const alternatives = route.security;
  if (!alternatives || alternatives.length === 0 || alternatives.some((a) => a.length === 0)) return { ok: true, auth: undefined };
  const header = typeof request.headers.authorization === "string" ? request.headers.authorization : "";
  // `Scheme credentials`: the scheme is up to the first space, the rest (trimmed) is the credential.
  const space = header.indexOf(" ");
  const scheme = space === -1 ? header : header.slice(0, space);
  const rest = space === -1 ? "" : header.slice(space + 1).trim();
  for (const alternative of alternatives) {
    // One Authorization header carries one credential, so an alternative is met by its first scheme.
    const kind = alternative[0] as SchemeKind;
    const key = apiKeyPlacement(kind);
    if (key && verifiers.apiKey) {
      const given = apiKeyOf(request, key);
      const principal = given === undefined ? undefined : await verifiers.apiKey(given, key.name);
      if (given !== undefined && principal !== undefined && principal !== null && principal !== false) return { ok: true, auth: { scheme: kind, principal, credential: given } };
      continue;
    }
    if (BEARER.test(scheme) && (kind === "bearer" || kind === "appOnly" || kind === "userToken") && rest !== "") {
      const verify = (kind === "bearer" ? verifiers.bearer : kind === "appOnly" ? verifiers.appOnly ?? verifiers.bearer : verifiers.userToken ?? verifiers.bearer);
      const principal = verify ? await verify(rest) : undefined;
      if (principal !== undefined && principal !== null && principal !== false) return { ok: true, auth: { scheme: kind, principal, credential: rest } };
    }
    if (BASIC.test(scheme) && kind === "basic" && verifiers.basic) {
      const decoded = Buffer.from(rest, "base64").toString("utf8");
      const cut = decoded.indexOf(":");
      if (cut > 0) {
        const username = decoded.slice(0, cut);
        const principal = await verifiers.basic(username, decoded.slice(cut + 1));
        if (principal !== undefined && principal !== null && principal !== false) return { ok: true, auth: { scheme: "basic", principal, credential: username } };
      }
    }
    if (OAUTH.test(scheme) && kind === "oauth1" && verifiers.oauth1) {
      const o = verifiers.oauth1;
      const form = body !== null && typeof body === "object" && !Array.isArray(body) && /x-www-form-urlencoded/.test(String(request.headers["content-type"] ?? ""))
        ? (body as Record<string, string>)
        : undefined;
      const host = request.headers.host ?? "localhost";
      const verdict = await verifyOAuth1({
        method: request.method,
        url: `${request.protocol}://${host}${request.url}`,
        ...(form ? { form } : {}),
        authorization: header,
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
function errorMedia(validation: Validation, operationId: string | undefined, status: number, body: unknown): string {
  if (operationId === undefined) return PROBLEM;
  for (const type of [PROBLEM, "application/json"]) {
    if (validation.validateResponse(operationId as never, status, type, body).valid) return type;
  }
  return PROBLEM;
}

function send(reply: FastifyReply, status: number, body: unknown, contentType: string, headers: Readonly<Record<string, string>> = NO_HEADERS): FastifyReply {
  reply.code(status);
  if (headers !== NO_HEADERS) reply.headers(headers);
  return reply.type(contentType).send(body === undefined ? undefined : JSON.stringify(body));
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** `finish` when nobody listens for finished requests. */
const passThrough = (reply: FastifyReply): FastifyReply => reply;

/**
 * The handlers an object implements, by operationId: each operation's method, bound to the object.
 * Methods may come from a class (its prototype), but never from `Object.prototype` (an operation
 * named `toString` is not implemented by every object), and `constructor` only as the object's own
 * member (a class instance's `constructor` is the class).
 */
export function pickHandlers(implementation: object, methodNames: Readonly<Record<string, string>>): Record<string, Handler> {
  const out = Object.create(null) as Record<string, Handler>;
  const members = implementation as Readonly<Record<string, unknown>>;
  for (const id of Object.keys(methodNames)) {
    const method = methodNames[id] as string;
    const handler = method === "constructor" && !Object.prototype.hasOwnProperty.call(members, method) ? undefined : members[method];
    if (typeof handler !== "function" || handler === (Object.prototype as unknown as Record<string, unknown>)[method]) continue;
    setOwn(out, id, handler.bind(implementation) as Handler);
  }
  return out;
}

/**
 * Registers every route of a contract on a Fastify instance. Generated packages call it from their
 * plugin with their routes and validators.
 */
export function registerRoutes<H>(
  app: FastifyInstance,
  routes: readonly RouteSpec[],
  validation: Validation,
  options: ServerOptions<H>,
  contract: ContractFacts = {},
): void {
  const verifiers = options.security ?? {};
  const nonces = new InMemoryNonceStore();
  const validateResponses = options.validateResponses ?? process.env["NODE_ENV"] !== "production";
  const handlers = options.handlers as Readonly<Record<string, Handler | undefined>>;

  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, text, done) => {
    const out: Record<string, string> = {};
    new URLSearchParams(String(text)).forEach((v, k) => setOwn(out, k, v));
    done(null, out);
  });
  if (contract.protoKeys) {
    // Fastify refuses JSON with a `__proto__` key (a guard against prototype pollution). This
    // contract names such a member, so its JSON is parsed as data: JSON.parse makes `__proto__` an
    // own property and never changes a prototype; validation then checks it like any member.
    app.addContentTypeParser("application/json", { parseAs: "string" }, (_req, text, done) => {
      try {
        done(null, String(text) === "" ? undefined : (JSON.parse(String(text)) as unknown));
      } catch {
        done(Object.assign(new Error("Body is not valid JSON but content-type is set to 'application/json'"), { statusCode: 400, code: "FST_ERR_CTP_INVALID_JSON_BODY" }), undefined);
      }
    });
  }
  // Any other media type arrives as text, so validation can answer 415 naming it.
  app.addContentTypeParser("*", { parseAs: "string" }, (_req, text, done) => done(null, text));

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    const status = error.statusCode ?? 500;
    const operationId = (request.routeOptions.config as { operationId?: string } | undefined)?.operationId;
    const answer = (code: number, body: Record<string, unknown>): FastifyReply => send(reply, code, body, errorMedia(validation, operationId, code, body));
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
      return answer(413, problemBody(413, `the request body is larger than this operation accepts`));
    }
    if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
      return answer(415, problemBody(415, `content type ${String(request.headers["content-type"])} is not accepted`));
    }
    if (status >= 400 && status < 500) {
      // Bad JSON and the like: the request's fault, said in the invalid-request shape.
      return answer(400, problemBody(400, error.message, { errors: [{ message: error.message, parameters: { body: [] } }] }));
    }
    request.log.error(error);
    return answer(500, problemBody(500, "the server failed while answering this request"));
  });

  for (const route of routes) {
    const { url, params } = toFastifyPath(route.path);
    const extraHeaders: Readonly<Record<string, string>> = route.deprecated ? deprecationHeaders(route) : NO_HEADERS;
    const unauthorized = unauthorizedReply(validation, route.id);
    // Worked out once per route rather than per request.
    const paramKeys = params.map((_, i) => `p${i}`);
    const hasExtraHeaders = extraHeaders !== NO_HEADERS;
    const onResponse = options.onResponse;
    app.route({
      method: route.method.toUpperCase() as "GET",
      url,
      ...(route.bodyLimit !== undefined ? { bodyLimit: route.bodyLimit } : {}),
      config: { operationId: route.id },
      handler: async (request, reply) => {
        // Without a listener there is nothing to time: no clock read, no closure per request.
        const started = onResponse ? performance.now() : 0;
        const finish = onResponse
          ? (r: FastifyReply): FastifyReply => {
              onResponse({ operationId: route.id, method: request.method, url: request.url, status: r.statusCode, ms: performance.now() - started });
              return r;
            }
          : passThrough;
        const raw = request.params as Record<string, string>;
        const pathValues: Record<string, unknown> = {};
        for (let i = 0; i < params.length; i++) setOwn(pathValues, params[i] as string, raw[paramKeys[i] as string]);
        const who = await authenticate(route, request, request.body, verifiers, nonces);
        if (!who.ok) return finish(send(reply, 401, unauthorized.body, unauthorized.type, { ...extraHeaders, "www-authenticate": "Bearer, Basic, OAuth" }));
        const hasBody = request.body !== undefined && request.body !== null && request.body !== "";
        const contentType = typeof request.headers["content-type"] === "string" ? request.headers["content-type"] : undefined;
        let query = request.query as Record<string, unknown>;
        if (route.oauthParams && route.oauthParams.length > 0) {
          const header = parseOAuth1Authorization(typeof request.headers.authorization === "string" ? request.headers.authorization : undefined);
          if (header) {
            query = { ...query };
            for (const name of route.oauthParams) if (query[name] === undefined && header.has(name)) query[name] = header.get(name);
          }
        }
        const checked = validation.validateRequest(route.id as never, {
          path: pathValues,
          query,
          headers: request.headers as Record<string, unknown>,
          cookies: {},
          ...(hasBody ? { body: request.body, ...(contentType ? { contentType } : {}) } : {}),
        });
        if (!checked.valid) {
          const status = checked.unsupportedMediaType ? 415 : 400;
          const body = { ...checked.problem, status };
          return finish(send(reply, status, body, errorMedia(validation, route.id, status, body), extraHeaders));
        }
        const handler = own(handlers as Readonly<Record<string, unknown>>, route.id) as (typeof handlers)[keyof typeof handlers] | undefined;
        const unimplemented = (): FastifyReply => {
          const detail = route.unspecified !== undefined
            ? `${route.id} is not implemented: the contract does not show its shape (${route.unspecified})`
            : `${route.id} is not implemented`;
          const body = problemBody(501, detail);
          return finish(send(reply, 501, body, errorMedia(validation, route.id, 501, body), extraHeaders));
        };
        if (!handler) return unimplemented();
        let out: HandlerReply;
        try {
          out = await handler({
            operationId: route.id,
            path: checked.value.path as never,
            query: checked.value.query as never,
            headers: checked.value.headers,
            cookies: checked.value.cookies,
            body: checked.value.body as never,
            auth: who.auth,
            request,
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
            request.log.error(detail);
            return finish(send(reply, 500, problemBody(500, detail), PROBLEM, extraHeaders));
          }
        }
        const headers = out.headers === undefined ? extraHeaders : hasExtraHeaders ? { ...extraHeaders, ...out.headers } : out.headers;
        if (type === "application/x-www-form-urlencoded" && out.body !== null && typeof out.body === "object") {
          const form = new URLSearchParams(Object.entries(out.body as Record<string, unknown>).map(([k, v]) => [k, String(v)])).toString();
          return finish(reply.code(out.status).headers(headers).type(type).send(form));
        }
        return finish(send(reply, out.status, out.body, type, headers));
      },
    });
  }
}

/** A not-found handler answering problem+json, for the app that mounts the plugins. */
export function problemNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return send(reply, 404, problemBody(404, `no operation answers ${request.method} ${request.url.split("?")[0] ?? ""}`), PROBLEM);
}
