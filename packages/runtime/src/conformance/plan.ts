/**
 * The data a generated conformance suite runs: one case list per operation and the state
 * sequences, derived from the contract by the generator. Everything here is plain JSON so the plan
 * module stays a table.
 */
import type { MockSchema } from "../mock/mock-data.js";
import type { RequestInput, RequestValidation, ResponseValidation } from "../shared/validation.js";

export interface PlanParameter {
  readonly name: string;
  readonly in: "path" | "query" | "header" | "cookie";
  readonly required: boolean;
  readonly style: string;
  readonly explode: boolean;
}

export interface NegativeCase {
  readonly label: string;
  /** The name the server's answer must carry (a parameter, or `body` plus a pointer). */
  readonly parameter: string;
  readonly in: "path" | "query" | "header" | "body";
  readonly set?: Readonly<Record<string, unknown>>;
  readonly remove?: readonly string[];
  readonly bodyRemove?: string;
  readonly bodySet?: { readonly pointer: string; readonly value: unknown };
  readonly bodyOverfill?: { readonly pointer: string; readonly count: number };
  readonly bodyPatch?: { readonly pointer: string; readonly set: Readonly<Record<string, unknown>>; readonly remove: readonly string[] };
  readonly rule?: string;
  readonly message?: string;
}

/** A valid request at one stated edge (a maximum, a length, an item count): a server must accept it like any other. */
export interface BoundaryCase {
  readonly label: string;
  readonly in: "path" | "query" | "header" | "body";
  readonly set?: Readonly<Record<string, unknown>>;
  readonly bodySet?: { readonly pointer: string; readonly value: unknown };
  /** An "at most N" limit met exactly: the query array `name`, or the body array at `pointer`, with `count` distinct items drawn from its schema. */
  readonly fill?: { readonly name?: string; readonly pointer?: string; readonly count: number };
  /** An inclusive rule between two query members at its edge: `left` sent equal to `right`. */
  readonly equal?: { readonly left: string; readonly right: string };
  /** A date-time of the plain request (the query or header member `name`, or the body member at `pointer`) sent as the same instant in another UTC offset. */
  readonly zone?: { readonly name?: string; readonly pointer?: string };
  /** The contract states no limit the value keeps within: a refusal is no failure, a text answered cut short is. */
  readonly mayRefuse?: boolean;
}

/** Schemas (JSON Schema 2020-12 over the package's mock document) that requests are synthesized from. */
export interface RequestSchemas {
  readonly parameters: Readonly<Record<string, MockSchema>>;
  readonly body?: { readonly mediaType: string; readonly schema: MockSchema; readonly required: boolean };
}

/** `x-pagination` as the suite walks it. */
export interface PaginationPlan {
  /** Query parameter that carries the cursor. */
  readonly cursorParam: string;
  /** Pointer of the next cursor in an answer. */
  readonly nextPointer: string;
  /** Pointer of the page's items. */
  readonly items: string;
  /** Query parameter of the page size, with its bounds. */
  readonly pageSize?: { readonly name: string; readonly minimum?: number; readonly maximum?: number };
  /** The request flag that asks for `total_count`, and where the count is. */
  readonly totalCount?: { readonly param: string; readonly pointer: string };
}

/**
 * A cross-field fact about an answer (`x-rules` on a response), checked on every answer with that
 * status. Pointers address `{ status, request: { path, query, headers, body }, body }`: the answer's
 * body beside the request that produced it. A rule holds vacuously while a field it names is absent.
 */
export type ResponseRule = {
  readonly id: string;
  readonly message: string;
  /** Statuses the rule covers: `200`, `2XX`, `default`. */
  readonly status: string;
} &
  /** `each`: for every item of that array, pointers relative to the item (`#/…` reads the exchange); so for compare and offset. */
  (
    | { readonly kind: "equals"; readonly left: string; readonly right: string; readonly each?: string }
    | { readonly kind: "count"; readonly field: string; readonly of: string }
    | { readonly kind: "compare"; readonly left: string; readonly op: "<" | "<=" | ">" | ">="; readonly right: string; readonly as: "number" | "date-time"; readonly each?: string }
    | { readonly kind: "schema"; readonly schema: MockSchema }
    /** The date-time at `field` is the one at `from` plus the number at `by` in `unit`s. */
    | { readonly kind: "offset"; readonly field: string; readonly from: string; readonly by: string; readonly unit: "second" | "minute" | "hour" | "day"; readonly each?: string }
    /** The text at `field` is `template` with each `{pointer}` filled, for the exchange or each item of `each`. */
    | { readonly kind: "template"; readonly field: string; readonly template: string; readonly each?: string }
    /** Item i of the array at `field` answers item i of `of`: each pair of pointers (answered, sent) holds equal values. */
    | { readonly kind: "pairs"; readonly field: string; readonly of: string; readonly pairs: readonly (readonly [string, string])[] }
  );

