/**
 * The receiver core every generated `./receiver` plugin runs on: a Fastify route per delivery
 * (webhook or callback) the contract says the API sends, validation of each incoming payload with
 * the precompiled validators (400 problem+json naming what is wrong, 415 for a media type the
 * contract does not list), and dispatch to one handler per delivery, or per event type when the
 * payload's discriminator names one. Event types the contract does not list, deliveries without a
 * handler and payloads a shared route cannot place go to the fallback handler, never silently away.
 *
 * Fastify is imported for types only: it is an optional peer of the generated packages.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ServerApp } from "../server/server.js";

export type { ServerApp };
import { problemBody } from "../server/server.js";
import type { RequestInput, RequestValidation } from "../shared/validation.js";
import { own, setOwn } from "../shared/own.js";
import { DeliveryIdStore, verifyStandardWebhook, type DeliveryIds } from "./replay.js";

export { DeliveryIdStore, signStandardWebhook, verifyStandardWebhook, type DeliveryIds, type DeliveryIdStoreOptions } from "./replay.js";

/** What a generated receiver tells the runtime about one delivery. */
export interface DeliverySpec {
  readonly id: string;
  /** Key of its handler in the handlers object. */
  readonly handler: string;
  readonly method: string;
  /** Where the route listens unless `paths` says otherwise: `/` and the id, reduced to URL-safe characters. */
  readonly path: string;
  /** The answer when a handler returns nothing: the first numeric 2XX status the contract declares. @default 200 */
  readonly status?: number;
  /** The payload names its event type in `property`; `values` have handlers, `legacy` are deprecated names. */
  readonly eventTypes?: { readonly property: string; readonly values: readonly string[]; readonly legacy: readonly string[] };
  readonly unspecified?: string;
  /** How the contract says each delivery is signed (`x-webhook-signature`); the receiver verifies it. */
  readonly signature?: { readonly scheme: "standard-webhooks"; readonly toleranceSeconds: number };
  /** The request header carrying the delivery's unique id (`x-delivery-id`, or the signature scheme's). */
  readonly idHeader?: string;
}

export interface DeliveryInput<B = unknown> {
  readonly deliveryId: string;
  /** The validated payload. */
  readonly body: B;
  /** Request headers, names in lower case. */
  readonly headers: Readonly<Record<string, unknown>>;
  readonly request: FastifyRequest;
}

/** What a delivery handler may answer; nothing means the contract's success status, no body. */
export interface DeliveryReply {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** @default application/json */
  readonly contentType?: string;
}

export type DeliveryResult = DeliveryReply | void | undefined;

/** Why a delivery reached the fallback handler. */
export type FallbackReason =
  /** The event type is not one the contract lists (a newer one, or a deprecated legacy name). */
  | "unknown-event-type"
  /** The delivery is known and valid, but no handler was given for it (or for its event type). */
  | "no-handler"
  /** Several deliveries share the route and none accepted the payload (or `select` named none). */
  | "unmatched";

export interface FallbackInput<Id extends string = string> {
  readonly reason: FallbackReason;
  /** The delivery, when it is known. */
  readonly deliveryId: Id | undefined;
  /** The event type the payload names, when its delivery has event types. */
  readonly eventType?: string;
  /** The event type is one of the contract's deprecated legacy names (`x-legacy-values`). */
  readonly legacy: boolean;
  /** Validated for `no-handler`; as received otherwise. */
  readonly body: unknown;
  readonly headers: Readonly<Record<string, unknown>>;
  readonly request: FastifyRequest;
}

export type DeliveryHandler = (input: DeliveryInput<never>) => DeliveryResult | Promise<DeliveryResult>;

export interface ReceiverOptions<H, Id extends string = string> {
  /** Delivery handlers by name; a delivery with event types takes an object of handlers by event type. */
  readonly handlers: H;
  /**
   * Deliveries no handler takes (unknown or legacy event types, missing handlers, unplaced payloads).
   * Without it such a delivery is answered 501 problem+json, so the sender sees it was not handled.
   * @default undefined
   */
  readonly fallback?: (input: FallbackInput<Id>) => DeliveryResult | Promise<DeliveryResult>;
  /** Route path per delivery id, when it is not `/` and the id; several may share one path. @default {} */
  readonly paths?: Partial<Record<Id, string>>;
  /**
   * Where several deliveries share a route: names the delivery from headers and raw payload (GitHub's
   * `X-GitHub-Event` and `action`). Undefined tries each in contract order and takes the first whose
   * payload validates.
   * @default undefined
   */
  readonly select?: (input: { readonly headers: Readonly<Record<string, unknown>>; readonly body: unknown }) => Id | undefined;
  /** Called after each delivery with its id, status and duration. @default undefined */
  readonly onDelivery?: (info: { deliveryId: string | undefined; status: number; ms: number }) => void;
  /**
   * The signing secret(s) of deliveries the contract says are signed (`x-webhook-signature`,
   * Standard Webhooks: `whsec_` and base64); several while a secret is rotated. Registering a
   * receiver whose contract signs deliveries without one fails: unsigned acceptance is never the default.
   * @default undefined
   */
  readonly signingSecret?: string | readonly string[];
  /**
   * Duplicate deliveries (the same delivery id twice) run their handler once: a repeat of a handled
   * delivery is answered the contract's success status with a `webhook-duplicate: true` header, one
   * that arrives while the first is still being handled 409. The id is read from the header the
   * contract names (`x-delivery-id`, or `webhook-id` of a signed delivery), else from `header`.
   * `false` turns it off.
   * @default on, in memory: ids kept 24 hours, at most 100,000
   */
  readonly deduplicate?: false | { readonly header?: string; readonly store?: DeliveryIds };
  /** Largest delivery body in bytes; a larger one is answered 413. @default 1 MiB (Fastify's) */
  readonly bodyLimit?: number;
}

