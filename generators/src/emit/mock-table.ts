/**
 * The mock's table of a contract: the collections it keeps state for, each operation's part in
 * one, where the object sits in each answer, the lists' paging and filters. The collections are the
 * relations model's (`relationsOf`, the one inference the contract tests use too); this module only
 * turns them into data the runtime's generic mock engine reads (`@contractgen/runtime/mock-engine`).
 */
import type { ApiModel, Operation } from "../model/ir.js";
import { listItems, relationsOf, type Collection, type CreateSource, type Reference } from "../model/relations.js";
import { isObj, schemaResolver, type Resolve } from "../model/schema-resolve.js";
import { batchWriteOf } from "./conformance/batch-writes.js";
import { filterPlans } from "./conformance/filters.js";
import { statedValue } from "./conformance/negatives.js";
import { readBackMap } from "./conformance/read-back.js";
import { softDeleteOf } from "./conformance/soft-delete.js";
import { mockSchemaOf } from "./mocks.js";
import { mediaKind } from "./validators/index.js";

type Obj = Record<string, unknown>;

const props = (s: Obj | undefined): Obj => (s && isObj(s["properties"]) ? s["properties"] : {});
const shown = (op: Operation | undefined): op is Operation => op !== undefined && op.unspecified === undefined;

/** JSON, or a media range the engine answers with JSON (`application/json` for any type and `application/*`). */
function answersJson(mediaType: string): boolean {
  const range = mediaType.split(";")[0]?.trim().toLowerCase();
  return mediaKind(mediaType) === "json" || range === "*/*" || range === "application/*";
}

/** The first 2xx JSON answer's schema, as written (`$ref`s kept) and resolved. */
function successSchema(op: Operation, resolve: Resolve): { written: unknown; resolved: Obj } | undefined {
  const r = op.responses.find((x) => /^2/.test(x.status));
  const c = r?.contents.find((x) => answersJson(x.mediaType));
  return c?.schema !== undefined ? { written: c.schema, resolved: resolve(c.schema) } : undefined;
}

/** `/data/0` → the written subschema at that place of a response schema; undefined when the schema has none. */
function schemaAt(root: unknown, pointer: string, resolve: Resolve): unknown {
  let node: unknown = root;
  for (const raw of pointer.split("/").slice(1)) {
    const seg = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    const s = resolve(node);
    if (/^\d+$/.test(seg) && (s["type"] === "array" || s["items"] !== undefined)) node = s["items"];
    else node = props(s)[seg];
    if (node === undefined) return undefined;
  }
  return node;
}

/**
 * Where one object sits in an operation's answer, as the contract tests read it back: the answer's
 * `data` (its first item when `data` is an array), an array answer's first item, else the answer.
 */
function objectPointer(op: Operation, resolve: Resolve): string | undefined {
  const s = successSchema(op, resolve);
  if (!s) return undefined;
  const data = props(s.resolved)["data"];
  if (data !== undefined) {
    const d = resolve(data);
    return d["type"] === "array" || d["items"] !== undefined ? "/data/0" : "/data";
  }
  if (s.resolved["type"] === "array" || (s.resolved["items"] !== undefined && s.resolved["properties"] === undefined)) return "/0";
  return isObj(s.resolved["properties"]) || s.resolved["additionalProperties"] !== undefined || s.resolved["type"] === "object" ? "" : undefined;
}

/** A delete's `x-transitions` rows (on its schema or its operation) and the status a repeated delete answers. */
function deleteTransitions(model: ApiModel, opId: string): { rows: { table: Obj }[]; repeat?: number } {
  const tables = [...model.schemas.map((s) => (isObj(s.schema) ? s.schema["x-transitions"] : undefined)), ...model.operations.map((o) => o.transitions)].filter(isObj);
  const rows: { table: Obj }[] = [];
  let repeat: number | undefined;
  for (const table of tables) {
    for (const t of Array.isArray(table["transitions"]) ? table["transitions"].filter(isObj) : []) {
      if (t["on"] !== opId) continue;
      rows.push({ table });
      if (repeat === undefined && typeof t["status"] === "number" && t["status"] >= 400) repeat = t["status"];
    }
  }
  return { rows, ...(repeat !== undefined ? { repeat } : {}) };
}

const pathParams = (path: string): string[] => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);

