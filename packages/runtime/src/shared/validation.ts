/**
 * Request and response validation over precompiled validators. A generated `validators` module
 * supplies one table entry per operation (its compiled functions and parameter facts); this module
 * turns raw HTTP input into validated, coerced values, or into the contract's invalid-request
 * problem naming every failure.
 */
import { own, setOwn } from "./own.js";

/** The shape of an ajv error object, as precompiled standalone validators report them. */
export interface CompiledError {
  readonly instancePath: string;
  readonly schemaPath: string;
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly message?: string;
}

/** A precompiled validator: returns true or false and leaves its errors on itself. */
export interface CompiledValidator {
  (data: unknown): boolean;
  errors?: readonly CompiledError[] | null;
}

export type ParameterLocation = "path" | "query" | "header" | "cookie";

export interface ParameterFact {
  readonly name: string;
  readonly in: ParameterLocation;
  readonly style: string;
  readonly explode: boolean;
  /** The schema is an array: the raw value is split by its style before validation. */
  readonly array: boolean;
}

export interface OperationValidation {
  /** Validates `{ path, query, header, cookie }` with coercion of strings and defaults applied. */
  readonly params: CompiledValidator;
  readonly parameters: readonly ParameterFact[];
  readonly body?: {
    readonly required: boolean;
    /** Media type → validator; `undefined` means the media type is accepted without validation. */
    readonly media: Readonly<Record<string, CompiledValidator | undefined>>;
  };
  /** Status (`200`, `2XX`, `default`) → media type → validator (`undefined`: not validated). */
  readonly responses: Readonly<Record<string, Readonly<Record<string, CompiledValidator | undefined>>>>;
}

/** One failure, in the invalid-request problem's own shape. */
export interface InvalidParameter {
  readonly message: string;
  /** Parameter name (or `body` plus a JSON pointer) → the offending values, as text. */
  readonly parameters: Readonly<Record<string, readonly string[]>>;
}

export interface InvalidRequestBody {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly errors: readonly InvalidParameter[];
}

export interface RequestInput {
  readonly path?: Readonly<Record<string, unknown>>;
  readonly query?: Readonly<Record<string, unknown>> | URLSearchParams;
  readonly headers?: Readonly<Record<string, unknown>>;
  readonly cookies?: Readonly<Record<string, unknown>>;
  readonly body?: unknown;
  /** Media type of the body; `application/json` when a body is given without one. */
  readonly contentType?: string;
}

export interface RequestValues {
  readonly path: Record<string, unknown>;
  readonly query: Record<string, unknown>;
  readonly headers: Record<string, unknown>;
  readonly cookies: Record<string, unknown>;
  readonly body: unknown;
}

export type RequestValidation = { readonly valid: true; readonly value: RequestValues } | { readonly valid: false; readonly problem: InvalidRequestBody; readonly unsupportedMediaType?: boolean };

export type ResponseValidation = { readonly valid: true } | { readonly valid: false; readonly errors: readonly InvalidParameter[] };

export interface ValidationOptions {
  /** The type and title of the contract's invalid-request problem. @default about:blank, "Bad Request" */
  readonly invalidRequest?: { readonly type: string; readonly title: string };
  /**
   * Deepest nesting of objects and arrays a request or delivery body may have; a deeper one is
   * invalid (400, naming the body) before any compiled validator, which recurses per level, sees it.
   * @default MAX_BODY_DEPTH
   */
  readonly maxBodyDepth?: number;
}

/**
 * Deepest body nesting validateRequest accepts by default: far beyond what JSON APIs send, far
 * below what overflows the compiled validators' recursion (a 10,000-deep body answered 500).
 * @default 256
 */
export const MAX_BODY_DEPTH = 256;

/**
 * Whether `value` nests objects and arrays deeper than `limit`: iterative, so any depth is measured
 * without recursion, and it stops at the first value too deep.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== "object") return false;
  const stack: unknown[] = [value];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const node = stack.pop() as object;
    const depth = depths.pop() as number;
    if (depth > limit) return true;
    const children = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) {
      if (child !== null && typeof child === "object") {
        stack.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/** The one verdict of every valid reply: nothing to allocate per request. */
