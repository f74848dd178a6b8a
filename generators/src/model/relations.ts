/**
 * Producers and consumers of identifiers across a contract's operations, inferred once from the IR
 * and read by both the conformance plan (which objects a case acts on) and the mock (which
 * operations keep one collection). A consumer is a path parameter, or a query or body member that
 * names another resource; a producer is a list whose items carry the value, an answer that holds it
 * (OpenAPI links), or a create whose answer or `Location` header gives it.
 *
 * Nothing here invents a value: an operation whose parameter no producer gives is left without a
 * source, and the suite skips it with the `--values` key to give.
 */
import { keyMemberOf } from "@contractgen/runtime/keys";
import type { ApiModel, Operation } from "./ir.js";
import { isObj, schemaResolver, type Resolve } from "./schema-resolve.js";

type Obj = Record<string, unknown>;

/** Values listed by a GET: the array at `items` (`""` for a bare array answer), each item's `field`. */
export interface ListSource {
  readonly kind: "list";
  readonly operationId: string;
  readonly items: string;
  readonly field: string;
}

/** The value at `pointer` in a 2xx answer of another operation (an OpenAPI link's `$response.body#…`). */
export interface AnswerSource {
  readonly kind: "answer";
  readonly operationId: string;
  readonly pointer: string;
}

/**
 * A new object made by `operationId`: its key is at one of `pointers` of the answer, or the last
 * segment of its `Location` header, or (`request`) at that pointer of the body the suite sent: an
 * RPC-style create answers no key for a name it was given (`POST /v3/auth/role/add {"name": …}`).
 */
export interface CreateSource {
  readonly kind: "create";
  readonly operationId: string;
  readonly pointers: readonly string[];
  readonly location: boolean;
  readonly request?: string;
}

export type ValueSource = ListSource | AnswerSource | CreateSource;

/** A request member that names another resource: a query parameter or a top-level body member. */
export interface Reference {
  readonly in: "query" | "body";
  readonly name: string;
  /** The member holds several (an array, or comma-separated text). */
  readonly many: boolean;
  readonly sources: readonly ValueSource[];
  /**
   * The member names the very object an RPC-style operation acts on (`{"role": …}` of
   * `POST …/role/get`): `read` takes an existing one (listed, else made), `change` one made for the
   * case through the resource's create (the operation may change or delete it).
   */
  readonly own?: "read" | "change";
  /**
   * `x-scoped`: the object named is one of the object this path parameter names (a media library
   * item of the path's account); one listed under another is refused.
   */
  readonly scopedBy?: string;
  /** `x-outlives-delete`: the key stays valid after the listed object carrying it is deleted. */
  readonly outlivesDelete?: true;
}

/** Objects one set of operations keeps: made by `create`, listed by `list`, addressed by `keyParam` at `itemPath`. */
export interface Collection {
  /** The collection's path (`/12/accounts/{account_id}/cards`). */
  readonly path: string;
  /** The path of one object (`…/cards/{card_id}`) and the parameter taking its key. */
  readonly itemPath: string;
  readonly keyParam: string;
  /** The member of an object that holds its key (`id`, `name`, `media_key`). */
  readonly keyField: string;
  readonly create?: CreateSource;
  readonly list?: ListSource;
  readonly read?: string;
  readonly update?: string;
  readonly delete?: string;
}

export interface Relations {
  /** Per operation id, per path parameter: where values of existing objects come from, best first. */
  readonly pathSources: ReadonlyMap<string, Readonly<Record<string, readonly ValueSource[]>>>;
  /** Per operation id: request members naming another resource and the lists that give their values. */
  readonly references: ReadonlyMap<string, readonly Reference[]>;
  readonly collections: readonly Collection[];
  /**
   * Per operation id: the operation whose effect it undoes on the same object (`…/role/revoke` of
   * `…/role/grant`): a valid request does that first, so there is something to undo.
   */
  readonly undoes: ReadonlyMap<string, string>;
}

const shown = (op: Operation | undefined): op is Operation => op !== undefined && op.unspecified === undefined;

/** A media range that admits JSON (any type, any application type): a server answers it with JSON. */
export const admitsJson = (mediaType: string): boolean => /^(\*\/\*|application\/\*)\s*(;|$)/.test(mediaType);