function collectionEntry(model: ApiModel, c: Collection, byId: ReadonlyMap<string, Operation>, resolve: Resolve): Obj {
  const op = (id: string | undefined): Operation | undefined => (id === undefined ? undefined : byId.get(id));
  const read = op(c.read);
  const list = op(c.list?.operationId);
  const del = op(c.delete);
  const keyParam = model.operations.find((o) => o.path === c.itemPath)?.parameters.find((p) => p.in === "path" && p.name === c.keyParam);
  // One object as the contract shows it: a listed item, else what the read answers.
  const listed = list && c.list ? schemaAt(successSchema(list, resolve)?.written, c.list.items === "" ? "/0" : `${c.list.items}/0`, resolve) : undefined;
  const readAt = read ? objectPointer(read, resolve) : undefined;
  const readObject = read && readAt !== undefined ? schemaAt(successSchema(read, resolve)?.written, readAt, resolve) : undefined;
  const item = listed ?? readObject;
  // Soft deletes where the contract says so, inferred as the contract tests infer them.
  const transitions = del ? deleteTransitions(model, del.id) : { rows: [] };
  const soft = del !== undefined ? softDeleteOf(transitions.rows, item === undefined ? undefined : resolve(item), list, read, resolve) : undefined;
  const updates = c.keyParam === "" ? [] : model.operations.filter((o) => shown(o) && o.path === c.itemPath && (o.method === "put" || o.method === "patch")).map((o) => o.id);
  // The keys the contract's examples name for its item operations (what a client told by the
  // contract asks for first): those objects exist from the start.
  const exampleKeys = [
    ...new Set(
      model.operations
        .filter((o) => shown(o) && o.path === c.itemPath)
        .map((o) => o.parameters.find((p) => p.in === "path" && p.name === c.keyParam))
        .map((p) => (p ? statedValue(p.schema, resolve, p.example) : undefined))
        .filter((v): v is string | number => typeof v === "string" || typeof v === "number"),
    ),
  ];
  // The parents those example keys sit under, where the contract's examples name every parent:
  // the example objects are that parent's, not every parent's (an object is reached through its own).
  const itemOps = model.operations.filter((o) => shown(o) && o.path === c.itemPath);
  const parentExamples = pathParams(c.path).map((name) => {
    for (const o of itemOps) {
      const p = o.parameters.find((x) => x.in === "path" && x.name === name);
      const v = p ? statedValue(p.schema, resolve, p.example) : undefined;
      if (typeof v === "string" || typeof v === "number") return [name, v] as const;
    }
    return undefined;
  });
  const exampleParents = parentExamples.length > 0 && parentExamples.every((e) => e !== undefined) ? Object.fromEntries(parentExamples as (readonly [string, string | number])[]) : undefined;
  return {
    path: c.path,
    itemPath: c.itemPath,
    keyParam: c.keyParam,
    keyField: c.keyField,
    parents: pathParams(c.path),
    ...(keyParam ? { keySchema: mockSchemaOf(keyParam.schema) } : {}),
    ...(item !== undefined ? { itemSchema: mockSchemaOf(item) } : {}),
    ...(exampleKeys.length > 0 ? { exampleKeys } : {}),
    ...(exampleKeys.length > 0 && exampleParents !== undefined ? { exampleParents } : {}),
    ...(c.create ? { create: { operationId: c.create.operationId, pointers: c.create.pointers, location: c.create.location } } : {}),
    ...(c.list ? { list: c.list.operationId } : {}),
    ...(c.read !== undefined ? { read: c.read } : {}),
    ...(updates.length > 0 ? { updates } : {}),
    ...(c.delete !== undefined ? { delete: c.delete } : {}),
    ...(soft ? { soft } : {}),
    ...(transitions.repeat !== undefined ? { repeatDelete: transitions.repeat } : {}),
  };
}

/** `x-pagination` of a list, as the engine pages it. */
function pagingOf(op: Operation, resolve: Resolve): Obj | undefined {
  const p = op.pagination;
  if (!p || op.method !== "get") return undefined;
  const param = (name: string | undefined) => (name === undefined ? undefined : op.parameters.find((x) => x.in === "query" && x.name === name));
  const cursor = param(p.request);
  if (!cursor) return undefined;
  const size = param(p.pageSize);
  const sizeSchema = size ? resolve(size.schema) : undefined;
  const raw = p as unknown as Obj;
  const total = isObj(raw["totalCount"]) ? raw["totalCount"] : undefined;
  const totalParam = total && typeof total["request"] === "string" ? param(total["request"]) : undefined;
  return {
    cursor: cursor.name,
    cursorSchema: mockSchemaOf(cursor.schema),
    next: p.response,
    items: p.items ?? "/data",
    ...(size
      ? {
          pageSize: {
            name: size.name,
            ...(typeof sizeSchema?.["maximum"] === "number" ? { maximum: sizeSchema["maximum"] } : {}),
            ...(typeof sizeSchema?.["default"] === "number" ? { default: sizeSchema["default"] } : {}),
          },
        }
      : {}),
    ...(totalParam && typeof total?.["response"] === "string" ? { totalCount: { param: totalParam.name, pointer: total["response"] } } : {}),
  };
}

