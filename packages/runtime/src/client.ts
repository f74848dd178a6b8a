/**
 * What every generated client does per call, written once: build the request from an operation's
 * description and the caller's arguments, send it, hand back the success body or throw the error
 * class the contract names. Generated clients are typed tables over this.
 */
import type { OAuth1RequestOptions } from "./auth.js";
import { RateLimiter, runBatches, type BatchOutcome } from "./batch.js";
import { applyHashing, type HashedField } from "./hashing-plan.js";
import { paginate } from "./pagination.js";
import type { SecurityAlternatives } from "./security.js";
import { streamWithReconnect, type ReconnectBackoff } from "./stream.js";
import type { HttpMethod, RawResponse, RequestSpec, Transport } from "./transport.js";
import type { QueryParam } from "./url.js";

/** One parameter as the contract declares it. */
export interface ParameterSpec {
  readonly name: string;
  /** Key of the value in the method's arguments when it differs from `name` (a clash with `body`). */
  readonly arg?: string;
  readonly in: "path" | "query" | "header" | "cookie";
  readonly style?: string;
  readonly explode?: boolean;
}

/** One operation as the generated client describes it. */
export interface OperationSpec {
  readonly id: string;
  readonly method: HttpMethod;
  readonly path: string;
  /** Server URL template when the operation names its own (`{ads_sandbox_url}`). */
  readonly server?: string;
  readonly parameters: readonly ParameterSpec[];
  /** Media type of the request body, when the operation takes one. */
  readonly bodyMediaType?: string;
  readonly security?: SecurityAlternatives;
  /** OAuth 1.0a parameters the contract lists as request parameters; sent in the header instead. */
  readonly oauth1Params?: readonly string[];
  readonly pagination?: { readonly request: string; readonly response: string; readonly items: string };
  readonly batch?: {
    /** JSON pointer of the item array in the body (`""` for a body that is the array). */
    readonly pointer: string;
    readonly maxItems?: number;
    readonly maxBytes?: number;
    readonly rate?: { readonly requests: number; readonly windowMs: number };
  };
  /** Request body fields to normalize and hash before sending (`x-hashed`). */
  readonly hashed?: readonly HashedField[];
}

/** Per-call options every generated method accepts beside its parameters. */
export interface CallOptions {
  /** Aborts the call, retries included. @default undefined */
  readonly signal?: AbortSignal | undefined;
  /** Limit for this call, retries included, in milliseconds. @default the client's timeoutMs */
  readonly timeoutMs?: number | undefined;
  /** Extra headers for this call. @default undefined */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** OAuth 1.0a parameters of a 3-legged flow step (callback, verifier, request token and secret). @default undefined */
  readonly oauth1?: OAuth1RequestOptions | undefined;
}

/** Maps a non-2xx answer to the error the contract names for it. */
export type ErrorMapper = (operationId: string, response: RawResponse) => Error;

export interface CallerOptions {
  /** The transport for the client's base URL. */
  readonly transport: Transport;
  /** Makes a transport for an operation-level server URL (resolved), e.g. a sandbox. */
  readonly transportFor?: (baseUrl: string) => Transport;
  /** Server variables for operation-level server templates, defaults already applied. */
  readonly serverVariables?: Readonly<Record<string, string>>;
  readonly toError: ErrorMapper;
}

const CALL_OPTION_KEYS = new Set(["signal", "timeoutMs", "headers", "oauth1", "body"]);
const OAUTH1_OPTION: Readonly<Record<string, keyof OAuth1RequestOptions>> = {
  oauth_callback: "callback",
  oauth_verifier: "verifier",
  oauth_token: "token",
};