/** The JSON schema of an operation's first 2xx answer, resolved; a media range that admits JSON counts, after JSON itself. */
function successSchema(op: Operation, resolve: Resolve): Obj | undefined {
  const r = op.responses.find((x) => /^2/.test(x.status));
  const c = r?.contents.find((x) => /json/i.test(x.mediaType)) ?? r?.contents.find((x) => admitsJson(x.mediaType));
  return c?.schema !== undefined ? resolve(c.schema) : undefined;
}

const props = (s: Obj | undefined): Obj => (s && isObj(s["properties"]) ? s["properties"] : {});

/** The parameter names of a path, in order. */
function pathParams(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
}

/** `account_id` → `account`, `silenceID` → `silence`, `media_key` → `media`: the resource a name points at. */
export function stemOf(name: string): string | undefined {
  const stem = name.replace(/(_(id|ids|key|keys|name|uuid)|Ids|Id|ID|Keys|Key|Uuid|UUID)$/, "");
  return stem === name || stem === "" ? undefined : stem;
}

/** The collection names a stem may be listed under: `category` → `categories`, `media` → `media`. */
function pluralsOf(stem: string): string[] {
  return [...new Set([stem, `${stem}s`, `${stem}es`, stem.replace(/y$/, "ies")])];
}

/** An item schema with the members of each `oneOf`/`anyOf` alternative seen at once (an item is one of several kinds). */
function objectOf(schema: Obj, resolve: Resolve): Obj {
  if (isObj(schema["properties"])) return schema;
  const alternatives = [...(Array.isArray(schema["oneOf"]) ? schema["oneOf"] : []), ...(Array.isArray(schema["anyOf"]) ? schema["anyOf"] : [])].map((a) => resolve(a));
  const merged: Obj = {};
  for (const a of alternatives) for (const [k, v] of Object.entries(props(a))) if (merged[k] === undefined) merged[k] = v;
  return Object.keys(merged).length > 0 ? { ...schema, properties: merged } : schema;
}

/** A list's items: where they are and their resolved schema; undefined when the answer holds no array of objects. */
export function listItems(list: Operation, resolve: Resolve): { items: string; item: Obj } | undefined {
  const root = successSchema(list, resolve);
  if (!root) return undefined;
  if (root["type"] === "array" || (root["items"] !== undefined && root["properties"] === undefined)) {
    const item = objectOf(resolve(root["items"] ?? {}), resolve);
    return isObj(item["properties"]) ? { items: "", item } : undefined;
  }
  const wanted = list.pagination?.items;
  const candidates = wanted !== undefined ? [wanted] : ["/data", ...Object.keys(props(root)).map((k) => `/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`)];
  for (const pointer of candidates) {
    const name = pointer.slice(1).split("/")[0] ?? "";
    const arr = resolve(props(root)[name.replace(/~1/g, "/").replace(/~0/g, "~")] ?? {});
    if (arr["type"] !== "array" && arr["items"] === undefined) continue;
    const item = objectOf(resolve(arr["items"] ?? {}), resolve);
    if (isObj(item["properties"]) && pointer.split("/").length === 2) return { items: pointer, item };
  }
  return undefined;
}

/** The JSON types a schema allows. */
function typesOf(s: Obj): Set<string> {
  if (typeof s["type"] === "string") return new Set([s["type"]]);
  if (Array.isArray(s["type"])) return new Set(s["type"].filter((t): t is string => typeof t === "string"));
  return new Set();
}

/** Whether values of `field` can be sent where `param` is taken (text either way; a number where an integer is). */
function fits(field: Obj, param: Obj): boolean {
  const f = typesOf(field);
  const p = typesOf(param);
  if (f.size === 0 || p.size === 0) return true;
  if (p.has("string")) return f.has("string") || f.has("integer") || f.has("number");
  if (p.has("integer") || p.has("number")) return f.has("integer") || f.has("number") || f.has("string");
  return [...f].some((t) => p.has(t));
}

