/**
 * URL building: path templates and query parameters serialized as OpenAPI 3.1 §4.8.12.4 ("Style
 * Values" and "Style Examples") describes them.
 */

import { percentEncode } from "./encoding.js";
import { own } from "../shared/own.js";

export type QueryStyle = "form" | "spaceDelimited" | "pipeDelimited" | "deepObject";

export interface QueryParam {
  readonly name: string;
  /** `undefined` leaves the parameter out; `null` sends it with an empty value. */
  readonly value: unknown;
  /** @default "form" */
  readonly style?: QueryStyle | undefined;
  /** @default true for "form" and "deepObject", false for the delimited styles */
  readonly explode?: boolean | undefined;
}

export type PathParams = Readonly<Record<string, string | number | boolean>>;

type Scalar = string | number | boolean | bigint | Date | null;

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Date);

function scalarText(value: unknown, name: string): string {
  const v = value as Scalar;
  if (v === null) return "";
  if (typeof v === "string") return v;
  if (typeof v === "boolean" || typeof v === "bigint") return String(v);
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new TypeError(`Query parameter ${name} is not a finite number`);
    return String(v);
  }
  if (v instanceof Date) return v.toISOString();
  throw new TypeError(`Query parameter ${name} holds a value this style cannot serialize`);
}

const DELIMITER: Readonly<Record<QueryStyle, string>> = {
  form: ",",
  // Delimiters are written literally and the same characters inside values percent-encoded, which
  // keeps them apart for a server that splits before decoding. Spaces cannot be kept apart:
  // OpenAPI itself writes the spaceDelimited delimiter as %20.
  spaceDelimited: "%20",
  pipeDelimited: "|",
  deepObject: ",",
};

function deepObjectPairs(prefix: string, value: Record<string, unknown>, out: string[]): void {
  for (const [key, member] of Object.entries(value)) {
    if (member === undefined) continue;
    const name = `${prefix}[${percentEncode(key)}]`;
    // Nesting and arrays are not defined by OpenAPI; nested brackets and repeated names are the
    // convention servers that accept deepObject understand.
    if (isPlainObject(member)) deepObjectPairs(name, member, out);
    else if (Array.isArray(member)) {
      for (const item of member) if (item !== undefined) out.push(`${name}=${percentEncode(scalarText(item, prefix))}`);
    } else out.push(`${name}=${percentEncode(scalarText(member, prefix))}`);
  }
}

/** The `name=value` pieces of one parameter, already encoded. */
export function serializeQueryParam(param: QueryParam): string[] {
  const { value } = param;
  if (value === undefined) return [];
  const style = param.style ?? "form";
  const explode = param.explode ?? (style === "form" || style === "deepObject");
  const name = percentEncode(param.name);
  const text = (v: unknown): string => percentEncode(scalarText(v, param.name));

  if (style === "deepObject" && isPlainObject(value)) {
    const out: string[] = [];
    deepObjectPairs(name, value, out);
    return out;
  }
  if (Array.isArray(value)) {
    const items = value.filter((v) => v !== undefined);
    if (explode) return items.map((v) => `${name}=${text(v)}`);
    return [`${name}=${items.map(text).join(DELIMITER[style])}`];
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (explode) return entries.map(([k, v]) => `${percentEncode(k)}=${text(v)}`);
    return [`${name}=${entries.flatMap(([k, v]) => [percentEncode(k), text(v)]).join(DELIMITER[style])}`];
  }
  return [`${name}=${text(value)}`];
}

/** The query string without its `?`, parameters in the order given. */
export function serializeQuery(params: readonly QueryParam[] | undefined): string {
  return (params ?? []).flatMap(serializeQueryParam).join("&");
}

/**
 * Fills `{name}` placeholders with percent-encoded values. A value that would change the path's
 * shape (empty, `.` or `..`, which URL parsing resolves even when encoded) is refused.
 */
export function expandPath(template: string, params: PathParams | undefined): string {
  return template.replace(/\{([^{}]+)\}/g, (_, name: string) => {
    const raw = own(params, name);
    if (raw === undefined) throw new TypeError(`Path parameter ${name} is missing`);
    const value = String(raw);
    if (value === "" || value === "." || value === "..") {
      throw new TypeError(`Path parameter ${name} may not be ${JSON.stringify(value)}`);
    }
    return percentEncode(value);
  });
}

/** `baseUrl` + expanded path + query. A trailing slash on `baseUrl` is ignored. */
export function buildUrl(baseUrl: string, path: string, pathParams?: PathParams, query?: readonly QueryParam[]): string {
  const search = serializeQuery(query);
  return `${baseUrl.replace(/\/+$/, "")}${expandPath(path, pathParams)}${search === "" ? "" : `?${search}`}`;
}
