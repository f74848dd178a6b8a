/**
 * The generic mock engine: one handler per operation of any contract, answering from the
 * contract's examples and seeded mock data, keeping the collections the contract implies (made,
 * read, listed with the contract's paging and filters, changed, deleted; soft deletes where the
 * contract says so), following Prism's `Prefer` conventions, and shaping the errors the server
 * core answers itself into the contract's own. It knows no framework: the generated Fastify plugin
 * and the generated MSW handlers both run its handlers behind the server core (validation,
 * authentication), so every answer is judged by the package's own validators on the way in and
 * checked against the declared response on the way out.
 */
import type { CoreHandler, CoreHandlerInput, ErrorShaper, HandlerReply, SecurityVerifiers } from "../../server/core.js";
import { problemBody } from "../../server/core.js";
import { createSchemaMatcher } from "../../shared/schema-match.js";
import { deriveSeed, normalizeSeed } from "../../shared/prng.js";
import type { MockGenerator } from "../mock-data.js";
import { Answers, sentMediaType, type Chosen, type ValidateResponse } from "./answers.js";
import { declaredErrorStatus, errorBody, errorShaper } from "./errors.js";
import { keepMatching } from "./filters.js";
import { pageOf } from "./paging.js";
import { copy, deleteAt, getAt, isRec, ownPath, setAt } from "./pointer.js";
import { parsePrefer, prefers, type Preference } from "./prefer.js";
import { layOver, repair, type Place } from "./render.js";
import { CollectionStore, put, type Scope, type StoredObject } from "./store.js";
import type { MockCollection, MockDerived, MockOperationRole, MockReference, MockTable, ResponsePlan } from "./table.js";
import { mockSecurity, type MockCredentials } from "./security.js";
import { knownValues } from "./values.js";
import { fillTemplateWith, offsetEnd } from "../../shared/derived.js";

export type { MockCredentials } from "./security.js";
export { DEFAULT_MOCK_CREDENTIALS } from "./security.js";

type Rec = Record<string, unknown>;

/** What a generated package lends the engine. */
export interface MockEngineSource {
  /** Per operation, its responses in contract order (`responsePlans()` of the package's mocks). */
  readonly plans: Readonly<Record<string, readonly ResponsePlan[]>>;
  /** The collections, paging and filters (`mockTable()`). */
  readonly table: MockTable;
  /** The package's seeded mock-data generator (its `$ref`s resolve in `document`). */
  readonly generator: MockGenerator;
  /** The package's schema document (`mockDocument()`). */
  readonly document: unknown;
  readonly validateResponse: ValidateResponse;
}

export interface MockEngineOptions {
  /** Seed of the data: the same seed gives the same answers and objects. @default 1 */
  readonly seed?: number;
  /** Keep no state: every answer is the contract's example or seeded data, as Prism's are. @default false */
  readonly stateless?: boolean;
  /**
   * Check credentials for their value: the development credentials (`credentials`, else the
   * defaults) and nothing else. Without it any credential of the right scheme is taken (OAuth 1.0a
   * signatures are always checked, with the development consumer and token). @default false
   */
  readonly checkCredentials?: boolean;
  /** The development credentials. @default DEFAULT_MOCK_CREDENTIALS */
  readonly credentials?: Partial<MockCredentials>;
}

export interface MockEngine {
  /** One handler per operation, by operationId. */
  readonly handlers: Readonly<Record<string, CoreHandler>>;
  /** The credential checks for the server core. */
  readonly security: SecurityVerifiers;
  /** Errors the server core answers itself, in each operation's declared shape. */
  readonly shapeError: ErrorShaper;
  /** The development credentials in force. */
  readonly credentials: MockCredentials;
  /** Whether credentials are checked for their value. */
  readonly checksCredentials: boolean;
  /**
   * Path values the mock serves that no operation of the contract lists or makes, per parameter
   * name (what `contractgen test --values` takes): each answers 2xx wherever that name is taken.
   * Computed once; the same contract and seed give the same values.
   */
  knownValues(): Readonly<Record<string, string | number | boolean>>;
  /** Forgets every object made, changed or deleted: the next request starts from the seeded data. */
  reset(): void;
}

