/**
 * A walker over a bundled OpenAPI 3.1 document that knows what kind of object each node is
 * (operation, parameter, schema, security scheme …). The contract tests use it to check where each
 * x- extension sits and to find every example together with the schema it must satisfy.
 *
 * `$ref`s are not followed: every component is walked where it is defined, so each extension
 * and each example is seen exactly once, and cyclic schemas need no special care.
 */
import { escapeToken, isObject, type Json, type JsonObject, type OpenApiDoc } from "./contracts-load.js";

/** Object kinds of OpenAPI 3.1. The vocabulary's `x-placement` names some of them. */
export type NodeKind =
  | "document"
  | "info"
  | "contact"
  | "license"
  | "server"
  | "serverVariable"
  | "paths"
  | "pathItem"
  | "operation"
  | "parameter"
  | "requestBody"
  | "mediaType"
  | "encoding"
  | "responses"
  | "response"
  | "header"
  | "example"
  | "link"
  | "callback"
  | "tag"
  | "externalDocs"
  | "components"
  | "securityScheme"
  | "oauthFlows"
  | "oauthFlow"
  | "securityRequirement"
  | "schema"
  | "discriminator"
  | "xml";

export interface Visit {
  node: JsonObject;
  kind: NodeKind;
  pointer: string;
}

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