/** 4xx statuses that say something else than "this request is invalid". */
const MEANINGFUL = new Set([401, 403, 404, 405, 406, 408, 409, 410, 412, 413, 415, 429]);
const VALIDATION = /valid|bad.?request|malformed|unprocessable|parameter|input|argument/i;

/**
 * The status an operation refuses an invalid request with, where it is not 400: 422, a 4xx the
 * contract describes as a validation error (AWS's converted documents give `483: ValidationException`),
 * any other plain 4xx, else any 4xx it declares. Undefined when 400 is declared, or covered by
 * `4XX`/`default`, or nothing 4xx is.
 */
export function refusalStatus(op: Operation): number | undefined {
  const exact = op.responses.filter((r) => /^4\d\d$/.test(r.status)).map((r) => ({ code: Number(r.status), r }));
  if (exact.some((e) => e.code === 400)) return undefined;
  const found = exact.find((e) => e.code === 422) ?? exact.find((e) => VALIDATION.test(e.r.description));
  if (found) return found.code;
  if (op.responses.some((r) => r.status.toUpperCase() === "4XX" || r.status === "default")) return undefined;
  return (exact.find((e) => !MEANINGFUL.has(e.code)) ?? exact[0])?.code;
}

/**
 * The create of a collection whose answer the relations model does not read: declared as a media
 * range (`application/*` or any type) that the engine answers with JSON. The POST on the collection's
 * path whose answer holds the key member, at its top or in `data`. The relations model reads JSON
 * media only (the contract tests share it); this sees what the engine will send.
 */
function rangeCreate(model: ApiModel, c: Collection, resolve: Resolve): CreateSource | undefined {
  const op = model.operations.find((o) => shown(o) && o.method === "post" && o.path === c.path);
  const r = op?.responses.find((x) => /^2/.test(x.status));
  const content = r?.contents.find((x) => answersJson(x.mediaType) && mediaKind(x.mediaType) !== "json");
  if (!op || content?.schema === undefined) return undefined;
  const root = resolve(content.schema);
  const data = props(root)["data"] !== undefined ? resolve(props(root)["data"]) : undefined;
  const pointers = [
    ...(data !== undefined && data["type"] !== "array" ? [c.keyField, "id"].filter((n) => props(data)[n] !== undefined).map((n) => `/data/${n}`) : []),
    ...[c.keyField, "id"].filter((n) => props(root)[n] !== undefined).map((n) => `/${n}`),
  ];
  return pointers.length > 0 ? { kind: "create", operationId: op.id, pointers: [...new Set(pointers)], location: false } : undefined;
}

/**
 * The batch writes of the contract (`batchWriteOf`: a body array of objects keyed like a list's
 * items, at the list's path), each with the collection its items go to: the list's, where it keys
 * its objects by the same member; else a collection made for the list (no path names one of its
 * objects: the list and the batch are how it is reached), appended to `collections`.
 */
function batchCollections(model: ApiModel, collections: Collection[], resolve: Resolve): { operationId: string; collection: number; items: string }[] {
  const out: { operationId: string; collection: number; items: string }[] = [];
  for (const op of model.operations) {
    const batch = batchWriteOf(model, op, resolve);
    const listed = batch ? listItems(batch.list, resolve) : undefined;
    if (!batch || !listed) continue;
    let index = collections.findIndex((c) => c.path === op.path && c.list?.operationId === batch.list.id);
    if (index >= 0 && collections[index]?.keyField !== batch.key) continue;
    if (index < 0) {
      // A list of another collection's objects at this path keeps its own; only a list nothing keeps gets one.
      if (collections.some((c) => c.list?.operationId === batch.list.id)) continue;
      index = collections.push({ path: op.path, itemPath: op.path, keyParam: "", keyField: batch.key, list: { kind: "list", operationId: batch.list.id, items: listed.items, field: batch.key } }) - 1;
    }
    out.push({ operationId: op.id, collection: index, items: `/${batch.member.replace(/~/g, "~0").replace(/\//g, "~1")}` });
  }
  return out;
}