const truthy = (v: unknown): boolean => v === true || v === "true" || v === "1";

/** The value a derived member must have, read through `read`; undefined where a part is missing. */
function derivedValue(r: MockDerived, read: (pointer: string) => unknown): unknown {
  if (r.kind === "template") return fillTemplateWith(r.template, read);
  if (r.kind === "equals") return read(r.from);
  const end = offsetEnd(read(r.from), read(r.by), r.unit);
  return end === undefined ? undefined : new Date(end).toISOString().replace(".000Z", "Z");
}

export function createMockEngine(source: MockEngineSource, options: MockEngineOptions = {}): MockEngine {
  const seed = normalizeSeed(options.seed ?? 1);
  const answers = new Answers(source.plans, source.generator, source.validateResponse, seed);
  const matches = createSchemaMatcher(source.document, { now: Date.now() });
  const table = source.table;
  const stores = table.collections.map(
    (c) =>
      new CollectionStore(
        c,
        {
          draw: (schema, s) => answers.draw(schema, s).body,
          fits: (schema, value) => matches(schema, value),
        },
        seed,
      ),
  );
  const { verifiers, credentials } = mockSecurity(options);
  const refusals = table.refusals ?? {};
  const shapeError = errorShaper(answers, seed, refusals, table.invalidToken);
  let drawn = 0;

  /** An answer of `chosen` with `body`, its headers and media type. */
  const reply = (chosen: Chosen, body: unknown, location?: string): HandlerReply => {
    const headers = answers.headers(chosen, seed, location);
    return {
      status: chosen.status,
      ...(body !== undefined ? { body } : {}),
      ...(chosen.plan.contentType !== undefined && body !== undefined ? { contentType: sentMediaType(chosen.plan.contentType, body) } : {}),
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
    };
  };

  /** No valid body could be found for a declared answer: the schema admits nothing the generator can make. */
  const unanswerable = (operationId: string, chosen: Chosen): HandlerReply => ({
    status: 500,
    body: problemBody(500, `the mock found no value that validates against the ${chosen.plan.status} answer of ${operationId} (the contract's schema admits none it can draw)`),
    contentType: "application/problem+json",
  });

  /** An error answer of the operation (404 for an unknown object …) in its declared shape. */
  const failure = (operationId: string, status: number, detail: string): HandlerReply => {
    const code = declaredErrorStatus(answers, operationId, status, refusals);
    const chosen = answers.forStatus(operationId, code);
    const problem = problemBody(code, detail);
    if (!chosen) return { status: code, body: problem, contentType: "application/problem+json" };
    const out = errorBody(answers, operationId, chosen, problem, seed);
    return { status: code, ...(out.body !== undefined ? { body: out.body, contentType: out.contentType } : {}) };
  };

  /**
   * A paged list the mock keeps no objects for, as one whole list: the drawn items cut to the page
   * size asked, no next cursor (the walk ends), the total where asked; a cursor (none was given)
   * gets the empty rest. Each step is kept only while the answer stays valid.
   */
  const onePage = (operationId: string, chosen: Chosen, body: unknown, query: Rec): unknown => {
    const paging = Object.prototype.hasOwnProperty.call(table.paging, operationId) ? table.paging[operationId] : undefined;
    const items = paging ? getAt(body, paging.items) : undefined;
    if (!paging || !Array.isArray(items)) return body;
    const out = copy(body);
    const list = getAt(out, paging.items) as unknown[];
    const validate = (b: unknown): boolean => source.validateResponse(operationId, chosen.status, chosen.plan.contentType, b).valid;
    const cursor = query[paging.cursor];
    const asked = paging.pageSize ? Number(query[paging.pageSize.name]) : Number.NaN;
    const keep = cursor !== undefined && cursor !== "" ? 0 : Number.isInteger(asked) && asked > 0 ? Math.min(asked, list.length) : list.length;
    const cut = list.splice(keep);
    if (!validate(out)) list.push(...cut);
    const next = getAt(out, paging.next);
    if (next !== undefined && next !== null) {
      setAt(out, paging.next, null);
      if (!validate(out)) {
        deleteAt(out, paging.next);
        if (!validate(out)) setAt(out, paging.next, next);
      }
    }
    if (paging.totalCount && truthy(query[paging.totalCount.param])) {
      setAt(out, paging.totalCount.pointer, list.length);
      if (!validate(out)) deleteAt(out, paging.totalCount.pointer);
    }
    return validate(out) ? out : body;
  };

  const stateless = (operationId: string, prefer: Preference, query: Rec = {}): HandlerReply => {
    const asked = prefer.code !== undefined ? answers.forStatus(operationId, prefer.code) : undefined;
    const chosen = asked ?? answers.success(operationId);
    if (!chosen) return { status: 204 };
    // An error asked for where the contract shows no example of it: a body of its shape that says
    // what it is (a problem with the asked status where the schema takes one), not random text.
    if (asked && chosen.status >= 400 && prefer.example === undefined && !prefer.dynamic && chosen.plan.example === undefined && chosen.plan.examples === undefined) {
      const out = errorBody(answers, operationId, chosen, problemBody(chosen.status, `asked for with Prefer: code=${chosen.status}`), seed);
      return { status: chosen.status, ...(out.body !== undefined ? { body: out.body, contentType: out.contentType } : {}) };
    }
    const b = answers.body(operationId, chosen, {
      ...(prefer.example !== undefined ? { example: prefer.example } : {}),
      ...(prefer.dynamic ? { dynamic: true, seed: deriveSeed(seed, `dynamic:${drawn++}`) } : {}),
    });
    if (!b.valid) return unanswerable(operationId, chosen);
    return reply(chosen, prefers(prefer) ? b.body : onePage(operationId, chosen, b.body, query));
  };

  /** The answer of `operationId` with `obj` laid over the place it sits. */
  const single = (operationId: string, role: MockOperationRole, c: MockCollection, obj: StoredObject, extra?: { location?: string; pointers?: readonly string[] }): HandlerReply => {
    const chosen = answers.success(operationId);
    if (!chosen) return { status: 204 };
    const base = answers.shared(operationId, chosen);
    if (!base.valid) return unanswerable(operationId, chosen);
    if (base.body === undefined || role.at === undefined) return reply(chosen, base.body, extra?.location);
    // Only the way to the object's place is copied: the rest of the kept answer is shared, unchanged.
    const body = ownPath(base.body, role.at);
    const place = layOver(body, role.at, obj.data);
    const validate = (b: unknown) => source.validateResponse(operationId, chosen.status, chosen.plan.contentType, b);
    for (const p of extra?.pointers ?? []) if (getAt(body, p) !== undefined || place === undefined) setAt(body, p, obj.data[c.keyField]);
    if (place && !repair(body, [place], validate, new Set([c.keyField]))) return reply(chosen, base.body, extra?.location);
    // Where the drawn answer left out the member the new key goes in (it is optional), the key is
    // put there still, as long as the answer stays valid: the client learns the key from it.
    for (const p of extra?.pointers ?? []) {
      if (getAt(body, p) !== undefined) continue;
      setAt(body, p, obj.data[c.keyField]);
      if (!validate(body).valid) deleteAt(body, p);
    }
    return reply(chosen, body, extra?.location);
  };

  /** The members a create or update stores: the body's top-level members and the query values its read-back map names. */
  const membersOf = (input: CoreHandlerInput, role: MockOperationRole): Rec => {
    const out: Rec = {};
    const stores = role.stores ?? {};
    if (isRec(input.body)) {
      for (const [k, v] of Object.entries(input.body)) {
        put(out, k, v);
        const stored = Object.prototype.hasOwnProperty.call(stores, k) ? stores[k] : undefined;
        if (stored !== undefined && stored !== k) put(out, stored, v);
      }
    }
    const query = isRec(input.query) ? input.query : {};
    for (const [member, stored] of Object.entries(stores)) {
      if (Object.prototype.hasOwnProperty.call(out, member) || !Object.prototype.hasOwnProperty.call(query, member)) continue;
      const v = query[member];
      if (v !== undefined) put(out, stored, v);
    }
    return out;
  };

  /**
   * Query values of a create or update named like a member the object has (a create taking
   * `?name=…`): kept, so the object reads back what was sent. Only where the value has the
   * member's type: a query parameter that merely shares a name says nothing about the object.
   */
  const queryMembers = (input: CoreHandlerInput, obj: StoredObject, keyField: string, taken: Rec, shown: Rec | undefined): void => {
    const query = isRec(input.query) ? input.query : {};
    for (const [k, v] of Object.entries(query)) {
      if (k === keyField || Object.prototype.hasOwnProperty.call(taken, k)) continue;
      // A member the object has, or one the operation's answer shows it with (an optional member
      // the object was drawn without: the answer would show its own value where the object has none).
      const held = Object.prototype.hasOwnProperty.call(obj.data, k) ? obj.data : shown !== undefined && Object.prototype.hasOwnProperty.call(shown, k) ? shown : undefined;
      if (held === undefined) continue;
      const was = held[k];
      // Query text is read as the member's type where it is one of that type (`291` for a number).
      // A list member takes the list the query gave (`a,b` arrives split, one value as itself).
      if (Array.isArray(was)) {
        const items = Array.isArray(v) ? v : [v];
        if (items.every((x) => typeof x === "string" || typeof x === "number" || typeof x === "boolean")) put(obj.data, k, items);
        continue;
      }
      const value =
        typeof was === "number" && typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : typeof was === "boolean" && (v === "true" || v === "false") ? v === "true" : v;
      if (value !== null && typeof value === typeof was && typeof value !== "object") put(obj.data, k, value);
    }
  };

  /** The object as the operation's kept answer shows it (at the object's place), if any. */
  const shownObject = (operationId: string, role: MockOperationRole): Rec | undefined => {
    const chosen = answers.success(operationId);
    if (!chosen || role.at === undefined) return undefined;
    const shown = getAt(answers.shared(operationId, chosen).body, role.at);
    return isRec(shown) ? shown : undefined;
  };

  const list = (operationId: string, role: MockOperationRole, store: CollectionStore, input: CoreHandlerInput): HandlerReply => {
    const chosen = answers.success(operationId);
    if (!chosen) return { status: 204 };
    const base = answers.shared(operationId, chosen);
    if (!base.valid) return unanswerable(operationId, chosen);
    const query = isRec(input.query) ? input.query : {};
    const scope = store.scope(isRec(input.path) ? input.path : {});
    const paging = Object.prototype.hasOwnProperty.call(table.paging, operationId) ? table.paging[operationId] : undefined;
    const at = role.at ?? paging?.items ?? "";
    const kept = getAt(base.body, at);
    const template = Array.isArray(kept) && isRec(kept[0]) ? kept[0] : undefined;
    // Filters judge each object as the list shows it: its members over the template item's, which
    // stand in for members it lacks (an optional `card_uri` the object was drawn without).
    const asShown = template === undefined ? undefined : (data: Rec): Rec => ({ ...template, ...data });
    const flag = (table.collections[role.collection] as MockCollection | undefined)?.soft?.listFlag;
    const all = keepMatching(store.list(scope, flag !== undefined && truthy(query[flag])), table.filters[operationId] ?? [], query, asShown);
    const page = pageOf(all, paging, query, (schema, value) => matches(schema, value));
    if ("invalid" in page) return failure(operationId, 400, page.invalid);
    // The list's array is emptied and filled: it and the way to it are copied, the rest shared.
    const body = ownPath(base.body, at);
    // A kept answer drawn without its (optional) items member gets one, where its parent is there.
    if (getAt(body, at) === undefined && at !== "") setAt(body, at, []);
    const array = getAt(body, at);
    if (!Array.isArray(array)) return reply(chosen, body);
    array.length = 0;
    const places: Place[] = [];
    page.items.forEach((obj, i) => {
      // A shallow copy: its members are replaced, never changed in place (render.ts).
      array.push(template ? { ...template } : {});
      const place = layOver(body, `${at}/${i}`, obj.data);
      if (place) places.push(place);
    });
    if (paging) {
      setAt(body, paging.next, page.next);
      if (paging.totalCount) {
        if (truthy(query[paging.totalCount.param])) setAt(body, paging.totalCount.pointer, all.length);
        else deleteAt(body, paging.totalCount.pointer);
      }
    }
    const validate = (b: unknown) => source.validateResponse(operationId, chosen.status, chosen.plan.contentType, b);
    if (!repair(body, places, validate, new Set([store.collection.keyField]))) {
      // A last cursor the schema does not take as null is left out; else the list as the contract shows it.
      if (paging && page.next === null) deleteAt(body, paging.next);
      if (!validate(body).valid) return reply(chosen, base.body);
    }
    return reply(chosen, body);
  };

  /**
   * A batch write: each object of the request's array is stored under its key, made where the key
   * is new and its members laid over where known (an upsert keeps what the server gave, like a
   * product's own key). The answer is the operation's own (its example, else drawn data): it
   * reports on the batch, and what it reports is the contract's to state, not the objects.
   */
  const batch = (operationId: string, role: MockOperationRole, store: CollectionStore, input: CoreHandlerInput): HandlerReply => {
    const keyField = store.collection.keyField;
    const scope = store.scope(isRec(input.path) ? input.path : {});
    const items = role.items !== undefined ? getAt(input.body, role.items) : undefined;
    for (const item of Array.isArray(items) ? items : []) {
      const key = isRec(item) ? item[keyField] : undefined;
      if (!isRec(item) || !(typeof key === "string" || typeof key === "number")) continue;
      const found = store.find(scope, key);
      if (found === undefined || found === "gone") store.create(scope, { ...item }, key);
      else for (const [k, v] of Object.entries(item)) if (k !== keyField) put(found.data, k, v);
    }
    return stateless(operationId, {}, isRec(input.query) ? input.query : {});
  };

  const stateful = (operationId: string, role: MockOperationRole, input: CoreHandlerInput): HandlerReply => {
    const c = table.collections[role.collection] as MockCollection;
    const store = stores[role.collection] as CollectionStore;
    if (role.role === "list") return list(operationId, role, store, input);
    if (role.role === "batch") return batch(operationId, role, store, input);
    const path = isRec(input.path) ? input.path : {};
    const query = isRec(input.query) ? input.query : {};
    const scope = store.scope(path);
    if (role.role === "create") {
      const members = membersOf(input, role);
      const obj = store.create(scope, members);
      queryMembers(input, obj, c.keyField, members, shownObject(operationId, role));
      const parents = c.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(path[name] ?? "")));
      const location = c.create?.location === true || answers.success(operationId)?.status === 201 ? `${parents}/${encodeURIComponent(obj.key)}` : undefined;
      return single(operationId, role, c, obj, { ...(location !== undefined ? { location } : {}), pointers: c.create?.pointers ?? [] });
    }
    const key = path[c.keyParam];
    let found = store.find(scope, key);
    // What exists is what the list shows: where the contract lists and makes these objects, an
    // unknown key is refused as it would be; elsewhere any key names an object (as the contract's
    // other operations may have named it), made on first use.
    // An object another parent holds is not reached through this one, where the contract can say so.
    const elsewhere = c.parents.length > 0 && found === undefined && store.heldElsewhere(scope, key);
    const refuses = (c.list !== undefined && c.create !== undefined) || elsewhere;
    // A 404 goes out where the operation declares it, by code, range or `default` (Azure's error answers are all `default`).
    const refusesHere = refuses && answers.forStatus(operationId, 404) !== undefined;
    // A PUT to an unknown key makes the object under that key (RFC 9110 §9.3.4). Where the
    // collection's create gives the keys, one another parent holds is that parent's object, and
    // the PUT through this parent is refused below; a key the client names (a label's name) may
    // name an object under each parent.
    const taken = elsewhere && c.create !== undefined;
    if (found === undefined && role.role === "update" && role.put === true && !taken) found = store.create(scope, membersOf(input, role), key);
    if (found === undefined && elsewhere && !refusesHere) {
      // Another parent's object, and no 404 to say so: the client error the operation declares
      // nearest in meaning (not this caller's, then a request that does not hold together).
      const status = [403, 400, 422].find((s) => answers.declares(operationId, s));
      if (status !== undefined) return failure(operationId, status, `${c.keyParam} ${String(key)} belongs to another ${c.parents.join(", ")}`);
      // An operation that declares no client error at all refuses as a server would, with a 404
      // the contract does not declare (as it refuses an invalid request with an undeclared 400).
      const refusesNothing = !answers.plansOf(operationId).some((p) => /^4/.test(p.status) || p.status === "default");
      if (refusesNothing) return failure(operationId, 404, `no object with ${c.keyParam} ${String(key)} under these ${c.parents.join(", ")}`);
    }
    if (found === "gone" && role.role === "delete") return failure(operationId, c.repeatDelete ?? 404, `${c.keyParam} ${String(key)} was deleted already`);
    if (found === "gone" || (found === undefined && refusesHere)) return failure(operationId, 404, `no object with ${c.keyParam} ${String(key)}`);
    const obj = found ?? store.create(scope, {}, key);
    const withDeleted = c.soft?.readFlag !== undefined && truthy(query[c.soft.readFlag]);
    if (role.role === "read") {
      if (obj.deleted && !withDeleted) return failure(operationId, 404, `${c.keyParam} ${String(key)} was deleted`);
      return single(operationId, role, c, obj);
    }
    if (role.role === "update") {
      if (obj.deleted) return failure(operationId, 404, `${c.keyParam} ${String(key)} was deleted`);
      const members = membersOf(input, role);
      for (const [k, v] of Object.entries(members)) if (k !== c.keyField) put(obj.data, k, v);
      queryMembers(input, obj, c.keyField, members, shownObject(operationId, role));
      return single(operationId, role, c, obj);
    }
    // delete
    if (obj.deleted) return failure(operationId, c.repeatDelete ?? 404, `${c.keyParam} ${String(key)} was deleted already`);
    if (c.soft) {
      obj.deleted = true;
      put(obj.data, c.soft.field, true);
    } else store.remove(scope, obj.key);
    return single(operationId, role, c, obj);
  };

  // `x-echo`: the contract states where every answer echoes the request's parameters.
  const echoAt = typeof table.echo === "string" && table.echo.startsWith("/") ? table.echo : undefined;
  /** The answer with the request's path and query values at the echo's place, where it has one and stays valid. */
  const echoed = (operationId: string, input: CoreHandlerInput, out: HandlerReply): HandlerReply => {
    if (echoAt === undefined || out.status < 200 || out.status >= 300) return out;
    const path = isRec(input.path) ? input.path : {};
    let body: unknown;
    if (isRec(getAt(out.body, echoAt))) {
      body = ownPath(out.body, echoAt);
      setAt(body, echoAt, { ...path, ...(isRec(input.query) ? input.query : {}) });
    } else {
      // A batch echoes one entry per operation (`/request` an array of `{params}`): each holds the
      // path's parameters as sent, over whatever else the entry says of its own operation.
      const cut = echoAt.lastIndexOf("/");
      const entries = cut > 0 ? getAt(out.body, echoAt.slice(0, cut)) : undefined;
      const last = echoAt.slice(cut + 1);
      if (!Array.isArray(entries) || Object.keys(path).length === 0) return out;
      body = structuredClone(out.body);
      for (const entry of getAt(body, echoAt.slice(0, cut)) as unknown[]) if (isRec(entry) && isRec(entry[last])) entry[last] = { ...entry[last], ...path };
    }
    const plan = answers.success(operationId);
    const contentType = plan?.status === out.status ? plan.plan.contentType : undefined;
    return source.validateResponse(operationId, out.status, contentType, body).valid ? { ...out, body } : out;
  };

  /**
   * `x-scoped`: a member naming an object another parent holds (and this one does not) is refused,
   * as the status the operation declares for a request that does not hold together.
   */
  const scopedRefusal = (operationId: string, input: CoreHandlerInput): HandlerReply | undefined => {
    for (const ref of table.scoped?.[operationId] ?? []) {
      const named = namedKeys(ref, input);
      if (!named) continue;
      const { store, scope, keys } = named;
      for (const key of keys) {
        const here = store.find(scope, key);
        if (here !== undefined && here !== "gone") continue;
        if (!store.heldElsewhere(scope, key)) continue;
        const status = [400, 422, 403, 404].find((s) => answers.declares(operationId, s)) ?? 400;
        return failure(operationId, status, `${ref.name} ${String(key)} is not one of this ${ref.by}'s`);
      }
    }
    return undefined;
  };

  /** The keys a request member names, with the store and scope (the request's parents) that hold them. */
  const namedKeys = (ref: MockReference, input: CoreHandlerInput): { store: CollectionStore; scope: Scope; keys: unknown[] } | undefined => {
    const store = stores[ref.collection];
    const from = ref.in === "query" ? input.query : input.body;
    const raw = isRec(from) ? from[ref.name] : undefined;
    if (!store || raw === undefined || raw === null) return undefined;
    const keys = Array.isArray(raw) ? raw : ref.many && typeof raw === "string" ? raw.split(",") : [raw];
    return { store, scope: store.scope(isRec(input.path) ? input.path : {}), keys };
  };

  /**
   * A member naming an object that was deleted (gone, or soft-deleted) is refused: what a request
   * refers to must exist. The status is the one the operation declares for such a request.
   */
  const deletedRefusal = (operationId: string, input: CoreHandlerInput): HandlerReply | undefined => {
    for (const ref of table.references?.[operationId] ?? []) {
      const named = namedKeys(ref, input);
      if (!named) continue;
      for (const key of named.keys) {
        const here = named.store.find(named.scope, key);
        if (here !== "gone" && !(here !== undefined && here.deleted)) continue;
        const status = [400, 422, 404, 409].find((s) => answers.declares(operationId, s)) ?? 400;
        return failure(operationId, status, `${ref.name} ${String(key)} names an object that was deleted`);
      }
    }
    return undefined;
  };

  /**
   * Members the contract derives from others (`card_uri` from `id`, the answer's `id` from the
   * path, `end_time` from `start_time` and a duration), filled in every 2xx answer that carries
   * them, so a drawn or stored object never contradicts the rule. The body is copied first (its
   * objects may be the store's), and kept as it was where the result would not validate.
   */
  // What a list's rules say of each of its items (`each`, pointers into the item, none into the
  // exchange) holds of the same objects wherever else they are answered: their read, create and
  // updates, which may state nothing themselves. Otherwise a read would show a stored object the
  // list shows derived (a `uri` drawn from its pattern, not made from the id).
  const itemRules = new Map<string, MockDerived[]>();
  for (const c of table.collections) {
    const listRules = (c.list !== undefined && Object.prototype.hasOwnProperty.call(table.derived ?? {}, c.list) ? (table.derived?.[c.list] ?? []) : []).filter(
      (r) => r.each !== undefined && !JSON.stringify(r).includes('"#'),
    );
    if (listRules.length === 0) continue;
    for (const id of [c.read, c.create?.operationId, ...(c.updates ?? [])]) if (id !== undefined) itemRules.set(id, listRules);
  }
  /** Each object of `node` (at any depth up to 4) carrying the rule's member. */
  const objectsWith = (node: unknown, field: string, depth = 0, out: Rec[] = []): Rec[] => {
    if (depth > 4) return out;
    if (Array.isArray(node)) for (const x of node) objectsWith(x, field, depth + 1, out);
    else if (isRec(node)) {
      if (getAt(node, field) !== undefined) out.push(node);
      else for (const v of Object.values(node)) objectsWith(v, field, depth + 1, out);
    }
    return out;
  };

  const derive = (operationId: string, input: CoreHandlerInput, out: HandlerReply): HandlerReply => {
    const rules = Object.prototype.hasOwnProperty.call(table.derived ?? {}, operationId) ? (table.derived?.[operationId] ?? []) : [];
    const asItems = itemRules.get(operationId) ?? [];
    if ((rules.length === 0 && asItems.length === 0) || out.status < 200 || out.status >= 300 || out.body === undefined) return out;
    const exchange: Rec = { body: copy(out.body), request: { path: input.path ?? {}, query: input.query ?? {}, body: input.body } };
    let changed = false;
    const apply = (r: MockDerived, item: unknown): void => {
      const read = (p: string): unknown => getAt(p.startsWith("#") ? exchange : item, p.replace(/^#/, ""));
      const now = getAt(item, r.field);
      if (now === undefined) return;
      const want = derivedValue(r, read);
      if (want !== undefined && JSON.stringify(want) !== JSON.stringify(now) && setAt(item, r.field, want)) changed = true;
    };
    for (const r of asItems) for (const item of objectsWith(exchange["body"], r.field)) apply(r, item);
    for (const r of rules) {
      const items = r.each === undefined ? [exchange] : getAt(exchange, r.each);
      for (const item of Array.isArray(items) ? items : []) apply(r, item);
    }
    if (!changed) return out;
    const plan = answers.success(operationId);
    const contentType = plan?.status === out.status ? plan.plan.contentType : undefined;
    return source.validateResponse(operationId, out.status, contentType, exchange["body"]).valid ? { ...out, body: exchange["body"] } : out;
  };

  let values: Readonly<Record<string, string | number | boolean>> | undefined;
  const handlers: Record<string, CoreHandler> = Object.create(null) as Record<string, CoreHandler>;
  for (const operationId of Object.keys(source.plans)) {
    const role = Object.prototype.hasOwnProperty.call(table.operations, operationId) ? table.operations[operationId] : undefined;
    put(handlers as Rec, operationId, (input: CoreHandlerInput): HandlerReply => {
      const prefer = parsePrefer(isRec(input.headers) ? input.headers["prefer"] : undefined);
      if (!options.stateless && !prefers(prefer)) {
        const refused = scopedRefusal(operationId, input) ?? deletedRefusal(operationId, input);
        if (refused) return refused;
        if (role) return echoed(operationId, input, derive(operationId, input, stateful(operationId, role, input)));
      }
      return echoed(operationId, input, derive(operationId, input, stateless(operationId, prefer, isRec(input.query) ? input.query : {})));
    });
  }

  return {
    handlers,
    security: verifiers,
    shapeError,
    credentials,
    checksCredentials: options.checkCredentials === true,
    knownValues: () => (values ??= knownValues(table, { draw: (schema, s) => answers.draw(schema, s).body, fits: (schema, value) => matches(schema, value) }, seed)),
    reset: () => {
      for (const s of stores) s.reset();
    },
  };
}
