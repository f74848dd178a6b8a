/**
 * Applies `x-hashed` to a request body: the generator lists where hashed fields sit (JSON pointers
 * with `*` for every item of an array) and which identifier each is; the client normalizes and
 * hashes those values before sending, on a copy of the caller's body.
 */
import { hashIdentifier, sha256Hex, isSha256Hex, type IdentifierKind } from "./hash.js";

export interface HashedField {
  /** JSON pointer to the field; `*` stands for every array item (`/*​/params/users/*​/email`). */
  readonly pointer: string;
  /** How the value is normalized before hashing; unknown names are trimmed only. */
  readonly kind?: IdentifierKind | undefined;
}

function hashValue(value: unknown, kind: IdentifierKind | undefined): unknown {
  if (typeof value !== "string" || value === "") return value;
  if (kind !== undefined) return hashIdentifier(kind, value);
  const trimmed = value.trim();
  return isSha256Hex(trimmed) ? trimmed.toLowerCase() : sha256Hex(trimmed);
}

function apply(node: unknown, segs: readonly string[], kind: IdentifierKind | undefined): unknown {
  if (segs.length === 0) return Array.isArray(node) ? node.map((v) => hashValue(v, kind)) : hashValue(node, kind);
  const [seg, ...rest] = segs as [string, ...string[]];
  if (seg === "*") return Array.isArray(node) ? node.map((item) => apply(item, rest, kind)) : node;
  if (node === null || typeof node !== "object" || Array.isArray(node) || !Object.prototype.hasOwnProperty.call(node, seg)) return node;
  const copy: Record<string, unknown> = { ...(node as Record<string, unknown>) };
  copy[seg] = apply(copy[seg], rest, kind);
  return copy;
}

/** The body with every listed field normalized and SHA-256 hashed; the input is not modified. */
export function applyHashing(body: unknown, fields: readonly HashedField[]): unknown {
  let out = body;
  for (const f of fields) {
    const segs = f.pointer
      .split("/")
      .slice(1)
      .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
    out = apply(out, segs, f.kind);
  }
  return out;
}
