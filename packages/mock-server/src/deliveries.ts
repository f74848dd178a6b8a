/**
 * Development-only webhook delivery: the mock sends the core API's deliveries (filtered-stream
 * posts, activity events per event type, Account Activity events), built from the generated mocks,
 * to a receiver the developer names, so a team can exercise its receiver locally. Targets are
 * limited to loopback addresses: the mock must not become a way to make requests elsewhere.
 */
import { exampleDeliveries, exampleDelivery, deliveryPlans } from "@devplatform/core/deliveries";
import type { DeliveryId } from "@devplatform/core/validators";
import { sendDelivery, type ExampleDelivery } from "@contractgen/runtime/delivery";

export interface DeliverOptions {
  /** The receiver's base URL; must be a loopback address (127.0.0.0/8, ::1 or localhost). */
  readonly url: string;
  /** One delivery only (`activityEvent`); every one when undefined. @default undefined */
  readonly deliveryId?: string;
  /** With `deliveryId`: this event type only, also one the contract does not list (a legacy name). @default every listed event type */
  readonly eventType?: string;
  /** Send to the URL itself instead of the URL plus each delivery's route path (`/activityEvent`). @default false */
  readonly single?: boolean;
  /** @default 1 */
  readonly seed?: number;
}

export interface DeliveryOutcome {
  readonly deliveryId: string;
  readonly eventType?: string;
  readonly url: string;
  readonly status?: number;
  readonly error?: string;
}

/** Thrown for a target or delivery the mock will not send to. */
export class DeliveryRequestError extends Error {
  override readonly name = "DeliveryRequestError";
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

function targetUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DeliveryRequestError(`url must be an http URL, got ${JSON.stringify(raw)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new DeliveryRequestError(`url must be http(s), got ${url.protocol}`);
  if (!LOOPBACK.test(url.hostname)) throw new DeliveryRequestError(`the mock delivers to loopback addresses only (127.0.0.1, ::1, localhost), not ${url.hostname}`);
  return url;
}

/** Sends the chosen deliveries one after another and reports each answer. */
export async function deliverToReceiver(options: DeliverOptions): Promise<DeliveryOutcome[]> {
  const url = targetUrl(options.url);
  const seed = options.seed ?? 1;
  let chosen: ExampleDelivery[];
  if (options.deliveryId !== undefined) {
    const id = options.deliveryId;
    const plan = deliveryPlans().find((p) => p.id === id);
    if (!plan) throw new DeliveryRequestError(`no delivery ${JSON.stringify(id)}; the core API has ${deliveryPlans().map((p) => p.id).join(", ")}`);
    const types = options.eventType !== undefined ? [options.eventType] : (plan.eventTypes?.values ?? [undefined]);
    chosen = types.map((eventType) => exampleDelivery(id as DeliveryId, { seed, ...(eventType !== undefined ? { eventType } : {}) }));
  } else {
    if (options.eventType !== undefined) throw new DeliveryRequestError("eventType needs deliveryId");
    chosen = exampleDeliveries(seed);
  }
  const base = url.href.replace(/\/+$/, "");
  const outcomes: DeliveryOutcome[] = [];
  for (const d of chosen) {
    const to = options.single ? url.href : `${base}${d.path}`;
    const where = { deliveryId: d.deliveryId, ...(d.eventType !== undefined ? { eventType: d.eventType } : {}), url: to };
    try {
      outcomes.push({ ...where, status: (await sendDelivery(to, d)).status });
    } catch (err) {
      outcomes.push({ ...where, error: err instanceof Error ? (err.cause instanceof Error ? `${err.message}: ${err.cause.message}` : err.message) : String(err) });
    }
  }
  return outcomes;
}