/** Where a create's answer holds the new object's key: `data.<name>`, `data.id`, the same at the top, or the first item of a `data` array. */
export function keyPointers(create: Operation, name: string, resolve: Resolve): string[] {
  const root = successSchema(create, resolve);
  if (!root) return [];
  const out: string[] = [];
  const data = props(root)["data"] !== undefined ? resolve(props(root)["data"]) : undefined;
  if (data) {
    const obj = data["type"] === "array" && data["items"] !== undefined ? resolve(data["items"]) : data;
    const base = data["type"] === "array" ? "/data/0" : "/data";
    for (const n of [keyMemberOf(name, Object.keys(props(obj))), "id"]) if (n !== undefined && props(obj)[n] !== undefined) out.push(`${base}/${n}`);
  }
  for (const n of [keyMemberOf(name, Object.keys(props(root))), "id"]) if (n !== undefined && props(root)[n] !== undefined) out.push(`/${n}`);
  // Inside a member named for the resource (`jurisdiction.jurisdictionId` for `jurisdictionId`).
  const stem = stemOf(name);
  const own = stem !== undefined && props(root)[stem] !== undefined ? resolve(props(root)[stem]) : undefined;
  if (stem !== undefined && own !== undefined && isObj(own["properties"])) {
    for (const n of [keyMemberOf(name, Object.keys(props(own))), "id"]) if (n !== undefined && props(own)[n] !== undefined) out.push(`/${stem}/${n}`);
  }
  return [...new Set(out)];
}

/** `$response.body#/data/id` → `/data/id`. */
function bodyPointer(expression: string): string | undefined {
  const m = /^\$response\.body#(\/.*)?$/.exec(expression);
  return m ? (m[1] ?? "") : undefined;
}

interface Lists {
  /** Shown GETs answering an array of objects, by path. */
  readonly byPath: ReadonlyMap<string, { op: Operation; items: string; item: Obj }>;
  /** The same, by the last literal segment of their path, in contract order. */
  readonly byLastSegment: ReadonlyMap<string, readonly { op: Operation; items: string; item: Obj }[]>;
  /** The same, by each member name their items carry. */
  readonly byMember: ReadonlyMap<string, readonly { op: Operation; items: string; item: Obj }[]>;
}

function indexLists(model: ApiModel, resolve: Resolve): Lists {
  const byPath = new Map<string, { op: Operation; items: string; item: Obj }>();
  const byLastSegment = new Map<string, { op: Operation; items: string; item: Obj }[]>();
  const byMember = new Map<string, { op: Operation; items: string; item: Obj }[]>();
  for (const op of model.operations) {
    // A GET whose path ends in a parameter reads one object, even when it answers it in an array.
    if (op.method !== "get" || !shown(op) || byPath.has(op.path) || /\}$/.test(op.path)) continue;
    const found = listItems(op, resolve);
    if (!found) continue;
    const entry = { op, ...found };
    byPath.set(op.path, entry);
    const last =
      op.path
        .split("/")
        .filter((s) => s !== "" && !s.startsWith("{"))
        .at(-1) ?? "";
    byLastSegment.set(last, [...(byLastSegment.get(last) ?? []), entry]);
    for (const name of Object.keys(props(found.item))) byMember.set(name, [...(byMember.get(name) ?? []), entry]);
  }
  return { byPath, byLastSegment, byMember };
}

const fewerParams = (a: { op: Operation }, b: { op: Operation }): number => pathParams(a.op.path).length - pathParams(b.op.path).length || (a.op.path < b.op.path ? -1 : a.op.path > b.op.path ? 1 : 0);

/**
 * The lists that give values of `name` (a path parameter or a referencing member), best first:
 * the collection at `collectionPath` (its key: the member named like the parameter, else `id`),
 * lists named for the parameter's resource (`silenceID` → `/silences`, `id`), then any list whose
 * items carry a member of that very name (`media_key`).
 */
function listSourcesFor(lists: Lists, name: string, schema: Obj, collectionPath: string | undefined, selfPath: string | undefined, named = true): ListSource[] {
  const out: ListSource[] = [];
  const seen = new Set<string>();
  const add = (entry: { op: Operation; items: string; item: Obj }, field: string): void => {
    const key = `${entry.op.id}:${field}`;
    if (seen.has(key) || entry.op.path === selfPath) return;
    const f = props(entry.item)[field];
    if (f === undefined || !fits(isObj(f) ? f : {}, schema)) return;
    seen.add(key);
    out.push({ kind: "list", operationId: entry.op.id, items: entry.items, field });
  };
  const keyOf = (entry: { item: Obj }): string | undefined => keyMemberOf(name, Object.keys(props(entry.item)));
  const parent = collectionPath !== undefined ? lists.byPath.get(collectionPath) : undefined;
  if (parent) {
    const field = keyOf(parent);
    if (field) add(parent, field);
  }
  const stem = named ? stemOf(name) : undefined;
  if (stem !== undefined) {
    const named = pluralsOf(stem)
      .flatMap((n) => lists.byLastSegment.get(n) ?? [])
      .sort(fewerParams);
    for (const entry of named) {
      const field = keyOf(entry);
      if (field) add(entry, field);
    }
  }
  for (const entry of [...(lists.byMember.get(name) ?? [])].sort(fewerParams)) add(entry, name);
  return out;
}

