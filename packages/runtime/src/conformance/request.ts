/**
 * How the conformance suite sends a case and how it explains one: every request is recorded as it
 * went on the wire, so a failure can print a curl command that repeats it, with the seed that made it.
 */
import { atPointer } from "../arazzo/expression.js";
import type { AuthConfig, OAuth1RequestOptions } from "../client/auth.js";
import type { OperationCase } from "./plan.js";
import type { SchemeKind, SecurityAlternatives } from "../shared/security.js";
import { createTransport, type RawResponse, type Transport } from "../client/transport.js";
import { NetworkError, ResponseParseError } from "../client/errors.js";
import type { QueryParam } from "../client/url.js";

/** A request as it was sent: what a curl command needs. */
export interface SentRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly body?: string;
}

export type Credentials = AuthConfig | "none" | "target";

export interface SendOptions {
  /** Take a 429 as the answer instead of waiting and retrying (a rate limit is what is checked). @default false */
  readonly noRetry?: boolean;
  /**
   * Where to send it instead of the target's base URL: the server of another contract a workflow's
   * step calls (an Arazzo source description given with contractgen test --source). @default the target's
   */
  readonly baseUrl?: string;
}

export interface Sender {
  send(op: OperationCase, values: Readonly<Record<string, unknown>>, body: unknown, auth?: Credentials, oauth1?: OAuth1RequestOptions, options?: SendOptions): Promise<RawResponse>;
  /** The last request sent, as curl would send it. */
  readonly last: SentRequest | undefined;
  /**
   * Why the server stopped answering (a refused or reset connection on the last request), until a
   * later request gets an answer again.
   */
  readonly down: string | undefined;
  /**
   * Why the configured credentials stopped working mid-run (a request the server accepted with them
   * before is refused 401 now: a call of the run revoked them, such as an operation that turns
   * authentication off and on again), naming the last write accepted before; undefined while they work.
   */
  readonly revoked: string | undefined;
  /**
   * When the last request's answer began 2xx with its head but its body did not end (a stream that
   * does not close): what to say instead of a timeout. Undefined otherwise.
   */
  readonly openAnswer: string | undefined;
  /** Requests of an operation sent with the suite's own credentials, with the status each was answered: what its quota may have counted. */
  answered(operationId: string): readonly { readonly values: Readonly<Record<string, unknown>>; readonly at: number; readonly status: number }[];
}

function bodyText(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof Uint8Array) return `<${body.byteLength} bytes>`;
  if (typeof FormData !== "undefined" && body instanceof FormData) return "<multipart form>";
  return String(body);
}

/** Single-quoted for a POSIX shell: the only character to escape is the quote itself. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A curl command that repeats `req`. Credentials are printed only when `reveal` says so (a mock's). */
export function curlCommand(req: SentRequest, reveal: boolean): string {
  const parts = ["curl", "-i", "-X", req.method, shellQuote(req.url)];
  for (const [name, value] of req.headers) {
    const secret = /^(authorization|cookie|proxy-authorization)$/i.test(name) && !reveal;
    parts.push("-H", shellQuote(`${name}: ${secret ? "<your credentials>" : value}`));
  }
  if (req.body !== undefined) parts.push("--data-raw", shellQuote(req.body));
  return parts.join(" ");
}

export function securityOf(op: OperationCase): SecurityAlternatives | undefined {
  const alts = op.security.filter((a) => a.every((k) => k !== "unsupported")) as SchemeKind[][];
  return op.security.length === 0 ? [] : alts.length > 0 ? alts : undefined;
}

