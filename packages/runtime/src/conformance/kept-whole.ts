/**
 * A text member written at its stated maximum length is kept whole. A server that accepts the
 * request but stores (and answers) the text cut short keeps less than its contract allows: a column
 * narrower than the contract, a limit applied twice. The answer must show the member for the check
 * to judge it; a member the answer leaves out, or answers as something else, is not judged here.
 */
import type { BoundaryCase } from "./plan.js";
import { getAt } from "./request.js";

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => v !== null && typeof v === "object" && !Array.isArray(v);

/** The object a write answers: `data` where it is one object, else the body itself. */
function answered(body: unknown): Rec | undefined {
  const data = getAt(body, "/data");
  if (isRec(data)) return data;
  return isRec(body) ? body : undefined;
}

/** `sent`, a text, answered as a proper prefix of itself. */
function cutShort(sent: unknown, got: unknown): got is string {
  return typeof sent === "string" && typeof got === "string" && got.length < sent.length && sent.startsWith(got);
}

/**
 * What a write's answer cut short of a boundary value it accepted (the member at its maximum
 * length, in the body or the query), as a failure message; undefined when it was kept or not shown.
 */
export function cutShortMember(b: BoundaryCase, answerBody: unknown): string | undefined {
  const object = answered(answerBody);
  if (!object) return undefined;
  if (b.bodySet) {
    const got = getAt(object, b.bodySet.pointer);
    if (cutShort(b.bodySet.value, got)) return `the answer holds ${b.bodySet.pointer.slice(1)} cut to ${got.length} of the ${(b.bodySet.value as string).length} characters sent`;
  }
  for (const [name, value] of Object.entries(b.set ?? {})) {
    const got = object[name];
    if (cutShort(value, got)) return `the answer holds ${name} cut to ${got.length} of the ${(value as string).length} characters sent`;
  }
  return undefined;
}
