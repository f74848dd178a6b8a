/**
 * The intermediate representation: one normalized model of an API, built once from the bundled
 * document, read by every emitter. Emitters never walk the raw document for facts modelled here.
 */
import type { Rule } from "@contractgen/runtime/rules";
import type { WorkflowPlan } from "@contractgen/runtime/conformance";

/** JSON Schema as written in the bundled spec (internal `$ref`s kept). */
export type JsonSchema = boolean | { readonly [key: string]: unknown };

export type HttpMethod = "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace";
export type ParameterLocation = "path" | "query" | "header" | "cookie";

export interface ApiModel {
  /** Short name (package folder, `core`) and the names derived from it. */
  readonly name: string;
  readonly source: {
    /** Root spec path as displayed (relative, forward slashes). */
    readonly path: string;
    readonly files: readonly string[];
    /** sha256 of every source file. */
    readonly hash: string;
  };
  readonly openapi: "3.0" | "3.1";
  readonly info: { readonly title: string; readonly version: string; readonly description?: string };
  readonly servers: readonly Server[];
  readonly tags: readonly { readonly name: string; readonly description?: string }[];
  readonly operations: readonly Operation[];
  /** What the API sends to its consumers: root `webhooks` and operation `callbacks`, in spec order. */
  readonly deliveries: readonly Delivery[];
  readonly schemas: readonly NamedSchema[];
  readonly securitySchemes: readonly SecurityScheme[];
  /** Problem subtypes (schemas marked `x-problem-type`), in spec order. */
  readonly problems: readonly ProblemType[];
  readonly problemBase?: { readonly default: string; readonly description?: string };
  /** `x-echo`: where every JSON answer echoes the request's parameters (`/request/params`). */
  readonly echo?: { readonly pointer: string };
  /**
   * `x-read-back-complete`: every request member the objects do not show as sent is marked
   * (`x-read-back: false`, `writeOnly`), so one sent and missing from a read afterwards was lost.
   */
  readonly readBackComplete?: true;
  /** Root `x-unspecified-operations`: named by the document without a path. */
  readonly unspecifiedOperations: readonly UnspecifiedOperation[];
  /** The bundled document, for emitters that delegate to tools reading OpenAPI (types). */
  readonly document: Readonly<Record<string, unknown>>;
  /** Arazzo workflows from the document beside the spec (`<spec>.arazzo.yaml`), checked against the operations. */
  readonly workflows?: readonly WorkflowPlan[];
}

export interface Server {
  readonly url: string;
  readonly description?: string;
  readonly variables: readonly { readonly name: string; readonly default: string; readonly enum?: readonly string[]; readonly description?: string }[];
}

export interface NamedSchema {
  /** Key under components.schemas. */
  readonly name: string;
  /** Safe, unique PascalCase type name. */
  readonly typeName: string;
  readonly schema: JsonSchema;
  readonly description?: string;
  /** Part of a reference cycle (found once, here, so emitters need not detect it). */
  readonly recursive: boolean;
  readonly unspecified?: string;
}

export interface Parameter {
  readonly name: string;
  readonly in: ParameterLocation;
  readonly required: boolean;
  readonly schema: JsonSchema;
  readonly style: string;
  readonly explode: boolean;
  readonly description?: string;
  readonly deprecated: boolean;
  /** The parameter's own example (`example`, or the first of `examples`), when it gives one. */
  readonly example?: unknown;
  /** Safe camelCase name for generated code where the spec name is not an identifier. */
  readonly varName: string;
  /** The parameter's `x-` extensions (`x-filter`, `x-owned` …), as written. */
  readonly x?: Readonly<Record<string, unknown>>;
}

export interface MediaContent {
  readonly mediaType: string;
  readonly schema?: JsonSchema;
  readonly examples: readonly unknown[];
  /**
   * The key of each entry of `examples` under the media's `examples` map, in the same order; null
   * for the media's single `example`. Present only when some example is named (what a mock's
   * `Prefer: example=<name>` picks).
   */
  readonly exampleNames?: readonly (string | null)[];
}

