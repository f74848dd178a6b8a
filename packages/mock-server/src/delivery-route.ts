/**
 * `POST /__mock/deliveries` (only with the `deliveries` option): asks the mock to send webhook
 * deliveries to a receiver on a loopback address, and answers what the receiver said to each.
 */
import type { FastifyInstance } from "fastify";
import { problemBody } from "@contractgen/runtime/server";
import { deliverToReceiver, DeliveryRequestError, type DeliverOptions } from "./deliveries.js";
import type { MockLogEntry } from "./options.js";

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** Reads the request body into options, or says which member is wrong. */
function readOptions(body: unknown): DeliverOptions | string {
  if (!isObj(body)) return "the body must be a JSON object: { url, deliveryId?, eventType?, single?, seed? }";
  const { url, deliveryId, eventType, single, seed } = body;
  if (typeof url !== "string") return "url (string) is required";
  if (deliveryId !== undefined && typeof deliveryId !== "string") return "deliveryId must be a string";
  if (eventType !== undefined && typeof eventType !== "string") return "eventType must be a string";
  if (single !== undefined && typeof single !== "boolean") return "single must be a boolean";
  if (seed !== undefined && (typeof seed !== "number" || !Number.isFinite(seed))) return "seed must be a number";
  return {
    url,
    ...(deliveryId !== undefined ? { deliveryId } : {}),
    ...(eventType !== undefined ? { eventType } : {}),
    ...(single !== undefined ? { single } : {}),
    ...(seed !== undefined ? { seed } : {}),
  };
}

export async function registerDeliveryRoute(app: FastifyInstance, options: { log: ((entry: MockLogEntry) => void) | undefined }): Promise<void> {
  app.post("/__mock/deliveries", async (request, reply) => {
    const started = performance.now();
    const answer = (status: number, body: unknown, type: string) => {
      options.log?.({ operationId: "-", method: request.method, url: request.url, status, ms: performance.now() - started });
      return reply.code(status).type(type).send(JSON.stringify(body));
    };
    const read = readOptions(request.body);
    if (typeof read === "string") return answer(400, problemBody(400, read, { errors: [{ message: read, parameters: { body: [] } }] }), "application/problem+json");
    try {
      return answer(200, { outcomes: await deliverToReceiver(read) }, "application/json");
    } catch (err) {
      if (err instanceof DeliveryRequestError) return answer(400, problemBody(400, err.message, { errors: [{ message: err.message, parameters: { body: [] } }] }), "application/problem+json");
      throw err;
    }
  });
}
