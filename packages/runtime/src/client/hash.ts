/**
 * Audience identifiers, normalized then SHA-256 hashed. Document 2 requires every identifier except
 * `partner_user_id` to be "normalized and SHA256-hashed" but shows neither the normalization nor the
 * digest encoding. Our choice, applied identically everywhere:
 *
 * | kind           | normalization                                                  |
 * |----------------|----------------------------------------------------------------|
 * | `email`        | trim, lower-case                                               |
 * | `phone_number` | keep digits only (so a leading `+` and all punctuation go)     |
 * | `handle`       | trim, drop one leading `@`, lower-case                         |
 * | `device_id`    | trim, lower-case                                               |
 * | `platform_id`  | trim                                                           |
 *
 * The digest is SHA-256 of the UTF-8 bytes of the normalized text, written as 64 lower-case hex
 * characters. A value that already is 64 hex characters is taken as hashed and only lower-cased,
 * so hashing twice changes nothing.
 */

import { sha256HexOf } from "../shared/digest.js";

export type IdentifierKind = "email" | "device_id" | "handle" | "platform_id" | "phone_number";

/** A user of a membership operation, identifiers unhashed or hashed. */
export interface UserIdentifiers {
  readonly email?: readonly string[];
  readonly device_id?: readonly string[];
  readonly handle?: readonly string[];
  readonly platform_id?: readonly string[];
  readonly phone_number?: readonly string[];
  /** Sent as given: document 2 exempts it from hashing. */
  readonly partner_user_id?: readonly string[];
}

/** Trim and lower-case. No provider-specific rewriting (dots, `+tags`): the document shows none. */
export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}

/**
 * Digits only: `+1 (555) 010-0999` → `15550100999`. The number is expected with its country code;
 * none is added.
 */
export function normalizePhone(value: string): string {
  return value.replace(/\D+/g, "");
}

/** Trim, drop one leading `@`, lower-case: `@Example_User` → `example_user`. */
export function normalizeHandle(value: string): string {
  return value.trim().replace(/^@/, "").toLowerCase();
}

/** Trim and lower-case (advertising IDs are hex UUIDs, written in either case). */
export function normalizeDeviceId(value: string): string {
  return value.trim().toLowerCase();
}

/** Trim only: platform ids are numeric text. */
export function normalizePlatformId(value: string): string {
  return value.trim();
}

/** Lower-case hex SHA-256 of the UTF-8 bytes of `text`. */
export function sha256Hex(text: string): string {
  return sha256HexOf(text);
}

const NORMALIZE: Readonly<Record<IdentifierKind, (value: string) => string>> = {
  email: normalizeEmail,
  phone_number: normalizePhone,
  handle: normalizeHandle,
  device_id: normalizeDeviceId,
  platform_id: normalizePlatformId,
};

const HASHED = /^[0-9a-fA-F]{64}$/;

/** True when `value` (trimmed) already looks like a SHA-256 hex digest. */
export function isSha256Hex(value: string): boolean {
  return HASHED.test(value.trim());
}

/**
 * The hashed form of one identifier. Throws a `TypeError` when nothing is left after normalization,
 * since the hash of an empty string would match no one and hide the mistake.
 */
export function hashIdentifier(kind: IdentifierKind, value: string): string {
  if (isSha256Hex(value)) return value.trim().toLowerCase();
  const normalized = NORMALIZE[kind](value);
  if (normalized === "") throw new TypeError(`The ${kind} identifier is empty after normalization`);
  return sha256Hex(normalized);
}

const KINDS = Object.keys(NORMALIZE) as IdentifierKind[];

/**
 * A copy of the user with every identifier hashed except `partner_user_id`, which is copied as is.
 * Keys other than the six of document 2 are left out rather than sent unhashed.
 */
export function hashUserIdentifiers(user: UserIdentifiers): UserIdentifiers {
  const out: { -readonly [K in keyof UserIdentifiers]: UserIdentifiers[K] } = {};
  for (const kind of KINDS) {
    const values = user[kind];
    if (values !== undefined) out[kind] = values.map((v) => hashIdentifier(kind, v));
  }
  if (user.partner_user_id !== undefined) out.partner_user_id = [...user.partner_user_id];
  return out;
}