/**
 * The POST on `collectionPath` whose answer gives the new object's key (or a `Location`), if any;
 * else one whose request names the key itself, by the parameter's name or its suffix
 * (`metadata_kind` → body `kind`): the object is known by what was sent.
 */
function createSource(model: ApiModel, collectionPath: string, keyName: string, resolve: Resolve): CreateSource | undefined {
  const create = model.operations.find((o) => shown(o) && o.method === "post" && o.path === collectionPath);
  if (!create) return undefined;
  const pointers = keyPointers(create, keyName, resolve);
  const location = create.responses.some((r) => /^2/.test(r.status) && r.headers.some((h) => h.name.toLowerCase() === "location"));
  if (pointers.length > 0 || location) return { kind: "create", operationId: create.id, pointers, location };
  const sent = keyMemberOf(keyName, Object.keys(props(bodySchema(create, resolve))));
  const named = sent !== undefined && (sent === keyName || keyName.endsWith(`_${sent}`) || keyName.endsWith(`${sent.charAt(0).toUpperCase()}${sent.slice(1)}`));
  return named ? { kind: "create", operationId: create.id, pointers: [], location: false, request: `/${sent}` } : undefined;
}

/** The sources OpenAPI links give for `op`'s parameter `name`: answers of other operations linking to it. */
function linkSources(model: ApiModel, op: Operation, name: string): ValueSource[] {
  const out: ValueSource[] = [];
  for (const from of model.operations) {
    if (!shown(from) || from.id === op.id) continue;
    for (const r of from.responses) {
      if (!/^2/.test(r.status)) continue;
      for (const link of r.links ?? []) {
        if (link.operationId !== op.id) continue;
        const expr = link.parameters[name] ?? link.parameters[`path.${name}`];
        const pointer = expr === undefined ? undefined : bodyPointer(expr);
        if (pointer === undefined) continue;
        out.push(from.method === "post" ? { kind: "create", operationId: from.id, pointers: [pointer], location: false } : { kind: "answer", operationId: from.id, pointer });
      }
    }
  }
  return out;
}

const REFERENCE = /(_(id|ids|key|keys)|Ids?|IDs?|Keys?)$/;

function referencesOf(op: Operation, lists: Lists, resolve: Resolve): Reference[] {
  const out: Reference[] = [];
  const own = new Set(pathParams(op.path));
  const consider = (where: "query" | "body", name: string, schemaIn: unknown, x?: Readonly<Record<string, unknown>>): void => {
    if (own.has(name) || !REFERENCE.test(name)) return;
    const s = resolve(schemaIn);
    const many = s["type"] === "array";
    const item = many ? resolve(s["items"] ?? {}) : s;
    // A reference is text or a number; a member with its own enum or const is a code, not a key.
    if (item["enum"] !== undefined || item["const"] !== undefined) return;
    const singular = name.replace(/(_ids|_keys)$/, (m) => m.slice(0, -1)).replace(/(Ids|IDs|Keys)$/, (m) => m.slice(0, -1));
    const sources = listSourcesFor(lists, singular, item, undefined, op.path);
    // `x-scoped` on the parameter, or beside the body member's schema (3.1 allows siblings of `$ref`).
    const scoped = x?.["x-scoped"] ?? (isObj(schemaIn) ? schemaIn["x-scoped"] : undefined);
    const by = isObj(scoped) && typeof scoped["by"] === "string" && own.has(scoped["by"]) ? scoped["by"] : undefined;
    const outlives = isObj(x?.["x-outlives-delete"]);
    if (sources.length > 0)
      out.push({ in: where, name, many: many || singular !== name, sources, ...(by !== undefined ? { scopedBy: by } : {}), ...(outlives ? { outlivesDelete: true as const } : {}) });
  };
  for (const p of op.parameters) if (p.in === "query") consider("query", p.name, p.schema, p.x);
  const content = op.requestBody?.contents.find((c) => /json|form/i.test(c.mediaType));
  if (content?.schema !== undefined) {
    for (const [name, schema] of Object.entries(props(resolve(content.schema)))) consider("body", name, schema);
  }
  return out;
}