export interface RequestBody {
  readonly required: boolean;
  readonly description?: string;
  readonly contents: readonly MediaContent[];
}

export interface Response {
  /** `200`, `4XX` or `default`. */
  readonly status: string;
  readonly description: string;
  readonly contents: readonly MediaContent[];
  readonly headers: readonly { readonly name: string; readonly required: boolean; readonly schema?: JsonSchema }[];
  /** `x-rules` on the response: cross-field facts every answer with this status keeps (pointer-based kinds). */
  readonly rules?: readonly Readonly<Record<string, unknown>>[];
  /** OpenAPI links: the operation an answer leads to, and parameters as runtime expressions. */
  readonly links?: readonly { readonly name: string; readonly operationId: string; readonly parameters: Readonly<Record<string, string>> }[];
}

export type SecurityRequirement = readonly { readonly scheme: string; readonly scopes: readonly string[] }[];

export interface Operation {
  /** operationId, or a deterministic name made from method and path when the spec has none. */
  readonly id: string;
  readonly idGenerated: boolean;
  /** Safe camelCase method name for clients and handlers. */
  readonly methodName: string;
  /** Safe PascalCase prefix for types named after the operation. */
  readonly typeName: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly pointer: string;
  readonly tags: readonly string[];
  readonly summary?: string;
  readonly description?: string;
  readonly deprecated: boolean;
  readonly deprecation?: { readonly at?: string; readonly replacedBy?: string; readonly sunset?: string };
  readonly added?: string;
  readonly parameters: readonly Parameter[];
  readonly requestBody?: RequestBody;
  readonly responses: readonly Response[];
  /** Effective requirements (operation, else root); empty array means explicitly none. */
  readonly security: readonly SecurityRequirement[];
  readonly securityNote?: string;
  readonly servers?: readonly Server[];
  readonly unspecified?: string;
  readonly rules: readonly Rule[];
  readonly limits: readonly Limit[];
  readonly pagination?: Pagination;
  /** `x-stream`: the 2XX body is a stream of messages in this framing. */
  readonly stream?: "ndjson";
  /**
   * The success response is itself a stream of items by its media type: newline-delimited JSON
   * (`application/x-ndjson`, `application/jsonl`, …) or server-sent events (`text/event-stream`).
   */
  readonly streamMedia?: { readonly framing: "ndjson" | "event-stream"; readonly status: string; readonly mediaType: string };
  /** Request body fields marked `x-hashed`, as pointers with `*` for array items. */
  readonly hashed: readonly { readonly pointer: string; readonly name: string }[];
  readonly transitions?: unknown;
  /** `x-mcp`: how the operation appears as an MCP tool (left out, renamed, described differently). */
  readonly mcp?: McpOverrides;
  /** `x-field-selection`: which parameters choose the fields of the answer's objects (checked by the conformance suite). */
  readonly fieldSelection?: Readonly<Record<string, unknown>>;
  /** Operation `x-echo`: the parameters its answers echo, where the document names a subset of them. */
  readonly echoParams?: readonly string[];
  /** `x-conditional`: request members taken only for some objects (of a kind, or holding a feature). */
  readonly conditional?: readonly Readonly<Record<string, unknown>>[];
}

export interface McpOverrides {
  /** false leaves the operation out of the MCP tools. @default true */
  readonly include?: boolean;
  readonly name?: string;
  readonly description?: string;
}

export interface Limit {
  readonly kind: string;
  readonly description: string;
  readonly max?: number;
  readonly min?: number;
  readonly pointer?: string;
  readonly requests?: number;
  readonly window?: string;
  readonly per?: string;
  readonly when?: string;
  readonly status?: number;
  readonly code?: number;
}

export interface Pagination {
  readonly style: "cursor" | "token";
  readonly request: string;
  readonly response: string;
  readonly pageSize?: string;
  readonly items?: string;
}

