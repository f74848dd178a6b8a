/**
 * openapi-typescript's AST for the types emitter, without the Redocly pass it would run first.
 *
 * `openapiTS(document)` lints the document (its only rule: unique operationIds) and bundles it with
 * Redocly before transforming it. On GitHub's description that pass costs about five seconds and a
 * second copy of the document as a JSON string, and for a document our loader has already checked it
 * usually changes two things only: an absent `components` becomes `{}`, and example data written as
 * a `$ref` is replaced by its target. When `passIsNoOp` can show that, those two are replayed and the
 * transform is called directly with the context `openapiTS` would build; any document it cannot
 * vouch for goes through `openapiTS` as before, so the output (and every failure) is the same.
 */
import type ts from "typescript";
import type { GlobalContext, OpenAPI3, OpenAPITSOptions } from "openapi-typescript";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** The Redocly node types this check follows; `Opaque` ones (info, servers, links …) must hold no `$ref`. */
type NodeType =
  | "Root"
  | "Paths"
  | "PathItem"
  | "Operation"
  | "Parameter"
  | "RequestBody"
  | "Responses"
  | "Response"
  | "MediaType"
  | "Header"
  | "Example"
  | "Encoding"
  | "Callback"
  | "Components"
  | "Schema"
  | "Opaque";
type Child = readonly [NodeType, "one" | "map" | "list"];

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
const SCHEMA_ONE = ["items", "not", "if", "then", "else", "contains", "propertyNames", "additionalProperties", "unevaluatedItems", "unevaluatedProperties", "contentSchema"];
const PARAMETER: Readonly<Record<string, Child>> = { schema: ["Schema", "one"], content: ["MediaType", "map"], examples: ["Example", "map"] };