const SCHEMA_SINGLE = ["additionalProperties", "items", "contains", "not", "if", "then", "else", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema", "additionalItems"];
const SCHEMA_LIST = ["allOf", "anyOf", "oneOf", "prefixItems"];
const SCHEMA_MAP = ["properties", "patternProperties", "dependentSchemas", "$defs", "definitions"];

const child = (pointer: string, ...tokens: (string | number)[]): string => tokens.reduce<string>((p, t) => `${p}/${escapeToken(String(t))}`, pointer);

/** Calls `visit` for every OpenAPI object of the document, with its kind and JSON pointer. */
export function walkOpenApi(doc: OpenApiDoc, visit: (v: Visit) => void): void {
  const seen = new Set<JsonObject>();

  const at = (value: Json | undefined, kind: NodeKind, pointer: string, inner?: (node: JsonObject) => void): void => {
    if (!isObject(value) || seen.has(value)) return;
    seen.add(value);
    visit({ node: value, kind, pointer });
    // A Reference Object is not followed (its target is walked where it is defined); a schema's
    // `$ref` is just one keyword among its siblings in OpenAPI 3.1, so schemas are walked on.
    if (typeof value.$ref === "string" && kind !== "schema") return;
    inner?.(value);
  };
  const eachIn = (value: Json | undefined, pointer: string, fn: (item: Json, pointer: string) => void): void => {
    if (Array.isArray(value)) value.forEach((item, i) => fn(item, child(pointer, i)));
  };
  /** A map whose keys are names (not extensions): properties, content, components.schemas … */
  const eachNamed = (value: Json | undefined, pointer: string, fn: (item: Json, pointer: string) => void): void => {
    if (isObject(value)) for (const [k, v] of Object.entries(value)) fn(v, child(pointer, k));
  };
  /** An OpenAPI object that is also a map (paths, responses, callback): its x- keys are extensions. */
  const eachEntry = (value: JsonObject, pointer: string, fn: (item: Json, pointer: string) => void): void => {
    for (const [k, v] of Object.entries(value)) if (!k.startsWith("x-")) fn(v, child(pointer, k));
  };

  const schema = (value: Json | undefined, pointer: string): void =>
    at(value, "schema", pointer, (s) => {
      for (const k of SCHEMA_SINGLE) schema(s[k], child(pointer, k));
      for (const k of SCHEMA_LIST) eachIn(s[k], child(pointer, k), schema);
      for (const k of SCHEMA_MAP) eachNamed(s[k], child(pointer, k), schema);
      at(s.discriminator, "discriminator", child(pointer, "discriminator"));
      at(s.xml, "xml", child(pointer, "xml"));
      at(s.externalDocs, "externalDocs", child(pointer, "externalDocs"));
    });
  const example = (value: Json | undefined, pointer: string): void => at(value, "example", pointer);
  const mediaType = (value: Json | undefined, pointer: string): void =>
    at(value, "mediaType", pointer, (m) => {
      schema(m.schema, child(pointer, "schema"));
      eachNamed(m.examples, child(pointer, "examples"), example);
      eachNamed(m.encoding, child(pointer, "encoding"), (e, p) => at(e, "encoding", p, (enc) => eachNamed(enc.headers, child(p, "headers"), header)));
    });
  const header = (value: Json | undefined, pointer: string): void =>
    at(value, "header", pointer, (h) => {
      schema(h.schema, child(pointer, "schema"));
      eachNamed(h.content, child(pointer, "content"), mediaType);
      eachNamed(h.examples, child(pointer, "examples"), example);
    });
  const parameter = (value: Json | undefined, pointer: string): void =>
    at(value, "parameter", pointer, (p) => {
      schema(p.schema, child(pointer, "schema"));
      eachNamed(p.content, child(pointer, "content"), mediaType);
      eachNamed(p.examples, child(pointer, "examples"), example);
    });
  const requestBody = (value: Json | undefined, pointer: string): void => at(value, "requestBody", pointer, (b) => eachNamed(b.content, child(pointer, "content"), mediaType));
  const link = (value: Json | undefined, pointer: string): void => at(value, "link", pointer, (l) => server(l.server, child(pointer, "server")));
  const response = (value: Json | undefined, pointer: string): void =>
    at(value, "response", pointer, (r) => {
      eachNamed(r.headers, child(pointer, "headers"), header);
      eachNamed(r.content, child(pointer, "content"), mediaType);
      eachNamed(r.links, child(pointer, "links"), link);
    });
  const responses = (value: Json | undefined, pointer: string): void => at(value, "responses", pointer, (r) => eachEntry(r, pointer, response));
  const securityRequirement = (value: Json | undefined, pointer: string): void => at(value, "securityRequirement", pointer);
  const server = (value: Json | undefined, pointer: string): void => at(value, "server", pointer, (s) => eachNamed(s.variables, child(pointer, "variables"), (v, p) => at(v, "serverVariable", p)));
  const callback = (value: Json | undefined, pointer: string): void => at(value, "callback", pointer, (c) => eachEntry(c, pointer, pathItem));
  const operation = (value: Json | undefined, pointer: string): void =>
    at(value, "operation", pointer, (o) => {
      eachIn(o.parameters, child(pointer, "parameters"), parameter);
      requestBody(o.requestBody, child(pointer, "requestBody"));
      responses(o.responses, child(pointer, "responses"));
      eachNamed(o.callbacks, child(pointer, "callbacks"), callback);
      eachIn(o.security, child(pointer, "security"), securityRequirement);
      eachIn(o.servers, child(pointer, "servers"), server);
      at(o.externalDocs, "externalDocs", child(pointer, "externalDocs"));
    });
  const pathItem = (value: Json | undefined, pointer: string): void =>
    at(value, "pathItem", pointer, (item) => {
      for (const method of HTTP_METHODS) operation(item[method], child(pointer, method));
      eachIn(item.parameters, child(pointer, "parameters"), parameter);
      eachIn(item.servers, child(pointer, "servers"), server);
    });
  const securityScheme = (value: Json | undefined, pointer: string): void =>
    at(value, "securityScheme", pointer, (s) => at(s.flows, "oauthFlows", child(pointer, "flows"), (flows) => eachEntry(flows, child(pointer, "flows"), (f, p) => at(f, "oauthFlow", p))));

  at(doc, "document", "#", (d) => {
    at(d.info, "info", "#/info", (info) => {
      at(info.contact, "contact", "#/info/contact");
      at(info.license, "license", "#/info/license");
    });
    eachIn(d.servers, "#/servers", server);
    at(d.paths, "paths", "#/paths", (paths) => eachEntry(paths, "#/paths", pathItem));
    eachNamed(d.webhooks, "#/webhooks", pathItem);
    eachIn(d.security, "#/security", securityRequirement);
    eachIn(d.tags, "#/tags", (t, p) => at(t, "tag", p, (tag) => at(tag.externalDocs, "externalDocs", child(p, "externalDocs"))));
    at(d.externalDocs, "externalDocs", "#/externalDocs");
    at(d.components, "components", "#/components", (c) => {
      const base = "#/components";
      eachNamed(c.schemas, child(base, "schemas"), schema);
      eachNamed(c.responses, child(base, "responses"), response);
      eachNamed(c.parameters, child(base, "parameters"), parameter);
      eachNamed(c.examples, child(base, "examples"), example);
      eachNamed(c.requestBodies, child(base, "requestBodies"), requestBody);
      eachNamed(c.headers, child(base, "headers"), header);
      eachNamed(c.securitySchemes, child(base, "securitySchemes"), securityScheme);
      eachNamed(c.links, child(base, "links"), link);
      eachNamed(c.callbacks, child(base, "callbacks"), callback);
      eachNamed(c.pathItems, child(base, "pathItems"), pathItem);
    });
  });
}

/** One example found in a contract, and the pointer of the schema it must satisfy. */
export interface FoundExample {
  /** where the example value sits */
  pointer: string;
  /** JSON pointer of the schema to validate against */
  schemaPointer: string;
  value: Json;
}

/**
 * Every example of the document: `example` and `examples` entries of media types, parameters and
 * headers (against their `schema`), and `example` / `examples[]` inside schemas (against that
 * schema). Example objects given by `$ref` are resolved through `resolve`.
 */
export function collectExamples(doc: OpenApiDoc, resolve: (ref: string) => Json | undefined): FoundExample[] {
  const found: FoundExample[] = [];
  walkOpenApi(doc, ({ node, kind, pointer }) => {
    if (kind === "mediaType" || kind === "parameter" || kind === "header") {
      if (!isObject(node.schema)) return; // parameters/headers with `content` are covered by their media types
      const schemaPointer = child(pointer, "schema");
      if ("example" in node) found.push({ pointer: child(pointer, "example"), schemaPointer, value: node.example as Json });
      if (isObject(node.examples)) {
        for (const [name, entry] of Object.entries(node.examples)) {
          const exampleObject = isObject(entry) && typeof entry.$ref === "string" ? resolve(entry.$ref) : entry;
          if (isObject(exampleObject) && "value" in exampleObject) {
            found.push({ pointer: child(pointer, "examples", name, "value"), schemaPointer, value: exampleObject.value as Json });
          }
        }
      }
    } else if (kind === "schema") {
      if ("example" in node) found.push({ pointer: child(pointer, "example"), schemaPointer: pointer, value: node.example as Json });
      if (Array.isArray(node.examples)) {
        node.examples.forEach((value, i) => found.push({ pointer: child(pointer, "examples", i), schemaPointer: pointer, value }));
      }
    }
  });
  return found;
}

/** Every operation of the document with its method and path. */
export function operations(doc: OpenApiDoc): { method: string; path: string; operation: JsonObject }[] {
  const out: { method: string; path: string; operation: JsonObject }[] = [];
  const paths = doc.paths;
  if (!isObject(paths)) return out;
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item) || path.startsWith("x-")) continue;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (isObject(op)) out.push({ method, path, operation: op });
    }
  }
  return out;
}
