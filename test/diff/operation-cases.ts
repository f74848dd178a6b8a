/**
 * Edits outside schema bodies: operations, parameters, request bodies, responses, security,
 * components, servers, deprecation, documentation and extensions. Each case is the smallest pair of
 * documents that shows the edit, and every change the diff must find in it.
 */
import type { OpenApiDocument } from "../../generators/src/load/load.js";
import { api, json, op, query } from "./helpers.js";

type Severity = "breaking" | "non-breaking" | "documentation";

export interface OperationCase {
  readonly edit: string;
  readonly old: OpenApiDocument;
  readonly new: OpenApiDocument;
  readonly changes: readonly { readonly kind: string; readonly severity: Severity; readonly pointer: string }[];
  readonly bump: "major" | "minor" | "patch" | "none";
}

const A = "#/paths/~1a/get";
const one = (path: string, method: string, operation: Record<string, unknown>, extra: Record<string, unknown> = {}): OpenApiDocument => api({ [path]: { [method]: operation } }, extra);
const getA = (extra: Record<string, unknown> = {}, root: Record<string, unknown> = {}): OpenApiDocument => one("/a", "get", op("getA", extra), root);
const postA = (body: Record<string, unknown> | undefined): OpenApiDocument => one("/a", "post", op("postA", body ? { requestBody: body } : {}));
const POST_A = "#/paths/~1a/post";
const idParam = (name: string): Record<string, unknown> => ({ name, in: "path", required: true, schema: { type: "string" } });
const responses = (r: Record<string, unknown>): Record<string, unknown> => ({ responses: r });
const ok = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ description: "ok", content: json({ type: "object" }), ...extra });
const body = (required: boolean, media: Record<string, unknown> = json({ type: "object" })): Record<string, unknown> => ({ required, content: media });
const schemas = (s: Record<string, unknown>): Record<string, unknown> => ({ components: { schemas: s } });