export interface OperationCase {
  readonly id: string;
  readonly method: string;
  readonly path: string;
  readonly security: readonly (readonly string[])[];
  readonly parameters: readonly PlanParameter[];
  /** Set when the contract does not show the operation: reported as skipped, with this reason. */
  readonly skip?: string;
  /**
   * The operation deletes or invalidates (a DELETE, or an `x-transitions` move into an invalidated
   * or deleted state): its valid requests run last, and only with --destructive.
   */
  readonly destructive?: boolean;
  /** Set for a token flow's step: its valid requests are left to the flow's sequence, for this reason. */
  readonly flowStep?: string;
  /** The request built from the contract's examples, defaults and enums. */
  readonly positive?: { readonly values: Readonly<Record<string, unknown>>; readonly body?: unknown; readonly bodyMediaType?: string };
  readonly request?: RequestSchemas;
  /** Per path parameter: where values of existing objects come from, best first (the generator's relations). */
  readonly sources?: Readonly<Record<string, readonly PlanSource[]>>;
  /** Operation `x-echo`: the only parameters its answers must echo (the document names them); others echoed are still compared. */
  readonly echoParams?: readonly string[];
  /** Request members that name another resource: they take a value a list gives. */
  readonly references?: readonly PlanReference[];
  /**
   * The operation whose effect this one undoes on the same object (an RPC-style `revoke` of a
   * `grant`): each valid request first sends that one on its object, then undoes it with the values sent.
   */
  readonly undoes?: string;
  /**
   * The contract declares no refusal for this operation (no 4xx, `4XX` or `default` answer): a 4xx
   * refusing invalid input is taken as the refusal, and the missing declaration is one check of its own.
   */
  readonly undeclaredRefusals?: true;
  /**
   * The 2xx answer is a stream of JSON messages, one per line (`x-stream`, an NDJSON media type, a
   * gRPC gateway's `x-stream-definitions`): each message is validated alone by the response schema.
   */
  readonly stream?: "ndjson";
  /** The `Accept` header: the media types the operation's answers are declared in. */
  readonly accept?: string;
  /** Server errors (5xx) the contract declares by their own code (`501`): such an answer is the contract's, not a crash. */
  readonly declaredServerErrors?: readonly number[];
  readonly negatives?: readonly NegativeCase[];
  readonly boundaries?: readonly BoundaryCase[];
  readonly examples?: readonly { readonly status: string; readonly mediaType: string; readonly example: unknown }[];
  readonly pagination?: PaginationPlan;
  readonly responseRules?: readonly ResponseRule[];
  /** Query parameters that keep only the listed objects they match (`x-filter`, and id filters named for the collection). */
  readonly filters?: readonly FilterPlan[];
  /** `x-field-selection`: the parameters that choose the fields of the answer's objects. */
  readonly fieldSelection?: FieldSelectionPlan;
  /**
   * Request members allowed only for some objects (`x-conditional`): where the object `param` names
   * has `field` in `values`, or where `via` (called for it) lists `contains`.
   */
  readonly conditional?: readonly {
    readonly member: string;
    readonly in: "query" | "body";
    /** The path parameter naming the object; without one, the object the member's own value names. */
    readonly param?: string;
    readonly field?: string;
    readonly values?: readonly unknown[];
    readonly via?: string;
    readonly contains?: unknown;
    readonly items?: string;
  }[];
  /** Path parameters naming objects that must be the authenticated user's (`x-owned`). */
  readonly owned?: readonly string[];
  /** This list gives keys of owned objects: it must show none of another owner's. */
  readonly listsOwned?: readonly { readonly param: string; readonly items: string; readonly field: string }[];
  /**
   * A stated rate limit (`x-limits` kind rate): `requests` per `windowMs`, counting only requests
   * that carry the `when` values (`with_total_count=true`) when it names some.
   */
  readonly rateLimit?: { readonly requests: number; readonly windowMs: number; readonly when?: Readonly<Record<string, unknown>> };
  /** `x-limits` kind frequency: requests made too often are refused with `status` (and the error `code`). */
  readonly frequency?: { readonly status: number; readonly code?: number };
  /**
   * `x-limits` kind outstanding on a create: at most this many objects at once. On a throw-away
   * target the suite deletes listed ones to make room, rather than finding the create refused.
   */
  readonly outstanding?: number;
  /** Declared response headers per status, required ones only. */
  readonly responseHeaders?: Readonly<Record<string, readonly string[]>>;
}

