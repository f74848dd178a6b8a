/**
 * State sequences for the conformance suite: an object's life inferred from the contract's paths
 * (or stated by OpenAPI links), the `x-transitions` rows of deletes and tokens, and the OAuth 1.0a
 * flow a scheme's `x-oauth1.flow` names.
 */
import type { ApiModel, Operation } from "../../model/ir.js";
import { mediaKind } from "../validators/index.js";
import { admitsJson, keyPointers, relationsOf } from "../../model/relations.js";
import { isObj, sampleValue, type Resolve } from "./negatives.js";
import { immutableMembers, readBackDefaults, readBackMap, readObjectSchema } from "./read-back.js";
import { batchWriteOf } from "./batch-writes.js";
import { softDeleteOf } from "./soft-delete.js";

type Obj = Record<string, unknown>;

const shown = (op: Operation | undefined): op is Operation => op !== undefined && op.unspecified === undefined;

function transitionTables(model: ApiModel): Obj[] {
  return [...model.schemas.map((s) => (isObj(s.schema) ? s.schema["x-transitions"] : undefined)), ...model.operations.map((o) => o.transitions)].filter(isObj);
}

function transitionsOn(model: ApiModel, opId: string): { table: Obj; t: Obj }[] {
  return transitionTables(model).flatMap((table) => (Array.isArray(table["transitions"]) ? table["transitions"].filter(isObj) : []).filter((t) => t["on"] === opId).map((t) => ({ table, t })));
}

/** The JSON schema of an operation's first success answer. */
function successSchema(op: Operation, resolve: Resolve): Obj | undefined {
  const r = op.responses.find((x) => /^2/.test(x.status));
  const c = r?.contents.find((x) => mediaKind(x.mediaType) === "json") ?? r?.contents.find((x) => admitsJson(x.mediaType));
  return c?.schema !== undefined ? resolve(c.schema) : undefined;
}

/** Where the new object's id is in a create answer (the relations' key pointers), else every usual place. */
function idPointers(op: Operation, param: string, resolve: Resolve): string[] {
  const found = keyPointers(op, param, resolve);
  if (found.length > 0) return found;
  const schema = successSchema(op, resolve);
  // An answer whose members are declared and hold no key: the id is not there to find (a
  // Location may still give it); guessing would fail a server for what its contract never said.
  if (schema && isObj(schema["properties"])) return [];
  return schema ? [`/data/${param}`, "/data/id", `/${param}`, "/id"] : [`/${param}`, "/id"];
}

/** `$response.body#/data/id` → `/data/id`. */
function bodyPointer(expression: string): string | undefined {
  const m = /^\$response\.body#(\/.*)?$/.exec(expression);
  return m ? (m[1] ?? "") : undefined;
}