/** Where each type's members lead, as Redocly's OpenAPI 3.0/3.1 types say (members not listed are scalars or unknown). */
const CHILDREN: Readonly<Record<Exclude<NodeType, "Opaque">, Readonly<Record<string, Child>>>> = {
  Root: {
    paths: ["Paths", "one"],
    webhooks: ["PathItem", "map"],
    components: ["Components", "one"],
    info: ["Opaque", "one"],
    servers: ["Opaque", "one"],
    security: ["Opaque", "one"],
    tags: ["Opaque", "one"],
    externalDocs: ["Opaque", "one"],
  },
  Paths: {},
  PathItem: { parameters: ["Parameter", "list"], servers: ["Opaque", "one"], ...Object.fromEntries(METHODS.map((m) => [m, ["Operation", "one"] as const])) },
  Operation: {
    parameters: ["Parameter", "list"],
    requestBody: ["RequestBody", "one"],
    responses: ["Responses", "one"],
    callbacks: ["Callback", "map"],
    servers: ["Opaque", "one"],
    security: ["Opaque", "one"],
    externalDocs: ["Opaque", "one"],
    "x-codeSamples": ["Opaque", "one"],
    "x-code-samples": ["Opaque", "one"],
  },
  Parameter: PARAMETER,
  Header: PARAMETER,
  RequestBody: { content: ["MediaType", "map"] },
  Responses: {},
  Response: { headers: ["Header", "map"], content: ["MediaType", "map"], links: ["Opaque", "map"] },
  MediaType: { schema: ["Schema", "one"], examples: ["Example", "map"], encoding: ["Encoding", "map"] },
  Encoding: { headers: ["Header", "map"] },
  Example: {},
  Callback: {},
  Components: {
    schemas: ["Schema", "map"],
    responses: ["Response", "map"],
    parameters: ["Parameter", "map"],
    examples: ["Example", "map"],
    requestBodies: ["RequestBody", "map"],
    headers: ["Header", "map"],
    securitySchemes: ["Opaque", "map"],
    links: ["Opaque", "map"],
    callbacks: ["Callback", "map"],
    pathItems: ["PathItem", "map"],
  },
  Schema: {
    ...Object.fromEntries(SCHEMA_ONE.map((k) => [k, ["Schema", "one"] as const])),
    ...Object.fromEntries(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"].map((k) => [k, ["Schema", "map"] as const])),
    ...Object.fromEntries(["allOf", "anyOf", "oneOf", "prefixItems"].map((k) => [k, ["Schema", "list"] as const])),
    externalDocs: ["Opaque", "one"],
    xml: ["Opaque", "one"],
  },
};
/** OpenAPI 3.0's types where they differ: fewer schema keywords, `x-webhooks` for `webhooks`, no `pathItems`. */
const CHILDREN_30: typeof CHILDREN = {
  ...CHILDREN,
  Root: { ...Object.fromEntries(Object.entries(CHILDREN.Root).filter(([k]) => k !== "webhooks")), "x-webhooks": ["PathItem", "map"], "x-tagGroups": ["Opaque", "one"] },
  Components: Object.fromEntries(Object.entries(CHILDREN.Components).filter(([k]) => k !== "pathItems")),
  Schema: Object.fromEntries(Object.entries(CHILDREN.Schema).filter(([k]) => ["items", "not", "additionalProperties", "properties", "allOf", "anyOf", "oneOf", "externalDocs", "xml"].includes(k))),
};
/** Maps whose every member (extensions aside) has one type. */
const MEMBERS: Partial<Record<NodeType, NodeType>> = { Paths: "PathItem", Responses: "Response", Callback: "PathItem" };
/** The components section a `$ref` of each type points into. */
const COMPONENT: Partial<Record<NodeType, string>> = {
  Schema: "schemas",
  Response: "responses",
  Parameter: "parameters",
  Example: "examples",
  RequestBody: "requestBodies",
  Header: "headers",
  Callback: "callbacks",
  PathItem: "pathItems",
};
/** The member holding example data, typed a scalar by Redocly: a `$ref` there is replaced by its target. */
const DATA: Partial<Record<NodeType, string>> = { Schema: "example", MediaType: "example", Parameter: "example", Header: "example", Example: "value" };
const SIMPLE_SCHEMA_REF = /^#\/components\/schemas\/([^/~%]+)$/;

const isRef = (v: unknown): v is Obj & { $ref: string } => isObj(v) && typeof v["$ref"] === "string";
const holdsRef = (v: unknown): boolean => (Array.isArray(v) ? v.some(holdsRef) : isObj(v) && (isRef(v) || Object.values(v).some(holdsRef)));

/**
 * Whether Redocly's lint and bundle would change `document` only in ways replayed here (an empty
 * `components` added, example data given as a `$ref` replaced by its target) and report nothing.
 * Conservative, following Redocly's node types: every `$ref` it visits names a component of its
 * own type (`#/components/<kind>/<name>`) that exists; a `$ref` it would treat as a scalar is example
 * data whose target holds no `$ref` (anywhere else, or in an extension's member, the answer is no);
 * discriminator mappings name components by their plain names; no example has an `externalValue`;
 * no two operations share an operationId (the lint's one rule). Returns the replacements to make.
 */
export function passIsNoOp(document: Obj): { readonly replace: readonly (() => void)[] } | undefined {
  const components = isObj(document["components"]) ? document["components"] : {};
  const schemas = isObj(components["schemas"]) ? components["schemas"] : undefined;
  const v30 = typeof document["openapi"] === "string" && document["openapi"].startsWith("3.0");
  const table = v30 ? CHILDREN_30 : { ...CHILDREN, Root: { ...CHILDREN.Root, "x-tagGroups": ["Opaque", "one"] as const } };
  const operationIds = new Map<unknown, Obj>();
  const replace: (() => void)[] = [];
  const target = (ref: string, type: NodeType): unknown => {
    const kind = COMPONENT[type];
    const m = /^#\/components\/([^/]+)\/([^/~%]+)$/.exec(ref);
    if (kind === undefined || !m || m[1] !== kind) return undefined;
    const section = components[kind];
    return isObj(section) && Object.prototype.hasOwnProperty.call(section, m[2] as string) ? section[m[2] as string] : undefined;
  };
  const data = (ref: string): unknown => {
    // Example data may point anywhere; what it points at is copied in as it stands.
    if (!/^#\/[^%]*$/.test(ref)) return undefined;
    const hit = pointerTarget(document, ref);
    return hit === undefined || holdsRef(hit) ? undefined : hit;
  };
  const ok = (node: unknown, type: NodeType): boolean => {
    if (type === "Opaque") return !holdsRef(node);
    if (!isObj(node)) return !holdsRef(node);
    if (isRef(node)) {
      // Beside a `$ref`, Redocly reads the target's members before the reference's own: only
      // scalars there keep this simple.
      return target(node["$ref"], type) !== undefined && Object.values(node).every((v) => v === null || typeof v !== "object");
    }
    if (type === "Example" && Object.prototype.hasOwnProperty.call(node, "externalValue")) return false;
    if (type === "Operation" && node["operationId"]) {
      const seen = operationIds.get(node["operationId"]);
      if (seen !== undefined && seen !== node) return false;
      operationIds.set(node["operationId"], node);
    }
    const children = table[type];
    const members = MEMBERS[type];
    for (const k of Object.keys(node)) {
      if (k === "$ref") continue;
      const v = node[k];
      if (type === "Schema" && k === "discriminator") {
        if (!isObj(v) || isRef(v)) {
          if (holdsRef(v)) return false;
          continue;
        }
        const mapping = v["mapping"];
        if (mapping === undefined) continue;
        if (!isObj(mapping)) return false;
        for (const value of Object.values(mapping)) {
          const m = typeof value === "string" ? SIMPLE_SCHEMA_REF.exec(value) : null;
          if (!m || schemas === undefined || !Object.prototype.hasOwnProperty.call(schemas, m[1] as string)) return false;
        }
        continue;
      }
      const typed = Object.prototype.hasOwnProperty.call(children, k);
      if (!typed && k.startsWith("x-")) {
        // An extension is visited; its members are scalars to Redocly, and a `$ref` there is inlined.
        if (isRef(v) || (isObj(v) ? Object.values(v).some(isRef) : Array.isArray(v) && v.some(isRef))) return false;
        continue;
      }
      const child = typed ? children[k] : members !== undefined ? ([members, "one"] as const) : undefined;
      if (child === undefined) {
        if (!isRef(v)) continue; // a scalar or unknown member: Redocly does not look inside
        if (DATA[type] !== k) return false;
        const found = data(v["$ref"]);
        if (found === undefined) return false;
        replace.push(() => {
          if (!isObj(found)) node[k] = found;
          else {
            // Redocly's replaceRef: the target's members, then the reference's own over them.
            delete (v as Obj)["$ref"];
            Object.assign(v, { ...found, ...v });
          }
        });
        continue;
      }
      const [childType, shape] = child;
      if (shape === "one") {
        if (!ok(v, childType)) return false;
      } else if (shape === "list") {
        if (Array.isArray(v) ? !v.every((item) => ok(item, childType)) : holdsRef(v)) return false;
      } else if (isObj(v) && !isRef(v)) {
        for (const [name, item] of Object.entries(v)) if (!(name.startsWith("x-") ? !holdsRef(item) : ok(item, childType))) return false;
      } else if (holdsRef(v)) return false;
    }
    return true;
  };
  return ok(document, "Root") ? { replace } : undefined;
}

function pointerTarget(document: Obj, ref: string): unknown {
  let node: unknown = document;
  for (const raw of ref.slice(2).split("/")) {
    const seg = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object" || !Object.prototype.hasOwnProperty.call(node, seg)) return undefined;
    node = (node as Obj)[seg];
  }
  return node;
}

/**
 * Whether openapi-typescript's `scanDiscriminators` would find anything in `document`: a node with
 * a `discriminator.propertyName`, or an `allOf` it could stumble on (an item that is no object, or a
 * `$ref` that names a member of every object). Without either, its two walks of the whole document
 * (a path array copied at every node: 0.4 s on GitHub's) record nothing and change nothing.
 */
export function hasDiscriminatorWork(document: unknown): boolean {
  const stack: unknown[] = [document];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== "object") continue;
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
      continue;
    }
    const o = node as Obj;
    const discriminator = o["discriminator"];
    if (discriminator !== null && discriminator !== undefined && (discriminator as { propertyName?: unknown }).propertyName) return true;
    const allOf = o["allOf"];
    if (Array.isArray(allOf) && allOf.some((item) => item === null || typeof item !== "object" || ("$ref" in item && String((item as Obj)["$ref"]) in {}))) return true;
    for (const key of Object.keys(o)) stack.push(o[key]);
  }
  return false;
}

