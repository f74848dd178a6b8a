/**
 * Which members of a body's declared type one direction may leave out, for the client's and
 * server's argument, result and reply types: required readOnly members in requests and required
 * writeOnly members in responses (OpenAPI §4.8.24), and in requests also members with a `default`
 * that are not `required`. openapi-typescript types a defaulted member as present, which is right for
 * responses (the server fills the default in) but would make a caller send a value the server would
 * default anyway. Top level only (through `$ref` and `allOf`), like the rest of this file.
 */
import type { ApiModel } from "./ir.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * Required top-level properties of a body schema marked `flag` (readOnly for requests, writeOnly for
 * responses), through `$ref` and `allOf`; none for unions, whose members Omit cannot reach.
 */
export function flaggedRequired(model: ApiModel, schema: unknown, flag: "readOnly" | "writeOnly"): string[] {
  return membersMatching(model, schema, (node, props, byRef) => {
    const out: string[] = [];
    for (const r of Array.isArray(node["required"]) ? node["required"] : []) {
      const prop = typeof r === "string" && Object.hasOwn(props, r) ? props[r] : undefined;
      if (resolved(prop, byRef)?.[flag] === true) out.push(r as string);
    }
    return out;
  });
}

/** Members a request body may leave out: required readOnly ones, and optional ones with a `default`. */
export function requestOptional(model: ApiModel, schema: unknown): string[] {
  const defaulted = membersMatching(model, schema, (node, props, byRef) => {
    const required = new Set(Array.isArray(node["required"]) ? node["required"] : []);
    return Object.keys(props).filter((k) => !required.has(k) && resolved(props[k], byRef)?.["default"] !== undefined);
  });
  return [...new Set([...flaggedRequired(model, schema, "readOnly"), ...defaulted])];
}

/** A property schema with its `$ref` target's keywords under its own. */
function resolved(prop: unknown, byRef: (ref: unknown) => unknown): Obj | undefined {
  if (!isObj(prop)) return undefined;
  if (prop["$ref"] === undefined) return prop;
  const target = byRef(prop["$ref"]);
  return { ...(isObj(target) ? target : {}), ...prop };
}

type Matcher = (node: Obj, props: Obj, byRef: (ref: unknown) => unknown) => string[];

/** Top-level member names `match` picks from a body schema, through `$ref` and `allOf`; none for unions. */
function membersMatching(model: ApiModel, schema: unknown, match: Matcher): string[] {
  const out = new Set<string>();
  const seen = new Set<unknown>();
  const byRef = (ref: unknown): unknown => {
    const m = typeof ref === "string" ? /^#\/components\/schemas\/([^/]+)$/.exec(ref) : null;
    const name = m
      ? decodeURIComponent(m[1] as string)
          .replace(/~1/g, "/")
          .replace(/~0/g, "~")
      : undefined;
    return name === undefined ? undefined : model.schemas.find((x) => x.name === name)?.schema;
  };
  const visit = (node: unknown): void => {
    if (!isObj(node) || seen.has(node)) return;
    seen.add(node);
    if (node["$ref"] !== undefined) return visit(byRef(node["$ref"]));
    const props = isObj(node["properties"]) ? node["properties"] : {};
    for (const name of match(node, props, byRef)) out.add(name);
    if (Array.isArray(node["allOf"])) node["allOf"].forEach(visit);
  };
  const root = isObj(schema) && schema["$ref"] !== undefined ? byRef(schema["$ref"]) : schema;
  if (isObj(root) && (root["oneOf"] !== undefined || root["anyOf"] !== undefined)) return [];
  visit(schema);
  return [...out];
}

/**
 * The contract's schemas as one direction sees them, at every depth (through `$ref`s, arrays,
 * compositions): in requests, `readOnly` members are absent and members with a `default` that are
 * not `required` optional (openapi-typescript types them present, which is right for responses);
 * in responses, `writeOnly` members are absent. Only what differs from the default reading is
 * listed: the component schemas that hold such a member or reach one, and the inline bodies that
 * do (a body that is a `$ref` uses its component's view). The types emitter prints these copies as
 * `requestComponents`/`requestBodies` and `responseComponents`/`responseBodies`; the client and
 * server emitters type bodies with them. Computed from the document alone, so the thread printing
 * the types and the thread emitting the client agree.
 */
export interface DirectionView {
  /** Component name → its copy as this direction sees it. */
  readonly components: ReadonlyMap<string, unknown>;
  /** `bodyKey(…)` → an inline body schema's copy as this direction sees it. */
  readonly bodies: ReadonlyMap<string, unknown>;
}

