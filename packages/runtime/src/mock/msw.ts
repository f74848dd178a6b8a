/**
 * `@contractgen/runtime/msw`: a generated package's mock as Mock Service Worker handlers, for
 * front-end and unit tests in Node and the browser. The handlers answer through the server core
 * (authentication, validation with the package's own validators, errors in the contract's shapes)
 * and the mock engine (examples, seeded data, state), exactly as `contractgen mock` does over HTTP.
 *
 * Nothing here imports msw: the caller hands in msw's `http` namespace, and the handlers it returns
 * are msw's own type, whichever msw version the project has (2 or 3). A package that never uses its
 * MSW handlers needs no msw installed.
 */
import { InMemoryNonceStore } from "../oauth1/nonce-store.js";
import { routeAnswerer, type CoreHandler, type PlainReply, type PlainRequest, type RouteAnswerer, type RouteSpec, type Validation } from "../server/core.js";
import { problemBody } from "../server/core.js";
import type { MockEngine } from "./engine/engine.js";

/** The part of msw's `http` namespace the handlers are made with. */
export interface MswHttp<H> {
  all(path: string, resolver: (info: { readonly request: Request }) => Promise<Response | undefined>): H;
}

export interface MswSource {
  readonly routes: readonly RouteSpec[];
  readonly validation: Validation;
  readonly engine: MockEngine;
  /**
   * Where the API is: an absolute URL (`https://api.example.com/v1`) or a path on any origin (`/v1`).
   * Requests outside it pass through to the next handler.
   */
  readonly baseUrl: string;
}

type Matcher = { readonly route: RouteSpec; readonly method: string; readonly pattern: RegExp; readonly names: readonly string[]; readonly literal: number; readonly answer: RouteAnswerer };

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A route's path template as a regular expression over the request path (parameters: one segment, or a part of one). */
function compile(route: RouteSpec, answer: RouteAnswerer): Matcher {
  const names: string[] = [];
  let literal = 0;
  const source = route.path
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const m = /^\{([^}]+)\}$/.exec(part);
      if (m) {
        names.push(m[1] as string);
        return "([^/]+?)";
      }
      literal += part.length;
      return escapeRegExp(part);
    })
    .join("");
  return { route, method: route.method.toUpperCase(), pattern: new RegExp(`^${source}/?$`), names, literal, answer };
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Query parameters as the server core reads them: a repeated name becomes an array. */
function queryOf(params: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  params.forEach((value, key) => {
    const prev = Object.prototype.hasOwnProperty.call(out, key) ? out[key] : undefined;
    Object.defineProperty(out, key, { value: prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value], enumerable: true, writable: true, configurable: true });
  });
  return out;
}

/** The body as the server core reads it: JSON data, a form as a record, other media as text. */
async function bodyOf(request: Request): Promise<{ body: unknown } | { error: string }> {
  if (request.method === "GET" || request.method === "HEAD") return { body: undefined };
  const text = await request.text();
  if (text === "") return { body: undefined };
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  if (/^[^;]*[/+]json\s*(;|$)/.test(type) || type === "") {
    try {
      return { body: JSON.parse(text) as unknown };
    } catch {
      return type === "" ? { body: text } : { error: "Body is not valid JSON but content-type is set to 'application/json'" };
    }
  }
  if (type.startsWith("application/x-www-form-urlencoded")) {
    const out: Record<string, string> = {};
    new URLSearchParams(text).forEach((v, k) => Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true }));
    return { body: out };
  }
  return { body: text };
}

function toResponse(out: PlainReply): Response {
  const headers = new Headers(out.headers);
  if (out.payload !== undefined) headers.set("content-type", out.contentType);
  // A 204 or 304 carries no body, whatever a handler returned.
  const empty = out.status === 204 || out.status === 304;
  return new Response(empty ? null : (out.payload ?? null), { status: out.status, headers });
}

/** `https://api.example.com/v1` → the msw pattern and the path prefix every route sits under. */
function base(baseUrl: string): { pattern: string; prefix: string } {
  const trimmed = baseUrl.replace(/\/+$/, "");
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
    const url = new URL(trimmed);
    return { pattern: `${trimmed}/*`, prefix: url.pathname.replace(/\/+$/, "") };
  }
  const path = trimmed === "" ? "" : trimmed.startsWith("/") ? trimmed : `/${trimmed}`;
  return { pattern: `*${path}/*`, prefix: path };
}

/**
 * MSW handlers serving `source` under its base URL: one catch-all handler that routes by the
 * contract's paths (literal paths before templated ones) and passes other requests through.
 */
export function mswHandlers<H>(http: MswHttp<H>, source: MswSource): H[] {
  const core = {
    handlers: source.engine.handlers as Readonly<Record<string, CoreHandler | undefined>>,
    security: source.engine.security,
    // The engine checks every answer it makes against the contract.
    validateResponses: false,
    shapeError: source.engine.shapeError,
    nonces: new InMemoryNonceStore(),
  };
  const matchers = source.routes.map((r) => compile(r, routeAnswerer(r, source.validation, core))).sort((a, b) => b.literal - a.literal || a.names.length - b.names.length);
  const { pattern, prefix } = base(source.baseUrl);
  const handler = http.all(pattern, async ({ request }) => {
    const url = new URL(request.url);
    if (!url.pathname.startsWith(prefix)) return undefined;
    const path = url.pathname.slice(prefix.length) || "/";
    const onPath = matchers.filter((m) => m.pattern.test(path));
    if (onPath.length === 0) return undefined;
    const method = request.method.toUpperCase();
    const matcher = onPath.find((m) => m.method === method);
    if (!matcher) {
      const body = problemBody(405, `no operation answers ${method} ${url.pathname}`);
      return new Response(JSON.stringify(body), { status: 405, headers: { "content-type": "application/problem+json", allow: [...new Set(onPath.map((m) => m.method))].join(", ") } });
    }
    const values = matcher.pattern.exec(path) ?? [];
    const pathValues: Record<string, unknown> = {};
    matcher.names.forEach((name, i) => Object.defineProperty(pathValues, name, { value: decode(values[i + 1] ?? ""), enumerable: true, writable: true, configurable: true }));
    const parsed = await bodyOf(request.clone());
    const headers: Record<string, string> = {};
    request.headers.forEach((v, k) => {
      headers[k.toLowerCase()] = v;
    });
    if (headers["host"] === undefined) headers["host"] = url.host;
    const plain: PlainRequest = {
      method,
      url: `${url.pathname}${url.search}`,
      protocol: url.protocol.replace(/:$/, ""),
      host: url.host,
      headers,
      query: queryOf(url.searchParams),
      path: pathValues,
      body: "error" in parsed ? undefined : parsed.body,
    };
    if ("error" in parsed) {
      const shaped = source.engine.shapeError({
        operationId: matcher.route.id,
        status: 400,
        problem: problemBody(400, parsed.error, { errors: [{ message: parsed.error, parameters: { body: [] } }] }),
      });
      const out = shaped ?? { status: 400, body: problemBody(400, parsed.error), contentType: "application/problem+json" };
      return new Response(out.body === undefined ? null : JSON.stringify(out.body), { status: out.status, headers: { "content-type": out.contentType } });
    }
    return toResponse(await matcher.answer(plain, request));
  });
  return [handler];
}