export interface DeliveryValidation {
  validateDelivery(deliveryId: never, input: RequestInput): RequestValidation;
}

const PROBLEM = "application/problem+json";

function send(reply: FastifyReply, status: number, body: unknown, contentType: string, headers: Readonly<Record<string, string>> = {}): FastifyReply {
  reply.code(status).headers(headers);
  if (body === undefined) return reply.send();
  return reply.type(contentType).send(contentType.includes("json") ? JSON.stringify(body) : body);
}

/** The event type a raw payload names, read as an own string property only. */
function eventTypeOf(body: unknown, property: string): string | undefined {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return undefined;
  const value = own(body as Readonly<Record<string, unknown>>, property);
  return typeof value === "string" ? value : undefined;
}

export function registerReceiver<H, Id extends string>(app: FastifyInstance, deliveries: readonly DeliverySpec[], validation: DeliveryValidation, options: ReceiverOptions<H, Id>): void {
  const handlers = options.handlers as unknown as Readonly<Record<string, unknown>>;
  const secrets = options.signingSecret === undefined ? [] : typeof options.signingSecret === "string" ? [options.signingSecret] : [...options.signingSecret];
  const signed = deliveries.filter((d) => d.signature !== undefined);
  if (signed.length > 0 && secrets.length === 0) {
    throw new Error(
      `the contract says ${signed.map((d) => d.id).join(", ")} ${signed.length === 1 ? "is" : "are"} signed (${signed[0]?.signature?.scheme ?? ""}): give the receiver its signingSecret`,
    );
  }
  const dedupe = options.deduplicate === false ? undefined : { header: options.deduplicate?.header?.toLowerCase(), store: options.deduplicate?.store ?? new DeliveryIdStore() };
  // Signatures are over the bytes sent: every body is read as text and kept until it is verified.
  const raw = new WeakMap<FastifyRequest, string>();
  const json = app.getDefaultJsonParser("error", "error");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (req, text, done) => {
    const body = String(text);
    raw.set(req, body);
    json(req, body, done);
  });
  // Any media type other than JSON arrives as text, so validation can answer 415 naming it.
  app.addContentTypeParser("*", { parseAs: "string" }, (req, text, done) => {
    raw.set(req, String(text));
    done(null, text);
  });
  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    const status = error.statusCode ?? 500;
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
      return send(reply, 413, problemBody(413, "the delivery's body is larger than this receiver accepts", { errors: [{ message: error.message, parameters: { body: [] } }] }), PROBLEM);
    }
    if (status >= 400 && status < 500) {
      // Bad JSON and the like: the sender's fault, said in the invalid-request shape.
      return send(reply, 400, problemBody(400, error.message, { errors: [{ message: error.message, parameters: { body: [] } }] }), PROBLEM);
    }
    request.log.error(error);
    return send(reply, 500, problemBody(500, "the receiver failed while handling this delivery"), PROBLEM);
  });

  // Deliveries sharing a method and path are one route.
  const routes = new Map<string, DeliverySpec[]>();
  for (const d of deliveries) {
    const path = own(options.paths as Readonly<Record<string, string>> | undefined, d.id) ?? d.path;
    const key = `${d.method.toUpperCase()} ${path}`;
    routes.set(key, [...(routes.get(key) ?? []), d]);
  }

  for (const [key, group] of routes) {
    const space = key.indexOf(" ");
    app.route({
      method: key.slice(0, space) as "POST",
      url: key.slice(space + 1),
      ...(options.bodyLimit !== undefined ? { bodyLimit: options.bodyLimit } : {}),
      handler: async (request, reply) => {
        const started = performance.now();
        const headers = request.headers as Record<string, unknown>;
        const contentType = typeof headers["content-type"] === "string" ? headers["content-type"] : undefined;
        const hasBody = request.body !== undefined && request.body !== null && request.body !== "";
        const input: RequestInput = { headers, ...(hasBody ? { body: request.body, ...(contentType ? { contentType } : {}) } : {}) };
        const finish = (deliveryId: string | undefined, r: FastifyReply): FastifyReply => {
          options.onDelivery?.({ deliveryId, status: r.statusCode, ms: performance.now() - started });
          return r;
        };
        const answer = async (d: DeliverySpec | undefined, result: Promise<DeliveryResult> | DeliveryResult): Promise<FastifyReply> => {
          const out = await result;
          if (out === undefined) return finish(d?.id, send(reply, d?.status ?? 200, undefined, "application/json"));
          return finish(d?.id, send(reply, out.status, out.body, out.contentType ?? "application/json", out.headers));
        };
        const fallback = async (d: DeliverySpec | undefined, reason: FallbackReason, body: unknown, eventType?: string): Promise<FastifyReply> => {
          const legacy = eventType !== undefined && d?.eventTypes?.legacy.includes(eventType) === true;
          if (options.fallback) {
            return answer(d, options.fallback({ reason, deliveryId: d?.id as Id | undefined, ...(eventType !== undefined ? { eventType } : {}), legacy, body, headers, request }));
          }
          const what = eventType !== undefined ? `event type ${eventType}${legacy ? " (a deprecated legacy name)" : ""} of ${d?.id ?? "this delivery"}` : (d?.id ?? "this delivery");
          const detail = reason === "unknown-event-type" ? `${what} is not one the contract lists, and no fallback handler is set` : `${what} has no handler`;
          return finish(d?.id, send(reply, 501, problemBody(501, detail), PROBLEM));
        };

        // Which delivery is this? One on the route, the one `select` names, or the first that validates.
        let delivery: DeliverySpec | undefined = group.length === 1 ? group[0] : undefined;
        let checked: RequestValidation | undefined;
        if (!delivery && options.select) {
          const id = options.select({ headers, body: request.body });
          delivery = group.find((d) => d.id === id);
          if (!delivery) return fallback(undefined, "unmatched", request.body);
        }
        if (!delivery) {
          for (const d of group) {
            const verdict = validation.validateDelivery(d.id as never, input);
            if (verdict.valid) {
              delivery = d;
              checked = verdict;
              break;
            }
          }
          if (!delivery) return fallback(undefined, "unmatched", request.body);
        }

        // An event type the contract does not list is not invalid input to refuse: the sender may
        // be newer than the contract, or still use a deprecated name. It goes to the fallback.
        const eventType = delivery.eventTypes ? eventTypeOf(request.body, delivery.eventTypes.property) : undefined;
        if (delivery.eventTypes && eventType !== undefined && !delivery.eventTypes.values.includes(eventType)) {
          return fallback(delivery, "unknown-event-type", request.body, eventType);
        }
        // A signed delivery is verified before its payload is looked at further (constant-time
        // comparison, timestamp within the tolerance); a failure says which, never why in detail.
        if (delivery.signature) {
          const failure = verifyStandardWebhook(headers, raw.get(request) ?? "", secrets, delivery.signature.toleranceSeconds);
          if (failure !== undefined) return finish(delivery.id, send(reply, 401, problemBody(401, `the delivery's signature does not verify: ${failure}`), PROBLEM));
        }
        checked ??= validation.validateDelivery(delivery.id as never, input);
        if (!checked.valid) {
          const status = checked.unsupportedMediaType ? 415 : 400;
          return finish(delivery.id, send(reply, status, { ...checked.problem, status }, PROBLEM));
        }
        const idHeader = delivery.idHeader ?? dedupe?.header;
        const idValue = dedupe && idHeader !== undefined ? headers[idHeader] : undefined;
        const seenKey = typeof idValue === "string" && idValue !== "" ? `${delivery.id}\u0000${idValue}` : undefined;
        if (dedupe && seenKey !== undefined) {
          const state = await dedupe.store.begin(seenKey);
          if (state === "done") return finish(delivery.id, send(reply, delivery.status ?? 200, undefined, "application/json", { "webhook-duplicate": "true" }));
          if (state === "in-flight")
            return finish(delivery.id, send(reply, 409, problemBody(409, `delivery ${String(idValue)} is being handled; send it again later`), PROBLEM, { "retry-after": "1" }));
        }
        const settle = async (ok: boolean): Promise<void> => {
          if (dedupe && seenKey !== undefined) await dedupe.store.end(seenKey, ok);
        };
        const entry = own(handlers, delivery.handler);
        const handler = (delivery.eventTypes && eventType !== undefined && entry !== null && typeof entry === "object" ? own(entry as Readonly<Record<string, unknown>>, eventType) : entry) as
          DeliveryHandler | undefined;
        if (typeof handler !== "function") {
          await settle(false);
          return fallback(delivery, "no-handler", checked.value.body, eventType);
        }
        const handlerInput: Record<string, unknown> = {};
        setOwn(handlerInput, "deliveryId", delivery.id);
        setOwn(handlerInput, "body", checked.value.body);
        setOwn(handlerInput, "headers", checked.value.headers);
        setOwn(handlerInput, "request", request);
        let result: DeliveryResult;
        try {
          result = await handler(handlerInput as unknown as DeliveryInput<never>);
        } catch (err) {
          // A failed handler is not remembered: the sender's retry runs it again.
          await settle(false);
          throw err;
        }
        // Recorded before the answer goes out: a retry sent the moment it arrives finds it done.
        await settle(result === undefined || result.status < 500);
        return answer(delivery, result);
      },
    });
  }
}