export interface DirectionViews {
  readonly request: DirectionView;
  readonly response: DirectionView;
}

/** The key of an operation's body in a view: `POST /pets application/json` (`… 200 …` for responses). */
export function bodyKey(method: string, path: string, mediaType: string, status?: string): string {
  return [method.toUpperCase(), path, ...(status === undefined ? [] : [status]), mediaType].join(" ");
}

const SCHEMA_REF = /^#\/components\/schemas\/([^/]+)$/;
const refName = (ref: unknown): string | undefined => {
  const m = typeof ref === "string" ? SCHEMA_REF.exec(ref) : null;
  return m
    ? decodeURIComponent(m[1] as string)
        .replace(/~1/g, "/")
        .replace(/~0/g, "~")
    : undefined;
};
/** Keywords whose values are data, not subschemas: a `$ref` or `properties` there is none. */
const DATA = new Set(["enum", "const", "default", "example", "examples", "x-rules"]);
const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const isJson = (mediaType: string): boolean => {
  const mt = (mediaType.split(";")[0] ?? "").trim().toLowerCase();
  return mt === "application/json" || mt.endsWith("+json");
};

const computed = new WeakMap<object, DirectionViews>();

/** The views of `document` (see DirectionView); computed once per document object. */
export function directionViews(document: unknown): DirectionViews {
  const key = isObj(document) ? document : undefined;
  const known = key ? computed.get(key) : undefined;
  if (known) return known;
  const views = computeViews(document);
  if (key) computed.set(key, views);
  return views;
}

function computeViews(document: unknown): DirectionViews {
  const doc = isObj(document) ? document : {};
  const components = isObj(doc["components"]) && isObj(doc["components"]["schemas"]) ? (doc["components"]["schemas"] as Obj) : {};
  const resolve = (node: unknown, section: string): Obj | undefined => {
    if (!isObj(node)) return undefined;
    const ref = node["$ref"];
    if (typeof ref !== "string") return node;
    const m = new RegExp(`^#/components/${section}/([^/]+)$`).exec(ref);
    const sec = isObj(doc["components"]) ? (doc["components"] as Obj)[section] : undefined;
    const target =
      m && isObj(sec)
        ? sec[
            decodeURIComponent(m[1] as string)
              .replace(/~1/g, "/")
              .replace(/~0/g, "~")
          ]
        : undefined;
    return isObj(target) ? target : undefined;
  };
  // Every JSON body schema, per direction, with its key.
  const bodies = { request: [] as [string, unknown][], response: [] as [string, unknown][] };
  for (const [p, rawItem] of Object.entries(isObj(doc["paths"]) ? (doc["paths"] as Obj) : {})) {
    const item = resolve(rawItem, "pathItems");
    if (!item) continue;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isObj(op)) continue;
      const body = resolve(op["requestBody"], "requestBodies");
      for (const [mt, media] of Object.entries(isObj(body?.["content"]) ? (body["content"] as Obj) : {})) {
        if (isJson(mt) && isObj(media) && media["schema"] !== undefined) bodies.request.push([bodyKey(method, p, mt), media["schema"]]);
      }
      for (const [status, raw] of Object.entries(isObj(op["responses"]) ? (op["responses"] as Obj) : {})) {
        const res = resolve(raw, "responses");
        for (const [mt, media] of Object.entries(isObj(res?.["content"]) ? (res["content"] as Obj) : {})) {
          if (isJson(mt) && isObj(media) && media["schema"] !== undefined) bodies.response.push([bodyKey(method, p, mt, status), media["schema"]]);
        }
      }
    }
  }
  return { request: viewOf(components, bodies.request, "request"), response: viewOf(components, bodies.response, "response") };
}

/** Walks every subschema of `node` (not into data keywords); `visit` sees each object schema. */
function eachSchema(node: unknown, visit: (o: Obj) => void): void {
  if (Array.isArray(node)) {
    for (const n of node) eachSchema(n, visit);
    return;
  }
  if (!isObj(node)) return;
  visit(node);
  for (const [k, v] of Object.entries(node)) {
    if (DATA.has(k) || k.startsWith("x-")) continue;
    // Maps of subschemas by name: their members are schemas, the map itself is none.
    if (MAPS.has(k) && isObj(v)) for (const member of Object.values(v)) eachSchema(member, visit);
    else eachSchema(v, visit);
  }
}

const MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

