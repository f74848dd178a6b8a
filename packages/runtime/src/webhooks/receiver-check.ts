/**
 * Checks a team's receiver against the contract: every delivery (per event type where the payload
 * names one) is sent valid, built from the mocks, and must be accepted (2XX); each invalid variant
 * the contract refuses must be refused (4XX). The contract-test side of webhooks and callbacks,
 * kept apart from the operation conformance engine.
 */
import { sendDelivery, type DeliveryPlan, type ExampleDelivery, type InvalidDelivery, type SendOptions } from "./delivery.js";

/** What a generated `./deliveries` module offers. */
export interface DeliveryExamples {
  deliveryPlans(): readonly DeliveryPlan[];
  exampleDeliveries(seed?: number): ExampleDelivery[];
  invalidDeliveries(id: never, seed?: number): InvalidDelivery[];
}

export interface ReceiverCheckOptions extends SendOptions {
  /** The receiver's base URL. */
  readonly url: string;
  /**
   * `routes`: each delivery goes to the URL plus its default route path (`/newPet`), as the
   * generated receiver listens; `single`: every delivery goes to the URL itself.
   * @default "routes"
   */
  readonly mode?: "routes" | "single";
  /** @default 1 */
  readonly seed?: number;
  /** Called after each case, for progress. @default undefined */
  readonly onCase?: (result: ReceiverCheckResult) => void;
}

export interface ReceiverCheckResult {
  readonly deliveryId: string;
  readonly eventType?: string;
  readonly kind: "valid" | "invalid";
  /** Why the payload is invalid; for a valid one, what it is. */
  readonly what: string;
  readonly expected: "2XX" | "4XX";
  readonly status?: number;
  /** The transport failed (refused connection, timeout). */
  readonly error?: string;
  readonly passed: boolean;
  /** Reproduces the case from a shell. */
  readonly curl: string;
}

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

function curlOf(url: string, d: ExampleDelivery): string {
  const headers = Object.entries(d.headers).map(([k, v]) => `-H ${shellQuote(`${k}: ${v}`)}`);
  const body = d.body === undefined ? [] : [`--data-raw ${shellQuote(JSON.stringify(d.body))}`];
  return ["curl", "-i", "-X", d.method, ...headers, ...body, shellQuote(url)].join(" ");
}

export async function checkReceiver(examples: DeliveryExamples, options: ReceiverCheckOptions): Promise<ReceiverCheckResult[]> {
  const seed = options.seed ?? 1;
  const base = options.url.replace(/\/+$/, "");
  const urlOf = (d: ExampleDelivery): string => (options.mode === "single" ? options.url : `${base}${d.path}`);
  const cases: { delivery: ExampleDelivery; kind: "valid" | "invalid"; what: string }[] = [];
  for (const d of examples.exampleDeliveries(seed)) cases.push({ delivery: d, kind: "valid", what: d.eventType !== undefined ? `a valid ${d.eventType} event` : "a valid payload" });
  for (const plan of examples.deliveryPlans()) {
    for (const d of examples.invalidDeliveries(plan.id as never, seed)) cases.push({ delivery: d, kind: "invalid", what: d.reason });
  }
  const results: ReceiverCheckResult[] = [];
  // One at a time: a receiver under test is often a laptop process, and order makes logs readable.
  for (const c of cases) {
    const url = urlOf(c.delivery);
    const expected = c.kind === "valid" ? "2XX" : "4XX";
    let status: number | undefined;
    let error: string | undefined;
    try {
      status = (await sendDelivery(url, c.delivery, options)).status;
    } catch (err) {
      error = err instanceof Error ? (err.cause instanceof Error ? `${err.message}: ${err.cause.message}` : err.message) : String(err);
    }
    const passed = status !== undefined && (expected === "2XX" ? status >= 200 && status < 300 : status >= 400 && status < 500);
    const result: ReceiverCheckResult = {
      deliveryId: c.delivery.deliveryId,
      ...(c.delivery.eventType !== undefined ? { eventType: c.delivery.eventType } : {}),
      kind: c.kind,
      what: c.what,
      expected,
      ...(status !== undefined ? { status } : {}),
      ...(error !== undefined ? { error } : {}),
      passed,
      curl: curlOf(url, c.delivery),
    };
    options.onCase?.(result);
    results.push(result);
  }
  return results;
}