export const OPERATION_CASES: readonly OperationCase[] = [
  // Operations
  {
    edit: "an operation is added",
    old: getA(),
    new: api({ "/a": { get: op("getA") }, "/b": { get: op("getB") } }),
    changes: [{ kind: "operation-added", severity: "non-breaking", pointer: "#/paths/~1b/get" }],
    bump: "minor",
  },
  {
    edit: "an operation is removed",
    old: api({ "/a": { get: op("getA") }, "/b": { get: op("getB") } }),
    new: getA(),
    changes: [{ kind: "operation-removed", severity: "breaking", pointer: "#/paths/~1b/get" }],
    bump: "major",
  },
  {
    edit: "an operation moves to another path, keeping its operationId",
    old: getA(),
    new: one("/b", "get", op("getA")),
    changes: [{ kind: "operation-moved", severity: "breaking", pointer: "#/paths/~1b/get" }],
    bump: "major",
  },
  {
    edit: "an operation moves to another path under another operationId",
    old: getA(),
    new: one("/b", "get", op("getB")),
    changes: [
      { kind: "operation-removed", severity: "breaking", pointer: A },
      { kind: "operation-added", severity: "non-breaking", pointer: "#/paths/~1b/get" },
    ],
    bump: "major",
  },
  {
    edit: "the operationId changes",
    old: getA(),
    new: one("/a", "get", op("fetchA")),
    changes: [{ kind: "operation-id-changed", severity: "breaking", pointer: `${A}/operationId` }],
    bump: "major",
  },
  {
    edit: "an operation is deprecated",
    old: getA(),
    new: getA({ deprecated: true }),
    changes: [{ kind: "operation-deprecated", severity: "non-breaking", pointer: `${A}/deprecated` }],
    bump: "minor",
  },
  {
    edit: "a deprecation is withdrawn",
    old: getA({ deprecated: true }),
    new: getA(),
    changes: [{ kind: "deprecation-withdrawn", severity: "non-breaking", pointer: `${A}/deprecated` }],
    bump: "minor",
  },
  {
    edit: "a sunset date is set",
    old: getA({ deprecated: true }),
    new: getA({ deprecated: true, "x-sunset": "2027-01-01" }),
    changes: [{ kind: "deprecation-changed", severity: "non-breaking", pointer: `${A}/x-sunset` }],
    bump: "minor",
  },

  // Parameters
  {
    edit: "an optional parameter is added",
    old: getA(),
    new: getA({ parameters: [query("limit")] }),
    changes: [{ kind: "parameter-added", severity: "non-breaking", pointer: `${A}/parameters/0` }],
    bump: "minor",
  },
  {
    edit: "a required parameter is added",
    old: getA(),
    new: getA({ parameters: [query("limit", { required: true })] }),
    changes: [{ kind: "required-parameter-added", severity: "breaking", pointer: `${A}/parameters/0` }],
    bump: "major",
  },
  {
    edit: "an optional parameter is removed (clients that send it break)",
    old: getA({ parameters: [query("limit")] }),
    new: getA(),
    changes: [{ kind: "parameter-removed", severity: "breaking", pointer: `${A}/parameters/0` }],
    bump: "major",
  },
  {
    edit: "a parameter becomes required",
    old: getA({ parameters: [query("limit")] }),
    new: getA({ parameters: [query("limit", { required: true })] }),
    changes: [{ kind: "parameter-became-required", severity: "breaking", pointer: `${A}/parameters/0/required` }],
    bump: "major",
  },
  {
    edit: "a parameter becomes optional",
    old: getA({ parameters: [query("limit", { required: true })] }),
    new: getA({ parameters: [query("limit")] }),
    changes: [{ kind: "parameter-became-optional", severity: "non-breaking", pointer: `${A}/parameters/0/required` }],
    bump: "minor",
  },
  {
    edit: "a parameter is deprecated",
    old: getA({ parameters: [query("limit")] }),
    new: getA({ parameters: [query("limit", { deprecated: true })] }),
    changes: [{ kind: "parameter-deprecated", severity: "non-breaking", pointer: `${A}/parameters/0/deprecated` }],
    bump: "minor",
  },
  {
    edit: "a parameter's serialization changes",
    old: getA({ parameters: [query("ids", { schema: { type: "array", items: { type: "string" } } })] }),
    new: getA({ parameters: [query("ids", { schema: { type: "array", items: { type: "string" } }, explode: false })] }),
    changes: [{ kind: "parameter-serialization-changed", severity: "breaking", pointer: `${A}/parameters/0` }],
    bump: "major",
  },
  {
    edit: "a path parameter is renamed on an operation without operationId (its generated name is not a second change)",
    old: one("/items/{id}", "get", { responses: { "200": ok() }, parameters: [idParam("id")] }),
    new: one("/items/{item_id}", "get", { responses: { "200": ok() }, parameters: [idParam("item_id")] }),
    changes: [{ kind: "path-parameter-renamed", severity: "breaking", pointer: "#/paths/~1items~1{item_id}/get/parameters/0/name" }],
    bump: "major",
  },
  {
    edit: "a path parameter is renamed",
    old: one("/items/{id}", "get", op("getItem", { parameters: [idParam("id")] })),
    new: one("/items/{item_id}", "get", op("getItem", { parameters: [idParam("item_id")] })),
    changes: [{ kind: "path-parameter-renamed", severity: "breaking", pointer: "#/paths/~1items~1{item_id}/get/parameters/0/name" }],
    bump: "major",
  },
  {
    edit: "an enum value is removed from a query parameter",
    old: getA({ parameters: [query("sort", { schema: { type: "string", enum: ["asc", "desc"] } })] }),
    new: getA({ parameters: [query("sort", { schema: { type: "string", enum: ["asc"] } })] }),
    changes: [{ kind: "request-enum-value-removed", severity: "breaking", pointer: `${A}/parameters/0/schema/enum` }],
    bump: "major",
  },
  {
    edit: "an enum value is added to a query parameter",
    old: getA({ parameters: [query("sort", { schema: { type: "string", enum: ["asc"] } })] }),
    new: getA({ parameters: [query("sort", { schema: { type: "string", enum: ["asc", "desc"] } })] }),
    changes: [{ kind: "request-enum-value-added", severity: "non-breaking", pointer: `${A}/parameters/0/schema/enum` }],
    bump: "minor",
  },
  {
    edit: "a path-level parameter's maxLength is lowered",
    old: api({ "/items/{id}": { parameters: [{ ...idParam("id"), schema: { type: "string", maxLength: 20 } }], get: op("getItem") } }),
    new: api({ "/items/{id}": { parameters: [{ ...idParam("id"), schema: { type: "string", maxLength: 10 } }], get: op("getItem") } }),
    changes: [{ kind: "request-bound-tightened", severity: "breaking", pointer: "#/paths/~1items~1{id}/parameters/0/schema/maxLength" }],
    bump: "major",
  },
  {
    edit: "a parameter moves from the path item to the operation unchanged",
    old: api({ "/items/{id}": { parameters: [idParam("id")], get: op("getItem") } }),
    new: api({ "/items/{id}": { get: op("getItem", { parameters: [idParam("id")] }) } }),
    changes: [],
    bump: "none",
  },

  // Request bodies
  {
    edit: "an optional request body is added",
    old: postA(undefined),
    new: postA(body(false)),
    changes: [{ kind: "request-body-added", severity: "non-breaking", pointer: `${POST_A}/requestBody` }],
    bump: "minor",
  },
  {
    edit: "a required request body is added",
    old: postA(undefined),
    new: postA(body(true)),
    changes: [{ kind: "required-request-body-added", severity: "breaking", pointer: `${POST_A}/requestBody` }],
    bump: "major",
  },
  {
    edit: "the request body is removed",
    old: postA(body(false)),
    new: postA(undefined),
    changes: [{ kind: "request-body-removed", severity: "breaking", pointer: `${POST_A}/requestBody` }],
    bump: "major",
  },
  {
    edit: "the request body becomes required",
    old: postA(body(false)),
    new: postA(body(true)),
    changes: [{ kind: "request-body-became-required", severity: "breaking", pointer: `${POST_A}/requestBody/required` }],
    bump: "major",
  },
  {
    edit: "the request body becomes optional",
    old: postA(body(true)),
    new: postA(body(false)),
    changes: [{ kind: "request-body-became-optional", severity: "non-breaking", pointer: `${POST_A}/requestBody/required` }],
    bump: "minor",
  },
  {
    edit: "a request media type is added",
    old: postA(body(true)),
    new: postA(body(true, { ...json({ type: "object" }), "application/x-www-form-urlencoded": { schema: { type: "object" } } })),
    changes: [{ kind: "request-media-type-added", severity: "non-breaking", pointer: `${POST_A}/requestBody/content/application~1x-www-form-urlencoded` }],
    bump: "minor",
  },
  {
    edit: "a request media type is removed",
    old: postA(body(true, { ...json({ type: "object" }), "text/csv": { schema: { type: "string" } } })),
    new: postA(body(true)),
    changes: [{ kind: "request-media-type-removed", severity: "breaking", pointer: `${POST_A}/requestBody/content/text~1csv` }],
    bump: "major",
  },

  // Responses
  {
    edit: "a status code is added",
    old: getA(),
    new: getA(responses({ "200": ok(), "404": { description: "not found" } })),
    changes: [{ kind: "response-status-added", severity: "non-breaking", pointer: `${A}/responses/404` }],
    bump: "minor",
  },
  {
    edit: "a status code answered by a shared response is removed: reported where the operation listed it",
    old: getA(responses({ "200": ok(), "404": { $ref: "#/components/responses/NotFound" } }), {
      components: { responses: { NotFound: { description: "not found" } } },
    }),
    new: getA({}, { components: { responses: { NotFound: { description: "not found" } } } }),
    changes: [{ kind: "response-status-removed", severity: "breaking", pointer: `${A}/responses/404` }],
    bump: "major",
  },
  {
    edit: "a status code is removed",
    old: getA(responses({ "200": ok(), "404": { description: "not found" } })),
    new: getA(),
    changes: [{ kind: "response-status-removed", severity: "breaking", pointer: `${A}/responses/404` }],
    bump: "major",
  },
  {
    edit: "a response media type is added",
    old: getA(),
    new: getA(responses({ "200": ok({ content: { ...json({ type: "object" }), "text/csv": { schema: { type: "string" } } } }) })),
    changes: [{ kind: "response-media-type-added", severity: "non-breaking", pointer: `${A}/responses/200/content/text~1csv` }],
    bump: "minor",
  },
  {
    edit: "a response media type is removed",
    old: getA(responses({ "200": ok({ content: { ...json({ type: "object" }), "text/csv": { schema: { type: "string" } } } }) })),
    new: getA(),
    changes: [{ kind: "response-media-type-removed", severity: "breaking", pointer: `${A}/responses/200/content/text~1csv` }],
    bump: "major",
  },
  {
    edit: "a response header is added",
    old: getA(),
    new: getA(responses({ "200": ok({ headers: { "X-Rate-Limit": { schema: { type: "integer" } } } }) })),
    changes: [{ kind: "response-header-added", severity: "non-breaking", pointer: `${A}/responses/200/headers/X-Rate-Limit` }],
    bump: "minor",
  },
  {
    edit: "a response header is removed",
    old: getA(responses({ "200": ok({ headers: { "X-Rate-Limit": { schema: { type: "integer" } } } }) })),
    new: getA(),
    changes: [{ kind: "response-header-removed", severity: "breaking", pointer: `${A}/responses/200/headers/X-Rate-Limit` }],
    bump: "major",
  },
  {
    edit: "a response header becomes optional",
    old: getA(responses({ "200": ok({ headers: { ETag: { required: true, schema: { type: "string" } } } }) })),
    new: getA(responses({ "200": ok({ headers: { ETag: { schema: { type: "string" } } } }) })),
    changes: [{ kind: "response-header-became-optional", severity: "breaking", pointer: `${A}/responses/200/headers/ETag/required` }],
    bump: "major",
  },
  {
    edit: "a response header becomes required",
    old: getA(responses({ "200": ok({ headers: { ETag: { schema: { type: "string" } } } }) })),
    new: getA(responses({ "200": ok({ headers: { ETag: { required: true, schema: { type: "string" } } } }) })),
    changes: [{ kind: "response-header-became-required", severity: "non-breaking", pointer: `${A}/responses/200/headers/ETag/required` }],
    bump: "minor",
  },
  {
    edit: "a response property is added",
    old: getA(),
    new: getA(responses({ "200": ok({ content: json({ type: "object", properties: { id: { type: "string" } } }) }) })),
    changes: [{ kind: "response-property-added", severity: "non-breaking", pointer: `${A}/responses/200/content/application~1json/schema/properties/id` }],
    bump: "minor",
  },

  // Security
  {
    edit: "authentication is required where there was none",
    old: getA(),
    new: getA({ security: [{ bearer: [] }] }),
    changes: [{ kind: "security-requirement-added", severity: "breaking", pointer: `${A}/security` }],
    bump: "major",
  },
  {
    edit: "authentication is no longer required",
    old: getA({ security: [{ bearer: [] }] }),
    new: getA({ security: [] }),
    changes: [{ kind: "security-requirement-removed", severity: "non-breaking", pointer: `${A}/security` }],
    bump: "minor",
  },
  {
    edit: "optional authentication is dropped altogether",
    old: getA({ security: [{}, { bearer: [] }] }),
    new: getA({ security: [] }),
    changes: [{ kind: "security-requirement-removed", severity: "non-breaking", pointer: `${A}/security` }],
    bump: "minor",
  },
  {
    edit: "a root requirement applies to an operation that had none",
    old: getA(),
    new: getA({}, { security: [{ bearer: [] }] }),
    changes: [{ kind: "security-requirement-added", severity: "breaking", pointer: "#/security" }],
    bump: "major",
  },
  {
    edit: "an alternative is added",
    old: getA({ security: [{ bearer: [] }] }),
    new: getA({ security: [{ bearer: [] }, { basic: [] }] }),
    changes: [{ kind: "security-alternative-added", severity: "non-breaking", pointer: `${A}/security` }],
    bump: "minor",
  },
  {
    edit: "an alternative is removed",
    old: getA({ security: [{ bearer: [] }, { basic: [] }] }),
    new: getA({ security: [{ bearer: [] }] }),
    changes: [{ kind: "security-alternative-removed", severity: "breaking", pointer: `${A}/security` }],
    bump: "major",
  },
  {
    edit: "anonymous access is no longer an alternative",
    old: getA({ security: [{}, { bearer: [] }] }),
    new: getA({ security: [{ bearer: [] }] }),
    changes: [{ kind: "security-alternative-removed", severity: "breaking", pointer: `${A}/security` }],
    bump: "major",
  },
  {
    edit: "a scope is added",
    old: getA({ security: [{ oauth: ["read"] }] }),
    new: getA({ security: [{ oauth: ["read", "write"] }] }),
    changes: [{ kind: "security-scope-added", severity: "breaking", pointer: `${A}/security` }],
    bump: "major",
  },
  {
    edit: "a scope is removed",
    old: getA({ security: [{ oauth: ["read", "write"] }] }),
    new: getA({ security: [{ oauth: ["read"] }] }),
    changes: [{ kind: "security-scope-removed", severity: "non-breaking", pointer: `${A}/security` }],
    bump: "minor",
  },
  {
    edit: "a security scheme is added",
    old: getA({}, { components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } } }),
    new: getA({}, { components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" }, apiKey: { type: "apiKey", in: "header", name: "X-Key" } } } }),
    changes: [{ kind: "security-scheme-added", severity: "non-breaking", pointer: "#/components/securitySchemes/apiKey" }],
    bump: "minor",
  },
  {
    edit: "a security scheme's location changes",
    old: getA({}, { components: { securitySchemes: { key: { type: "apiKey", in: "header", name: "X-Key" } } } }),
    new: getA({}, { components: { securitySchemes: { key: { type: "apiKey", in: "query", name: "key" } } } }),
    changes: [{ kind: "security-scheme-changed", severity: "breaking", pointer: "#/components/securitySchemes/key" }],
    bump: "major",
  },
  {
    edit: "an extension inside a security scheme's flow is added (x-revocation-url)",
    old: getA({}, { components: { securitySchemes: { app: { type: "oauth2", flows: { clientCredentials: { tokenUrl: "/token", scopes: {} } } } } } }),
    new: getA({}, { components: { securitySchemes: { app: { type: "oauth2", flows: { clientCredentials: { tokenUrl: "/token", "x-revocation-url": "/revoke", scopes: {} } } } } } }),
    changes: [{ kind: "annotation-changed", severity: "documentation", pointer: "#/components/securitySchemes/app/flows" }],
    bump: "patch",
  },
  {
    edit: "a security scheme's token URL changes",
    old: getA({}, { components: { securitySchemes: { app: { type: "oauth2", flows: { clientCredentials: { tokenUrl: "/token", scopes: {} } } } } } }),
    new: getA({}, { components: { securitySchemes: { app: { type: "oauth2", flows: { clientCredentials: { tokenUrl: "/oauth/token", scopes: {} } } } } } }),
    changes: [{ kind: "security-scheme-changed", severity: "breaking", pointer: "#/components/securitySchemes/app" }],
    bump: "major",
  },
  {
    edit: "a security scheme is removed",
    old: getA({}, { components: { securitySchemes: { key: { type: "apiKey", in: "header", name: "X-Key" } } } }),
    new: getA({}, { components: { securitySchemes: {} } }),
    changes: [{ kind: "security-scheme-removed", severity: "breaking", pointer: "#/components/securitySchemes/key" }],
    bump: "major",
  },

  // Servers
  {
    edit: "a server is added",
    old: getA({}, { servers: [{ url: "https://a.example.com" }] }),
    new: getA({}, { servers: [{ url: "https://a.example.com" }, { url: "https://b.example.com" }] }),
    changes: [{ kind: "server-added", severity: "non-breaking", pointer: "#/servers/1" }],
    bump: "minor",
  },
  {
    edit: "a server is removed",
    old: getA({}, { servers: [{ url: "https://a.example.com" }, { url: "https://b.example.com" }] }),
    new: getA({}, { servers: [{ url: "https://b.example.com" }] }),
    changes: [{ kind: "server-removed", severity: "breaking", pointer: "#/servers/0" }],
    bump: "major",
  },

  // Component schemas
  {
    edit: "a component schema is added",
    old: getA(),
    new: getA({}, schemas({ Thing: { type: "object" } })),
    changes: [{ kind: "schema-added", severity: "non-breaking", pointer: "#/components/schemas/Thing" }],
    bump: "minor",
  },
  {
    edit: "a component schema is removed",
    old: getA({}, schemas({ Thing: { type: "object" } })),
    new: getA(),
    changes: [{ kind: "schema-removed", severity: "breaking", pointer: "#/components/schemas/Thing" }],
    bump: "major",
  },
  {
    edit: "a component schema is renamed",
    old: getA({}, schemas({ Thing: { type: "object", properties: { id: { type: "string" } } } })),
    new: getA({}, schemas({ Item: { type: "object", properties: { id: { type: "string" } } } })),
    changes: [{ kind: "schema-renamed", severity: "documentation", pointer: "#/components/schemas/Item" }],
    bump: "patch",
  },
  {
    edit: "a component schema is deprecated",
    old: getA({}, schemas({ Thing: { type: "object" } })),
    new: getA({}, schemas({ Thing: { type: "object", deprecated: true } })),
    changes: [{ kind: "schema-deprecated", severity: "non-breaking", pointer: "#/components/schemas/Thing/deprecated" }],
    bump: "minor",
  },
  {
    edit: "a component used as a property is deprecated: the schema is",
    old: getA(responses({ "200": ok({ content: json({ type: "object", properties: { author: { $ref: "#/components/schemas/User" } } }) }) }), schemas({ User: { type: "object" } })),
    new: getA(responses({ "200": ok({ content: json({ type: "object", properties: { author: { $ref: "#/components/schemas/User" } } }) }) }), schemas({ User: { type: "object", deprecated: true } })),
    changes: [{ kind: "schema-deprecated", severity: "non-breaking", pointer: "#/components/schemas/User/deprecated" }],
    bump: "minor",
  },
  {
    edit: "a response property is deprecated",
    old: getA(responses({ "200": ok({ content: json({ type: "object", properties: { id: { type: "string" } } }) }) })),
    new: getA(responses({ "200": ok({ content: json({ type: "object", properties: { id: { type: "string", deprecated: true } } }) }) })),
    changes: [{ kind: "property-deprecated", severity: "non-breaking", pointer: `${A}/responses/200/content/application~1json/schema/properties/id/deprecated` }],
    bump: "minor",
  },

  // Extensions the generated code acts on
  {
    edit: "an x-rules entry is added",
    old: getA(),
    new: getA({ "x-rules": [{ id: "one-of-a-b", oneOf: ["a", "b"] }] }),
    changes: [{ kind: "rule-added", severity: "breaking", pointer: `${A}/x-rules/0` }],
    bump: "major",
  },
  {
    edit: "an x-rules entry is removed",
    old: getA({ "x-rules": [{ id: "one-of-a-b", oneOf: ["a", "b"] }] }),
    new: getA(),
    changes: [{ kind: "rule-removed", severity: "non-breaking", pointer: `${A}/x-rules/0` }],
    bump: "minor",
  },
  {
    edit: "pagination is declared",
    old: getA(),
    new: getA({ "x-pagination": { style: "cursor", request: "next_token", response: "meta.next_token" } }),
    changes: [{ kind: "behaviour-extension-changed", severity: "breaking", pointer: `${A}/x-pagination` }],
    bump: "major",
  },

  // Documentation
  {
    edit: "a description changes",
    old: getA({ description: "Gets A." }),
    new: getA({ description: "Returns A." }),
    changes: [{ kind: "description-changed", severity: "documentation", pointer: `${A}/description` }],
    bump: "patch",
  },
  {
    edit: "a summary is added",
    old: getA(),
    new: getA({ summary: "Get A" }),
    changes: [{ kind: "summary-changed", severity: "documentation", pointer: `${A}/summary` }],
    bump: "patch",
  },
  {
    edit: "the API title changes",
    old: getA(),
    new: { ...getA(), info: { title: "Renamed", version: "1.0.0" } },
    changes: [{ kind: "title-changed", severity: "documentation", pointer: "#/info/title" }],
    bump: "patch",
  },
  {
    edit: "an example changes",
    old: getA(responses({ "200": ok({ content: { "application/json": { schema: { type: "object" }, example: { a: 1 } } } }) })),
    new: getA(responses({ "200": ok({ content: { "application/json": { schema: { type: "object" }, example: { a: 2 } } } }) })),
    changes: [{ kind: "example-changed", severity: "documentation", pointer: `${A}/responses/200/content/application~1json/example` }],
    bump: "patch",
  },
  {
    edit: "an operation's tags change",
    old: getA({ tags: ["a"] }),
    new: getA({ tags: ["b"] }),
    changes: [{ kind: "tags-changed", severity: "documentation", pointer: `${A}/tags` }],
    bump: "patch",
  },
  {
    edit: "an x- annotation without behaviour changes",
    old: getA({ "x-source": "doc 1 §2" }),
    new: getA({ "x-source": "doc 1 §3" }),
    changes: [{ kind: "annotation-changed", severity: "documentation", pointer: `${A}/x-source` }],
    bump: "patch",
  },
  {
    edit: "a schema description changes",
    old: getA(responses({ "200": ok({ content: json({ type: "object", description: "A thing." }) }) })),
    new: getA(responses({ "200": ok({ content: json({ type: "object", description: "The thing." }) }) })),
    changes: [{ kind: "description-changed", severity: "documentation", pointer: `${A}/responses/200/content/application~1json/schema/description` }],
    bump: "patch",
  },
  { edit: "only info.version changes", old: getA(), new: { ...getA(), info: { title: "Fixture", version: "2.0.0" } }, changes: [], bump: "none" },
];