function lifecycles(model: ApiModel, resolve: Resolve): Obj[] {
  const out: Obj[] = [];
  const byId = new Map(model.operations.map((o) => [o.id, o]));
  for (const create of model.operations) {
    if (create.method !== "post" || !shown(create)) continue;
    // OpenAPI links say outright which operation takes the new object's id, and from where.
    const links = create.responses.filter((r) => /^2/.test(r.status)).flatMap((r) => r.links ?? []);
    let idParam: string | undefined;
    let pointers: string[] = [];
    let itemPath: string | undefined;
    for (const link of links) {
      const target = byId.get(link.operationId);
      const entry = Object.entries(link.parameters)
        .map(([k, v]) => [k.replace(/^path\./, ""), bodyPointer(v)] as const)
        .find(([, p]) => p !== undefined);
      if (shown(target) && entry) {
        idParam = entry[0];
        pointers = [entry[1] as string];
        itemPath = target.path;
        break;
      }
    }
    if (itemPath === undefined) {
      // One pattern per create, not one per operation searched.
      const itemPattern = new RegExp(`^${escapeRegex(create.path)}/\\{[^}/]+\\}$`);
      const item = model.operations.find((o) => shown(o) && itemPattern.test(o.path));
      if (!item) continue;
      itemPath = item.path;
      idParam = /\{([^}]+)\}$/.exec(item.path)?.[1];
      if (idParam === undefined) continue;
      pointers = idPointers(create, idParam, resolve);
      const locates = create.responses.some((r) => /^2/.test(r.status) && r.headers.some((h) => h.name.toLowerCase() === "location"));
      if (pointers.length === 0 && !locates) continue;
    }
    const at = (method: string): Operation | undefined => model.operations.find((o) => shown(o) && o.path === itemPath && o.method === method);
    const read = at("get");
    const update = at("put") ?? at("patch");
    const del = at("delete");
    if (!read && !del) continue;
    const list = model.operations.find((o) => shown(o) && o.method === "get" && o.path === create.path);
    // Where the list holds its items and which member is their key (relations: `name`, a path …).
    const collection = relationsOf(model).collections.find((c) => c.itemPath === itemPath && c.keyParam === idParam);
    const listSource = collection?.list?.operationId === list?.id ? collection?.list : undefined;
    const location = collection?.create?.operationId === create.id && collection.create.location;
    const deleteRows = del ? transitionsOn(model, del.id) : [];
    const itemSchema = read ? successSchema(read, resolve) : undefined;
    const dataSchema = itemSchema && isObj(itemSchema["properties"]) && itemSchema["properties"]["data"] !== undefined ? resolve(itemSchema["properties"]["data"]) : itemSchema;
    const soft = del ? softDeleteOf(deleteRows, dataSchema, list, read, resolve) : undefined;
    const repeat = deleteRows.find(({ t }) => typeof t["status"] === "number" && t["status"] >= 400)?.t["status"];
    const steps = [create.id, read ? `${read.id} (reads back what was sent)` : undefined, list?.id, update?.id, del?.id].filter((x) => x !== undefined);
    out.push({
      kind: "lifecycle",
      row: `${steps.join(" → ")}${del ? (soft ? `: soft delete (${soft.field}=true)${soft.listFlag ? `, listed only with ${soft.listFlag}` : ""}` : ": deleted objects answer 404") : ""}${typeof repeat === "number" ? `, a repeated delete answers ${repeat}` : ""}`,
      create: create.id,
      idParam,
      idPointers: pointers,
      ...(location ? { location: true } : {}),
      ...(read ? readFacts(create, read, resolve, listSource?.field ?? collection?.keyField) : {}),
      ...(list ? { list: list.id, ...(listSource ? { listItems: listSource.items, keyField: listSource.field } : {}) } : {}),
      // No read: the list's items are the object as the server shows it.
      ...(list && !read ? { listReadBack: readBackMap(create, list, resolve) } : {}),
      ...(update ? { update: update.id, ...(read ? { updateReadBack: readBackMap(update, read, resolve) } : {}) } : {}),
      ...(del ? { delete: del.id, deletion: soft ? "soft" : "hard", ...(soft ? { soft } : {}) } : {}),
      ...(typeof repeat === "number" ? { repeatDeleteStatus: repeat } : {}),
    });
  }
  return out;
}

/** What the lifecycle's read checks: the read-back map, the defaults an unsent member takes, what never changes. */
function readFacts(create: Operation, read: Operation, resolve: Resolve, key: string | undefined): Obj {
  const readBack = readBackMap(create, read, resolve);
  const defaults = readBackDefaults(create, readBack, resolve);
  return { read: read.id, readBack, ...(Object.keys(defaults).length > 0 ? { defaults } : {}), immutable: immutableMembers(read, resolve, key) };
}

/**
 * Whether `op` writes one member of an object at the member's own path (`/posts/{post_id}/name`):
 * the object's read declares a member of that name. An action (`/zones/{id}/notify`) is no member.
 */
function memberPath(model: ApiModel, op: Operation, resolve: Resolve): boolean {
  const m = /\}\/([^/{}]+)$/.exec(op.path);
  if (!m) return false;
  const read = model.operations.find((r) => shown(r) && r.method === "get" && r.path === objectPath(op.path));
  const object = read ? readObjectSchema(read, resolve) : undefined;
  return isObj(object?.["properties"]) && (object["properties"] as Obj)[m[1] as string] !== undefined;
}

/** The path of the object a member path addresses: `/posts/{post_id}/name` → `/posts/{post_id}`. */
export function objectPath(path: string): string {
  return path.replace(/(\})\/[^/{}]+$/, "$1");
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * One deletion sequence per delete no lifecycle already covers, from its `x-transitions` rows: a
 * soft delete answers the object marked deleted (and a list shows it only with its flag); a
 * repeated delete answers the stated status.
 */
