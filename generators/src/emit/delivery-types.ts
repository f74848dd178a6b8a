/**
 * Types of what an API delivers (webhooks and callbacks), added to `src/types.ts`. openapi-typescript
 * types root `webhooks` already; callbacks are copied under `webhooks` too, each under its own
 * `typesKey`, so one indexed type reaches every delivery's payload.
 */
import type { ApiModel, Delivery } from "../model/ir.js";
import { parsePointer } from "../load/errors.js";
import { mediaKind } from "./validators/index.js";
import { ident, join, jsdoc, ts, type Code } from "./ts.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * Lists each callback's path item (and each `x-webhooks` entry of a 3.0 document) under `webhooks`
 * in the copy handed to openapi-typescript, which types only root `webhooks`.
 */
export function withCallbacksAsWebhooks(copy: Obj, model: ApiModel): void {
  const listed = isObj(copy["webhooks"]) ? copy["webhooks"] : undefined;
  const missing = model.deliveries.filter((d) => listed === undefined || !Object.prototype.hasOwnProperty.call(listed, d.typesKey) || d.kind === "callback");
  if (missing.length === 0) return;
  const webhooks = (listed ?? (copy["webhooks"] = {})) as Obj;
  for (const d of missing) {
    // The pointer names the operation; its path item is one level up.
    let node: unknown = copy;
    const segs = parsePointer(d.pointer);
    for (const seg of segs.slice(0, -1)) node = isObj(node) ? node[seg] : undefined;
    if (isObj(node) && typeof node["$ref"] === "string") {
      let target: unknown = copy;
      for (const seg of parsePointer(node["$ref"])) target = isObj(target) ? target[seg] : undefined;
      node = target;
    }
    if (isObj(node)) webhooks[d.typesKey] = node;
  }
}

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
      const what = d.kind === "webhook" ? `The payload of the webhook ${d.name} (${d.method.toUpperCase()}).` : `The payload of the callback ${d.name} of ${d.operationId ?? ""} (${d.method.toUpperCase()} ${d.expression ?? ""}).`;
      const doc = [what, d.summary, d.unspecified !== undefined ? `Not shown by the contract: ${d.unspecified}` : undefined].filter((x): x is string => x !== undefined).join("\n\n");
      const type = media === undefined ? ts`undefined` : ts`NonNullable<${deliveryOperationType(d)}["requestBody"]>["content"][${media}]`;
      return ts`${jsdoc(doc, { deprecated: d.deprecated })}export type ${ident(d.payloadTypeName)} = ${type};`;
    }),
  );
}
