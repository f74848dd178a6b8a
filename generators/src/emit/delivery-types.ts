/**
 * Types of what an API delivers (webhooks and callbacks), added to `compiled/types.d.ts`.
 * openapi-typescript types root `webhooks` already; callbacks are copied under `webhooks` too, each
 * under its own `typesKey`, so one indexed type reaches every delivery's payload.
 */
import type { ApiModel, Delivery } from "../model/ir.js";
import { mediaKind } from "./validators/index.js";
import { ident, join, jsdoc, ts, type Code } from "./ts.js";

/** The media type whose payload the delivery's type describes: the first JSON one, else the first. */
export function payloadMedia(d: Delivery): string | undefined {
  const contents = d.requestBody?.contents ?? [];
  return (contents.find((c) => mediaKind(c.mediaType) === "json") ?? contents[0])?.mediaType;
}

/** `webhooks[key][method]`: the operation type of a delivery. */
export function deliveryOperationType(d: Delivery): Code {
  return ts`webhooks[${d.typesKey}][${d.method}]`;
}

/** One alias per delivery: `export type FilteredStreamPostDelivery = …` (its payload). */
export function deliveryAliases(model: ApiModel): Code {
  return join(
    model.deliveries.map((d) => {
      const media = payloadMedia(d);
      const what =
        d.kind === "webhook"
          ? `The payload of the webhook ${d.name} (${d.method.toUpperCase()}).`
          : `The payload of the callback ${d.name} of ${d.operationId ?? ""} (${d.method.toUpperCase()} ${d.expression ?? ""}).`;
      const doc = [what, d.summary, d.unspecified !== undefined ? `Not shown by the contract: ${d.unspecified}` : undefined].filter((x): x is string => x !== undefined).join("\n\n");
      const type = media === undefined ? ts`undefined` : ts`NonNullable<${deliveryOperationType(d)}["requestBody"]>["content"][${media}]`;
      return ts`${jsdoc(doc, { deprecated: d.deprecated })}export type ${ident(d.payloadTypeName)} = ${type};`;
    }),
  );
}
