/**
 * What an API sends to its consumers: OpenAPI 3.1 root `webhooks` and operation `callbacks`, read
 * into `Delivery` entries (one per method of each path item), in spec order: webhooks first, then
 * callbacks by operation.
 */
import { HTTP_METHODS } from "../load/load.js";
import { parsePointer, toPointer } from "../load/errors.js";
import type { Rule } from "@contractgen/runtime/rules";
import type { Delivery, HttpMethod, NamedSchema, RequestBody } from "./ir.js";
import { optional, readParameters, readRequestBody, readResponses } from "./build.js";
import { camelCase, pascalCase, uniqueNames } from "./naming.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** Handler names the generated receiver keeps for itself. */
const RESERVED_HANDLER_NAMES = ["fallback", "constructor", "toString", "valueOf", "hasOwnProperty"];

interface RawDelivery {
  readonly kind: "webhook" | "callback";
  readonly name: string;
  readonly expression?: string;
  readonly operationId?: string;
  readonly method: HttpMethod;
  readonly op: Obj;
  readonly item: Obj;
  readonly path: readonly string[];
  /** How many methods the path item has: a second one makes generated ids name the method. */
  readonly siblings: number;
}

export function buildDeliveries(doc: Obj, resolve: (n: unknown) => unknown, schemas: readonly NamedSchema[]): Delivery[] {
  const raws: RawDelivery[] = [];
  const methodsOf = (item: Obj): HttpMethod[] => HTTP_METHODS.filter((m) => isObj(item[m]));
  // OpenAPI 3.0 has no `webhooks`; documents written for it (GitHub's REST description) use the
  // `x-webhooks` extension with the same shape, which Redoc introduced and 3.1 standardised.
  const root = isObj(doc["webhooks"]) ? "webhooks" : isObj(doc["x-webhooks"]) ? "x-webhooks" : undefined;
  const webhooks = root === undefined ? {} : (doc[root] as Obj);
  for (const [name, itemRaw] of Object.entries(webhooks)) {
    const item = resolve(itemRaw);
    if (!isObj(item) || root === undefined) continue;
    const methods = methodsOf(item);
    for (const method of methods) raws.push({ kind: "webhook", name, method, op: item[method] as Obj, item, path: [root, name, method], siblings: methods.length });
  }
  const paths = isObj(doc["paths"]) ? doc["paths"] : {};
  for (const [path, pathItemRaw] of Object.entries(paths)) {
    const pathItem = resolve(pathItemRaw);
    if (!isObj(pathItem)) continue;
    for (const opMethod of HTTP_METHODS) {
      const op = pathItem[opMethod];
      if (!isObj(op)) continue;
      const callbacks = resolve(op["callbacks"]);
      if (!isObj(callbacks)) continue;
      const operationId = str(op["operationId"]) ?? `${opMethod} ${path}`;
      for (const [name, callbackRaw] of Object.entries(callbacks)) {
        const callback = resolve(callbackRaw);
        if (!isObj(callback)) continue;
        for (const [expression, itemRaw] of Object.entries(callback)) {
          const item = resolve(itemRaw);
          if (!isObj(item) || expression.startsWith("x-")) continue;
          const methods = methodsOf(item);
          for (const method of methods) {
            raws.push({
              kind: "callback",
              name,
              expression,
              operationId,
              method,
              op: item[method] as Obj,
              item,
              path: ["paths", path, opMethod, "callbacks", name, expression, method],
              siblings: methods.length * Object.keys(callback).length,
            });
          }
        }
      }
    }
  }

  const explicit = raws.map((r) => str(r.op["operationId"]));
  // `onStatus` of `subscribe` is `subscribe/onStatus`; a second method or URL adds the method (and the
  // URL expression), so the id also makes a readable default route path.
  const generatedBase = (r: RawDelivery): string =>
    [r.kind === "callback" ? `${r.operationId ?? ""}/${r.name}` : r.name, r.siblings > 1 ? `${r.method}${r.expression !== undefined ? ` ${r.expression}` : ""}` : ""].filter((x) => x !== "").join("/");
  const unnamed = raws.filter((_r, i) => explicit[i] === undefined);
  const generated = uniqueNames(
    unnamed,
    generatedBase,
    explicit.filter((id): id is string => id !== undefined),
  );
  let next = 0;
  // Explicit ids are unique among paths (checked on load), not necessarily among webhooks.
  const ids = uniqueNames(
    explicit.map((id) => id ?? (generated[next++] as string)),
    (id) => id,
  );
  const methodNames = uniqueNames(ids, (id) => camelCase(id, "delivery"), RESERVED_HANDLER_NAMES);
  const routePaths = uniqueNames(ids, routePathOf);
  const schemaTypes = schemas.map((s) => s.typeName);
  const payloadTypeNames = uniqueNames(ids, (id) => `${pascalCase(id, "Delivery")}Delivery`, [...schemaTypes, "Paths", "Webhooks", "Components", "Operations"]);
  const webhookNames = Object.keys(webhooks);
  const typesKeys = uniqueNames(raws, (r) => (r.kind === "webhook" ? r.name : `${r.operationId ?? ""} ${r.name} ${r.expression ?? ""}`), []);
  // A webhook's key is its name even when an earlier callback key happens to equal it.
  const keyOf = (r: RawDelivery, i: number): string =>
    r.kind === "webhook" ? r.name : webhookNames.includes(typesKeys[i] as string) ? `${typesKeys[i] as string} callback` : (typesKeys[i] as string);

  return raws.map((r, i) => {
    const body = readRequestBody(r.op["requestBody"], resolve);
    return {
      id: ids[i] as string,
      kind: r.kind,
      name: r.name,
      ...optional("expression", r.expression),
      ...optional("operationId", r.operationId),
      method: r.method,
      pointer: toPointer(r.path),
      typesKey: keyOf(r, i),
      methodName: methodNames[i] as string,
      routePath: routePaths[i] as string,
      payloadTypeName: payloadTypeNames[i] as string,
      ...optional("summary", str(r.op["summary"])),
      ...optional("description", str(r.op["description"])),
      deprecated: r.op["deprecated"] === true,
      ...optional("unspecified", str(r.op["x-unspecified"])),
      ...optional("signature", r.op["x-webhook-signature"]),
      ...optional("deliveryId", r.op["x-delivery-id"]),
      parameters: readParameters(r.item["parameters"], r.op["parameters"], resolve),
      ...optional("requestBody", body),
      responses: readResponses(r.op["responses"], resolve),
      rules: Array.isArray(r.op["x-rules"]) ? (r.op["x-rules"].filter(isObj) as unknown as Rule[]) : [],
      ...optional("eventTypes", body ? eventTypesOf(body, resolve) : undefined),
    };
  });
}

