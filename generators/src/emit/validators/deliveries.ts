import { literal, ts, type Code } from "../ts.js";

/**
 * What `validators.ts` adds for a contract with deliveries (webhooks and callbacks): their table
 * (compiled/validators.tables.js) behind the same `createValidation` as the operations', so an
 * incoming payload (the body), its header parameters and the receiver's answer are checked exactly
 * as a request and a response are.
 */
export function deliveryValidation(invalidRequest: { readonly type: string; readonly title: string }): Code {
  return ts`
/** Every delivery this package validates, by its id (operationId, else the webhook's name). */
export type { DeliveryId };

/** Per delivery (webhook or callback): the compiled header, payload and answer validators. */
export { deliveryValidators };

/**
 * validateDelivery checks what a receiver got (headers, payload as the body) and answers the
 * contract's invalid-request problem naming every failure; validateDeliveryReply checks the
 * receiver's answer.
 */
export const { validateRequest: validateDelivery, validateResponse: validateDeliveryReply } = createValidation<DeliveryId>(deliveryValidators, { invalidRequest: ${literal(invalidRequest)} });
`;
}
