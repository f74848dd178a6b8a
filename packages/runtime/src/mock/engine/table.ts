/**
 * What a generated package tells the mock engine about its contract: each operation's responses
 * (`responsePlans`) and the mock table (`mockTable`): the collections the contract implies, from the
 * generator's relations model, each operation's part in one, the lists' paging and filters. Plain
 * JSON, written into the package's `compiled/mocks.data.js`.
 */
import type { MockSchema } from "../mock-data.js";
import type { OffsetUnit } from "../../shared/derived.js";

/** One declared response of an operation, as the mock answers it. */
export interface ResponsePlan {
  /** `200`, `4XX` or `default`. */
  readonly status: string;
  /** The media type answered (JSON first), when the response has content. */
  readonly contentType?: string;
  readonly schema?: MockSchema;
  /** The media's first example. */
  readonly example?: unknown;
  /** The media's named examples (its `examples` map): what `Prefer: example=<name>` picks. */
  readonly examples?: Readonly<Record<string, unknown>>;
  /** Declared headers with their schemas. */
  readonly headers?: readonly { readonly name: string; readonly required: boolean; readonly schema?: MockSchema }[];
}

/** Objects one set of operations keeps (the relations model's collection). */
export interface MockCollection {
  /** The collection's path (`/accounts/{account_id}/cards`). */
  readonly path: string;
  /**
   * The path of one object (`…/cards/{card_id}`) and the parameter taking its key. A collection
   * only a list and a batch write reach (no path names one object) has its own path here and `""`.
   */
  readonly itemPath: string;
  readonly keyParam: string;
  /** The member of an object that holds its key (`id`, `name`). */
  readonly keyField: string;
  /** The path parameters of `path`: the objects are kept per combination of their values. */
  readonly parents: readonly string[];
  /** The key parameter's schema: what new keys are drawn from. */
  readonly keySchema?: MockSchema;
  /** One object as the list shows it (else as the read answers it): what objects are drawn from. */
  readonly itemSchema?: MockSchema;
  /** Keys the contract's own examples name (path parameter examples of the item operations). */
  readonly exampleKeys?: readonly unknown[];
  /** The parent values those examples name (every parent's): the example objects exist under these parents only. */
  readonly exampleParents?: Readonly<Record<string, unknown>>;
  /** The create: where its answer holds the new key, or whether its `Location` header does. */
  readonly create?: { readonly operationId: string; readonly pointers: readonly string[]; readonly location: boolean };
  readonly list?: string;
  readonly read?: string;
  readonly updates?: readonly string[];
  readonly delete?: string;
  /**
   * Deletes are soft: the object stays with its `field` set to true, and a list (or read) shows it
   * only with its flag set. The names are the contract's, inferred by the generator.
   */
  readonly soft?: { readonly field: string; readonly listFlag?: string; readonly readFlag?: string };
  /** The status a repeated delete answers (the delete's `x-transitions`). @default 404 */
  readonly repeatDelete?: number;
}

/** An operation's part in a collection. */
export interface MockOperationRole {
  /** Index into `MockTable.collections`. */
  readonly collection: number;
  /** `batch`: a write of several objects at once, each stored under its key (`PUT …/products`). */
  readonly role: "create" | "list" | "read" | "update" | "delete" | "batch";
  /** Where the answer holds the object (`""`, `/data`, `/data/0`), or for a list its items. */
  readonly at?: string;
  /** Request member → the object's member that holds it afterwards (a create's or update's read-back map). */
  readonly stores?: Readonly<Record<string, string>>;
  /** An update by PUT: a key nothing has yet is made. */
  readonly put?: boolean;
  /** A batch's request body pointer to its array of objects (`/products`). */
  readonly items?: string;
}

