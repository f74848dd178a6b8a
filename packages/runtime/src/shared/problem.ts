/**
 * RFC 9457 problem details as classes. Generated packages subclass `Problem` once per entry of their
 * problem catalogue and register the subclasses with `createProblemParser`, so a response body maps
 * to the class its `type` names.
 *
 * Parsing never throws and never lets a body shape the object beyond its declared members: members
 * of the wrong type are ignored (RFC 9457 §3.1), `__proto__` keys are dropped, and only member names
 * a subclass declares become properties.
 */

/** The wire form of a problem (`application/problem+json`). */
export interface ProblemDetails {
  type: string;
  title: string;
  status?: number;
  detail?: string;
  instance?: string;
  [member: string]: unknown;
}

/** What a problem is made from: the standard members, all optional, plus extension members. */
export type ProblemInit<M extends object = Record<string, unknown>> = {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  instance?: string;
} & { [K in keyof M]?: M[K] };

const STANDARD = new Set(["type", "title", "status", "detail", "instance"]);
// Names an extension member may not take as a property: they would shadow Error or Problem.
const RESERVED = new Set([...STANDARD, "members", "name", "message", "stack", "cause", "toJSON", "toString", "constructor", "__proto__", "prototype", "valueOf", "hasOwnProperty"]);

export const ABOUT_BLANK = "about:blank";

/** HTTP reason phrases used as the title of an `about:blank` problem that has none. */
const REASONS: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  409: "Conflict",
  410: "Gone",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

export function reasonPhrase(status: number | undefined): string | undefined {
  return status === undefined ? undefined : REASONS[status];
}

const isStatus = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 100 && v <= 599;
const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** A copy of `source`'s own enumerable members on a null prototype, without `__proto__`. */
function safeCopy(source: Record<string, unknown>, skip: ReadonlySet<string>): Record<string, unknown> {
  const out = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(source)) {
    if (key === "__proto__" || skip.has(key)) continue;
    out[key] = source[key];
  }
  return out;
}

/**
 * An RFC 9457 problem. `instanceof` works across the generated hierarchy; `toJSON()` gives the
 * `application/problem+json` body.
 */
export class Problem extends Error {
  /** The type URI this class stands for. */
  static readonly type: string = ABOUT_BLANK;
  /** `<slug>` of `{problem_base}/<slug>`; `about:blank` for the generic problem. */
  static readonly slug: string = ABOUT_BLANK;
  /** Extension members the class declares; each becomes a read-only property when valid. */
  static readonly memberNames: readonly string[] = [];
  /**
   * Names of members whose value does not fit the contract. Generated subclasses check with their
   * precompiled schema validator; the base class accepts every extension member.
   */
  static invalidMembers(_body: Readonly<Record<string, unknown>>): readonly string[] {
    return [];
  }

  readonly type: string;
  readonly title: string;
  readonly status: number | undefined;
  readonly detail: string | undefined;
  readonly instance: string | undefined;
  /** Every extension member that passed the class's checks, including undeclared ones. */
  readonly members: Readonly<Record<string, unknown>>;

  constructor(init: ProblemInit = {}) {
    const ctor = new.target as typeof Problem;
    const type = typeof init.type === "string" && init.type !== "" ? init.type : ctor.type;
    const status = isStatus(init.status) ? init.status : undefined;
    const title = typeof init.title === "string" ? init.title : ((type === ABOUT_BLANK ? reasonPhrase(status) : undefined) ?? ctor.name);
    const detail = typeof init.detail === "string" ? init.detail : undefined;
    super(detail ?? title);
    this.name = ctor.name;
    this.type = type;
    this.title = title;
    this.status = status;
    this.detail = detail;
    this.instance = typeof init.instance === "string" ? init.instance : undefined;

    const members = safeCopy(init as Record<string, unknown>, STANDARD);
    const full = { ...members, type, title, ...(status !== undefined ? { status } : {}) };
    for (const bad of ctor.invalidMembers(full)) delete members[bad];
    this.members = Object.freeze(members);
    for (const name of ctor.memberNames) {
      if (RESERVED.has(name) || !(name in members)) continue;
      Object.defineProperty(this, name, { value: members[name], enumerable: true });
    }
  }

  /** The `application/problem+json` body: standard members first, then extension members. */
  toJSON(): ProblemDetails {
    const out: ProblemDetails = { type: this.type, title: this.title };
    if (this.status !== undefined) out.status = this.status;
    if (this.detail !== undefined) out.detail = this.detail;
    if (this.instance !== undefined) out.instance = this.instance;
    for (const key of Object.keys(this.members)) out[key] = this.members[key];
    return out;
  }
}

