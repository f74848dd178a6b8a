/**
 * Development-only webhook delivery: the mock sends document 1's deliveries, built from the mocks,
 * to a receiver on loopback. The receiver here is the generated core receiver plugin listening on
 * 127.0.0.1, so each delivery is also checked against the contract on arrival.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Fastify, { type FastifyInstance } from "fastify";
import { coreReceiver, type CoreReceiverHandlers, type FallbackInput } from "@devplatform/core/receiver";
import { createMockServer } from "../src/index.js";

const received: { deliveryId: string; eventType?: string }[] = [];
const fallbacks: FallbackInput[] = [];
let receiver: FastifyInstance;
let receiverUrl = "";

const EVENT_TYPES = [
  "profile.update.bio",
  "profile.update.verified",
  "profile.update.affiliate",
  "profile.update.screenname",
  "post.create",
  "post.delete",
  "dm.received",
  "dm.sent",
  "dm.read",
  "dm.indicate_typing",
  "spaces.start",
  "spaces.end",
] as const;

beforeAll(async () => {
  const activityEvent = Object.fromEntries(
    EVENT_TYPES.map((t) => [t, (input: { body: { event_type?: string } }) => void received.push({ deliveryId: "activityEvent", eventType: input.body.event_type ?? "?" })]),
  ) as NonNullable<CoreReceiverHandlers["activityEvent"]>;
  const handlers: CoreReceiverHandlers = {
    filteredStreamPost: () => void received.push({ deliveryId: "filteredStreamPost" }),
    accountActivityEvent: () => void received.push({ deliveryId: "accountActivityEvent" }),
    activityEvent,
  };
  receiver = Fastify();
  await receiver.register(coreReceiver, { handlers, fallback: (input) => void fallbacks.push(input) });
  await receiver.listen({ host: "127.0.0.1", port: 0 });
  const address = receiver.server.address();
  receiverUrl = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;
});
afterAll(async () => {
  await receiver.close();
});

async function mockWithDeliveries(): Promise<FastifyInstance> {
  return (await createMockServer({ deliveries: true })).app;
}

describe("the mock's development-only webhook delivery", () => {
  it("is off unless asked for: the route does not exist by default", async () => {
    const { app } = await createMockServer();
    const res = await app.inject({ method: "POST", url: "/__mock/deliveries", payload: { url: receiverUrl } });
    expect(res.statusCode).toBe(404);
  });

  it("sends every delivery kind of document 1, each event type once, and the receiver accepts each as valid", async () => {
    received.length = 0;
    const app = await mockWithDeliveries();
    const res = await app.inject({ method: "POST", url: "/__mock/deliveries", payload: { url: receiverUrl } });
    expect(res.statusCode).toBe(200);
    const outcomes = (res.json() as { outcomes: { deliveryId: string; eventType?: string; status?: number; error?: string }[] }).outcomes;
    expect(outcomes.map((o) => o.status)).toEqual(outcomes.map(() => 200));
    expect(outcomes.map((o) => o.deliveryId)).toEqual(["filteredStreamPost", ...EVENT_TYPES.map(() => "activityEvent"), "accountActivityEvent"]);
    expect(received.filter((r) => r.deliveryId === "activityEvent").map((r) => r.eventType)).toEqual([...EVENT_TYPES]);
    expect(received.map((r) => r.deliveryId)).toContain("filteredStreamPost");
    expect(received.map((r) => r.deliveryId)).toContain("accountActivityEvent");
  });

  it("sends one chosen delivery, also with a deprecated legacy event type, which the receiver surfaces to its fallback", async () => {
    fallbacks.length = 0;
    const app = await mockWithDeliveries();
    const res = await app.inject({ method: "POST", url: "/__mock/deliveries", payload: { url: receiverUrl, deliveryId: "activityEvent", eventType: "ProfileBioUpdate" } });
    expect(res.statusCode).toBe(200);
    expect(fallbacks.map((f) => [f.reason, f.deliveryId, f.eventType, f.legacy])).toEqual([["unknown-event-type", "activityEvent", "ProfileBioUpdate", true]]);
  });

  it("delivers to loopback receivers only, and says which member of the request is wrong", async () => {
    const app = await mockWithDeliveries();
    const remote = await app.inject({ method: "POST", url: "/__mock/deliveries", payload: { url: "http://example.com/hooks" } });
    expect(remote.statusCode).toBe(400);
    expect(String((remote.json() as { detail: string }).detail)).toContain("loopback");
    const missing = await app.inject({ method: "POST", url: "/__mock/deliveries", payload: { deliveryId: "activityEvent" } });
    expect(missing.statusCode).toBe(400);
    expect(String((missing.json() as { detail: string }).detail)).toContain("url");
    const unknown = await app.inject({ method: "POST", url: "/__mock/deliveries", payload: { url: receiverUrl, deliveryId: "nope" } });
    expect(unknown.statusCode).toBe(400);
  });

  it("reports a receiver that is not listening per delivery instead of failing", async () => {
    const app = await mockWithDeliveries();
    const res = await app.inject({ method: "POST", url: "/__mock/deliveries", payload: { url: "http://127.0.0.1:9/", deliveryId: "filteredStreamPost" } });
    expect(res.statusCode).toBe(200);
    const [outcome] = (res.json() as { outcomes: { status?: number; error?: string }[] }).outcomes;
    expect(outcome?.status).toBeUndefined();
    expect(outcome?.error).toBeTruthy();
  });
});
