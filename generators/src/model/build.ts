import type { LoadedSpec } from "../load/load.js";
import { HTTP_METHODS } from "../load/load.js";
import { parsePointer, toPointer } from "../load/errors.js";
import type { Rule } from "@contractgen/runtime/rules";
import type {
  ApiModel,
  HttpMethod,
  JsonSchema,
  Limit,
  McpOverrides,
  MediaContent,
  NamedSchema,
  Operation,
  Pagination,
  Parameter,
  ParameterLocation,
  ProblemType,
  RequestBody,
  Response,
  SchemeKind,
  SecurityRequirement,
  SecurityScheme,
  Server,
  UnspecifiedOperation,
} from "./ir.js";
import { cyclicNodes } from "./cycles.js";
import { buildDeliveries } from "./deliveries.js";
import { normalizeDocument } from "./normalize.js";
import { camelCase, operationNameFromPath, pascalCase, uniqueNames } from "./naming.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** Names of members the generated client and server reserve for themselves. */
const RESERVED_METHOD_NAMES = ["raw", "iterate", "batch", "stream", "invalidateAppToken", "request", "options", "then", "constructor", "toString", "valueOf", "hasOwnProperty"];

export function buildModel(spec: LoadedSpec, name: string): ApiModel {
  const doc = normalizeDocument(spec.document as Obj);
  const resolve = makeResolver(doc);
  // Read before normalizing hoists the schemas those answers refer to.
  const gatewayStreams = gatewayStreamsOf(spec.document as Obj);
  const info = isObj(doc["info"]) ? doc["info"] : {};
  const components = isObj(doc["components"]) ? doc["components"] : {};
  const rootSecurity = Array.isArray(doc["security"]) ? readSecurity(doc["security"]) : [];

  const schemas = buildSchemas(isObj(components["schemas"]) ? components["schemas"] : {});
  const operations = buildOperations(doc, resolve, rootSecurity, gatewayStreams);
  const deliveries = buildDeliveries(doc, resolve, schemas);
  const description = str(info["description"]);

  return {
    name,
    source: { path: spec.root.displayPath, files: spec.files.map((f) => f.displayPath), hash: spec.hash },
    openapi: spec.version,
    info: { title: str(info["title"]) ?? name, version: str(info["version"]) ?? "0.0.0", ...(description ? { description } : {}) },
    servers: readServers(doc["servers"]),
    tags: Array.isArray(doc["tags"]) ? doc["tags"].filter(isObj).map((t) => ({ name: String(t["name"]), ...optional("description", str(t["description"])) })) : [],
    operations,
    deliveries,
    schemas,
    securitySchemes: readSecuritySchemes(isObj(components["securitySchemes"]) ? components["securitySchemes"] : {}, resolve),
    problems: readProblems(schemas),
    ...(isObj(doc["x-problem-base"]) && typeof doc["x-problem-base"]["default"] === "string"
      ? {
          problemBase: {
            default: doc["x-problem-base"]["default"] as string,
            ...optional("description", str(doc["x-problem-base"]["description"])),
          },
        }
      : {}),
    unspecifiedOperations: readUnspecified(doc["x-unspecified-operations"]),
    ...(isObj(doc["x-echo"]) && typeof doc["x-echo"]["pointer"] === "string" ? { echo: { pointer: doc["x-echo"]["pointer"] } } : {}),
    ...(doc["x-read-back-complete"] === true || isObj(doc["x-read-back-complete"]) ? { readBackComplete: true as const } : {}),
    document: doc,
  };
}

export function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** Follows internal `$ref`s of the bundled document (bundling left no external ones). */
export function makeResolver(doc: Obj): (node: unknown) => unknown {
  return (node) => {
    let current = node;
    for (let hops = 0; hops < 50 && isObj(current) && typeof current["$ref"] === "string"; hops++) {
      const ref = current["$ref"] as string;
      if (!ref.startsWith("#")) return current;
      let target: unknown = doc;
      for (const seg of parsePointer(ref)) target = isObj(target) || Array.isArray(target) ? (target as Obj)[seg] : undefined;
      current = target;
    }
    return current;
  };
}

