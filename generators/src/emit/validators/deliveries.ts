import { join, literal, ts, type Code } from "../ts.js";

/**
 * The validation table of a contract's deliveries (webhooks and callbacks), appended to
 * `validators.ts` when it has any: the same shape as the operations' table, so the runtime's
 * `createValidation` checks an incoming payload (the body), its header parameters and the
 * receiver's answer exactly as it checks a request and a response. `idType` is the union of the
 * deliveries' ids (validators/index.ts `idUnion`).
 */
export function deliveryTable(idType: Code, entries: readonly Code[], invalidRequest: { readonly type: string; readonly title: string }): Code {
  if (entries.length === 0) return ts``;
  return ts`
/** Every delivery this package validates, by its id (operationId, else the webhook's name). */
export type DeliveryId = ${idType};

/** Per delivery (webhook or callback): the compiled header, payload and answer validators. */
export const deliveryValidators: Readonly<Record<DeliveryId, OperationValidation>> = {
${join(entries)}
};

/**
 * validateDelivery checks what a receiver got (headers, payload as the body) and answers the
 * contract's invalid-request problem naming every failure; validateDeliveryReply checks the
 * receiver's answer.
 */
export const { validateRequest: validateDelivery, validateResponse: validateDeliveryReply } = createValidation<DeliveryId>(deliveryValidators, { invalidRequest: ${literal(invalidRequest)} });
`;
}