/*
 * RPC-style operations (a gRPC gateway's `POST /v3/auth/role/get`, `…/role/list`): no path
 * parameter names the object; the path's folder names the resource, its last segment the verb, and
 * the key travels in the body. A POST named `list` (or for the array it answers: `…/lease/leases`)
 * lists the resource, a POST named `add`/`create` makes one, and the other verbs act on one.
 */

/** Verbs that only read the object they name: an existing one will do. */
const READ_VERBS = /^(get|read|show|info|describe|fetch|lookup|find|status|timetolive|ttl)$/i;
/** Verbs that make a new object from a key the request gives (or the answer returns). */
const CREATE_VERBS = /^(add|create|new|insert|register)$/i;
/** Verbs that make a new object whose key only the answer gives (`…/lease/grant` answers its `ID`). */
const GRANT_VERBS = /^(grant|allocate|open)$/i;
/** Members that hold an object's own key. */
const KEY_MEMBER = /^(id|ID|Id|name|key|uuid|UUID)$/;

interface RpcList {
  readonly op: Operation;
  readonly items: string;
  /** The item schema: an object with members, or a scalar (the item is the key itself). */
  readonly item: Obj;
}

/** `/v3/auth/role/get` → folder `role`, verb `get`; undefined for a path with parameters or one segment. */
function rpcParts(op: Operation): { folder: string; verb: string } | undefined {
  if (op.method !== "post" || op.path.includes("{")) return undefined;
  const segments = op.path.split("/").filter((s) => s !== "");
  const verb = segments.at(-1);
  const folder = segments.at(-2);
  return verb !== undefined && folder !== undefined ? { folder, verb } : undefined;
}

function bodySchema(op: Operation, resolve: Resolve): Obj | undefined {
  const content = op.requestBody?.contents.find((c) => /json/i.test(c.mediaType));
  return content?.schema !== undefined ? resolve(content.schema) : undefined;
}

/** An RPC-style operation with its folder (the resource) and verb. */
interface RpcOp {
  readonly op: Operation;
  readonly folder: string;
  readonly verb: string;
}

/** The shown RPC-style operations by folder: creates, grants and inverses are looked up among their siblings only. */
function indexRpcOps(model: ApiModel): Map<string, RpcOp[]> {
  const out = new Map<string, RpcOp[]>();
  for (const op of model.operations) {
    const parts = shown(op) ? rpcParts(op) : undefined;
    if (!parts) continue;
    const list = out.get(parts.folder) ?? [];
    list.push({ op, ...parts });
    out.set(parts.folder, list);
  }
  return out;
}

/** RPC-style lists by the name of the array they answer (`roles`, `leases`): POSTs that need no body member. */
function indexRpcLists(model: ApiModel, resolve: Resolve): Map<string, RpcList[]> {
  const out = new Map<string, RpcList[]>();
  for (const op of model.operations) {
    const parts = shown(op) ? rpcParts(op) : undefined;
    if (!parts) continue;
    const required = bodySchema(op, resolve)?.["required"];
    if (Array.isArray(required) && required.length > 0) continue;
    const root = successSchema(op, resolve);
    for (const [name, member] of Object.entries(props(root))) {
      if (!(parts.verb.toLowerCase() === "list" || parts.verb === name)) continue;
      const arr = resolve(member);
      if (arr["type"] !== "array" || arr["items"] === undefined) continue;
      const item = objectOf(resolve(arr["items"]), resolve);
      const scalarItem = typesOf(item).has("string") || typesOf(item).has("integer");
      if (!isObj(item["properties"]) && !scalarItem) continue;
      out.set(name, [...(out.get(name) ?? []), { op, items: `/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`, item }]);
    }
  }
  return out;
}

/**
 * The list sources of an RPC resource for a member: the item itself where items are keys, else the
 * item's member of that name, or (for a member named for the resource: `lease`, `memberID`) the
 * item's own key member.
 */