function buildSchemas(raw: Obj): NamedSchema[] {
  const entries = Object.entries(raw);
  const typeNames = uniqueNames(entries, ([n]) => pascalCase(n, "Schema"), ["Operations", "Paths", "Components"]);
  const recursive = findRecursive(raw);
  return entries.map(([name, schema], i) => {
    const s = (typeof schema === "boolean" ? schema : isObj(schema) ? schema : {}) as JsonSchema;
    const obj = isObj(schema) ? schema : {};
    return {
      name,
      typeName: typeNames[i] as string,
      schema: s,
      ...optional("description", str(obj["description"])),
      recursive: recursive.has(name),
      ...optional("unspecified", str(obj["x-unspecified"])),
    };
  });
}

/** Schemas on a reference cycle (found once, here), over `$ref` edges between component schemas. */
function findRecursive(schemas: Obj): Set<string> {
  const prefix = "#/components/schemas/";
  const edges = new Map<string, Set<string>>();
  for (const [name, schema] of Object.entries(schemas)) {
    const out = new Set<string>();
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (isObj(node)) {
        const ref = node["$ref"];
        if (typeof ref === "string" && ref.startsWith(prefix)) out.add(parsePointer(ref)[2] as string);
        for (const v of Object.values(node)) walk(v);
      }
    };
    walk(schema);
    edges.set(name, out);
  }
  return cyclicNodes(edges);
}

/** What the contract diff reads of an operation; the rest of the model is not built for it. */
export type OperationOutline = Pick<Operation, "id" | "idGenerated" | "method" | "path" | "pointer" | "security">;

/** What the contract diff reads of a model: the normalized document and each operation's outline. */
export interface ModelOutline {
  readonly document: Readonly<Record<string, unknown>>;
  readonly operations: readonly OperationOutline[];
}

/** The outline `buildModel` would give the same document, for a fraction of the work. */
export function buildOutline(document: Readonly<Record<string, unknown>>): ModelOutline {
  const doc = normalizeDocument(document as Obj);
  const rootSecurity = Array.isArray(doc["security"]) ? readSecurity(doc["security"]) : [];
  const { raws, ids } = identifyOperations(doc, makeResolver(doc));
  const operations = raws.map(({ method, path, op }, i) => ({
    id: ids[i] as string,
    idGenerated: typeof op["operationId"] !== "string",
    method,
    path,
    pointer: toPointer(["paths", path, method]),
    security: Array.isArray(op["security"]) ? readSecurity(op["security"]) : rootSecurity,
  }));
  return { document: doc, operations };
}

interface RawOperation {
  readonly method: HttpMethod;
  readonly path: string;
  readonly op: Obj;
  readonly item: Obj;
}

/** Every operation in document order, with the id the model gives it. */
function identifyOperations(doc: Obj, resolve: (n: unknown) => unknown): { raws: RawOperation[]; ids: string[] } {
  const paths = isObj(doc["paths"]) ? doc["paths"] : {};
  const raws: RawOperation[] = [];
  for (const [path, itemRaw] of Object.entries(paths)) {
    const item = resolve(itemRaw);
    if (!isObj(item)) continue;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (isObj(op)) raws.push({ method, path, op, item });
    }
  }
  // Explicit operationIds are kept as written (load checked they are unique); a generated name
  // never takes one of them, whatever the order of the paths.
  const explicit = raws.map((r) => str(r.op["operationId"]));
  const unnamed = raws.filter((_r, i) => explicit[i] === undefined);
  const generated = uniqueNames(
    unnamed,
    (r) => operationNameFromPath(r.method, r.path),
    explicit.filter((id): id is string => id !== undefined),
  );
  let nextGenerated = 0;
  const ids = explicit.map((id) => id ?? (generated[nextGenerated++] as string));
  return { raws, ids };
}