/** Reads the standard members of any JSON value as RFC 9457 says: wrong-typed members are ignored. */
export function readProblem(body: unknown, status?: number): ProblemInit {
  const obj = isPlainObject(body) ? body : {};
  const init: ProblemInit = safeCopy(obj, STANDARD) as ProblemInit;
  init.type = typeof obj["type"] === "string" && obj["type"] !== "" ? obj["type"] : ABOUT_BLANK;
  if (typeof obj["title"] === "string") init.title = obj["title"];
  const s = isStatus(obj["status"]) ? obj["status"] : status;
  if (isStatus(s)) init.status = s;
  if (typeof obj["detail"] === "string") init.detail = obj["detail"];
  if (typeof obj["instance"] === "string") init.instance = obj["instance"];
  return init;
}

export interface ProblemParserOptions {
  /**
   * The `{problem_base}` the server uses. When given, a type matches a class only as
   * `<base>/<slug>`; when not, a type matches by its last path segment, so any deployment's base
   * works.
   * @default undefined
   */
  readonly base?: string;
}

export type ProblemClass = typeof Problem & (new (init?: ProblemInit) => Problem);

/**
 * Makes `parseProblem(body, status?)` for a set of problem classes: the class whose type the body
 * names, the base `Problem` for an unknown type, and `about:blank` when the type is missing.
 */
export function createProblemParser(classes: readonly ProblemClass[], options: ProblemParserOptions = {}): (body: unknown, status?: number) => Problem {
  const bySlug = new Map<string, ProblemClass>();
  for (const c of classes) bySlug.set(c.slug, c);
  const base = options.base?.replace(/\/+$/, "");
  return (body, status) => {
    const init = readProblem(body, status);
    const type = init.type ?? ABOUT_BLANK;
    let cls: ProblemClass | undefined;
    if (type === ABOUT_BLANK) cls = bySlug.get(ABOUT_BLANK);
    else {
      const cut = type.lastIndexOf("/");
      const slug = cut === -1 ? undefined : type.slice(cut + 1);
      const prefixOk = base === undefined || type.slice(0, cut) === base;
      if (slug !== undefined && prefixOk) cls = bySlug.get(slug);
    }
    return new (cls ?? Problem)(init);
  };
}

/** One entry of the legacy error envelope `{errors:[{code, message}]}`. */
export interface LegacyError {
  readonly code: number;
  readonly message: string;
}

/**
 * The legacy error envelope as an exception. `codes` lets callers branch: 89 is an invalid or
 * expired token, 99 a bearer token requested too often.
 */
export class ApiError extends Error {
  static readonly INVALID_OR_EXPIRED_TOKEN = 89;
  static readonly TOKEN_REQUESTED_TOO_OFTEN = 99;

  readonly status: number | undefined;
  readonly errors: readonly LegacyError[];

  constructor(errors: readonly LegacyError[], status?: number) {
    super(errors.map((e) => `${e.code}: ${e.message}`).join("; ") || "API error");
    this.name = "ApiError";
    this.errors = Object.freeze(errors.map((e) => Object.freeze({ code: e.code, message: e.message })));
    this.status = status;
  }

  get codes(): number[] {
    return this.errors.map((e) => e.code);
  }

  hasCode(code: number): boolean {
    return this.errors.some((e) => e.code === code);
  }

  toJSON(): { errors: LegacyError[] } {
    return { errors: this.errors.map((e) => ({ code: e.code, message: e.message })) };
  }
}

/**
 * The entries of a legacy envelope, or undefined when `body` is not one: an object whose `errors`
 * array holds at least one `{code: integer, message: string}`. Other entries are ignored.
 */
export function readLegacyErrors(body: unknown): LegacyError[] | undefined {
  if (!isPlainObject(body) || !Array.isArray(body["errors"])) return undefined;
  const out: LegacyError[] = [];
  for (const e of body["errors"]) {
    if (isPlainObject(e) && Number.isInteger(e["code"]) && typeof e["message"] === "string") {
      out.push({ code: e["code"] as number, message: e["message"] });
    }
  }
  return out.length > 0 ? out : undefined;
}

/**
 * An error response that is neither a problem nor the legacy envelope: the status, content type and
 * body as received. Generated packages subclass it per error schema of their contract; a body that
 * does not fit the schema is kept as it came (`bodyFits` false) rather than thrown away.
 */
export class ResponseError<Body = unknown> extends Error {
  /** Checks a body against the contract's schema; generated subclasses use their validator. */
  static fits(_body: unknown): boolean {
    return true;
  }

  readonly status: number;
  readonly contentType: string | undefined;
  readonly body: Body;
  readonly bodyFits: boolean;

  constructor(status: number, body: Body, contentType?: string, message?: string) {
    super(message ?? `HTTP ${status}${reasonPhrase(status) ? ` ${reasonPhrase(status)}` : ""}`);
    const ctor = new.target as typeof ResponseError;
    this.name = ctor.name;
    this.status = status;
    this.contentType = contentType;
    this.body = body;
    this.bodyFits = ctor.fits(body);
  }

  toJSON(): { status: number; body: Body } {
    return { status: this.status, body: this.body };
  }
}