/** Field selection of an operation's answer (`x-field-selection`). */
export interface FieldSelectionPlan {
  /** Pointer of the primary object(s). */
  readonly objects: string;
  readonly key?: string;
  /** The parameter naming extra fields, the names it takes, and the fields every object carries. */
  readonly fields: string;
  readonly names: readonly string[];
  readonly defaults: readonly string[];
  /** Fields every object carries whenever they are asked for (a boolean that is false otherwise). */
  readonly always?: readonly string[];
  readonly expansions?: {
    readonly param: string;
    readonly includes: string;
    readonly kinds: readonly {
      readonly expansion: string;
      readonly include: string;
      readonly from?: string;
      readonly key?: string;
      readonly fields?: string;
      readonly names?: readonly string[];
      /** Only where the contract states them. */
      readonly defaults?: readonly string[];
      readonly always?: readonly string[];
    }[];
  };
}

/** A list filter: which item members a query parameter matches, and how. */
export interface FilterPlan {
  readonly param: string;
  /** `equals` one value, `in` a list of values, `prefix`, `contains` or `term` (a substring of any member). */
  readonly match: "equals" | "in" | "prefix" | "contains" | "term";
  /** Item members read (names, or pointers into the item); an item matches when any does. */
  readonly members: readonly string[];
  /** `true`: case never counts; `false`: it always does; absent: the contract does not say, so either is no failure. */
  readonly caseInsensitive?: boolean;
  /** Where the list holds its items (`""`: the answer is the array) and the member that keys them. */
  readonly items: string;
  readonly key?: string;
}

/** Where values of a parameter come from (see the generator's model/relations.ts). */
export type PlanSource =
  | { readonly kind: "list"; readonly operationId: string; readonly items: string; readonly field: string }
  | { readonly kind: "answer"; readonly operationId: string; readonly pointer: string }
  | { readonly kind: "create"; readonly operationId: string; readonly pointers: readonly string[]; readonly location: boolean; readonly request?: string };

/** A query or top-level body member naming another resource. */
export interface PlanReference {
  readonly in: "query" | "body";
  readonly name: string;
  readonly many: boolean;
  readonly sources: readonly PlanSource[];
  /** The member names the object an RPC-style operation acts on: `read` takes an existing one, `change` one made for the case. */
  readonly own?: "read" | "change";
  /** `x-scoped`: the object named is one of the object this path parameter names; one listed under another is refused. */
  readonly scopedBy?: string;
  /** `x-outlives-delete`: the key stays valid after the listed object carrying it is deleted, so a deleted one is not expected refused. */
  readonly outlivesDelete?: boolean;
}

/** A created object's life, inferred from the contract's paths or stated by `x-transitions`/links. */
export interface LifecycleScenario {
  readonly kind: "lifecycle";
  readonly row: string;
  readonly create: string;
  /** Path parameter of the item operations that takes the new object's id, and where the id is in the create answer. */
  readonly idParam: string;
  readonly idPointers: readonly string[];
  readonly read?: string;
  /** Request member of the create → member of the read's object that holds it afterwards. */
  readonly readBack?: Readonly<Record<string, string>>;
  /** Members of the read's object that never change (its key, `x-immutable`). */
  readonly immutable?: readonly string[];
  /** Create members with a `default`: an object made without one reads back with the default. */
  readonly defaults?: Readonly<Record<string, unknown>>;
  /** The create answers the new object's address in a `Location` header. */
  readonly location?: boolean;
  readonly list?: string;
  /** Without a read: request member of the create → member of the listed object that holds it. */
  readonly listReadBack?: Readonly<Record<string, string>>;
  /** Where the list holds its items (`""`: the answer is the array) and the member that is their key. */
  readonly listItems?: string;
  readonly keyField?: string;
  readonly update?: string;
  /** Request member of the update → member of the read's object. */
  readonly updateReadBack?: Readonly<Record<string, string>>;
  readonly delete?: string;
  /** What a delete leaves: `soft` objects stay, marked as `soft` says; `hard` ones are gone. */
  readonly deletion?: "soft" | "hard";
  readonly soft?: SoftDelete;
  /** The status a repeated delete must answer, when the contract states one. */
  readonly repeatDeleteStatus?: number;
}

