import type { ApiModel, Delivery } from "../model/ir.js";
import { defineEmitter } from "./emitter.js";
import { tsHeader } from "./header.js";
import { mockSchemaOf } from "./mocks.js";
import { stringLiteral, ts } from "./ts.js";
import { mediaKind } from "./validators/index.js";

/** What the generated module knows of one delivery (JSON, parsed on first use). */
interface DeliveryPlan {
  readonly id: string;
  readonly kind: "webhook" | "callback";
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly contentType?: string;
  readonly schema?: unknown;
  readonly example?: unknown;
  /** Header parameters with the value their example gives, or a schema to generate one from. */
  readonly headers: readonly { readonly name: string; readonly required: boolean; readonly example?: string; readonly schema?: unknown }[];
  readonly eventTypes?: { readonly property: string; readonly values: readonly string[]; readonly legacy: readonly string[] };
}

function planOf(d: Delivery): DeliveryPlan {
  const contents = d.requestBody?.contents ?? [];
  const media = contents.find((c) => mediaKind(c.mediaType) === "json") ?? contents[0];
  const headers = d.parameters
    .filter((p) => p.in === "header" && !["content-type", "accept", "authorization"].includes(p.name.toLowerCase()))
    .map((p) => ({
      name: p.name,
      required: p.required,
      ...(p.example !== undefined && p.example !== null && typeof p.example !== "object" ? { example: String(p.example) } : { schema: mockSchemaOf(p.schema) }),
    }));
  return {
    id: d.id,
    kind: d.kind,
    name: d.name,
    method: d.method.toUpperCase(),
    path: d.routePath,
    ...(media ? { contentType: media.mediaType } : {}),
    ...(media?.schema !== undefined ? { schema: mockSchemaOf(media.schema) } : {}),
    ...(media && media.examples.length > 0 ? { example: media.examples[0] } : {}),
    headers,
    ...(d.eventTypes ? { eventTypes: { property: d.eventTypes.property, values: d.eventTypes.values.map((v) => v.value), legacy: d.eventTypes.legacy } } : {}),
  };
}

function module(model: ApiModel): string {
  const plans = model.deliveries.map(planOf);
  return (
    tsHeader(model) +
    ts`import { createDeliveryExamples, type DeliveryPlan } from "@contractgen/runtime/delivery";
import { mockDocument } from "../compiled/mocks.data.js";
import { validateDelivery, type DeliveryId } from "./validators.js";

export type { DeliveryPlan, ExampleDelivery, InvalidDelivery } from "@contractgen/runtime/delivery";
export type { DeliveryId } from "./validators.js";

let parsed: readonly DeliveryPlan[] | undefined;

/** Every delivery (webhook or callback) of the contract, in contract order. */
export function deliveryPlans(): readonly DeliveryPlan[] {
  return (parsed ??= JSON.parse(${stringLiteral(JSON.stringify(plans))}) as readonly DeliveryPlan[]);
}

/**
 * Example deliveries built from the mocks: \`exampleDelivery(id, { eventType, seed })\` is a valid
 * one (the contract's example, else a seeded value \`validateDelivery\` accepts),
 * \`exampleDeliveries()\` one per delivery and event type, \`invalidDeliveries(id)\` payloads the
 * contract refuses, each saying why.
 */
export const { exampleDelivery, exampleDeliveries, invalidDeliveries } = createDeliveryExamples<DeliveryId>({
  plans: deliveryPlans,
  document: mockDocument,
  validate: (id, delivery) => validateDelivery(id, { headers: delivery.headers, ...(delivery.body !== undefined ? { body: delivery.body } : {}), ...(delivery.contentType !== undefined ? { contentType: delivery.contentType } : {}) }).valid,
});
`.text
  );
}

/**
 * `./deliveries`: for a contract with webhooks or callbacks, example deliveries built from the
 * mocks (valid ones per delivery and event type, and invalid ones), which the mock server sends to
 * a receiver in development and `contractgen test --receiver` uses to check one.
 */
export const deliveriesEmitter = defineEmitter({
  name: "deliveries",
  exports: { "./deliveries": "deliveries" },
  barrel: "namespace",
  applies: (model) => model.deliveries.length > 0,
  dependencies: { "@contractgen/runtime": "^0.1.0" },
  emit({ model }) {
    if (model.deliveries.length === 0) return [];
    return [{ path: "src/deliveries.ts", contents: module(model) }];
  },
});