const VALID: ResponseValidation = Object.freeze({ valid: true });

/** A plain copy without `__proto__` keys, so request input can never reach a prototype. */
function copyRecord(source: Readonly<Record<string, unknown>> | URLSearchParams | undefined, lowerKeys = false): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (source === undefined) return out;
  const set = (k: string, v: unknown): void => {
    const key = lowerKeys ? k.toLowerCase() : k;
    // setOwn: a `__proto__` member the contract may name is kept as data, never as a prototype.
    if (Object.prototype.hasOwnProperty.call(out, key)) {
      const prev = out[key];
      setOwn(out, key, Array.isArray(prev) ? [...prev, v] : [prev, v]);
    } else setOwn(out, key, v);
  };
  if (source instanceof URLSearchParams) source.forEach((v, k) => set(k, v));
  else for (const k of Object.keys(source)) set(k, source[k]);
  return out;
}

const SEPARATORS: Readonly<Record<string, string>> = { form: ",", simple: ",", spaceDelimited: " ", pipeDelimited: "|" };

/** Splits `a,b` into `["a","b"]` for array parameters that are not exploded. */
function splitArrays(values: Record<string, unknown>, facts: readonly ParameterFact[], location: ParameterLocation): void {
  for (const f of facts) {
    if (f.in !== location || !f.array) continue;
    const key = location === "header" ? f.name.toLowerCase() : f.name;
    const raw = values[key];
    const sep = SEPARATORS[f.style] ?? ",";
    if (typeof raw === "string" && (!f.explode || f.in !== "query")) values[key] = splitValue(raw, sep);
    else if (Array.isArray(raw) && !f.explode) values[key] = raw.flatMap((r) => (typeof r === "string" ? splitValue(r, sep) : [r]));
  }
}

function splitValue(s: string, sep: string): string[] {
  return s === "" ? [] : s.split(sep);
}

/** An operation's array parameters, the only ones `splitArrays` touches: most operations have none in most locations. */
function arrayFacts(parameters: readonly ParameterFact[]): readonly ParameterFact[] {
  return parameters.filter((f) => f.array);
}

function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? "application/json").split(";")[0]!.trim().toLowerCase();
}

/** Finds the entry for a media type: exact, then `type/*`, then `*​/*`. */
function pickMedia<T>(table: Readonly<Record<string, T>>, contentType: string | undefined): { found: boolean; value: T | undefined } {
  const mt = mediaTypeOf(contentType);
  const keys = Object.keys(table);
  const exact = keys.find((k) => k.toLowerCase() === mt);
  const wild = keys.find((k) => k.toLowerCase() === `${mt.split("/")[0]}/*`) ?? keys.find((k) => k === "*/*");
  const key = exact ?? wild;
  return key === undefined ? { found: false, value: undefined } : { found: true, value: table[key] };
}

const text = (v: unknown): string => (typeof v === "string" ? v : v === undefined ? "" : (JSON.stringify(v) ?? String(v)));

function valuesAt(root: unknown, pointer: string): string[] {
  let node = root;
  for (const seg of pointer.split("/").slice(1)) {
    const key = seg.replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object" || !Object.prototype.hasOwnProperty.call(node, key)) return [];
    node = (node as Record<string, unknown>)[key];
  }
  if (node === undefined) return [];
  return Array.isArray(node) && node.every((x) => typeof x !== "object") ? node.map(text) : [text(node)];
}

/**
 * Turns validator errors into invalid-request entries. `scope` says how instance paths map to names:
 * for parameters the first segment is the location and the second the parameter name; for bodies
 * the name is `body` plus the pointer.
 */