function buildOperations(doc: Obj, resolve: (n: unknown) => unknown, rootSecurity: SecurityRequirement[], gatewayStreams: ReadonlyMap<string, NonNullable<Operation["streamMedia"]>>): Operation[] {
  const { raws, ids } = identifyOperations(doc, resolve);
  const names = uniqueNames(ids, (id) => camelCase(id, "operation"), RESERVED_METHOD_NAMES);
  const typeNames = uniqueNames(ids, (id) => pascalCase(id, "Operation"));

  return raws.map((r, i) => {
    const { op, item, method, path } = r;
    const deprecatedAt = str(op["x-deprecated-at"]);
    const replacedBy = str(op["x-replaced-by"]);
    const sunset = str(op["x-sunset"]);
    const deprecation = deprecatedAt || replacedBy || sunset ? { ...optional("at", deprecatedAt), ...optional("replacedBy", replacedBy), ...optional("sunset", sunset) } : undefined;
    const body = readRequestBody(op["requestBody"], resolve);
    return {
      id: ids[i] as string,
      idGenerated: typeof op["operationId"] !== "string",
      methodName: names[i] as string,
      typeName: typeNames[i] as string,
      method,
      path,
      pointer: toPointer(["paths", path, method]),
      tags: Array.isArray(op["tags"]) ? op["tags"].map(String) : [],
      ...optional("summary", str(op["summary"])),
      ...optional("description", str(op["description"])),
      deprecated: op["deprecated"] === true,
      ...optional("deprecation", deprecation),
      ...optional("added", str(op["x-added"])),
      parameters: readParameters(item["parameters"], op["parameters"], resolve),
      ...optional("requestBody", body),
      responses: readResponses(op["responses"], resolve),
      security: Array.isArray(op["security"]) ? readSecurity(op["security"]) : rootSecurity,
      ...optional("securityNote", str(op["x-security-note"])),
      ...optional("servers", Array.isArray(op["servers"]) ? readServers(op["servers"]) : undefined),
      ...optional("unspecified", str(op["x-unspecified"])),
      rules: Array.isArray(op["x-rules"]) ? (op["x-rules"].filter(isObj) as unknown as Rule[]) : [],
      limits: Array.isArray(op["x-limits"]) ? (op["x-limits"].filter(isObj) as unknown as Limit[]) : [],
      ...optional("pagination", isObj(op["x-pagination"]) ? (op["x-pagination"] as unknown as Pagination) : undefined),
      ...optional("stream", op["x-stream"] === "ndjson" ? ("ndjson" as const) : undefined),
      ...optional("streamMedia", streamMediaOf(op["responses"], resolve) ?? gatewayStreams.get(`${method} ${path}`)),
      hashed: body ? hashedFields(body, resolve) : [],
      ...optional("transitions", op["x-transitions"]),
      ...optional("mcp", readMcp(op["x-mcp"])),
      ...optional("fieldSelection", isObj(op["x-field-selection"]) ? op["x-field-selection"] : undefined),
      ...optional("echoParams", isObj(op["x-echo"]) && Array.isArray(op["x-echo"]["params"]) ? op["x-echo"]["params"].filter((x): x is string => typeof x === "string") : undefined),
      ...optional("conditional", Array.isArray(op["x-conditional"]) ? op["x-conditional"].filter(isObj) : undefined),
    };
  });
}

/** `x-mcp` overrides, keeping only members of the right type (the vocabulary check reports others). */
function readMcp(raw: unknown): McpOverrides | undefined {
  if (!isObj(raw)) return undefined;
  return {
    ...optional("include", typeof raw["include"] === "boolean" ? raw["include"] : undefined),
    ...optional("name", str(raw["name"])),
    ...optional("description", str(raw["description"])),
  };
}