/**
 * Every path parameter name of the contract's operations, with the distinct schemas they give it
 * and the values their examples name: what the engine states values from (`knownValues`), so a
 * suite can be told objects no operation lists or makes (`contractgen test --values`).
 */
function pathParameters(model: ApiModel, resolve: Resolve): Obj {
  const out = new Map<string, { schemas: Map<string, unknown>; examples: unknown[] }>();
  for (const op of model.operations) {
    if (!shown(op)) continue;
    for (const p of op.parameters) {
      if (p.in !== "path") continue;
      let entry = out.get(p.name);
      if (!entry) out.set(p.name, (entry = { schemas: new Map(), examples: [] }));
      const schema = mockSchemaOf(p.schema);
      entry.schemas.set(JSON.stringify(schema), schema);
      const example = statedValue(p.schema, resolve, p.example);
      if (example !== undefined && !entry.examples.some((e) => JSON.stringify(e) === JSON.stringify(example))) entry.examples.push(example);
    }
  }
  return Object.fromEntries([...out].map(([name, e]) => [name, { schemas: [...e.schemas.values()], ...(e.examples.length > 0 ? { examples: e.examples } : {}) }]));
}

/** The mock table of a contract (plain JSON, written into `compiled/mocks.data.js`). */
export function mockTable(model: ApiModel): Obj {
  const resolve = schemaResolver(model);
  const byId = new Map(model.operations.map((o) => [o.id, o]));
  const relations = relationsOf(model);
  const collections = relations.collections.map((c): Collection => {
    // A create known only by the key its request sends is the suite's to use; the mock keeps its keys by answers.
    if (c.create !== undefined && (c.create.pointers.length > 0 || c.create.location)) return c;
    const { create: _requestKeyed, ...rest } = c;
    const create = rangeCreate(model, rest, resolve);
    return create !== undefined ? { ...rest, create } : rest;
  });
  const batches = batchCollections(model, collections, resolve);
  const operations: Obj = {};
  const paging: Obj = {};
  const filters: Obj = {};
  const refusals: Obj = {};
  for (const op of model.operations) {
    const status = refusalStatus(op);
    if (status !== undefined) refusals[op.id] = status;
  }
  collections.forEach((c, index) => {
    const read = c.read !== undefined ? byId.get(c.read) : undefined;
    const role = (id: string | undefined, kind: string, extra: Obj = {}): void => {
      const op = id === undefined ? undefined : byId.get(id);
      // An operation in two collections (a path with two keys) keeps its first.
      if (!op || operations[op.id] !== undefined) return;
      const at = kind === "list" ? (c.list?.items ?? "") : objectPointer(op, resolve);
      operations[op.id] = { collection: index, role: kind, ...(at !== undefined ? { at } : {}), ...extra };
    };
    role(c.list?.operationId, "list");
    role(c.read, "read");
    role(c.delete, "delete");
    const create = c.create ? byId.get(c.create.operationId) : undefined;
    if (create) role(create.id, "create", { stores: readBackMap(create, read, resolve) });
    for (const o of model.operations) {
      // A collection only a list reaches has no object path: a write at its path is no update.
      if (c.keyParam !== "" && shown(o) && o.path === c.itemPath && (o.method === "put" || o.method === "patch"))
        role(o.id, "update", { stores: readBackMap(o, read, resolve), ...(o.method === "put" ? { put: true } : {}) });
    }
  });
  // After the other roles: a write the relations read as a collection's create stays its create.
  for (const b of batches) if (operations[b.operationId] === undefined) operations[b.operationId] = { collection: b.collection, role: "batch", items: b.items };
  for (const op of model.operations) {
    if (!shown(op) || op.method !== "get") continue;
    const pages = pagingOf(op, resolve);
    if (pages) paging[op.id] = pages;
    const f = filterPlans(op, resolve).map(({ param, match, members, caseInsensitive }) => ({ param, match, members, ...(caseInsensitive === true ? { caseInsensitive: true } : {}) }));
    if (f.length > 0) filters[op.id] = f;
  }
  const derived = derivedMembers(model);
  const parameters = pathParameters(model, resolve);
  const scoped = scopedReferences(relations.references, collections);
  const named = namedReferences(relations.references, collections);
  return {
    collections: collections.map((c) => collectionEntry(model, c, byId, resolve)),
    operations,
    paging,
    filters,
    refusals,
    ...(model.echo ? { echo: model.echo.pointer } : {}),
    // `x-invalid-token`: the refusal the contract states for a token its scheme does not know.
    ...(() => {
      const stated = model.securitySchemes.find((sch) => sch.invalidToken !== undefined)?.invalidToken;
      return stated ? { invalidToken: { status: stated.status, schema: stated.schema } } : {};
    })(),
    ...(Object.keys(derived).length > 0 ? { derived } : {}),
    ...(Object.keys(parameters).length > 0 ? { pathParameters: parameters } : {}),
    ...(Object.keys(scoped).length > 0 ? { scoped } : {}),
    ...(Object.keys(named).length > 0 ? { references: named } : {}),
  };
}