export function describeErrors(errors: readonly CompiledError[], data: unknown, scope: "params" | "body" | "response"): InvalidParameter[] {
  const out: InvalidParameter[] = [];
  for (const e of errors) {
    let pointer = e.instancePath;
    const params = e.params;
    const fields = Array.isArray(params["fields"]) ? (params["fields"] as string[]) : undefined;
    if (e.keyword === "required" && typeof params["missingProperty"] === "string") pointer += `/${escape(params["missingProperty"])}`;
    if (e.keyword === "additionalProperties" && typeof params["additionalProperty"] === "string") pointer += `/${escape(params["additionalProperty"])}`;
    const names: string[] = [];
    const entries: Record<string, readonly string[]> = {};
    if (fields) {
      for (const f of fields) {
        const name = nameOf(`${e.instancePath}/${escape(f)}`, scope);
        names.push(name);
        entries[name] = valuesAt(data, `${e.instancePath}/${escape(f)}`);
      }
    } else {
      const name = nameOf(pointer, scope);
      names.push(name);
      entries[name] = e.keyword === "required" ? [] : valuesAt(data, pointer);
    }
    const what = e.keyword === "required" ? "is required" : e.keyword === "additionalProperties" ? "is not allowed" : (e.message ?? "is invalid");
    const message = e.keyword === "x-rules" ? (e.message ?? "violates a rule") : `${names.join(", ")} ${what}`;
    out.push({ message, parameters: entries });
  }
  return out;
}