/**
 * How a contract's deletes are soft: the object stays, with `field` true, and lists (reads) show it
 * only when their flag is set. The generator infers the names; the runtime takes them from here.
 */
export interface SoftDelete {
  /** The boolean member marking a deleted object (`deleted`). */
  readonly field: string;
  /** The list's query flag that adds deleted objects (`with_deleted`), where it has one. */
  readonly listFlag?: string;
  /** The read's query flag that still shows a deleted object, where it has one. */
  readonly readFlag?: string;
}

export type Scenario =
  | {
      /** A delete's `x-transitions` rows: soft (answers the object marked deleted, listed only with the flag) and the repeated delete's status. */
      readonly kind: "deletion";
      readonly operationId: string;
      readonly soft?: SoftDelete;
      /** The delete's success declares a body: a soft delete must answer the object it marked. */
      readonly answersObject?: boolean;
      readonly createOperationId?: string;
      readonly listOperationId?: string;
      /** The item's read: after a delete it answers 404, or (soft) the object marked deleted where it takes the flag. */
      readonly readOperationId?: string;
      readonly repeatStatus?: number;
      /** Members of the object that never change (its key, `x-immutable`): a soft delete leaves them as they were. */
      readonly immutable?: readonly string[];
      readonly row: string;
    }
  | {
      /** A batch write whose items are the list's objects: one new item, every member it may carry, found in the list holding them. */
      readonly kind: "batchWrite";
      readonly operationId: string;
      /** Pointer of the body array of items. */
      readonly pointer: string;
      /** The item member that keys it in both the write and the list. */
      readonly key: string;
      readonly list: string;
      /** Item member → member of the listed object. */
      readonly readBack: Readonly<Record<string, string>>;
      readonly row: string;
    }
  | {
      readonly kind: "update";
      readonly operationId: string;
      readonly read?: string;
      /** Without a read: the collection's list, where the object is read back. */
      readonly list?: string;
      readonly readBack?: Readonly<Record<string, string>>;
      readonly immutable?: readonly string[];
      readonly row: string;
    }
  | {
      /** An `x-limits` outstanding limit on a create: with `max` objects listed, the next create is refused. */
      readonly kind: "outstanding";
      readonly create: string;
      readonly list: string;
      readonly max: number;
      readonly row: string;
    }
  | { readonly kind: "bearerLifecycle"; readonly create: string; readonly invalidate: string; readonly probe: string; readonly row: string }
  | {
      /** The OAuth 1.0a three-legged flow (RFC 5849) named by a scheme's `x-oauth1.flow`, with its refusals. */
      readonly kind: "oauth1Flow";
      readonly row: string;
      readonly requestToken: string;
      readonly authorize: string;
      readonly accessToken: string;
      readonly invalidate?: string;
      /** The flow's second browser step (`x-oauth1.flow.authenticate`): it approves as `authorize` does. */
      readonly authenticate?: string;
      /** The callback the flow registers; the verifier comes back in its query. */
      readonly callback: string;
      /** The scheme's `x-invalid-token`: how the invalidated access token is refused. */
      readonly invalidToken?: { readonly status: number; readonly schema: unknown; readonly source: string };
    }
  | LifecycleScenario;