function deletionRows(model: ApiModel, resolve: Resolve): Obj[] {
  const out: Obj[] = [];
  for (const op of model.operations) {
    if (op.method !== "delete" || !shown(op) || !/\}$/.test(op.path)) continue;
    const rows = transitionsOn(model, op.id);
    const collection = op.path.replace(/\/\{[^}]+\}$/, "");
    const create = model.operations.find((o) => o.method === "post" && o.path === collection && shown(o));
    // The collection's list: a deleted object is gone from it (soft: shown again only with its flag).
    const list = model.operations.find((o) => o.method === "get" && o.path === collection && shown(o));
    const read = model.operations.find((o) => o.method === "get" && o.path === op.path && shown(o));
    // Soft where a state table says so, or where the object carries `deleted` (a lifecycle's reading).
    const object = read ? readObjectSchema(read, resolve) : undefined;
    const soft = softDeleteOf(rows, object, list, read, resolve);
    // What a soft delete must leave as it was: the object's unchanging members.
    const immutable = soft ? immutableMembers(read ?? op, resolve, undefined) : [];
    const repeat = rows.find(({ t }) => typeof t["status"] === "number" && t["status"] >= 400)?.t["status"];
    // A delete whose effect nothing can observe (no read, no list, no stated state) is left to its valid requests.
    if (!soft && typeof repeat !== "number" && !list && !read) continue;
    const said = [
      soft ? (successSchema(op, resolve) !== undefined ? `answers the object with ${soft.field}=true` : `marks it ${soft.field}=true`) : undefined,
      list ? (soft?.listFlag !== undefined ? `listed only with ${soft.listFlag}=true` : "no longer listed") : undefined,
      typeof repeat === "number" ? `a repeated delete answers ${repeat}` : undefined,
    ];
    out.push({
      kind: "deletion",
      operationId: op.id,
      // Only a delete whose success declares a body can be held to answering the object it marked.
      ...(soft ? { soft, answersObject: successSchema(op, resolve) !== undefined } : {}),
      ...(create ? { createOperationId: create.id } : {}),
      ...(list ? { listOperationId: list.id } : {}),
      ...(read ? { readOperationId: read.id } : {}),
      ...(typeof repeat === "number" ? { repeatStatus: repeat } : {}),
      ...(immutable.length > 0 ? { immutable } : {}),
      row: `${op.id}: ${said.filter((x) => x !== undefined).join(", ")}`,
    });
  }
  return out;
}

/**
 * Every update on an object of its own (made for it, else a listed one put back): the answer and a
 * read-back hold what was sent. Also those a lifecycle follows, since the lifecycle stops where the
 * server refuses its create and the update would then go unchecked.
 */
function updates(model: ApiModel, resolve: Resolve): Obj[] {
  return (
    model.operations
      // An object's path, or a member of it by its own path (`/posts/{post_id}/name`), read at the object's.
      .filter((o) => shown(o) && (o.method === "put" || o.method === "patch") && (/\}$/.test(o.path) || memberPath(model, o, resolve)))
      .map((o) => {
        const read = model.operations.find((r) => shown(r) && r.method === "get" && (r.path === o.path || r.path === objectPath(o.path)));
        // No read: the collection's list shows the object (`GET …/line_items` for `…/line_items/{id}`).
        const collection = objectPath(o.path).replace(/\/\{[^}/]+\}$/, "");
        const list = read ? undefined : model.operations.find((r) => shown(r) && r.method === "get" && r.path === collection && collection !== objectPath(o.path));
        const listMap = list ? readBackMap(o, list, resolve) : {};
        // Neither a read nor a list shows the members: the update's own answer does (the line item it answers).
        const ownMap = !read && Object.keys(listMap).length === 0 ? readBackMap(o, o, resolve) : {};
        return {
          kind: "update",
          operationId: o.id,
          ...(read ? { read: read.id, readBack: readBackMap(o, read, resolve) } : {}),
          ...(list && Object.keys(listMap).length > 0 ? { list: list.id, readBack: listMap } : {}),
          ...(Object.keys(ownMap).length > 0 ? { readBack: ownMap } : {}),
          // Without a read, the update's own answers show the object: what never changes is compared between them.
          immutable: immutableMembers(read ?? o, resolve, undefined),
          row: `${o.id}: ${read ? `the answer and ${read.id} hold` : list && Object.keys(listMap).length > 0 ? `the answer and ${list.id} hold` : "the answer holds"} what the update sent`,
        };
      })
  );
}

/**
 * Batch writes whose items are the collection's objects: a body array of objects (a PUT of
 * `products`) at the path a list reads, its items keyed by a member both declare (`id`). The suite
 * writes one new item with every member it may carry and finds it in the list holding what was sent.
 */
function batchWrites(model: ApiModel, resolve: Resolve): Obj[] {
  const out: Obj[] = [];
  for (const op of model.operations) {
    const batch = batchWriteOf(model, op, resolve);
    if (!batch) continue;
    out.push({
      kind: "batchWrite",
      operationId: op.id,
      pointer: `/${batch.member}`,
      key: batch.key,
      list: batch.list.id,
      readBack: Object.fromEntries(batch.shown.map((n) => [n, n])),
      row: `${op.id}: an item written with every member it may carry is listed by ${batch.list.id} holding them`,
    });
  }
  return out;
}

