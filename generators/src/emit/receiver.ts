import type { Delivery } from "../model/ir.js";
import { camelCase, pascalCase } from "../model/naming.js";
import { defineEmitter } from "./emitter.js";
import { tsHeader } from "./header.js";
import { ident, join, jsdoc, literal, memberDoc, ts, typeKey, type Code } from "./ts.js";
import { SpecError } from "../load/errors.js";

/** Standard Webhooks' default tolerance between the delivery's timestamp and the receiver's clock. */
const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * What `x-webhook-signature` and `x-delivery-id` say about a delivery, checked: an unknown scheme
 * is refused (a receiver that silently skipped verification would accept forged deliveries).
 */
function security(d: Delivery): { signature?: { scheme: "standard-webhooks"; toleranceSeconds: number }; idHeader?: string } {
  const fail = (member: string, message: string, fix: string): never => {
    throw new SpecError([{ file: "", pointer: `${d.pointer}/${member}`, message, fix }]);
  };
  const out: { signature?: { scheme: "standard-webhooks"; toleranceSeconds: number }; idHeader?: string } = {};
  if (d.signature !== undefined) {
    const sig = d.signature as Record<string, unknown> | null;
    if (sig === null || typeof sig !== "object" || Array.isArray(sig) || sig["scheme"] !== "standard-webhooks") {
      fail("x-webhook-signature", "x-webhook-signature must be { scheme: standard-webhooks, toleranceSeconds?: <seconds> }", "use the Standard Webhooks scheme, or leave the signature x-unspecified");
    }
    const tolerance = (sig as Record<string, unknown>)["toleranceSeconds"] ?? DEFAULT_TOLERANCE_SECONDS;
    if (typeof tolerance !== "number" || !Number.isInteger(tolerance) || tolerance < 1)
      fail("x-webhook-signature", "toleranceSeconds must be a whole number of seconds, at least 1", "write e.g. toleranceSeconds: 300");
    out.signature = { scheme: "standard-webhooks", toleranceSeconds: tolerance as number };
    out.idHeader = "webhook-id";
  }
  if (d.deliveryId !== undefined) {
    const header = (d.deliveryId as { header?: unknown } | null)?.header;
    if (typeof header !== "string" || !/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(header))
      fail("x-delivery-id", "x-delivery-id must be { header: <header name> }", "name the request header that carries each delivery's unique id");
    out.idHeader = (header as string).toLowerCase();
  }
  return out;
}

/** The success status a receiver answers when its handler returns nothing. */
function successStatus(d: Delivery): number | undefined {
  const found = d.responses.map((r) => r.status).find((s) => /^2\d\d$/.test(s));
  return found === undefined ? undefined : Number(found);
}

function describe(d: Delivery): string {
  const where = d.kind === "webhook" ? `Webhook ${d.name}` : `Callback ${d.name} of ${d.operationId ?? ""}, sent to ${d.expression ?? ""}`;
  return [d.summary, `${where} (${d.method.toUpperCase()}).`, d.unspecified !== undefined ? `Not shown by the contract: ${d.unspecified}` : undefined]
    .filter((x): x is string => x !== undefined)
    .join("\n\n");
}

/** The payload type one event type's handler receives: the schema the mapping names, else the payload narrowed. */
function eventBody(d: Delivery, property: string, value: { value: string; schemaName?: string }): Code {
  if (value.schemaName !== undefined) return ts`components["schemas"][${value.schemaName}]`;
  return ts`${ident(d.payloadTypeName)} & { readonly ${typeKey(property)}: ${value.value} }`;
}

/**
 * `./receiver`: for a contract with `webhooks` or `callbacks`, the typed `<Name>ReceiverHandlers`
 * (one handler per delivery, an object of handlers by event type where the payload's discriminator
 * names them, and a fallback) and a Fastify 5 plugin that routes each delivery, validates its payload
 * with the precompiled validators and answers a bad one with 400 problem+json. A subpath only, so
 * a client-only consumer never loads it. Nothing is emitted for a contract without deliveries.
 */