function viewOf(components: Obj, bodies: readonly [string, unknown][], direction: "request" | "response"): DirectionView {
  const flag = direction === "request" ? "readOnly" : "writeOnly";
  const flagged = (prop: unknown): boolean => {
    if (!isObj(prop)) return false;
    if (prop[flag] === true) return true;
    const target = refName(prop["$ref"]);
    if (target !== undefined && isObj(components[target]) && (components[target] as Obj)[flag] === true) return true;
    return (["allOf"] as const).some((k) => Array.isArray(prop[k]) && (prop[k] as unknown[]).some(flagged));
  };
  /** Whether an object schema's own members read differently in this direction. */
  const ownChange = (o: Obj): boolean => {
    if (!isObj(o["properties"])) return false;
    const required = new Set(Array.isArray(o["required"]) ? o["required"] : []);
    return Object.entries(o["properties"] as Obj).some(([k, p]) => flagged(p) || (direction === "request" && !required.has(k) && isObj(p) && p["default"] !== undefined));
  };
  // Components that change themselves, then every component that reaches one.
  const changed = new Set<string>();
  const refs = new Map<string, Set<string>>();
  for (const [name, schema] of Object.entries(components)) {
    const targets = new Set<string>();
    let own = false;
    eachSchema(schema, (o) => {
      if (ownChange(o)) own = true;
      const t = refName(o["$ref"]);
      if (t !== undefined) targets.add(t);
    });
    refs.set(name, targets);
    if (own) changed.add(name);
  }
  for (let grew = changed.size > 0; grew;) {
    grew = false;
    for (const [name, targets] of refs) {
      if (!changed.has(name) && [...targets].some((t) => changed.has(t))) {
        changed.add(name);
        grew = true;
      }
    }
  }
  /** A copy of `schema` as this direction reads it; `hit` says whether it differs. */
  const copyOf = (schema: unknown): { copy: unknown; hit: boolean } => {
    const copy = structuredClone(schema);
    let hit = false;
    eachSchema(copy, (o) => {
      const t = refName(o["$ref"]);
      if (t !== undefined && changed.has(t)) hit = true;
      if (!isObj(o["properties"])) return;
      const props = o["properties"] as Obj;
      const required = new Set(Array.isArray(o["required"]) ? (o["required"] as unknown[]) : []);
      for (const [k, p] of Object.entries(props)) {
        if (flagged(p)) {
          delete props[k];
          hit = true;
        } else if (direction === "request" && !required.has(k) && isObj(p) && p["default"] !== undefined) {
          // openapi-typescript types a defaulted member as present; without the default it reads `required` alone.
          delete p["default"];
        }
      }
      if (Array.isArray(o["required"])) o["required"] = (o["required"] as unknown[]).filter((r) => typeof r !== "string" || Object.hasOwn(props, r));
    });
    return { copy, hit };
  };
  // Only the components this direction's bodies reach (through references, at any depth).
  const reached = new Set<string>();
  const reach = (schema: unknown): void =>
    eachSchema(schema, (o) => {
      const t = refName(o["$ref"]);
      if (t !== undefined && !reached.has(t) && changed.has(t)) {
        reached.add(t);
        reach(components[t]);
      }
    });
  for (const [, schema] of bodies) reach(schema);
  const viewComponents = new Map<string, unknown>();
  for (const name of Object.keys(components)) if (reached.has(name)) viewComponents.set(name, copyOf(components[name]).copy);
  const viewBodies = new Map<string, unknown>();
  for (const [key, schema] of bodies) {
    if (isObj(schema) && refName(schema["$ref"]) !== undefined) continue; // its component's view, if any
    const { copy, hit } = copyOf(schema);
    if (hit) viewBodies.set(key, copy);
  }
  // Views are printed from the copies alone: every reference in them must name a component, and no
  // name may be an Object.prototype member (those are encoded around openapi-typescript in the
  // main print only). A document where that fails keeps the top-level relaxation for this direction.
  const printable = [...viewComponents.keys()].every(plainName) && [...viewComponents.values(), ...viewBodies.values()].every(printableCopy);
  return printable ? { components: viewComponents, bodies: viewBodies } : { components: new Map(), bodies: new Map() };
}

const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));
const plainName = (name: string): boolean => !PROTOTYPE_NAMES.has(name);

function printableCopy(copy: unknown): boolean {
  let ok = true;
  eachSchema(copy, (o) => {
    if (o["$ref"] !== undefined && refName(o["$ref"]) === undefined) ok = false;
    if (isObj(o["properties"]) && !Object.keys(o["properties"] as Obj).every(plainName)) ok = false;
    const mapping = isObj(o["discriminator"]) ? (o["discriminator"] as Obj)["mapping"] : undefined;
    if (isObj(mapping) && !Object.values(mapping).every((v) => refName(v) !== undefined)) ok = false;
  });
  return ok;
}