/** How clients and servers authenticate with a scheme; undefined when the runtime cannot. */
export type SchemeKind = "bearer" | "basic" | "oauth1" | "appOnly" | "userToken" | `apiKey:${"header" | "query" | "cookie"}:${string}`;

export interface SecurityScheme {
  readonly name: string;
  readonly type: string;
  /** Derived once here so every emitter agrees: OAuth 1.0a, bearer, Basic, app-only or user-context OAuth 2.0. */
  readonly kind?: SchemeKind;
  readonly scheme?: string;
  readonly in?: string;
  readonly paramName?: string;
  readonly description?: string;
  /** Present when the scheme is OAuth 1.0a (an apiKey scheme with `x-oauth1`). */
  readonly oauth1?: {
    readonly signatureMethod: string;
    readonly version: string;
    readonly parameters: readonly string[];
    /** The flow's steps by operationId (`requestToken`, `authorize`, `accessToken`, `invalidate`). */
    readonly flow?: Readonly<Record<string, string>>;
  };
  readonly flows?: Readonly<Record<string, unknown>>;
  /** `x-invalid-token`: how a request with a token the scheme does not know as live is refused. */
  readonly invalidToken?: { readonly status: number; readonly schema: unknown; readonly source: string };
}

export interface ProblemType {
  /** Schema name (`ResourceNotFoundProblem`). */
  readonly schemaName: string;
  readonly typeName: string;
  /** Slug, or `about:blank`. */
  readonly slug: string;
  readonly title?: string;
  readonly description?: string;
}

export interface UnspecifiedOperation {
  readonly name: string;
  readonly tag: string;
  readonly method?: string;
  readonly path?: string;
  readonly missing: string;
}

/**
 * One request the API makes to a consumer's server: a method of a root `webhooks` path item, or of a
 * path item under an operation's `callbacks`. The consumer is the server here, so the body is what
 * it receives and the responses are what it answers.
 */
export interface Delivery {
  /** operationId, or a deterministic name from the webhook (or operation and callback) name. */
  readonly id: string;
  readonly kind: "webhook" | "callback";
  /** The webhook's key under `webhooks`, or the callback's key under the operation's `callbacks`. */
  readonly name: string;
  /** Callbacks: the runtime expression naming the URL (`{$request.body#/callbackUrl}`). */
  readonly expression?: string;
  /** Callbacks: the operation whose request registers them. */
  readonly operationId?: string;
  readonly method: HttpMethod;
  /** JSON pointer to the operation object in the bundled document. */
  readonly pointer: string;
  /**
   * Key under the generated `webhooks` type: the webhook name, or for a callback a key no webhook
   * uses (the types emitter lists callbacks there so openapi-typescript types them too).
   */
  readonly typesKey: string;
  /** Safe camelCase handler name. */
  readonly methodName: string;
  /**
   * Where a generated receiver listens by default: `/` and the id, each path segment reduced to
   * characters no router reads specially (`subscribe/onStatus`, `issues/opened`), unique.
   */
  readonly routePath: string;
  /** Safe PascalCase name of the payload type (`FilteredStreamPostDelivery`). */
  readonly payloadTypeName: string;
  readonly summary?: string;
  readonly description?: string;
  readonly deprecated: boolean;
  readonly unspecified?: string;
  /** `x-webhook-signature` as written: how each delivery is signed (checked by the receiver emitter). */
  readonly signature?: unknown;
  /** `x-delivery-id` as written: the header carrying each delivery's unique id. */
  readonly deliveryId?: unknown;
  readonly parameters: readonly Parameter[];
  readonly requestBody?: RequestBody;
  readonly responses: readonly Response[];
  readonly rules: readonly Rule[];
  /**
   * The payload names its event type in a property its `discriminator` gives: one handler per value
   * (the mapping keys, else the enum or const of that property). Other values are surfaced to the
   * fallback handler; `legacy` lists the property's `x-legacy-values`.
   */
  readonly eventTypes?: {
    readonly property: string;
    readonly values: readonly { readonly value: string; readonly schemaName?: string }[];
    readonly legacy: readonly string[];
  };
}
