/**
 * What the suite needs to send an operation at all: its method, path, security (as scheme kinds)
 * and the parameters it puts on the wire. Shared by the contract's own plan and by workflow steps
 * that call another contract's operation (a second Arazzo source description).
 */
import type { OperationCase, PlanParameter } from "@contractgen/runtime/conformance";
import type { ApiModel, Operation } from "../../model/ir.js";
import { bodyContent } from "./requests.js";

/** Headers the transport sets itself: never sent as parameters. */
const TRANSPORT_HEADERS = ["accept", "content-type", "authorization"];

export function wireOf(
  model: ApiModel,
  op: Operation,
): {
  id: string;
  method: string;
  path: string;
  security: string[][];
  parameters: PlanParameter[];
} {
  const kinds = new Map(model.securitySchemes.map((s) => [s.name, s.kind]));
  return {
    id: op.id,
    method: op.method.toUpperCase(),
    path: op.path,
    security: op.security.map((req) => req.map((r) => kinds.get(r.scheme) ?? "unsupported")),
    parameters: op.parameters
      .filter((p) => p.in !== "cookie" && !(p.in === "header" && TRANSPORT_HEADERS.includes(p.name.toLowerCase())))
      .map((p) => ({ name: p.name, in: p.in, required: p.required, style: p.style, explode: p.explode })),
  };
}

/** `accept`: the media types of the operation's answers, success first, each once. */
export function acceptOf(op: Operation): { accept?: string } {
  const ordered = [...op.responses.filter((r) => /^2/.test(r.status)), ...op.responses.filter((r) => !/^2/.test(r.status))];
  const types = [...new Set(ordered.flatMap((r) => r.contents.map((c) => c.mediaType)).filter((t) => !t.includes("*")))];
  return types.length > 0 ? { accept: types.join(", ") } : {};
}

/**
 * Another contract's operation as a workflow step sends it: how to put it on the wire and the media
 * type of its body, nothing to judge its answers by (that contract's own suite does).
 */
export function foreignOperation(model: ApiModel, op: Operation): OperationCase {
  const media = bodyContent(op)?.mediaType;
  return {
    ...wireOf(model, op),
    ...acceptOf(op),
    ...(op.unspecified !== undefined ? { skip: `the other contract does not show this operation's shape: ${op.unspecified}` } : {}),
    ...(media !== undefined ? { positive: { values: {}, bodyMediaType: media } } : {}),
  };
}