/**
 * Per operation, the members its success answers derive from others: response rules on a 2xx of
 * kind `template` (`card_uri` is `card://{/id}`), `equals` (the answer's `id` is the path's) and
 * `offset` (`end_time` is `start_time` plus `duration_in_minutes`). Pointers stay the rule's, into
 * the exchange (`/body/…`, `/request/…`) or each item of `each`; the member set must lie in the body.
 */
function derivedMembers(model: ApiModel): Obj {
  const out: Obj = {};
  const str = (v: unknown): v is string => typeof v === "string";
  const inBody = (p: string): boolean => p === "/body" || p.startsWith("/body/");
  for (const op of model.operations) {
    const rules: Obj[] = [];
    for (const r of op.responses) {
      if (!/^2/.test(r.status)) continue;
      for (const rule of r.rules ?? []) {
        const x = rule as Obj;
        const each = x["each"];
        if (each !== undefined && !(str(each) && inBody(each))) continue;
        // Without `each` the member set is the exchange's own and must be in the body; an item's is.
        const writable = (p: unknown): p is string => str(p) && (each !== undefined ? !p.startsWith("#") : inBody(p));
        const scope = str(each) ? { each } : {};
        if (x["kind"] === "template" && writable(x["field"]) && str(x["template"])) rules.push({ kind: "template", ...scope, field: x["field"], template: x["template"] });
        else if (x["kind"] === "equals" && writable(x["left"]) && str(x["right"])) rules.push({ kind: "equals", ...scope, field: x["left"], from: x["right"] });
        else if (x["kind"] === "offset" && writable(x["field"]) && str(x["from"]) && str(x["by"]) && str(x["unit"]))
          rules.push({ kind: "offset", ...scope, field: x["field"], from: x["from"], by: x["by"], unit: x["unit"] });
      }
    }
    if (rules.length > 0) out[op.id] = rules;
  }
  return out;
}

/** The collection whose list gives a reference's values by its key (under `by`, where given), or -1. */
function collectionOf(r: Reference, collections: readonly Collection[], by?: string): number {
  return collections.findIndex((c) => r.sources.some((s) => s.kind === "list" && c.list?.operationId === s.operationId && c.keyField === s.field) && (by === undefined || c.path.includes(`{${by}}`)));
}

/** Per operation, the table entries `entry` makes of its references (undefined: none for that one). */
function referenceTable(references: ReadonlyMap<string, readonly Reference[]>, entry: (r: Reference) => Obj | undefined): Obj {
  const out: Obj = {};
  for (const [operationId, refs] of references) {
    const entries = refs.map(entry).filter((e): e is Obj => e !== undefined);
    if (entries.length > 0) out[operationId] = entries;
  }
  return out;
}

/**
 * Every request member naming an object of a collection (its values come from the list that holds
 * them, by their key): the engine refuses a key of an object that was deleted.
 */
function namedReferences(references: ReadonlyMap<string, readonly Reference[]>, collections: readonly Collection[]): Obj {
  return referenceTable(references, (r) => {
    const collection = r.own === undefined ? collectionOf(r, collections) : -1;
    return collection >= 0 ? { in: r.in, name: r.name, many: r.many, collection } : undefined;
  });
}

/**
 * `x-scoped` references, each tied to the collection its list keeps under the parent it names
 * (a media key to the media library kept per account): the engine refuses a key another parent holds.
 */
function scopedReferences(references: ReadonlyMap<string, readonly Reference[]>, collections: readonly Collection[]): Obj {
  return referenceTable(references, (r) => {
    const by = r.scopedBy;
    const collection = by === undefined ? -1 : collectionOf(r, collections, by);
    return by !== undefined && collection >= 0 ? { in: r.in, name: r.name, many: r.many, by, collection } : undefined;
  });
}