type Args = Readonly<Record<string, unknown>>;

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function pointerGet(value: unknown, pointer: string): unknown {
  let node = value;
  for (const seg of pointer.split("/").slice(1)) {
    if (!isObject(node)) return undefined;
    node = node[seg.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return node;
}

function pointerSet(value: unknown, pointer: string, replacement: unknown): unknown {
  if (pointer === "") return replacement;
  const segs = pointer.split("/").slice(1).map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  const root = isObject(value) ? { ...value } : {};
  let node: Record<string, unknown> = root;
  segs.forEach((seg, i) => {
    if (i === segs.length - 1) node[seg] = replacement;
    else {
      const next = isObject(node[seg]) ? { ...(node[seg] as Record<string, unknown>) } : {};
      node[seg] = next;
      node = next;
    }
  });
  return root;
}

/** Turns `{ads_sandbox_url}`-style templates into URLs with the given variables. */
export function resolveServer(template: string, variables: Readonly<Record<string, string>>): string {
  return template.replace(/\{([^}]+)\}/g, (m, name: string) => variables[name] ?? m);
}

export interface Caller {
  /** Sends the call; resolves with the parsed body of a 2xx answer, rejects with the mapped error. */
  call(op: OperationSpec, args: Args): Promise<unknown>;
  /** Sends the call; resolves with status, headers and body whatever the status. */
  raw(op: OperationSpec, args: Args): Promise<RawResponse>;
  /** Every item of every page, following the operation's cursor until it ends. */
  iterate(op: OperationSpec, args: Args): AsyncGenerator<unknown, void, undefined>;
  /** Splits the body's item array by the operation's limits, paces the requests, one outcome per request. */
  batch(op: OperationSpec, args: Args): Promise<BatchOutcome<unknown, unknown>[]>;
  /** Newline-delimited JSON events, reconnecting with backoff; problem events surface as errors. */
  stream(op: OperationSpec, args: Args, options?: StreamCallOptions): AsyncGenerator<unknown, void, undefined>;
}

export interface StreamCallOptions {
  readonly backoff?: ReconnectBackoff;
  readonly onReconnect?: (attempt: number, reason: Error) => void;
  /** Maps a parsed event to the error it stands for (problem events); undefined for ordinary events. */
  readonly classify?: (value: unknown) => Error | undefined;
}

export function createCaller(options: CallerOptions): Caller {
  const transports = new Map<string, Transport>();
  const transportOf = (op: OperationSpec): Transport => {
    if (op.server === undefined || !options.transportFor) return options.transport;
    const url = resolveServer(op.server, options.serverVariables ?? {});
    let t = transports.get(url);
    if (!t) {
      t = options.transportFor(url);
      transports.set(url, t);
    }
    return t;
  };
  const limiters = new Map<string, RateLimiter>();

  const requestOf = (op: OperationSpec, args: Args): RequestSpec => {
    const pathParams: Record<string, string | number | boolean> = {};
    const query: QueryParam[] = [];
    const headers: Record<string, string> = { ...((args["headers"] as Record<string, string> | undefined) ?? {}) };
    const oauth1: Record<string, unknown> = { ...((args["oauth1"] as object | undefined) ?? {}) };
    for (const p of op.parameters) {
      const value = args[p.arg ?? p.name];
      if (value === undefined) continue;
      if (op.oauth1Params?.includes(p.name) && OAUTH1_OPTION[p.name]) {
        const key = OAUTH1_OPTION[p.name] as string;
        if (oauth1[key] === undefined) oauth1[key] = value;
        continue;
      }
      if (p.in === "path") pathParams[p.name] = value as string | number | boolean;
      else if (p.in === "query") {
        query.push({ name: p.name, value, ...(p.style ? { style: p.style as QueryParam["style"] } : {}), ...(p.explode !== undefined ? { explode: p.explode } : {}) });
      } else if (p.in === "header") headers[p.name] = Array.isArray(value) ? value.join(",") : String(value);
    }
    let body = args["body"];
    if (body !== undefined && op.hashed && op.hashed.length > 0) body = applyHashing(body, op.hashed);
    return {
      method: op.method,
      path: op.path,
      pathParams,
      query,
      headers,
      ...(op.bodyMediaType !== undefined && body !== undefined ? { body, contentType: op.bodyMediaType } : {}),
      ...(op.security ? { security: op.security } : {}),
      ...(Object.keys(oauth1).length > 0 ? { oauth1: oauth1 as OAuth1RequestOptions } : {}),
      signal: args["signal"] as AbortSignal | undefined,
      timeoutMs: args["timeoutMs"] as number | undefined,
    };
  };

  const raw = (op: OperationSpec, args: Args): Promise<RawResponse> => transportOf(op).request(requestOf(op, args));

  const call = async (op: OperationSpec, args: Args): Promise<unknown> => {
    const response = await raw(op, args);
    if (response.status >= 200 && response.status < 300) return response.body;
    throw options.toError(op.id, response);
  };

  return {
    call,
    raw,

    iterate(op, args) {
      const pg = op.pagination;
      if (!pg) throw new TypeError(`${op.id} is not paginated`);
      return paginate({
        fetchPage: (cursor) => call(op, cursor === undefined ? args : { ...args, [pg.request]: cursor }),
        items: (page) => {
          const items = pointerGet(page, pg.items);
          return Array.isArray(items) ? items : [];
        },
        next: (page) => {
          const next = pointerGet(page, pg.response);
          return typeof next === "string" ? next : undefined;
        },
        ...(args["signal"] !== undefined ? { signal: args["signal"] as AbortSignal } : {}),
      });
    },

    batch(op, args) {
      const b = op.batch;
      if (!b) throw new TypeError(`${op.id} has no batch limits`);
      const items = pointerGet(args["body"], b.pointer);
      if (!Array.isArray(items)) throw new TypeError(`${op.id}: the body has no item array at "${b.pointer}"`);
      let limiter = limiters.get(op.id);
      if (!limiter && b.rate) {
        limiter = new RateLimiter({ requests: b.rate.requests, windowMs: b.rate.windowMs });
        limiters.set(op.id, limiter);
      }
      const wrap = (chunk: readonly unknown[]): unknown => pointerSet(args["body"], b.pointer, chunk);
      return runBatches({
        items,
        ...(b.maxItems !== undefined ? { maxItems: b.maxItems } : {}),
        ...(b.maxBytes !== undefined ? { maxBytes: b.maxBytes, size: (chunk: readonly unknown[]) => Buffer.byteLength(JSON.stringify(wrap(chunk))) } : {}),
        ...(limiter ? { limiter } : {}),
        send: (chunk, _offset, signal) => call(op, { ...args, body: wrap(chunk), ...(signal ? { signal } : {}) }),
        ...(args["signal"] !== undefined ? { signal: args["signal"] as AbortSignal } : {}),
      });
    },

    stream(op, args, streamOptions = {}) {
      const transport = transportOf(op);
      const spec = requestOf(op, args);
      return streamWithReconnect({
        connect: (signal) => transport.open({ ...spec, signal }),
        ...(streamOptions.classify ? { classify: streamOptions.classify } : {}),
        ...(streamOptions.backoff ? { backoff: streamOptions.backoff } : {}),
        ...(streamOptions.onReconnect ? { onReconnect: streamOptions.onReconnect } : {}),
        ...(args["signal"] !== undefined ? { signal: args["signal"] as AbortSignal } : {}),
      });
    },
  };
}

/** The argument names a generated method reserves beside the operation's parameters. */
export const RESERVED_ARGUMENTS: ReadonlySet<string> = CALL_OPTION_KEYS;