export const receiverEmitter = defineEmitter({
  name: "receiver",
  exports: { "./receiver": "receiver" },
  barrel: "none",
  applies: (model) => model.deliveries.length > 0,
  dependencies: { "@contractgen/runtime": "^0.1.0" },
  optionalPeers: { fastify: "^5.0.0" },
  emit({ model }) {
    if (model.deliveries.length === 0) return [];
    const base = pascalCase(model.name, "Api");
    const handlersName = `${base}ReceiverHandlers`;
    const pluginName = `${camelCase(model.name, "api")}Receiver`;
    const result = ts`DeliveryResult | Promise<DeliveryResult>`;

    const members = model.deliveries.map((d) => {
      const events = d.eventTypes;
      if (!events) return ts`${memberDoc(describe(d), { deprecated: d.deprecated })}readonly ${typeKey(d.methodName)}?: (input: DeliveryInput<${ident(d.payloadTypeName)}>) => ${result};`;
      const perType = events.values.map((v) => ts`    readonly ${typeKey(v.value)}?: (input: DeliveryInput<${eventBody(d, events.property, v)}>) => ${result};`);
      const more = `Handlers by ${events.property}; other values${events.legacy.length > 0 ? ` (the deprecated legacy names ${events.legacy.join(", ")} among them)` : ""} go to the fallback handler.`;
      return ts`${memberDoc(`${describe(d)}\n\n${more}`, { deprecated: d.deprecated })}readonly ${typeKey(d.methodName)}?: {
${join(perType)}
  };`;
    });
    const specs = model.deliveries.map((d) => {
      const status = successStatus(d);
      return {
        id: d.id,
        handler: d.methodName,
        method: d.method.toUpperCase(),
        path: d.routePath,
        ...(status !== undefined ? { status } : {}),
        ...(d.eventTypes ? { eventTypes: { property: d.eventTypes.property, values: d.eventTypes.values.map((v) => v.value), legacy: d.eventTypes.legacy } } : {}),
        ...(d.unspecified !== undefined ? { unspecified: d.unspecified } : {}),
        ...security(d),
      };
    });
    const payloadTypes = join(
      model.deliveries.map((d) => ident(d.payloadTypeName)),
      ", ",
    );
    const usesComponents = model.deliveries.some((d) => d.eventTypes?.values.some((v) => v.schemaName !== undefined));

    // registerReceiver's type arguments are named, not inferred: inference would measure the variance
    // of Fastify's instance type (see the server emitter).
    const code = ts`import { registerReceiver, type DeliveryInput, type DeliveryResult, type ReceiverOptions, type ServerApp } from "@contractgen/runtime/receiver";
import type { ${usesComponents ? ts`components, ` : ts``}${payloadTypes} } from "./types.js";
import { validateDelivery, type DeliveryId } from "./validators.js";
import { deliveries } from "../compiled/receiver.tables.js";

export type { DeliveryInput, DeliveryReply, DeliveryResult, FallbackInput, FallbackReason } from "@contractgen/runtime/receiver";
export type { DeliveryId } from "./validators.js";

${jsdoc(`Handlers for what ${model.info.title} ${model.info.version} delivers: one per webhook or callback. A delivery without a handler goes to the \`fallback\` option, else is answered 501.`)}export interface ${ident(handlersName)} {
${join(members)}
}

/** Every delivery of the contract, in contract order, with the path its route listens on by default. */
export { deliveries };

/**
 * The Fastify plugin: \`app.register(${ident(pluginName)}, { handlers, fallback })\`. One route per delivery
 * (\`paths\` moves them; deliveries sharing a path are told apart by \`select\` or by which payload
 * validates). Payloads are validated with the precompiled validators: 400 problem+json naming what
 * is wrong, 415 for a media type the contract does not list.
 */
export async function ${ident(pluginName)}(app: ServerApp, options: ReceiverOptions<${ident(handlersName)}, DeliveryId>): Promise<void> {
  registerReceiver<${ident(handlersName)}, DeliveryId>(app, deliveries, { validateDelivery }, options);
}
`;
    // The delivery table is data: JavaScript with a declaration file (compiled/, as the server's routes).
    const tablesJs = ts`export const deliveries = ${literal(specs)};
`;
    const tablesDts = ts`import type { DeliverySpec } from "@contractgen/runtime/receiver";

/** Every delivery of the contract, in contract order, with the path its route listens on by default. */
export declare const deliveries: readonly DeliverySpec[];
`;
    return [
      { path: "compiled/receiver.tables.js", contents: tsHeader(model) + tablesJs.text, format: false },
      { path: "compiled/receiver.tables.d.ts", contents: tsHeader(model) + tablesDts.text, format: false },
      { path: "src/receiver.ts", contents: tsHeader(model) + code.text },
    ];
  },
});
