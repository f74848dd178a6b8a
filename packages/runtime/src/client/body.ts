/** Request bodies by media type, and response bodies parsed by their `Content-Type`. */

import { ResponseParseError } from "./errors.js";

/** The lower-cased media type without parameters: `application/problem+json; charset=utf-8` → `application/problem+json`. */
export function mediaType(contentType: string | null | undefined): string | undefined {
  if (contentType === null || contentType === undefined) return undefined;
  const type = contentType.split(";", 1)[0]?.trim().toLowerCase();
  return type === "" ? undefined : type;
}

/** `application/json`, `application/problem+json`, any `+json` suffix. */
export function isJsonMediaType(type: string | undefined): boolean {
  return type !== undefined && (type === "application/json" || type.endsWith("+json"));
}

export const FORM_URLENCODED = "application/x-www-form-urlencoded";
const MULTIPART = "multipart/form-data";

export interface EncodedBody {
  readonly body: string | Uint8Array<ArrayBuffer> | ArrayBuffer | Blob | URLSearchParams | FormData | undefined;
  /** The `Content-Type` to send; undefined lets fetch choose (multipart needs its boundary). */
  readonly contentType: string | undefined;
  /** The form parameters, when the body is form-encoded: OAuth 1.0a signs them. */
  readonly form: URLSearchParams | undefined;
}

const isRaw = (v: unknown): v is Uint8Array | ArrayBuffer | Blob => v instanceof Uint8Array || v instanceof ArrayBuffer || v instanceof Blob;

/** fetch cannot send a view of a SharedArrayBuffer; such views are copied. */
function ownBuffer(body: Uint8Array | ArrayBuffer | Blob): Uint8Array<ArrayBuffer> | ArrayBuffer | Blob {
  if (!(body instanceof Uint8Array)) return body;
  return body.buffer instanceof ArrayBuffer ? (body as Uint8Array<ArrayBuffer>) : new Uint8Array(body);
}

function formScalar(value: unknown, name: string): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  if (value instanceof Date) return value.toISOString();
  throw new TypeError(`Form field ${name} must be a string, number, boolean or an array of them`);
}

function toSearchParams(body: unknown): URLSearchParams {
  if (body instanceof URLSearchParams) return body;
  if (typeof body === "string") return new URLSearchParams(body);
  if (body === null || typeof body !== "object") throw new TypeError("A form-encoded body must be an object");
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(body)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) params.append(name, formScalar(v, name));
    else params.append(name, formScalar(value, name));
  }
  return params;
}

function toFormData(body: unknown): FormData {
  if (body instanceof FormData) return body;
  if (body === null || typeof body !== "object") throw new TypeError("A multipart body must be an object or FormData");
  const data = new FormData();
  for (const [name, value] of Object.entries(body)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) {
      if (v instanceof Blob) data.append(name, v);
      else if (v instanceof ArrayBuffer) data.append(name, new Blob([v]));
      else if (v instanceof Uint8Array) data.append(name, new Blob([new Uint8Array(v)]));
      else data.append(name, formScalar(v, name));
    }
  }
  return data;
}

/**
 * Encodes a request body for its media type:
 * - JSON media types (`application/json`, `*+json`): `JSON.stringify`, strings included;
 * - `application/x-www-form-urlencoded`: a `URLSearchParams` (from an object, arrays repeating the name);
 * - `multipart/form-data`: `FormData`, passed through or built from an object;
 * - anything else: a string, `Uint8Array`, `ArrayBuffer` or `Blob`, sent as is.
 * Without a content type, `URLSearchParams` and `FormData` keep their own, raw bytes go as given,
 * strings as text/plain and every other value as JSON.
 */
export function encodeBody(body: unknown, contentType?: string): EncodedBody {
  if (body === undefined) return { body: undefined, contentType, form: undefined };
  const type = mediaType(contentType);
  if (body instanceof FormData || type === MULTIPART) {
    // fetch writes the Content-Type itself, with the boundary it chose.
    return { body: toFormData(body), contentType: undefined, form: undefined };
  }
  if (type === FORM_URLENCODED || (type === undefined && body instanceof URLSearchParams)) {
    const form = toSearchParams(body);
    return { body: form, contentType: contentType ?? FORM_URLENCODED, form };
  }
  if (isRaw(body)) return { body: ownBuffer(body), contentType, form: undefined };
  if (isJsonMediaType(type)) return { body: JSON.stringify(body), contentType, form: undefined };
  if (type === undefined) {
    if (typeof body === "string") return { body, contentType: "text/plain;charset=utf-8", form: undefined };
    return { body: JSON.stringify(body), contentType: "application/json", form: undefined };
  }
  if (typeof body === "string") return { body, contentType, form: undefined };
  throw new TypeError(`A ${type} body must be a string, Uint8Array, ArrayBuffer or Blob`);
}

/** A response as the generated client sees it: status, headers and the body parsed by media type. */
export interface RawResponse {
  readonly status: number;
  readonly headers: Headers;
  /** The `Content-Type` header as sent, parameters included. */
  readonly contentType: string | undefined;
  /**
   * Parsed JSON for JSON media types (problem+json included); a `Record<string, string>` for
   * form-encoded bodies (a repeated name keeps its last value); a string for `text/*`; a
   * `Uint8Array` otherwise; `undefined` for 204, 205, 304, HEAD and empty bodies.
   */
  readonly body: unknown;
}

function decodeText(bytes: Uint8Array, contentType: string | undefined): string {
  const charset = /;\s*charset="?([^";]+)"?/i.exec(contentType ?? "")?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(bytes);
  } catch {
    // An unknown charset label: UTF-8 is the only sensible guess for an HTTP API.
    return new TextDecoder().decode(bytes);
  }
}

/** Parses a form-encoded text onto a null-prototype object, so names like `__proto__` stay data. */
export function parseForm(text: string): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  for (const [name, value] of new URLSearchParams(text)) out[name] = value;
  return out;
}

/** Reads and parses a fetch `Response` body. */
export async function readResponse(response: Response, method: string): Promise<RawResponse> {
  const { status, headers } = response;
  const contentType = headers.get("content-type") ?? undefined;
  const base = { status, headers, contentType };
  if (method.toUpperCase() === "HEAD" || status === 204 || status === 205 || status === 304) {
    await response.body?.cancel();
    return { ...base, body: undefined };
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.byteLength === 0) return { ...base, body: undefined };
  const type = mediaType(contentType);
  if (isJsonMediaType(type)) {
    const text = decodeText(bytes, contentType);
    try {
      return { ...base, body: JSON.parse(text) as unknown };
    } catch (cause) {
      throw new ResponseParseError(status, contentType, text, { cause, headers });
    }
  }
  if (type === FORM_URLENCODED) return { ...base, body: parseForm(decodeText(bytes, contentType)) };
  if (type?.startsWith("text/")) return { ...base, body: decodeText(bytes, contentType) };
  return { ...base, body: bytes };
}
