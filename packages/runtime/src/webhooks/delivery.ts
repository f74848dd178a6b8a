/**
 * Example deliveries (webhooks and callbacks) built from a contract's mocks, and sending them to a
 * receiver. A generated `./deliveries` module supplies the plans and its validators; the mock
 * server sends these to a team's receiver in development, and the receiver check sends the valid
 * and the invalid ones and compares the answers with what the contract says.
 */
import { createMockGenerator, type MockDocument, type MockSchema } from "../mock/mock-data.js";
import { own, setOwn } from "../shared/own.js";

export interface DeliveryPlan {
  readonly id: string;
  readonly kind: "webhook" | "callback";
  readonly name: string;
  readonly method: string;
  /** Where the generated receiver listens for it by default (`/activityEvent`). */
  readonly path: string;
  readonly contentType?: string;
  readonly schema?: MockSchema;
  readonly example?: unknown;
  readonly headers: readonly { readonly name: string; readonly required: boolean; readonly example?: string; readonly schema?: MockSchema }[];
  readonly eventTypes?: { readonly property: string; readonly values: readonly string[]; readonly legacy: readonly string[] };
}

/** One delivery as it goes over the wire. */
export interface ExampleDelivery {
  readonly deliveryId: string;
  readonly method: string;
  /** The generated receiver's default route for it. */
  readonly path: string;
  readonly contentType: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  /** The event type the payload names, for deliveries that have them. */
  readonly eventType?: string;
}

/** A delivery the contract refuses, and why. */
export interface InvalidDelivery extends ExampleDelivery {
  readonly reason: string;
}

export interface DeliveryExampleOptions<Id extends string> {
  readonly plans: () => readonly DeliveryPlan[];
  readonly document: () => MockDocument;
  /** The package's own check of a whole delivery (headers and payload). */
  readonly validate: (id: Id, delivery: ExampleDelivery) => boolean;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** Seeds tried for a payload that must also name a given event type. */
const DRAFTS = 25;

export function createDeliveryExamples<Id extends string>(
  options: DeliveryExampleOptions<Id>,
): {
  exampleDelivery(id: Id, opts?: { readonly seed?: number; readonly eventType?: string }): ExampleDelivery;
  exampleDeliveries(seed?: number): ExampleDelivery[];
  invalidDeliveries(id: Id, seed?: number): InvalidDelivery[];
} {
  let generator: ReturnType<typeof createMockGenerator> | undefined;
  const gen = (): ReturnType<typeof createMockGenerator> => (generator ??= createMockGenerator({ root: options.document() }));
  const planOf = (id: Id): DeliveryPlan => {
    const plan = options.plans().find((p) => p.id === id);
    if (!plan) throw new RangeError(`unknown delivery: ${String(id)}`);
    return plan;
  };
  const headersOf = (plan: DeliveryPlan, seed: number): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const h of plan.headers) {
      if (h.example !== undefined) setOwn(out, h.name.toLowerCase(), h.example);
      else if (h.required && h.schema !== undefined) setOwn(out, h.name.toLowerCase(), String(gen().generate(h.schema, seed)));
    }
    if (plan.contentType !== undefined) out["content-type"] = plan.contentType;
    return out;
  };
  const named = (body: unknown, property: string, eventType: string): unknown => {
    if (!isObj(body)) return body;
    const copy = { ...body };
    setOwn(copy, property, eventType);
    return copy;
  };

  function exampleDelivery(id: Id, opts: { readonly seed?: number; readonly eventType?: string } = {}): ExampleDelivery {
    const plan = planOf(id);
    const seed = opts.seed ?? 1;
    const eventType = opts.eventType;
    const base = { deliveryId: plan.id, method: plan.method, path: plan.path, contentType: plan.contentType, headers: headersOf(plan, seed), ...(eventType !== undefined ? { eventType } : {}) };
    if (plan.schema === undefined) return { ...base, body: plan.example };
    const property = plan.eventTypes?.property;
    const candidates: unknown[] = [];
    if (plan.example !== undefined && (eventType === undefined || (isObj(plan.example) && own(plan.example, property ?? "") === eventType))) candidates.push(plan.example);
    for (let i = 0; i < DRAFTS; i++) {
      const drafted = gen().generate(plan.schema, seed + i);
      candidates.push(eventType !== undefined && property !== undefined ? named(drafted, property, eventType) : drafted);
    }
    // An event type the contract does not list (a legacy name, a newer type) cannot validate: the
    // payload is the first draft naming it, for exercising a receiver's fallback.
    const listed = eventType === undefined || plan.eventTypes?.values.includes(eventType) === true;
    for (const body of candidates) {
      const delivery = { ...base, body: structuredClone(body) };
      if (!listed || options.validate(id, delivery)) return delivery;
    }
    throw new Error(`no valid example of delivery ${plan.id}${eventType !== undefined ? ` with event type ${eventType}` : ""} in ${DRAFTS} drafts`);
  }

  function exampleDeliveries(seed = 1): ExampleDelivery[] {
    return options
      .plans()
      .flatMap((plan) => (plan.eventTypes ? plan.eventTypes.values.map((eventType) => exampleDelivery(plan.id as Id, { seed, eventType })) : [exampleDelivery(plan.id as Id, { seed })]));
  }

  function invalidDeliveries(id: Id, seed = 1): InvalidDelivery[] {
    const plan = planOf(id);
    if (plan.contentType === undefined || !/json/i.test(plan.contentType)) return [];
    const valid = exampleDelivery(id, { seed, ...(plan.eventTypes?.values[0] !== undefined ? { eventType: plan.eventTypes.values[0] } : {}) });
    const drafts: { reason: string; body: unknown }[] = [
      { reason: "the payload is a JSON array", body: [] },
      { reason: "the payload is a JSON string", body: "not a delivery" },
      { reason: "the payload is a JSON number", body: 0 },
    ];
    for (const name of requiredOf(plan.schema, options.document()).slice(0, 3)) {
      if (isObj(valid.body) && Object.prototype.hasOwnProperty.call(valid.body, name)) {
        const copy = { ...valid.body };
        delete copy[name];
        drafts.push({ reason: `the required member ${name} is missing`, body: copy });
      }
    }
    const property = plan.eventTypes?.property;
    return drafts
      .map((d): InvalidDelivery => {
        const { eventType: _dropped, ...rest } = valid;
        // The variant names an event type only when its payload still carries it.
        const names = property !== undefined && isObj(d.body) && own(d.body, property) === valid.eventType && valid.eventType !== undefined;
        return { ...rest, ...(names ? { eventType: valid.eventType } : {}), body: d.body, reason: d.reason };
      })
      .filter((d) => !options.validate(id, d));
  }

  return { exampleDelivery, exampleDeliveries, invalidDeliveries };
}

