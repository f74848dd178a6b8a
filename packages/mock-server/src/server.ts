/**
 * One Fastify process serving the core API and both advertising APIs (their paths do not collide):
 * the generated plugins, wired to the stateful handlers.
 */
import Fastify, { type FastifyInstance, type FastifyReply } from "fastify";
import { adsAudiencesServer } from "@devplatform/ads-audiences/server";
import { adsCampaignsServer } from "@devplatform/ads-campaigns/server";
import { coreServer } from "@devplatform/core/server";
import { problemBody, problemNotFound } from "@contractgen/runtime/server";
import { adsSecurity, coreSecurity } from "./auth/security.js";
import { acceptClientQuirks } from "./client-compat.js";
import { adsAudiencesHandlers } from "./handlers/ads-audiences.js";
import { adsCampaignsHandlers } from "./handlers/ads-campaigns.js";
import { coreHandlers } from "./handlers/core.js";
import { registerDeliveryRoute } from "./delivery-route.js";
import { DEFAULT_CREDENTIALS, DEFAULT_LIMITS, type MockCredentials, type MockServerOptions, type StartMockServerOptions } from "./options.js";
import { createRandom } from "./random.js";
import { seedState } from "./seed.js";
import { MockState } from "./store/state.js";

export interface MockServer {
  readonly app: FastifyInstance;
  readonly state: MockState;
  readonly credentials: MockCredentials;
}

export interface RunningMockServer {
  /** `http://host:port`, without a trailing slash. */
  readonly url: string;
  readonly credentials: MockCredentials;
  readonly state: MockState;
  close(): Promise<void>;
}

/** Builds the seeded state on its own, for tools that want the data without a server. */
export function createMockState(options: MockServerOptions = {}): MockState {
  const seed = options.seed ?? 1;
  const credentials: MockCredentials = { ...DEFAULT_CREDENTIALS, ...definedOnly(options.credentials ?? {}) };
  const state = new MockState({
    seed,
    now: options.now ?? Date.now,
    credentials,
    limits: { ...DEFAULT_LIMITS, ...definedOnly(options.limits ?? {}) },
  });
  seedState(state, createRandom(seed).fork("dataset"));
  return state;
}

/** Drops undefined members so they do not overwrite defaults. */
function definedOnly<T extends object>(partial: Partial<T>): Partial<T> {
  return Object.fromEntries(Object.entries(partial).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export async function createMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const state = createMockState(options);
  const app = Fastify({
    logger: false,
    // Ids are opaque strings of any length to the contracts; Fastify's default cap is 100 characters.
    routerOptions: { maxParamLength: 2048 },
    // Errors Fastify raises before any route is chosen (a bad URL, an overlong parameter) in the problem shape too.
    frameworkErrors: (error, request, reply) => {
      const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
      log?.({ operationId: "-", method: request.method, url: request.url, status, ms: 0 });
      void (reply as FastifyReply).code(status).type("application/problem+json").send(JSON.stringify(problemBody(status, error.message)));
    },
  });
  // Only a function logs: a caller passing `log: true` (as the CLI once did) must not turn every
  // error answer into a TypeError and a 500.
  const log = typeof options.log === "function" ? options.log : undefined;
  const onResponse = log ? (entry: { operationId: string; method: string; url: string; status: number; ms: number }) => log(entry) : undefined;
  const common = { validateResponses: options.validateResponses ?? true, ...(onResponse ? { onResponse } : {}) };

  // The plugins answer their own routes' errors; this covers requests no route takes (an oversize
  // or unparsable body on an unknown path), which would otherwise get Fastify's own error shape.
  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    const status = error.code === "FST_ERR_CTP_BODY_TOO_LARGE" ? 413 : error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE" ? 415 : (error.statusCode ?? 500);
    const shown = status >= 400 && status < 500 ? status : 500;
    if (shown === 500) request.log.error(error);
    const detail = shown === 500 ? "the mock server failed while answering this request" : error.message;
    log?.({ operationId: "-", method: request.method, url: request.url, status: shown, ms: 0 });
    return reply.code(shown).type("application/problem+json").send(JSON.stringify(problemBody(shown, detail)));
  });
  app.setNotFoundHandler((request, reply) => {
    const started = performance.now();
    const sent = problemNotFound(request, reply);
    log?.({ operationId: "-", method: request.method, url: request.url, status: 404, ms: performance.now() - started });
    return sent;
  });
  acceptClientQuirks(app);
  await app.register(coreServer, { handlers: coreHandlers(state), security: coreSecurity(state), ...common });
  await app.register(adsAudiencesServer, { handlers: adsAudiencesHandlers(state), security: adsSecurity(state), ...common });
  await app.register(adsCampaignsServer, { handlers: adsCampaignsHandlers(state), security: adsSecurity(state), ...common });
  if (options.deliveries === true) await app.register(registerDeliveryRoute, { log });
  return { app, state, credentials: state.credentials };
}

export async function startMockServer(options: StartMockServerOptions = {}): Promise<RunningMockServer> {
  const { app, state, credentials } = await createMockServer(options);
  const host = options.host ?? "127.0.0.1";
  await app.listen({ port: options.port ?? 4010, host });
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : (options.port ?? 4010);
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return { url: `http://${shownHost}:${port}`, credentials, state, close: () => app.close() };
}