/**
 * `openapiTS(document, { silent: true, emptyObjectsUnknown })`: the same AST, faster when it can be.
 * Like openapiTS, it may add `components` to `document`.
 */
export async function typesAst(document: Obj, emptyObjectsUnknown: boolean): Promise<ts.Node[]> {
  const { openapiTS, openapiTypescriptParts } = await import("./types-tools.js");
  const options: OpenAPITSOptions = { silent: true, emptyObjectsUnknown };
  const pass = passIsNoOp(document);
  if (pass === undefined) return openapiTS()(document as unknown as OpenAPI3, options);
  const ots = openapiTypescriptParts();
  // What Redocly's bundle does to such a document.
  if (document["components"] === undefined) document["components"] = {};
  for (const r of pass.replace) r();
  const schema = document as unknown as OpenAPI3;
  const resolved = new Map<string, unknown>();
  // openapiTS's context for these options (openapi-typescript 7.13): every option at its default
  // but the two given. `redoc` is read only by the pass skipped here.
  const ctx: GlobalContext = {
    additionalProperties: false,
    alphabetize: false,
    arrayLength: false,
    defaultNonNullable: true,
    discriminators: hasDiscriminatorWork(document) ? ots.scanDiscriminators(schema, options) : { objects: {}, refsHandled: [] },
    emptyObjectsUnknown,
    enum: false,
    enumValues: false,
    conditionalEnums: false,
    dedupeEnums: false,
    excludeDeprecated: false,
    exportType: false,
    immutable: false,
    rootTypes: false,
    rootTypesNoSchemaPrefix: false,
    rootTypesKeepCasing: false,
    injectFooter: [],
    pathParamsAsTypes: false,
    postTransform: undefined,
    propertiesRequiredByDefault: false,
    redoc: undefined as unknown as GlobalContext["redoc"],
    silent: true,
    transform: undefined,
    transformProperty: undefined,
    makePathsEnum: false,
    generatePathParams: false,
    readWriteMarkers: false,
    resolve<T>($ref: string): T | undefined {
      // The transform resolves the same few references (shared parameters, request bodies) once per
      // operation that uses them, each time parsing the pointer anew; the document does not change
      // during the transform, so each reference's target is looked up once.
      if (!resolved.has($ref)) resolved.set($ref, ots.resolveRef(schema, $ref, { silent: true }));
      return resolved.get($ref) as T | undefined;
    },
  };
  return ots.transformSchema(schema, ctx);
}