function rpcListSources(rpcLists: ReadonlyMap<string, readonly RpcList[]>, resource: string, member: string, schema: Obj): ListSource[] {
  const out: ListSource[] = [];
  for (const entry of pluralsOf(resource).flatMap((n) => rpcLists.get(n) ?? [])) {
    if (!isObj(entry.item["properties"])) {
      if (fits(entry.item, schema)) out.push({ kind: "list", operationId: entry.op.id, items: entry.items, field: "" });
      continue;
    }
    const members = Object.keys(props(entry.item));
    const field = members.includes(member) ? member : member !== resource && stemOf(member) !== resource ? undefined : members.find((m) => KEY_MEMBER.test(m));
    const f = field !== undefined ? props(entry.item)[field] : undefined;
    if (field !== undefined && fits(isObj(f) ? f : {}, schema)) out.push({ kind: "list", operationId: entry.op.id, items: entry.items, field });
  }
  return out;
}

/** The RPC create of `resource` whose answer (or, for an `add`, whose request) gives the key `member`. */
function rpcCreate(rpcOps: ReadonlyMap<string, readonly RpcOp[]>, resource: string, member: string, resolve: Resolve): CreateSource | undefined {
  let granted: CreateSource | undefined;
  for (const parts of rpcOps.get(resource) ?? []) {
    const { op } = parts;
    const answered = props(successSchema(op, resolve))[member] !== undefined ? [`/${member}`] : [];
    if (CREATE_VERBS.test(parts.verb)) {
      const sent = props(bodySchema(op, resolve))[member] !== undefined;
      if (answered.length > 0 || sent) return { kind: "create", operationId: op.id, pointers: answered, location: false, ...(sent ? { request: `/${member}` } : {}) };
    } else if (GRANT_VERBS.test(parts.verb) && answered.length > 0) granted ??= { kind: "create", operationId: op.id, pointers: answered, location: false };
  }
  return granted;
}

/**
 * The body members of an RPC-style operation that name objects: its own resource's key (a member
 * named for the folder, or `name`/`id` where the resource's list gives it) and members named for
 * another listed resource (`role` of `…/user/grant`). A create (`add`) names a new object, not one.
 */
function rpcReferences(rpcOps: ReadonlyMap<string, readonly RpcOp[]>, op: Operation, rpcLists: ReadonlyMap<string, readonly RpcList[]>, resolve: Resolve): Reference[] {
  const parts = rpcParts(op);
  const body = bodySchema(op, resolve);
  if (!parts || !body || CREATE_VERBS.test(parts.verb)) return [];
  // A grant that answers a key makes an object (`…/lease/grant` → `ID`); a list names none.
  if (GRANT_VERBS.test(parts.verb) && Object.keys(props(successSchema(op, resolve))).some((k) => KEY_MEMBER.test(k))) return [];
  if ([...rpcLists.values()].some((entries) => entries.some((e) => e.op.id === op.id))) return [];
  const members = Object.entries(props(body)).filter(([, raw]) => {
    const schema = resolve(raw);
    return schema["enum"] === undefined && schema["type"] !== "object" && schema["type"] !== "array" && schema["type"] !== "boolean";
  });
  const out: Reference[] = [];
  // The object the operation acts on: the member named for the folder, else its first key-like member.
  const byName = members.find(([m]) => m === parts.folder);
  const own = byName ?? ["name", "id", "ID", "Id", "uuid", "UUID", "key"].map((k) => members.find(([m]) => m === k)).find((x) => x !== undefined);
  if (own) {
    const [member, raw] = own;
    const listed = rpcListSources(rpcLists, parts.folder, member, resolve(raw));
    const create = rpcCreate(rpcOps, parts.folder, member, resolve) ?? rpcCreate(rpcOps, parts.folder, "name", resolve);
    if (listed.length > 0 || create) out.push({ in: "body", name: member, many: false, sources: [...listed, ...(create ? [create] : [])], own: READ_VERBS.test(parts.verb) ? "read" : "change" });
  }
  for (const [member, raw] of members) {
    if (member === own?.[0] || member === parts.folder) continue;
    const other = rpcListSources(rpcLists, stemOf(member) ?? member, member, resolve(raw));
    if (other.length > 0) out.push({ in: "body", name: member, many: false, sources: other });
  }
  return out;
}

/** Verb pairs where the second undoes the first on the same object. */
const INVERSE_VERBS: Readonly<Record<string, string>> = { revoke: "grant", detach: "attach", unlink: "link", unassign: "assign", unlock: "lock", unsubscribe: "subscribe", unfollow: "follow" };