/** The `required` names of a schema, its `$ref` target and its `allOf` members. */
function requiredOf(schema: MockSchema | undefined, root: MockDocument, depth = 0): string[] {
  if (!isObj(schema) || depth > 8) return [];
  const out: string[] = Array.isArray(schema["required"]) ? schema["required"].filter((r): r is string => typeof r === "string") : [];
  const ref = schema["$ref"];
  if (typeof ref === "string" && ref.startsWith("#/")) {
    let target: unknown = root;
    for (const seg of ref.slice(2).split("/")) target = isObj(target) ? own(target, decodeURIComponent(seg).replace(/~1/g, "/").replace(/~0/g, "~")) : undefined;
    out.push(...requiredOf(target as MockSchema, root, depth + 1));
  }
  if (Array.isArray(schema["allOf"])) for (const m of schema["allOf"]) out.push(...requiredOf(m as MockSchema, root, depth + 1));
  return [...new Set(out)];
}

export interface SendOptions {
  /** @default globalThis.fetch */
  readonly fetch?: typeof fetch;
  /** @default 10000 */
  readonly timeoutMs?: number;
}

/** What a receiver answered. */
export interface DeliveryAnswer {
  readonly status: number;
  readonly contentType: string | undefined;
  readonly body: string;
}

/** Sends one delivery to `url` and reads the answer. */
export async function sendDelivery(url: string, delivery: ExampleDelivery, options: SendOptions = {}): Promise<DeliveryAnswer> {
  const doFetch = options.fetch ?? globalThis.fetch;
  const payload =
    delivery.body === undefined
      ? undefined
      : delivery.contentType !== undefined && !/json/i.test(delivery.contentType) && typeof delivery.body === "string"
        ? delivery.body
        : JSON.stringify(delivery.body);
  const res = await doFetch(url, {
    method: delivery.method,
    headers: { ...delivery.headers, ...(payload !== undefined && delivery.contentType === undefined ? { "content-type": "application/json" } : {}) },
    ...(payload !== undefined ? { body: payload } : {}),
    signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
  });
  return { status: res.status, contentType: res.headers.get("content-type") ?? undefined, body: await res.text() };
}
