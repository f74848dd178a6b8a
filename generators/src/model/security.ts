import type { ApiModel, Operation, SchemeKind } from "./ir.js";

/**
 * An operation's security alternatives as runtime scheme kinds, leaving out alternatives that use a
 * scheme the runtime cannot speak (an API key in a cookie, mutual TLS): those cannot be met.
 */
export function supportedAlternatives(model: ApiModel, op: Operation): SchemeKind[][] {
  const kinds = new Map(model.securitySchemes.map((s) => [s.name, s.kind]));
  return op.security.map((req) => req.map((r) => kinds.get(r.scheme))).filter((alt): alt is SchemeKind[] => alt.every((k) => k !== undefined));
}