/** Sends cases to one server, one transport per set of credentials, recording each request. */
export function createSender(target: () => { readonly baseUrl: string; readonly auth: AuthConfig }): Sender {
  const transports = new Map<string, Transport>();
  let last: SentRequest | undefined;
  let down: string | undefined;
  let revoked: string | undefined;
  let head: { request: string; status: number; type: string | null } | undefined;
  /** The operation of the last request, where its answer is a stream. */
  let lastStream: string | undefined;
  // A read the configured credentials got answered 2xx, to tell revoked credentials from one
  // operation's own 401; and the last write answered 2xx, the likely revoker.
  let acceptedRead: { op: OperationCase; values: Readonly<Record<string, unknown>> } | undefined;
  let lastWrite: string | undefined;
  // Operations the configured credentials were accepted on: a later 401 from one of them means the
  // credentials were revoked; a 401 from any other is judged by sending the accepted read again.
  const acceptedOps = new Set<string>();
  const answered = new Map<string, { values: Readonly<Record<string, unknown>>; at: number; status: number }[]>();
  const recording: typeof fetch = async (input, init) => {
    const headers: [string, string][] = [];
    new Headers(init?.headers).forEach((value, name) => headers.push([name, value]));
    const text = bodyText(init?.body);
    head = undefined;
    last = { method: init?.method ?? "GET", url: String(input instanceof Request ? input.url : input), headers, ...(text !== undefined ? { body: text } : {}) };
    // A contract tester checks the redirect itself (its status and Location), not where it leads.
    const res = await fetch(input, { ...init, redirect: "manual" });
    head = { request: `${last.method} ${last.url}`, status: res.status, type: res.headers.get("content-type") };
    return res;
  };
  const transportFor = (auth: Credentials, noRetry: boolean, baseUrl?: string): Transport => {
    const t = target();
    const key = (auth === "target" || auth === "none" ? auth : JSON.stringify(auth)) + (noRetry ? " no-retry" : "") + (baseUrl !== undefined ? ` at ${baseUrl}` : "");
    let tr = transports.get(key);
    if (!tr) {
      tr = createTransport({
        baseUrl: baseUrl ?? t.baseUrl,
        auth: auth === "target" ? t.auth : auth === "none" ? {} : auth,
        fetch: recording,
        // A 429 is the server pacing the suite, not an answer to check: wait as it asks, a bounded number of times.
        // A POST whose connection failed may have been applied: it is not sent again (a server that
        // crashed on it would get it twice).
        retry: noRetry ? { retries: 0 } : { retries: 3, retryOn: [429], retryNonIdempotent: true, retryNetworkErrors: "idempotent", maxDelayMs: 5_000 },
        timeoutMs: 15_000,
      });
      transports.set(key, tr);
    }
    return tr;
  };
  return {
    get last() {
      return last;
    },
    get down() {
      return down;
    },
    get revoked() {
      return revoked;
    },
    get openAnswer() {
      if (head === undefined && lastStream !== undefined && last !== undefined) {
        // A stream with nothing to say yet (a watch with no news) may send no head at all.
        return `${last.method} ${last.url} (${lastStream}, whose answer is a stream) sent no answer within the time limit: a stream with nothing to send yet is not judged`;
      }
      return head !== undefined && head.status >= 200 && head.status < 300
        ? `${head.request} answered ${head.status} ${head.type ?? ""} and kept its body open past the time limit: a stream the suite does not read to its end`
        : undefined;
    },
    send(op, values, body, auth = "target", oauth1, options) {
      return sendOne(op, values, body, auth, oauth1, options);
    },
    answered: (operationId) => answered.get(operationId) ?? [],
  };

  function sendOne(
    op: OperationCase,
    values: Readonly<Record<string, unknown>>,
    body: unknown,
    auth: Credentials = "target",
    oauth1?: OAuth1RequestOptions,
    options?: SendOptions,
  ): Promise<RawResponse> {
    const pathParams: Record<string, string | number | boolean> = {};
    const query: QueryParam[] = [];
    // The media types the contract declares for the answers, as a client of it would ask for them.
    const headers: Record<string, string> = op.accept !== undefined ? { accept: op.accept } : {};
    for (const p of op.parameters) {
      const v = values[p.name];
      if (v === undefined) continue;
      if (p.in === "path") pathParams[p.name] = v as string;
      else if (p.in === "query") query.push({ name: p.name, value: v, style: p.style as QueryParam["style"], explode: p.explode });
      else if (p.in === "header") headers[p.name] = Array.isArray(v) ? v.map(String).join(",") : String(v);
    }
    const security = securityOf(op);
    const at = Date.now();
    lastStream = op.stream !== undefined ? op.id : undefined;
    const answer = transportFor(auth, options?.noRetry === true, options?.baseUrl).request({
      method: op.method as "GET",
      path: op.path,
      pathParams,
      query,
      headers,
      ...(body !== undefined ? { body, contentType: op.request?.body?.mediaType ?? op.positive?.bodyMediaType ?? "application/json" } : {}),
      ...(auth === "none" ? { security: [[]] } : security ? { security } : {}),
      ...(oauth1 !== undefined ? { oauth1 } : {}),
    });
    const watched = answer
      .catch((err: unknown) => streamed(op, err))
      .then(
        (res) => {
          down = undefined;
          return res;
        },
        (err: unknown) => {
          if (err instanceof NetworkError) down = `${last ? `${last.method} ${last.url}` : "a request"} got no answer (${err.message})`;
          throw err;
        },
      );
    if (auth !== "target") return watched;
    return watched.then(async (res) => {
      answered.set(op.id, [...(answered.get(op.id) ?? []), { values, at, status: res.status }]);
      const secured = (security?.length ?? 0) > 0 && !(security ?? []).every((alt) => alt.length === 0);
      if (secured && res.status === 401 && revoked === undefined && acceptedOps.has(op.id)) {
        // The same operation took these credentials before: they were revoked since.
        revoked = `the server stopped accepting the configured credentials: ${op.id} answered 2xx with them earlier and 401 now${lastWrite ? `; the last write it accepted before was ${lastWrite}` : ""}. Leave operations that revoke credentials out of this run, or give credentials they cannot revoke`;
      }
      if (secured && res.status >= 200 && res.status < 300) {
        acceptedOps.add(op.id);
        if (op.method === "GET") acceptedRead = { op, values };
        else lastWrite = `${op.id} (${op.method} ${op.path}, answered ${res.status})`;
      }
      if (secured && res.status === 401 && revoked === undefined && acceptedRead !== undefined && acceptedRead.op.id !== op.id) {
        const probe = acceptedRead;
        acceptedRead = undefined;
        const again = await sendOne(probe.op, probe.values, undefined, "target", undefined, { noRetry: true });
        if (again.status === 401)
          revoked = `the server stopped accepting the configured credentials: ${probe.op.id}, answered 2xx with them earlier, is refused 401 now${lastWrite ? `; the last write it accepted before was ${lastWrite}` : ""}. Leave operations that revoke credentials out of this run, or give credentials they cannot revoke`;
        else acceptedRead = probe;
      }
      return res;
    });
  }
}