/** Where `x-hashed` fields sit in the (first) request body schema: pointers with `*` for array items. */
function hashedFields(body: RequestBody, resolve: (n: unknown) => unknown): { pointer: string; name: string }[] {
  const schema = body.contents[0]?.schema;
  const out: { pointer: string; name: string }[] = [];
  const seen = new Set<unknown>();
  const walk = (node: unknown, pointer: string, name: string): void => {
    const s = resolve(node);
    if (!isObj(s) || seen.has(s)) return;
    if (s["x-hashed"] === "sha256") out.push({ pointer, name });
    seen.add(s);
    if (isObj(s["properties"])) for (const [k, v] of Object.entries(s["properties"])) walk(v, `${pointer}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`, k);
    if (s["items"] !== undefined) walk(s["items"], `${pointer}/*`, name);
    for (const key of ["allOf", "anyOf", "oneOf"]) if (Array.isArray(s[key])) for (const sub of s[key]) walk(sub, pointer, name);
    seen.delete(s);
  };
  walk(schema, "", "");
  // A hashed array's items are listed at the array itself: the runtime hashes each element.
  return out.filter((f, i) => out.findIndex((g) => g.pointer === f.pointer) === i && !/\/\*$/.test(f.pointer));
}

export function readParameters(pathLevel: unknown, opLevel: unknown, resolve: (n: unknown) => unknown): Parameter[] {
  const merged = new Map<string, Obj>();
  for (const list of [pathLevel, opLevel]) {
    if (!Array.isArray(list)) continue;
    for (const p of list) {
      const param = resolve(p);
      if (!isObj(param) || typeof param["name"] !== "string" || typeof param["in"] !== "string") continue;
      // Operation-level parameters override path-level ones with the same name and location.
      merged.set(`${param["in"]} ${param["name"]}`, param);
    }
  }
  const list = [...merged.values()];
  const varNames = uniqueNames(list, (p) => camelCase(String(p["name"]), "param"));
  return list.map((p, i) => {
    const location = p["in"] as ParameterLocation;
    const style = str(p["style"]) ?? (location === "query" || location === "cookie" ? "form" : "simple");
    const schema = (p["schema"] ?? firstContentSchema(p["content"]) ?? {}) as JsonSchema;
    return {
      name: p["name"] as string,
      in: location,
      required: p["required"] === true || location === "path",
      schema,
      style,
      explode: typeof p["explode"] === "boolean" ? p["explode"] : style === "form",
      ...optional("description", str(p["description"])),
      deprecated: p["deprecated"] === true,
      ...optional("example", "example" in p ? p["example"] : isObj(p["examples"]) ? firstExample(p["examples"], resolve) : undefined),
      varName: varNames[i] as string,
      ...extensionsOf(p),
    };
  });
}

/** `{ x: { "x-filter": … } }` for an object with `x-` keys, else nothing. */
function extensionsOf(o: Obj): { x?: Readonly<Record<string, unknown>> } {
  const x = Object.fromEntries(Object.entries(o).filter(([k]) => k.startsWith("x-")));
  return Object.keys(x).length > 0 ? { x } : {};
}

function firstExample(examples: Obj, resolve: (n: unknown) => unknown): unknown {
  for (const ex of Object.values(examples)) {
    const e = resolve(ex);
    if (isObj(e) && "value" in e) return e["value"];
  }
  return undefined;
}

function firstContentSchema(content: unknown): unknown {
  if (!isObj(content)) return undefined;
  const first = Object.values(content)[0];
  return isObj(first) ? first["schema"] : undefined;
}

function readContents(content: unknown, resolve: (n: unknown) => unknown): MediaContent[] {
  if (!isObj(content)) return [];
  return Object.entries(content).map(([mediaType, media]) => {
    const m = isObj(media) ? media : {};
    const examples: unknown[] = [];
    const names: (string | null)[] = [];
    if ("example" in m) {
      examples.push(m["example"]);
      names.push(null);
    }
    if (isObj(m["examples"])) {
      for (const [name, ex] of Object.entries(m["examples"])) {
        const e = resolve(ex);
        if (isObj(e) && "value" in e) {
          examples.push(e["value"]);
          names.push(name);
        }
      }
    }
    return { mediaType, ...optional("schema", m["schema"] as JsonSchema | undefined), examples, ...(names.some((n) => n !== null) ? { exampleNames: names } : {}) };
  });
}