/** A list's `x-pagination`. */
export interface MockPaging {
  /** The query parameter carrying the cursor, and its schema. */
  readonly cursor: string;
  readonly cursorSchema?: MockSchema;
  /** Pointer of the next cursor in the answer. */
  readonly next: string;
  /** Pointer of the page's items. */
  readonly items: string;
  readonly pageSize?: { readonly name: string; readonly maximum?: number; readonly default?: number };
  /** The flag asking for the total, and where the answer holds it. */
  readonly totalCount?: { readonly param: string; readonly pointer: string };
}

/** A list filter (`x-filter`, or an id filter named for the collection). */
export interface MockFilter {
  readonly param: string;
  readonly match: "equals" | "in" | "prefix" | "contains" | "term";
  /** Item members read (names or pointers); an item matches when any does. */
  readonly members: readonly string[];
  readonly caseInsensitive?: boolean;
}

/** A path parameter of the contract, by name: what the engine states values of it from (`knownValues`). */
export interface MockPathParameter {
  /** The distinct schemas the operations taking it give it: a value stated must fit every one. */
  readonly schemas: readonly MockSchema[];
  /** Values the contract's examples give it (parameter examples, schema examples, defaults, enums). */
  readonly examples?: readonly unknown[];
}

/** A request member naming an object of the path's parent `by` (`x-scoped`): a key of `collection`. */
export interface MockScopedReference {
  readonly in: "query" | "body";
  readonly name: string;
  /** The member holds several (an array, or comma-separated text). */
  readonly many: boolean;
  readonly by: string;
  /** Index into `MockTable.collections`. */
  readonly collection: number;
}

/** A request member naming an object of a collection (its key, as the collection's list shows it). */
export interface MockReference {
  readonly in: "query" | "body";
  readonly name: string;
  /** The member holds several (an array, or comma-separated text). */
  readonly many: boolean;
  /** Index into `MockTable.collections`. */
  readonly collection: number;
}

/**
 * A member an answer derives from others (see `MockTable.derived`): pointers into the exchange
 * (`/body/…`, `/request/path/…`), or into each item of the array at `each` (`#/…` still the exchange's).
 */
export type MockDerived =
  | { readonly kind: "template"; readonly each?: string; readonly field: string; readonly template: string }
  | { readonly kind: "equals"; readonly each?: string; readonly field: string; readonly from: string }
  | { readonly kind: "offset"; readonly each?: string; readonly field: string; readonly from: string; readonly by: string; readonly unit: OffsetUnit };

export interface MockTable {
  readonly collections: readonly MockCollection[];
  readonly operations: Readonly<Record<string, MockOperationRole>>;
  readonly paging: Readonly<Record<string, MockPaging>>;
  readonly filters: Readonly<Record<string, readonly MockFilter[]>>;
  /** Per operation that does not declare 400: the status it refuses invalid requests with (422, a validation error's). */
  readonly refusals?: Readonly<Record<string, number>>;
  /** `x-echo`: where every answer echoes the request's parameters (`/request/params`). */
  readonly echo?: string;
  /** `x-invalid-token`: how credentials the mock does not know are refused (a status, a schema the body meets). */
  readonly invalidToken?: { readonly status: number; readonly schema: MockSchema };
  /**
   * Per operation: request members naming an object of one of its path's parents (`x-scoped`), and
   * the collection holding those objects. A value another parent holds is refused.
   */
  readonly scoped?: Readonly<Record<string, readonly MockScopedReference[]>>;
  /** Per operation: request members naming an object of a collection; a key of a deleted one is refused. */
  readonly references?: Readonly<Record<string, readonly MockReference[]>>;
  /**
   * Per operation: members its 2xx answers derive from others (its response rules of kind
   * `template`, `equals` and `offset`), each filled in wherever the answer carries it.
   */
  readonly derived?: Readonly<Record<string, readonly MockDerived[]>>;
  /** Every path parameter name of the served operations (absent from tables generated before it). */
  readonly pathParameters?: Readonly<Record<string, MockPathParameter>>;
}