/** `x-limits` of kind `outstanding` on a create with a list: at most `max` objects at once, the next create refused. */
function outstandingLimits(model: ApiModel): Obj[] {
  const out: Obj[] = [];
  for (const create of model.operations) {
    if (create.method !== "post" || !shown(create)) continue;
    const limit = create.limits.find((l) => l.kind === "outstanding" && typeof l.max === "number");
    const list = model.operations.find((o) => shown(o) && o.method === "get" && o.path === create.path);
    if (!limit || limit.max === undefined || !list) continue;
    out.push({
      kind: "outstanding",
      create: create.id,
      list: list.id,
      max: limit.max,
      row: `${create.id}: at most ${limit.max} at once${limit.per ? ` per ${limit.per}` : ""} (${limit.description}); the next create is refused`,
    });
  }
  return out;
}

function tokenFlows(model: ApiModel, resolve: Resolve): Obj[] {
  const out: Obj[] = [];
  const byId = new Map(model.operations.map((o) => [o.id, o]));
  for (const scheme of model.securitySchemes) {
    const flow = scheme.oauth1?.flow;
    if (!flow) continue;
    const [req, auth, acc] = [flow["requestToken"], flow["authorize"], flow["accessToken"]].map((id) => (id === undefined ? undefined : byId.get(id)));
    if (!req || !auth || !acc) continue;
    const callbackParam = req.parameters.find((p) => p.name === "oauth_callback");
    const sample = callbackParam ? sampleValue(callbackParam.schema, resolve, callbackParam.example) : undefined;
    const callback = typeof sample === "string" && /^https?:\/\//.test(sample) ? sample : "https://client.example/callback";
    const invalidate = flow["invalidate"] !== undefined && byId.has(flow["invalidate"]) ? flow["invalidate"] : undefined;
    const authenticate = flow["authenticate"] !== undefined && byId.has(flow["authenticate"]) ? flow["authenticate"] : undefined;
    out.push({
      kind: "oauth1Flow",
      row: `OAuth 1.0a (${scheme.name}): request token → browser step${authenticate ? " (authorize, and authenticate)" : ""} → access token; a wrong verifier and a reused request token are refused${invalidate ? "; a request token in place of an access token and an invalidated access token are refused, and the next flow gives a new one" : ""}`,
      requestToken: req.id,
      authorize: auth.id,
      accessToken: acc.id,
      ...(invalidate ? { invalidate } : {}),
      ...(authenticate ? { authenticate } : {}),
      callback,
      ...(scheme.invalidToken ? { invalidToken: scheme.invalidToken } : {}),
    });
  }
  // The app-only bearer token of an OAuth 2.0 client-credentials flow whose token and revocation
  // endpoints are operations of the contract (`tokenUrl` and `x-revocation-url`, relative paths):
  // issued once, returned again, invalidated, refused.
  const postAt = (url: unknown): Operation | undefined => (typeof url === "string" && url.startsWith("/") ? model.operations.find((o) => o.method === "post" && o.path === url) : undefined);
  const done = new Set<string>();
  for (const scheme of model.securitySchemes) {
    const flow = scheme.flows?.["clientCredentials"];
    if (!isObj(flow)) continue;
    const create = postAt(flow["tokenUrl"]);
    const invalidate = postAt(flow["x-revocation-url"]);
    // An operation the token opens: one secured by this scheme or by a plain bearer scheme.
    const probe = model.operations.find(
      (o) => o.unspecified === undefined && o.security.some((req) => req.some((r) => r.scheme === scheme.name || model.securitySchemes.find((s) => s.name === r.scheme)?.kind === "bearer")),
    );
    if (!create || !invalidate || !probe || done.has(create.id)) continue;
    done.add(create.id);
    out.push({ kind: "bearerLifecycle", create: create.id, invalidate: invalidate.id, probe: probe.id, row: "app-only bearer token: issued, returned again, invalidated, refused, a new one differs" });
  }
  return out;
}

export function scenarios(model: ApiModel, resolve: Resolve): Obj[] {
  const life = lifecycles(model, resolve);
  // Updates first: deletions may remove the very objects they change.
  // Every update and delete also on an object of its own: where a lifecycle cannot make one, they still run.
  return [...updates(model, resolve), ...batchWrites(model, resolve), ...outstandingLimits(model), ...life, ...deletionRows(model, resolve), ...tokenFlows(model, resolve)];
}