/**
 * `/` and the id with each segment reduced to unreserved URL characters: routers decode request
 * paths before matching and read `:` and `*` as syntax, so a path made of anything else would
 * never match (or match too much).
 */
function routePathOf(id: string): string {
  const segments = id.split("/").map((seg) => {
    const clean = seg.replace(/[^A-Za-z0-9._~-]+/g, "-").replace(/^-+|-+$/g, "");
    return clean === "" || /^\.+$/.test(clean) ? "delivery" : clean;
  });
  return `/${segments.join("/")}`;
}

/**
 * The event types a payload's `discriminator` names: its mapping keys (with the schema each maps
 * to), else the string `enum` or `const` of the discriminating property, found on the payload
 * schema or its `allOf` members through `$ref`s.
 */
function eventTypesOf(body: RequestBody, resolve: (n: unknown) => unknown): Delivery["eventTypes"] {
  const media = body.contents.find((c) => /json/i.test(c.mediaType)) ?? body.contents[0];
  const schema = resolve(media?.schema);
  if (!isObj(schema) || !isObj(schema["discriminator"])) return undefined;
  const property = str(schema["discriminator"]["propertyName"]);
  if (property === undefined) return undefined;
  const mapping = schema["discriminator"]["mapping"];
  if (isObj(mapping) && Object.keys(mapping).length > 0) {
    const values = Object.entries(mapping).map(([value, target]) => {
      const segs = typeof target === "string" && target.startsWith("#/components/schemas/") ? parsePointer(target) : [];
      return { value, ...optional("schemaName", segs.length === 3 ? segs[2] : undefined) };
    });
    return { property, values, legacy: legacyOf(propertySchema(schema, property, resolve)) };
  }
  const prop = propertySchema(schema, property, resolve);
  const listed = isObj(prop) ? (Array.isArray(prop["enum"]) ? prop["enum"] : "const" in prop ? [prop["const"]] : []) : [];
  const values = listed.filter((v): v is string => typeof v === "string").map((value) => ({ value }));
  return values.length > 0 ? { property, values, legacy: legacyOf(prop) } : undefined;
}

function propertySchema(schema: Obj, property: string, resolve: (n: unknown) => unknown, depth = 0): Obj | undefined {
  if (depth > 10) return undefined;
  const props = schema["properties"];
  if (isObj(props) && Object.prototype.hasOwnProperty.call(props, property)) {
    const found = resolve(props[property]);
    return isObj(found) ? found : undefined;
  }
  for (const key of ["allOf", "oneOf", "anyOf"]) {
    const list = schema[key];
    if (!Array.isArray(list)) continue;
    for (const member of list) {
      const m = resolve(member);
      const found = isObj(m) ? propertySchema(m, property, resolve, depth + 1) : undefined;
      if (found) return found;
    }
  }
  return undefined;
}

function legacyOf(schema: Obj | undefined): readonly string[] {
  const list = schema?.["x-legacy-values"];
  return Array.isArray(list) ? list.filter((v): v is string => typeof v === "string") : [];
}
