/**
 * Where the generated clients and the core contract disagree, the mock accepts what the clients
 * send, so the runtime's own flows work against it. Each case is a request the contract's plugin
 * would refuse before any handler runs; both are reported as contract/runtime mismatches.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { parseOAuth1Authorization } from "@contractgen/runtime";

/**
 * OAuth 1.0a protocol parameters may travel in the Authorization header (RFC 5849 §3.5.1), and the
 * generated clients send `oauth_callback`, `oauth_token` and `oauth_verifier` there only. The core
 * contract declares them as query parameters, so for the flow's steps a parameter missing from the
 * query is taken from the header. The URL is left alone: the signature is checked over what the
 * client signed.
 */
const FLOW_PARAMETERS: Readonly<Record<string, readonly string[]>> = {
  "/oauth/request_token": ["oauth_callback"],
  "/oauth/authorize": ["oauth_token"],
  "/oauth/authenticate": ["oauth_token"],
  "/oauth/access_token": ["oauth_token", "oauth_verifier"],
};

export function acceptClientQuirks(app: FastifyInstance): void {
  // Attached to the few routes that need it as routes are added, so every other request runs no
  // extra hook (an app-wide async preHandler cost each request a promise and a routeOptions copy).
  app.addHook("onRoute", (route) => {
    const hook = quirkHook(route.url);
    if (!hook) return;
    const existing = route.preHandler;
    route.preHandler = existing === undefined ? [hook] : [...(Array.isArray(existing) ? existing : [existing]), hook];
  });
}

type PreHandler = (request: FastifyRequest) => Promise<void>;

function quirkHook(url: string): PreHandler | undefined {
  const names = FLOW_PARAMETERS[url];
  if (names) {
    return async (request) => {
      const authorization = typeof request.headers.authorization === "string" ? request.headers.authorization : undefined;
      const header = parseOAuth1Authorization(authorization);
      if (!header) return;
      const query = request.query as Record<string, unknown>;
      for (const name of names) {
        const value = header.get(name);
        if (query[name] === undefined && value !== undefined) query[name] = value;
      }
    };
  }
  // The runtime's app-only token cache revokes with a form body (`access_token=…`, Basic
  // credentials), while the contract declares only a JSON body for this unshown request. The
  // parsed form is passed on as the JSON body it stands for. Only with Basic credentials: an
  // OAuth 1.0a signature covers form parameters, which the media type decides.
  if (url === "/oauth2/invalidate_token") {
    return async (request) => {
      const authorization = typeof request.headers.authorization === "string" ? request.headers.authorization : undefined;
      if (/^basic /i.test(authorization ?? "") && /^application\/x-www-form-urlencoded/i.test(String(request.headers["content-type"] ?? ""))) {
        request.headers["content-type"] = "application/json";
      }
    };
  }
  return undefined;
}