/** RPC-style operations that undo a sibling's effect: the same folder, the inverse verb, both naming their object. */
function rpcInverses(rpcOps: ReadonlyMap<string, readonly RpcOp[]>, references: ReadonlyMap<string, readonly Reference[]>): Map<string, string> {
  const out = new Map<string, string>();
  const changes = (op: Operation): boolean => (references.get(op.id) ?? []).some((r) => r.own === "change");
  for (const siblings of rpcOps.values()) {
    for (const { op, verb } of siblings) {
      const doVerb = INVERSE_VERBS[verb.toLowerCase()];
      if (doVerb === undefined || !changes(op)) continue;
      const doer = siblings.find((o) => o.op.id !== op.id && o.verb.toLowerCase() === doVerb)?.op;
      if (doer && changes(doer)) out.set(op.id, doer.id);
    }
  }
  return out;
}

function inferRelations(model: ApiModel): Relations {
  const resolve = schemaResolver(model);
  const lists = indexLists(model, resolve);
  const rpcLists = indexRpcLists(model, resolve);
  const rpcOps = indexRpcOps(model);
  const pathSources = new Map<string, Record<string, ValueSource[]>>();
  const references = new Map<string, Reference[]>();
  const collections = new Map<string, Collection>();
  for (const op of model.operations) {
    if (!shown(op)) continue;
    const segments = op.path.split("/");
    const sources: Record<string, ValueSource[]> = {};
    segments.forEach((seg, i) => {
      const m = /^\{(.+)\}$/.exec(seg);
      if (!m) return;
      const name = m[1] as string;
      const param = op.parameters.find((p) => p.in === "path" && p.name === name);
      const schema = param ? resolve(param.schema) : {};
      const collectionPath = segments.slice(0, i).join("/");
      // A list named for the parameter's resource gives its keys only where the path names the
      // collection right before it (`/silence/{silenceID}` → `/silences`); after another parameter
      // (`/cards/{card_type}/{card_id}`) the key belongs to a kind of object that list may not hold.
      const afterLiteral = i > 0 && !/^\{.+\}$/.test(segments[i - 1] ?? "");
      const listed = listSourcesFor(lists, name, schema, collectionPath, op.path, afterLiteral);
      const linked = linkSources(model, op, name);
      const created = createSource(model, collectionPath, name, resolve);
      // Existing objects first (lists and linked answers), then a new one from the contract's own create.
      const all = [...listed, ...linked.filter((s) => s.kind !== "create"), ...linked.filter((s) => s.kind === "create"), ...(created ? [created] : [])];
      if (all.length > 0) sources[name] = all;
      // The item operations of a collection: the last path parameter, right after the collection's path.
      if (i === segments.length - 1) {
        const key = `${collectionPath}|${name}`;
        const list = lists.byPath.get(collectionPath);
        const listSource = listed.find((s) => s.operationId === list?.op.id);
        const prev = collections.get(key);
        const keyField = listSource?.field ?? (created?.pointers[0]?.split("/").at(-1) as string | undefined) ?? name;
        const c: Collection = {
          path: collectionPath,
          itemPath: op.path,
          keyParam: name,
          keyField: prev?.keyField ?? keyField,
          ...((prev?.create ?? created) ? { create: (prev?.create ?? created) as CreateSource } : {}),
          ...((prev?.list ?? listSource) ? { list: (prev?.list ?? listSource) as ListSource } : {}),
          ...(prev?.read !== undefined || op.method === "get" ? { read: prev?.read ?? op.id } : {}),
          ...(prev?.update !== undefined || op.method === "put" || op.method === "patch" ? { update: prev?.update ?? op.id } : {}),
          ...(prev?.delete !== undefined || op.method === "delete" ? { delete: prev?.delete ?? op.id } : {}),
        };
        collections.set(key, c);
      }
    });
    if (Object.keys(sources).length > 0) pathSources.set(op.id, sources);
    const refs = [...referencesOf(op, lists, resolve), ...rpcReferences(rpcOps, op, rpcLists, resolve)].filter((r, i, all) => all.findIndex((x) => x.in === r.in && x.name === r.name) === i);
    if (refs.length > 0) references.set(op.id, refs);
  }
  return { pathSources, references, collections: [...collections.values()], undoes: rpcInverses(rpcOps, references) };
}

const cache = new WeakMap<ApiModel, Relations>();

/** The contract's relations, inferred once per model. */
export function relationsOf(model: ApiModel): Relations {
  let r = cache.get(model);
  if (!r) cache.set(model, (r = inferRelations(model)));
  return r;
}

export { keyMemberOf };