/** One step of a workflow: an Arazzo 1.0 step, as the generator checked it. */
export interface WorkflowStep {
  readonly id: string;
  readonly operationId: string;
  /**
   * The step calls an operation of another contract (`operationId: $sourceDescriptions.<name>.<id>`):
   * the source description's name, whose base URL the target gives (`sources`), and how to send the
   * operation. Its answers are judged by the success criteria and for server errors only: that
   * contract's own suite checks their shapes.
   */
  readonly source?: { readonly name: string; readonly operation: OperationCase };
  readonly description?: string;
  /** Values are literals, runtime expressions (`$steps.create.outputs.id`) or strings embedding `{$…}`. */
  readonly parameters: readonly { readonly name: string; readonly value: unknown }[];
  readonly body?: { readonly payload: unknown; readonly replacements?: readonly { readonly target: string; readonly value: unknown }[] };
  /** Every one must hold; with none, the step must answer a 2xx. */
  readonly successCriteria: readonly { readonly condition: string; readonly context?: string; readonly type: "simple" | "regex" | "jsonpath" }[];
  readonly outputs: Readonly<Record<string, string>>;
  /**
   * `x-preconditions`: simple conditions on the step's answer that say whether the workflow can run
   * on this server at all (a catalog small enough to fit one page); when one does not hold, the
   * workflow is skipped with that reason instead of failing.
   */
  readonly preconditions?: readonly string[];
  /** `x-credentials: none` sends the step without credentials. */
  readonly credentials?: "none";
}

/** An Arazzo workflow from the document beside the contract (`<spec>.arazzo.yaml`). */
export interface WorkflowPlan {
  readonly id: string;
  readonly summary: string;
  /** Where the workflow stands, for failure messages (`spec/core.arazzo.yaml:12:5`). */
  readonly source: string;
  /** Inputs are taken from the target's values (contractgen test --values) or their defaults. */
  /** `unique` inputs (`x-unique: true`) get a fresh string of digits per run, so a rerun against the same server makes new objects. */
  readonly inputs: readonly { readonly name: string; readonly required: boolean; readonly default?: unknown; readonly unique?: boolean }[];
  readonly steps: readonly WorkflowStep[];
  /** A step other than a GET: the workflow runs only with --destructive. */
  readonly changesData: boolean;
}

export interface ConformancePlan {
  readonly package: string;
  readonly title: string;
  /** The contract declares the invalid-request problem: refusals must name the parameter. */
  readonly namesParameters: boolean;
  /** Slug of that problem type: a problem refusing a 400 must carry it (`{problem_base}/<slug>`). */
  readonly invalidRequestSlug?: string;
  /**
   * `x-echo`: the pointer of the object in which every JSON answer echoes the request's parameters:
   * each path parameter sent is there with its value, and each query parameter there has the value sent.
   */
  readonly echo?: string;
  /**
   * `x-invalid-token`, by scheme kind (`oauth1`, `userToken`, …): the status and a JSON Schema of
   * the body a request gets whose token the scheme does not know as live (wrong or invalidated).
   */
  readonly invalidTokens?: Readonly<Record<string, { readonly status: number; readonly schema: unknown; readonly source: string }>>;
  /**
   * `x-read-back-complete`: the contract marks every request member its objects do not show as
   * sent, so a member sent with a value and missing from the object read afterwards was lost (not
   * merely unshown, which without it fails only where the server shows the member elsewhere).
   */
  readonly readBackComplete?: true;
  readonly operations: readonly OperationCase[];
  readonly scenarios: readonly Scenario[];
  /** Workflows stated beside the contract (Arazzo), run after the inferred sequences. */
  readonly workflows?: readonly WorkflowPlan[];
}

type Fn = (context: { skip(note?: string): void }) => unknown | Promise<unknown>;
/** The part of vitest the suite uses, passed in so the runtime does not depend on vitest. */
export interface TestApi {
  describe: (name: string, fn: () => void) => void;
  it: ((name: string, fn: Fn, timeout?: number) => void) & { skip: (name: string, fn: Fn) => void };
  expect: (value: unknown, message?: string) => { toBe(v: unknown): void; toBeLessThan(v: number): void; toBeGreaterThanOrEqual(v: number): void };
  beforeAll: (fn: () => unknown, timeout?: number) => void;
  afterAll: (fn: () => unknown) => void;
}

export type ResponseValidator = (operationId: string, status: number, contentType: string | undefined, body: unknown) => ResponseValidation;
export type RequestValidator = (operationId: string, input: RequestInput) => RequestValidation;

/** What the generated package lends the suite: its own validators and its seeded mock-data generator. */
export interface SuiteTools {
  readonly validateResponse: ResponseValidator;
  readonly validateRequest?: RequestValidator;
  /** A seeded value for a schema of the package's mock document. */
  readonly mock?: (schema: MockSchema, seed: number) => unknown;
}