/** A 2xx answer with the messages of its stream, where the operation answers a stream (`op.stream`). */
export type StreamedResponse = RawResponse & { readonly messages?: readonly unknown[] };

/**
 * The answer of a stream operation whose body is several JSON messages, one per line: its first
 * message as the body and every message beside it. Any other failure to read is thrown again.
 */
function streamed(op: OperationCase, err: unknown): StreamedResponse {
  if (!(err instanceof ResponseParseError) || op.stream !== "ndjson" || err.status < 200 || err.status >= 300) throw err;
  const messages: unknown[] = [];
  for (const line of err.text.split(/\r?\n/)) {
    if (line.trim() === "") continue;
    try {
      messages.push(JSON.parse(line) as unknown);
    } catch {
      throw err;
    }
  }
  return { status: err.status, headers: err.headers ?? new Headers(), contentType: err.contentType, body: messages[0], messages };
}

/** A 2xx answer: the server took the request. */
export const ok2xx = (r: RawResponse): boolean => r.status >= 200 && r.status < 300;

export function describeResponse(r: RawResponse): string {
  const body = r.body === undefined ? "no body" : JSON.stringify(r.body).slice(0, 300);
  return `${r.status} ${r.contentType ?? "(no content type)"} ${body}`;
}

function pointerSegments(pointer: string): string[] {
  return pointer
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** The value at a JSON pointer, or undefined where the path leads nowhere (one implementation with the workflows'). */
export const getAt: (value: unknown, pointer: string) => unknown = atPointer;

/** Whether `pointer` names a member that is there (a present `null` counts). */
export function hasAt(value: unknown, pointer: string): boolean {
  const segs = pointerSegments(pointer);
  const last = segs.pop();
  if (last === undefined) return value !== undefined;
  const parent = getAt(value, segs.length === 0 ? "" : `/${segs.map((s) => s.replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`);
  return parent !== null && typeof parent === "object" && Object.prototype.hasOwnProperty.call(parent, last);
}

/** A deep copy with the value at `pointer` replaced by `f(old)`; `undefined` from f removes it. */
export function updateAt(value: unknown, pointer: string, f: (old: unknown) => unknown): unknown {
  const segs = pointerSegments(pointer);
  if (segs.length === 0) return f(value);
  const copy = structuredClone(value ?? {}) as Record<string, unknown>;
  let node: Record<string, unknown> = copy;
  for (const seg of segs.slice(0, -1)) {
    const next = node[seg];
    if (next === null || typeof next !== "object") return copy;
    node = next as Record<string, unknown>;
  }
  const last = segs[segs.length - 1] as string;
  const out = f(node[last]);
  if (out === undefined) delete node[last];
  else node[last] = out;
  return copy;
}
