/**
 * The server core every generated `./server` plugin runs on: Fastify routes from the contract's
 * operations, request validation with the precompiled validators (Fastify's own schema compiler is
 * never used, so start-up compiles nothing), authentication per security requirement, the
 * contract's error shapes, and response validation in development. What happens to one request is
 * framework-free (core.ts); this module is the Fastify glue around it.
 *
 * Fastify is imported for types only: it is an optional peer of the generated packages.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { InMemoryNonceStore } from "../oauth1/nonce-store.js";
import { setOwn } from "../shared/own.js";
import {
  NotImplementedError,
  PROBLEM,
  pathValuesOf,
  payloadOf,
  problemBody,
  routeAnswerer,
  serverError,
  toFastifyPath,
  type AuthContext,
  type ContractFacts,
  type CoreHandler,
  type ErrorShaper,
  type HandlerReply,
  type PlainReply,
  type PlainRequest,
  type RouteSpec,
  type SecurityVerifiers,
  type Validation,
} from "./core.js";

export {
  INVALID_TOKEN,
  NotImplementedError,
  authenticate,
  errorMedia,
  isJsonMedia,
  payloadOf,
  problemBody,
  routeAnswerer,
  toFastifyPath,
  type AuthContext,
  type ContractFacts,
  type CoreHandler,
  type CoreHandlerInput,
  type ErrorShaper,
  type HandlerReply,
  type PlainReply,
  type PlainRequest,
  type RouteAnswerer,
  type RouteSpec,
  type SecurityVerifiers,
  type ServerError,
  type Validation,
} from "./core.js";

/**
 * The Fastify instance a generated plugin registers on. Generated code names it through the
 * runtime, not through "fastify": a program that compiles a generated package without Fastify
 * installed (a client-only use, with skipLibCheck) then builds, and the type is Fastify's wherever
 * Fastify is installed.
 */
export type ServerApp = FastifyInstance;

export interface HandlerInput<P = Record<string, unknown>, Q = Record<string, unknown>, B = unknown> {
  readonly operationId: string;
  readonly path: P;
  readonly query: Q;
  readonly headers: Record<string, unknown>;
  readonly cookies: Record<string, unknown>;
  readonly body: B;
  /** Undefined for operations without a security requirement. */
  readonly auth: AuthContext | undefined;
  /** Fastify's request (under the generated MSW handlers: the fetch `Request`). */
  readonly request: FastifyRequest;
}

export type Handler = (input: HandlerInput<never, never, never>) => HandlerReply | Promise<HandlerReply>;

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
  /**
   * Told about a route that cannot be served: a second operation on a method and path another
   * already takes (the contract declares it twice), or a path Fastify's router refuses. The route
   * is left out and the others are served. @default the app's log
   */
  readonly onSkippedRoute?: (route: RouteSpec, reason: string) => void;
  /**
   * Gives the errors the server answers itself (invalid requests, missing credentials, unparsable
   * bodies) the contract's own status and body; the mock shapes them to each operation's declared
   * error. @default the server's problems
   */
  readonly shapeError?: ErrorShaper;
}

/**
 * The body of a handler nobody has written yet (`contractgen scaffold` puts it in every stub): the
 * request answers 501 problem+json, as if the handler were missing. Typed `never` so it stands in
 * for any reply the operation declares.
 */
export function notImplemented(input: { readonly operationId: string }): never {
  throw new NotImplementedError(input.operationId);
}