export function readRequestBody(raw: unknown, resolve: (n: unknown) => unknown): RequestBody | undefined {
  const body = resolve(raw);
  if (!isObj(body)) return undefined;
  return {
    required: body["required"] === true,
    ...optional("description", str(body["description"])),
    contents: readContents(body["content"], resolve),
  };
}

export function readResponses(raw: unknown, resolve: (n: unknown) => unknown): Response[] {
  if (!isObj(raw)) return [];
  return Object.entries(raw).map(([status, r]) => {
    const res = resolve(r);
    const obj = isObj(res) ? res : {};
    const headers = isObj(obj["headers"])
      ? Object.entries(obj["headers"]).map(([name, h]) => {
          const header = resolve(h);
          const ho = isObj(header) ? header : {};
          return { name, required: ho["required"] === true, ...optional("schema", ho["schema"] as JsonSchema | undefined) };
        })
      : [];
    const rules = Array.isArray(obj["x-rules"]) ? obj["x-rules"].filter(isObj) : [];
    const links = isObj(obj["links"])
      ? Object.entries(obj["links"]).flatMap(([name, l]) => {
          const link = resolve(l);
          if (!isObj(link) || typeof link["operationId"] !== "string") return [];
          const parameters = isObj(link["parameters"]) ? Object.fromEntries(Object.entries(link["parameters"]).filter(([, v]) => typeof v === "string")) : {};
          return [{ name, operationId: link["operationId"], parameters: parameters as Record<string, string> }];
        })
      : [];
    return {
      status,
      description: str(obj["description"]) ?? "",
      contents: readContents(obj["content"], resolve),
      headers,
      ...(rules.length > 0 ? { rules } : {}),
      ...(links.length > 0 ? { links } : {}),
    };
  });
}

const NDJSON_MEDIA = new Set(["application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines", "application/jsonlines", "application/json-lines"]);

/**
 * Operations whose 2XX answer a gRPC gateway declares as a stream (`$ref: '#/x-stream-definitions/…'`,
 * "streaming responses"): the gateway writes one JSON message per line under a JSON media type.
 * By `<method> <path>`.
 */
function gatewayStreamsOf(doc: Obj): Map<string, NonNullable<Operation["streamMedia"]>> {
  const out = new Map<string, NonNullable<Operation["streamMedia"]>>();
  const paths = isObj(doc["paths"]) ? doc["paths"] : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObj(item)) continue;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isObj(op) || !isObj(op["responses"])) continue;
      for (const [status, response] of Object.entries(op["responses"])) {
        if (!/^2/.test(status) || !isObj(response) || !isObj(response["content"])) continue;
        const found = Object.entries(response["content"]).find(
          ([, c]) => isObj(c) && isObj(c["schema"]) && typeof c["schema"]["$ref"] === "string" && c["schema"]["$ref"].startsWith("#/x-stream-definitions/"),
        );
        if (found) out.set(`${method} ${path}`, { framing: "ndjson", status, mediaType: found[0] });
      }
    }
  }
  return out;
}

/** The first 2XX response whose media type is a stream of items: NDJSON or server-sent events. */
function streamMediaOf(raw: unknown, resolve: (n: unknown) => unknown): Operation["streamMedia"] {
  for (const r of readResponses(raw, resolve)) {
    if (!/^2/.test(r.status)) continue;
    for (const c of r.contents) {
      const mt = (c.mediaType.split(";")[0] ?? "").trim().toLowerCase();
      if (NDJSON_MEDIA.has(mt)) return { framing: "ndjson", status: r.status, mediaType: c.mediaType };
      if (mt === "text/event-stream") return { framing: "event-stream", status: r.status, mediaType: c.mediaType };
    }
  }
  return undefined;
}

function readSecurity(list: unknown[]): SecurityRequirement[] {
  return list.filter(isObj).map((req) => Object.entries(req).map(([scheme, scopes]) => ({ scheme, scopes: Array.isArray(scopes) ? scopes.map(String) : [] })));
}