function escape(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

function unescape(segment: string): string {
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}

function nameOf(pointer: string, scope: "params" | "body" | "response"): string {
  if (scope !== "params") return pointer === "" ? "body" : `body${pointer}`;
  const segs = pointer.split("/").slice(1).map(unescape);
  if (segs.length <= 1) return segs[0] ?? "request";
  const [, name, ...rest] = segs;
  return rest.length === 0 ? (name as string) : `${name as string}/${rest.join("/")}`;
}

/** Status lookup as OpenAPI defines it: exact code, then `4XX`-style range, then `default`. */
function pickStatus<T>(table: Readonly<Record<string, T>>, status: number): T | undefined {
  return own(table, String(status)) ?? own(table, `${Math.floor(status / 100)}XX`) ?? own(table, "default");
}

/** One operation's replies, worked out once per status: the declared media table, or undefined. */
type ReplyChecks = Map<number, MediaChecks | undefined>;

/** One declared status's media types, with the lookups `pickMedia` would do answered ahead. */
interface MediaChecks {
  readonly declared: readonly string[];
  /** Content type exactly as the caller passes it → the media entry it resolves to. */
  readonly byContentType: Map<string | undefined, { found: boolean; value: CompiledValidator | undefined }>;
  readonly table: Readonly<Record<string, CompiledValidator | undefined>>;
}

/**
 * A reply is checked many times against few (status, content type) pairs: the answer of
 * `pickStatus` and `pickMedia` for a pair is kept, so a request pays one Map lookup for each. The
 * content-type cache is bounded: a handler inventing a new type per reply must not grow it forever.
 */
const MAX_CONTENT_TYPES = 64;
const MAX_STATUSES = 512;

function mediaChecksFor(checks: ReplyChecks, op: OperationValidation, status: number): MediaChecks | undefined {
  if (checks.has(status)) return checks.get(status);
  const table = pickStatus(op.responses, status);
  const media = table === undefined ? undefined : { declared: Object.keys(table), byContentType: new Map(), table };
  // Handlers answer with the contract's few statuses; the bound only guards against a handler that does not.
  if (checks.size < MAX_STATUSES) checks.set(status, media);
  return media;
}

function mediaFor(checks: MediaChecks, contentType: string | undefined): { found: boolean; value: CompiledValidator | undefined } {
  let hit = checks.byContentType.get(contentType);
  if (hit === undefined) {
    hit = pickMedia(checks.table, contentType);
    if (checks.byContentType.size < MAX_CONTENT_TYPES) checks.byContentType.set(contentType, hit);
  }
  return hit;
}

export function createValidation<Id extends string>(
  table: Readonly<Record<Id, OperationValidation>>,
  options: ValidationOptions = {},
): {
  validateRequest(operationId: Id, input: RequestInput): RequestValidation;
  validateResponse(operationId: Id, status: number, contentType: string | undefined, body: unknown): ResponseValidation;
} {
  const invalid = options.invalidRequest ?? { type: "about:blank", title: "Bad Request" };
  const maxBodyDepth = options.maxBodyDepth ?? MAX_BODY_DEPTH;
  const problem = (errors: InvalidParameter[]): InvalidRequestBody => ({
    type: invalid.type,
    title: invalid.title,
    status: 400,
    detail: errors.map((e) => e.message).join("; "),
    errors,
  });
  // Keyed by the table entry, not the id: an id may be any string, `__proto__` included.
  const replies = new WeakMap<OperationValidation, ReplyChecks>();
  const arraysOf = new WeakMap<OperationValidation, readonly ParameterFact[]>();
  const lookup = (id: Id): OperationValidation => {
    if (!Object.prototype.hasOwnProperty.call(table, id)) throw new RangeError(`unknown operationId: ${String(id)}`);
    return table[id];
  };

  return {
    validateRequest(operationId, input) {
      const op = lookup(operationId);
      const values = {
        path: copyRecord(input.path),
        query: copyRecord(input.query),
        header: copyRecord(input.headers, true),
        cookie: copyRecord(input.cookies),
      };
      let arrays = arraysOf.get(op);
      if (arrays === undefined) arraysOf.set(op, (arrays = arrayFacts(op.parameters)));
      if (arrays.length > 0) {
        splitArrays(values.path, arrays, "path");
        splitArrays(values.query, arrays, "query");
        splitArrays(values.header, arrays, "header");
        splitArrays(values.cookie, arrays, "cookie");
      }
      const errors: InvalidParameter[] = [];
      if (!op.params(values)) errors.push(...describeErrors(op.params.errors ?? [], values, "params"));

      let body = input.body;
      let unsupportedMediaType = false;
      if (op.body) {
        if (body === undefined) {
          if (op.body.required) errors.push({ message: "body is required", parameters: { body: [] } });
        } else {
          const media = pickMedia(op.body.media, input.contentType);
          if (!media.found) {
            unsupportedMediaType = true;
            errors.push({
              message: `content type ${mediaTypeOf(input.contentType)} is not accepted; use ${Object.keys(op.body.media).join(" or ")}`,
              parameters: { "content-type": [mediaTypeOf(input.contentType)] },
            });
          } else if (nestsDeeperThan(body, maxBodyDepth)) {
            errors.push({ message: `body nests objects and arrays deeper than ${maxBodyDepth} levels`, parameters: { body: [] } });
          } else if (media.value) {
            // Form bodies arrive as strings: copy so coercion does not touch the caller's object.
            body = body !== null && typeof body === "object" && !Array.isArray(body) ? copyRecord(body as Record<string, unknown>) : body;
            if (!media.value(body)) errors.push(...describeErrors(media.value.errors ?? [], body, "body"));
          }
        }
      }
      if (errors.length > 0) return { valid: false, problem: problem(errors), ...(unsupportedMediaType ? { unsupportedMediaType } : {}) };
      return { valid: true, value: { path: values.path, query: values.query, headers: values.header, cookies: values.cookie, body } };
    },

    validateResponse(operationId, status, contentType, body) {
      const op = lookup(operationId);
      let checks = replies.get(op);
      if (checks === undefined) replies.set(op, (checks = new Map()));
      const byMedia = mediaChecksFor(checks, op, status);
      if (!byMedia) return { valid: false, errors: [{ message: `status ${status} is not declared for ${String(operationId)}`, parameters: { status: [String(status)] } }] };
      const declared = byMedia.declared;
      if (declared.length === 0) {
        return body === undefined || body === "" ? VALID : { valid: false, errors: [{ message: `status ${status} declares no body, but one was sent`, parameters: { body: [] } }] };
      }
      const media = mediaFor(byMedia, contentType);
      if (!media.found) {
        return {
          valid: false,
          errors: [
            { message: `content type ${mediaTypeOf(contentType)} is not declared for status ${status}; expected ${declared.join(" or ")}`, parameters: { "content-type": [mediaTypeOf(contentType)] } },
          ],
        };
      }
      if (!media.value || media.value(body)) return VALID;
      return { valid: false, errors: describeErrors(media.value.errors ?? [], body, "response") };
    },
  };
}