function send(reply: FastifyReply, out: PlainReply): FastifyReply {
  reply.code(out.status);
  if (out.headers !== NO_HEADERS) reply.headers(out.headers);
  // No body, no media type: an empty 204 says nothing about JSON.
  return out.payload === undefined ? reply.send() : reply.type(out.contentType).send(out.payload);
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

/** A Fastify request as the core reads it. */
function plainRequest(request: FastifyRequest, path: Record<string, unknown>): PlainRequest {
  return {
    method: request.method,
    url: request.url,
    protocol: request.protocol,
    host: request.headers.host ?? "localhost",
    headers: request.headers,
    query: request.query as Record<string, unknown>,
    path,
    body: request.body,
  };
}

/**
 * Registers every route of a contract on a Fastify instance. Generated packages call it from their
 * plugin with their routes and validators.
 */
export function registerRoutes<H>(app: FastifyInstance, routes: readonly RouteSpec[], validation: Validation, options: ServerOptions<H>, contract: ContractFacts = {}): void {
  const core = {
    handlers: options.handlers as Readonly<Record<string, CoreHandler | undefined>>,
    security: options.security ?? {},
    validateResponses: options.validateResponses ?? process.env["NODE_ENV"] !== "production",
    nonces: new InMemoryNonceStore(),
    ...(options.shapeError ? { shapeError: options.shapeError } : {}),
  };

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
    const answer = (code: number, body: Record<string, unknown>): FastifyReply => {
      const e = serverError(validation, options.shapeError, operationId, code, body);
      return send(reply, { status: e.status, contentType: e.contentType, headers: NO_HEADERS, payload: payloadOf(e.body, e.contentType) });
    };
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

  const skip = options.onSkippedRoute ?? ((route: RouteSpec, reason: string) => app.log.warn(`${route.id} (${route.method} ${route.path}) is not served: ${reason}`));
  // Routes by method and Fastify path. Several operations may share one where their paths differ
  // only in a fragment naming a header value (AWS's `/#X-Amz-Target=Service.Operation`): the
  // fragment never reaches a server, the header tells the operations apart.
  const groups = new Map<
    string,
    { readonly url: string; readonly method: string; readonly members: { readonly route: RouteSpec; readonly params: readonly string[]; readonly header?: readonly [string, string] }[] }
  >();
  for (const route of routes) {
    const hash = route.path.indexOf("#");
    const fragment = hash >= 0 ? /^([A-Za-z0-9-]+)=(.+)$/.exec(route.path.slice(hash + 1)) : null;
    const { url, params } = toFastifyPath(hash >= 0 ? route.path.slice(0, hash) || "/" : route.path);
    const key = `${route.method.toUpperCase()} ${url}`;
    const group = groups.get(key);
    const member = { route, params, ...(fragment ? { header: [(fragment[1] as string).toLowerCase(), fragment[2] as string] as const } : {}) };
    if (!group) {
      groups.set(key, { url, method: route.method.toUpperCase(), members: [member] });
      continue;
    }
    const first = group.members[0] as (typeof group.members)[number];
    if (member.header === undefined || first.header === undefined) {
      skip(route, `${first.route.id} already answers ${route.method.toUpperCase()} ${route.path}`);
      continue;
    }
    group.members.push(member);
  }
  const onResponse = options.onResponse;
  for (const group of groups.values()) {
    const members = group.members.map((m) => ({ ...m, answerer: routeAnswerer(m.route, validation, core) }));
    const first = members[0] as (typeof members)[number];
    /** The member the request names by its header; else the first, whose validation refuses the header. */
    const pick = (request: FastifyRequest): (typeof members)[number] => {
      if (members.length === 1) return first;
      for (const m of members) if (m.header && request.headers[m.header[0]] === m.header[1]) return m;
      return first;
    };
    try {
      app.route({
        method: group.method as "GET",
        url: group.url,
        ...(first.route.bodyLimit !== undefined ? { bodyLimit: first.route.bodyLimit } : {}),
        config: { operationId: first.route.id },
        handler: async (request, reply) => {
          const m = pick(request);
          // Without a listener there is nothing to time: no clock read, no closure per request.
          const started = onResponse ? performance.now() : 0;
          const finish = onResponse
            ? (r: FastifyReply): FastifyReply => {
                onResponse({ operationId: m.route.id, method: request.method, url: request.url, status: r.statusCode, ms: performance.now() - started });
                return r;
              }
            : passThrough;
          const out = await m.answerer(plainRequest(request, pathValuesOf(m.params, request.params as Record<string, string>)), request);
          if (out.log !== undefined) request.log.error(out.log);
          return finish(send(reply, out));
        },
      });
    } catch (err) {
      for (const m of members) skip(m.route, (err as Error).message);
    }
  }
}

/** A not-found handler answering problem+json, for the app that mounts the plugins. */
export function problemNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const body = problemBody(404, `no operation answers ${request.method} ${request.url.split("?")[0] ?? ""}`);
  return send(reply, { status: 404, contentType: PROBLEM, headers: NO_HEADERS, payload: JSON.stringify(body) });
}