function readServers(raw: unknown): Server[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isObj).map((s) => ({
    url: String(s["url"] ?? "/"),
    ...optional("description", str(s["description"])),
    variables: isObj(s["variables"])
      ? Object.entries(s["variables"])
          .filter(([, v]) => isObj(v))
          .map(([name, v]) => {
            const variable = v as Obj;
            return {
              name,
              default: String(variable["default"] ?? ""),
              ...optional("enum", Array.isArray(variable["enum"]) ? variable["enum"].map(String) : undefined),
              ...optional("description", str(variable["description"])),
            };
          })
      : [],
  }));
}

function readSecuritySchemes(raw: Obj, resolve: (n: unknown) => unknown): SecurityScheme[] {
  return Object.entries(raw).map(([name, s]) => {
    const scheme = resolve(s);
    const o = isObj(scheme) ? scheme : {};
    const oauth1 = isObj(o["x-oauth1"]) ? o["x-oauth1"] : undefined;
    const type = String(o["type"] ?? "");
    const httpScheme = str(o["scheme"])?.toLowerCase();
    const kind: SchemeKind | undefined = oauth1
      ? "oauth1"
      : type === "http" && httpScheme === "bearer"
        ? "bearer"
        : type === "http" && httpScheme === "basic"
          ? "basic"
          : type === "oauth2"
            ? isObj(o["flows"]) && isObj((o["flows"] as Obj)["clientCredentials"])
              ? "appOnly"
              : "userToken"
            : type === "apiKey" && (o["in"] === "header" || o["in"] === "query" || o["in"] === "cookie") && typeof o["name"] === "string" && o["name"] !== ""
              ? (`apiKey:${o["in"]}:${o["name"]}` as const)
              : undefined;
    return {
      name,
      type,
      ...optional("kind", kind),
      ...optional("scheme", str(o["scheme"])?.toLowerCase()),
      ...optional("in", str(o["in"])),
      ...optional("paramName", str(o["name"])),
      ...optional("description", str(o["description"])),
      ...optional(
        "oauth1",
        oauth1
          ? {
              signatureMethod: String(oauth1["signatureMethod"]),
              version: String(oauth1["version"]),
              parameters: Array.isArray(oauth1["parameters"]) ? oauth1["parameters"].map(String) : [],
              ...optional("flow", isObj(oauth1["flow"]) ? (Object.fromEntries(Object.entries(oauth1["flow"]).filter(([, v]) => typeof v === "string")) as Record<string, string>) : undefined),
            }
          : undefined,
      ),
      ...optional("flows", isObj(o["flows"]) ? o["flows"] : undefined),
      ...optional("invalidToken", invalidTokenOf(o["x-invalid-token"])),
    };
  });
}

/** A scheme's `x-invalid-token` (the vocabulary schema has checked its shape). */
function invalidTokenOf(x: unknown): SecurityScheme["invalidToken"] {
  if (!isObj(x) || typeof x["status"] !== "number" || !isObj(x["schema"])) return undefined;
  return { status: x["status"], schema: x["schema"], source: String(x["source"] ?? "") };
}

function readProblems(schemas: readonly NamedSchema[]): ProblemType[] {
  return schemas
    .filter((s) => isObj(s.schema) && typeof (s.schema as Obj)["x-problem-type"] === "string")
    .map((s) => {
      const o = s.schema as Obj;
      return {
        schemaName: s.name,
        typeName: s.typeName,
        slug: o["x-problem-type"] as string,
        ...optional("title", str(o["title"])),
        ...optional("description", str(o["description"])),
      };
    });
}

function readUnspecified(raw: unknown): UnspecifiedOperation[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isObj).map((u) => ({
    name: String(u["name"] ?? ""),
    tag: String(u["tag"] ?? ""),
    ...optional("method", str(u["method"])),
    ...optional("path", str(u["path"])),
    missing: String(u["missing"] ?? ""),
  }));
}
