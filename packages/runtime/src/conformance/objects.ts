/**
 * The objects a conformance run acts on, all of them from the server: values given with the target
 * (`--values`), keys a list answers, keys in another operation's answer (OpenAPI links), and new
 * objects made through the contract's own create operation. The suite never invents an identifier:
 * a path parameter no source gives leaves its cases skipped, naming the `--values` key to give.
 *
 * Objects a case changes or deletes are made for that case (`fresh`); a key the suite deleted is
 * consumed and never handed out again. Where the contract cannot make one, a listed object is changed
 * and put back, or deleted only when the target says its data is disposable.
 */
import { keyMemberOf } from "../shared/keys.js";
import type { OperationCase, PlanSource } from "./plan.js";
import { getAt, ok2xx } from "./request.js";
import type { RawResponse } from "../client/transport.js";

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => v !== null && typeof v === "object" && !Array.isArray(v);
const scalar = (v: unknown): v is string | number | boolean => typeof v === "string" || typeof v === "number" || typeof v === "boolean";

/** Where a value came from, for messages and for how strictly an answer is judged. */
export type Origin = "given" | "listed" | "answer" | "created" | "example";

export interface Resolved {
  readonly values: Rec;
  readonly origins: Readonly<Record<string, Origin>>;
  /** Path parameters no source gave, each with the reason. */
  readonly missing: readonly string[];
}

/** What the pool needs from the run: sending, valid requests, and the target's given values. */
export interface PoolHost {
  op(id: string): OperationCase | undefined;
  /** Every operation of the plan. */
  ops(): readonly OperationCase[];
  /** The GET at `path`, where the contract has one: what a changed object is read back and put back from. */
  readAt(path: string): OperationCase | undefined;
  send(op: OperationCase, values: Readonly<Rec>, body: unknown): Promise<RawResponse>;
  /** A valid request for `op` with `fixed` values, or undefined when the contract allows none. */
  request(op: OperationCase, index: number, fixed: Readonly<Rec>): Promise<{ values: Rec; body: unknown } | undefined>;
  given(): Readonly<Rec>;
  /** Valid requests with fewer optional members than `req` (and its enums value by value), smallest first. */
  variants(op: OperationCase, req: { values: Rec; body: unknown }): readonly { values: Readonly<Rec>; body: unknown }[];
  /** Whether `value` fits the schema of `op`'s parameter `name` (a listed key of another form is no use). */
  accepts(op: OperationCase, name: string, value: unknown): boolean;
  /** The target's data is throw-away: listed objects may be deleted when the contract cannot make one. */
  disposable(): boolean;
  /**
   * A create request made from a listed object (`template`): its members the create takes, with
   * its key (every text holding it, and every text the key holds, like a name inside `name.`)
   * changed by `renew`. Undefined when no valid one.
   */
  cloneRequest(create: OperationCase, template: Rec, key: string, renew: (text: string) => string, fixed: Readonly<Rec>): { values: Rec; body: unknown } | undefined;
}

/** How deep producers may chain (a list needing a parent found by another list …). */
const MAX_DEPTH = 6;

/** The names of an operation's path parameters; the last names the object it acts on. */
export const pathNames = (op: OperationCase): string[] => op.parameters.filter((p) => p.in === "path").map((p) => p.name);

export class ObjectPool {
  readonly #host: PoolHost;
  /** Keys listed per list operation and parent values. */
  readonly #listed = new Map<string, unknown[]>();
  /** One object made per create operation and parent values, for cases that only read it. */
  readonly #made = new Map<string, unknown>();
  /** Keys per parameter name the suite deleted (or moved): never handed out again. */
  readonly #consumed = new Map<string, Set<string>>();
  /** Why a create failed, per create operation: said once in the skip reason. */
  readonly #failures = new Map<string, string>();
  /** Listed objects (whole) per list operation and parent values: templates for a clone. */
  readonly #items = new Map<string, Rec[]>();
  /** Clones made so far: each gets a new key. */
  #clones = 0;
  /** Per create operation: the request with fewer members that made an object (tried first next time), or null when none did. */
  readonly #variantFound = new Map<string, { values: Readonly<Rec>; body: unknown } | null>();
  /**
   * Per create operation: the index of the request that last made an object, and the next index not
   * sent yet. A new object is asked for with the one that worked, the contract's example, then
   * requests never sent (a name used once is taken).
   */
  readonly #createRequests = new Map<string, { worked?: number; next: number }>();

  constructor(host: PoolHost) {
    this.#host = host;
  }

  /** Marks `value` of `param` as gone: deleted or moved by the suite. */
  consume(param: string, value: unknown): void {
    if (!scalar(value)) return;
    let set = this.#consumed.get(param);
    if (!set) this.#consumed.set(param, (set = new Set()));
    set.add(String(value));
    // An object made once for cases that only read it is gone too: the next such case makes another.
    for (const [k, made] of this.#made) if (scalar(made) && String(made) === String(value)) this.#made.delete(k);
  }

  isConsumed(param: string, value: unknown): boolean {
    return scalar(value) && (this.#consumed.get(param)?.has(String(value)) ?? false);
  }

  /** Forgets listed keys (the server's lists changed), keeping what was consumed. */
  forget(): void {
    this.#listed.clear();
  }

  /**
   * Path values for `op`, parents first: given, else listed, else an answer's, else made through the
   * create, else the contract's own example. `known` values (a parent already chosen) win; `pick`
   * chooses among the listed objects for the last path parameter (the object itself).
   */
  async pathValues(op: OperationCase, known: Readonly<Rec> = {}, depth = 0, pick = 0): Promise<Resolved> {
    const values: Rec = {};
    const origins: Record<string, Origin> = {};
    const missing: string[] = [];
    const given = this.#host.given();
    const own = pathNames(op).at(-1);
    for (const name of pathNames(op)) {
      if (Object.prototype.hasOwnProperty.call(known, name) && known[name] !== undefined) {
        values[name] = known[name];
        origins[name] = "given";
        continue;
      }
      // A given object the suite deleted itself is gone like any other (deletes run last, but a
      // scenario after them may still ask): its cases are skipped, not sent to a 404.
      if (Object.prototype.hasOwnProperty.call(given, name) && !this.isConsumed(name, given[name])) {
        values[name] = given[name];
        origins[name] = "given";
        continue;
      }
      const found = depth < MAX_DEPTH ? await this.#fromSources(op.sources?.[name] ?? [], name, values, depth, false, (v) => this.#host.accepts(op, name, v), name === own ? pick : 0) : undefined;
      if (found) {
        values[name] = found.value;
        origins[name] = found.origin;
        continue;
      }
      const example = op.positive?.values[name];
      if (example !== undefined && !this.isConsumed(name, example)) {
        values[name] = example;
        origins[name] = "example";
        continue;
      }
      missing.push(name);
    }
    return { values, origins, missing };
  }

  /** Why `missing` could not be found, with what to give. */
  explain(op: OperationCase, missing: readonly string[]): string {
    const parts = missing.map((name) => {
      const sources = op.sources?.[name] ?? [];
      const failed = sources.map((s) => (s.kind === "create" ? this.#failures.get(s.operationId) : undefined)).find((x) => x !== undefined);
      const tried = sources.length === 0 ? "no operation of the contract lists or makes one" : `${sources.map((s) => s.operationId).join(", ")} gave none${failed ? ` (${failed})` : ""}`;
      return `no ${name} of an existing object is known: ${tried}`;
    });
    const keys = missing.map((n) => `"${n}": "…"`).join(", ");
    return `${parts.join("; ")}; pass one with --values '{${keys}}'`;
  }

  /**
   * Values for the request members that name other resources (plan `references`): query members
   * as parameter values, body members under `body`. Only what a list gives; nothing is made up.
   * `index` picks among the listed values (the nth, wrapping), so each attempt of a create refused
   * for the object it names (a media key already used) names another.
   */
  async referenceValues(op: OperationCase, known: Readonly<Rec>, index = 0): Promise<{ query: Rec; body: Rec }> {
    const query: Rec = {};
    const body: Rec = {};
    const given = this.#host.given();
    for (const ref of op.references ?? []) {
      let value: unknown = Object.prototype.hasOwnProperty.call(given, ref.name) ? given[ref.name] : undefined;
      if (value === undefined && ref.own !== undefined) value = await this.#ownReference(ref, known, index);
      else if (value === undefined) {
        const found = await this.#fromSources(ref.sources, ref.name, known, 1, true, (v) => ref.in !== "query" || this.#host.accepts(op, ref.name, ref.many ? [v] : v), index);
        if (found) value = ref.many ? [found.value] : found.value;
      }
      if (value === undefined) continue;
      if (ref.in === "query") query[ref.name] = value;
      else body[ref.name] = value;
    }
    return { query, body };
  }

  /**
   * The object an RPC-style operation acts on, named in its body: for a read, an existing one
   * (listed, else made once); for anything else, one made for this request through the resource's
   * create, since the operation may change or delete it; a listed one only on a disposable target.
   */
  async #ownReference(ref: NonNullable<OperationCase["references"]>[number], known: Readonly<Rec>, index: number): Promise<unknown> {
    const accept = (): boolean => true;
    const listed = ref.sources.filter((s) => s.kind !== "create");
    if (ref.own === "read") return (await this.#fromSources(ref.sources, ref.name, known, 1, false, accept, index))?.value;
    this.forget();
    for (const source of ref.sources) {
      if (source.kind !== "create") continue;
      const key = await this.#create(source, known, 1, true);
      if (key !== undefined) return key;
    }
    return this.#host.disposable() ? (await this.#fromSources(listed, ref.name, known, 1, true, accept, index))?.value : undefined;
  }

  /**
   * Path values for a case that changes or deletes the object `op` addresses by its last path
   * parameter: a new object made for it through the contract's create; else, for a change that is
   * put back (`restorable`), a listed one; else, on a disposable target, a listed one the caller
   * consumes. `why` says what is missing otherwise.
   */
  async fresh(op: OperationCase, restorable: boolean): Promise<{ values: Rec; made: boolean } | { why: string }> {
    const names = pathNames(op);
    const last = names.at(-1);
    if (last === undefined) return { values: {}, made: false };
    const parents = await this.pathValues(op, {}, 0);
    const parentMissing = parents.missing.filter((n) => n !== last);
    if (parentMissing.length > 0) return { why: this.explain(op, parentMissing) };
    const known: Rec = { ...parents.values };
    delete known[last];
    const create = (op.sources?.[last] ?? []).find((s) => s.kind === "create");
    if (create) {
      const key = await this.#create(create, known, 0, true);
      if (key !== undefined) return { values: { ...known, [last]: key }, made: true };
    }
    const given = this.#host.given();
    // A given object this run deleted is gone: another case deleting it would only find it deleted.
    if (Object.prototype.hasOwnProperty.call(given, last) && !this.isConsumed(last, given[last]) && (restorable || this.#host.disposable()))
      return { values: { ...known, [last]: given[last] }, made: false };
    if (restorable || this.#host.disposable()) {
      const listed = await this.#fromSources(
        (op.sources?.[last] ?? []).filter((s) => s.kind !== "create"),
        last,
        known,
        0,
        false,
        (v) => this.#host.accepts(op, last, v),
      );
      if (listed) return { values: { ...known, [last]: listed.value }, made: false };
      // The contract's own example names an object a throw-away server was seeded with.
      const example = op.positive?.values[last];
      if (example !== undefined && !this.isConsumed(last, example)) return { values: { ...known, [last]: example }, made: false };
    }
    const failed = create ? this.#failures.get(create.operationId) : undefined;
    const how = create ? `${create.operationId} made none${failed ? ` (${failed})` : ""}` : "the contract has no operation that makes one";
    return {
      why: `no ${last} the suite may ${restorable ? "change" : "delete"}: ${how}${restorable ? "" : ", and objects the server listed are not the suite's to delete"}; run against a throw-away server with --disposable, or give one with --values '{"${last}": "…"}'`,
    };
  }

  /**
   * Path values for one case of `op`. A read takes existing objects; a delete takes an object made
   * for it (or, on a disposable target, a listed one) and `done` consumes it once deleted; a change
   * takes an object made for it, else a listed one that `done` puts back as it was read. Without
   * `destroys`, a case of a delete (a refusal it expects) still gets its own object: a server that
   * wrongly accepts it must not take away one other cases use.
   */
  async forCase(
    op: OperationCase,
    kind: "read" | "write" | "delete",
    pick = 0,
  ): Promise<{ values: Rec; done(res: RawResponse, sentBody: unknown, sentQuery?: Readonly<Rec>): Promise<void> } | { why: string }> {
    const names = pathNames(op);
    if (kind === "read" || names.length === 0) {
      const found = await this.pathValues(op, {}, 0, pick);
      if (found.missing.length > 0) return { why: this.explain(op, found.missing) };
      // An action on an object (a POST to its path) may move or rename it: list again afterwards.
      return { values: found.values, done: async () => (op.method !== "GET" && names.length > 0 ? this.forget() : undefined) };
    }
    const last = names.at(-1) as string;
    const fresh = await this.fresh(op, kind === "write");
    if ("why" in fresh) return fresh;
    const values = fresh.values;
    if (kind === "delete") {
      return {
        values,
        done: async (res) => {
          if (res.status >= 200 && res.status < 300) {
            this.consume(last, values[last]);
            this.forget();
          }
        },
      };
    }
    const read = fresh.made ? undefined : this.#host.readAt(op.path);
    const before = read ? await this.#host.send(read, values, undefined) : undefined;
    const original = before && ok2xx(before) ? subjectOf(before.body) : undefined;
    return {
      values,
      done: async (res, sentBody, sentQuery = {}) => {
        this.forget();
        if (fresh.made || !original) return;
        // A full write needs its required members: the body goes back whole, what it changed as it was.
        await this.#restore(op, values, original, res, sentBody, sentQuery, true);
      },
    };
  }

  /**
   * For a request that should be refused but may change the object at `values` if a server takes
   * it: the object as it is now, and `restore` puts back every member the request sent when the
   * server answered 2xx, so a wrongly accepted invalid write cannot change what later cases read.
   */
  async guard(op: OperationCase, values: Readonly<Rec>): Promise<{ restore(res: RawResponse, sentBody: unknown): Promise<void> }> {
    const read = this.#host.readAt(op.path);
    const before = read ? await this.#host.send(read, values, undefined) : undefined;
    const original = before && ok2xx(before) ? subjectOf(before.body) : undefined;
    return {
      restore: async (res, sentBody) => {
        if (original) await this.#restore(op, values, original, res, sentBody, {}, false);
      },
    };
  }

  /**
   * Puts back what a taken write changed on a listed object: every member it sent, in the body or
   * the query, as `original` held it; at the object's new key where the answer shows it moved (a
   * rename). `whole` sends the rest of the body as it was sent (a full replacement needs its required
   * members), else only the members put back.
   */
  async #restore(op: OperationCase, values: Readonly<Rec>, original: Rec, res: RawResponse, sentBody: unknown, sentQuery: Readonly<Rec>, whole: boolean): Promise<void> {
    if (!ok2xx(res)) return;
    const query = op.parameters.filter((p) => p.in === "query" && sentQuery[p.name] !== undefined && scalar(original[p.name])).map((p) => p.name);
    const back: Rec | undefined = isRec(sentBody) ? (whole ? { ...sentBody } : {}) : undefined;
    if (back && isRec(sentBody)) for (const k of Object.keys(sentBody)) if (Object.prototype.hasOwnProperty.call(original, k)) back[k] = original[k];
    if ((back === undefined || Object.keys(back).length === 0) && query.length === 0) return;
    const last = pathNames(op).at(-1);
    const now = subjectOf(res.body);
    const member = last !== undefined && now ? keyMemberOf(last, Object.keys(now)) : undefined;
    const at = member !== undefined && now && scalar(now[member]) && now[member] !== values[last as string] ? { ...values, [last as string]: now[member] } : values;
    const backValues: Rec = { ...sentQuery, ...at };
    for (const name of query) backValues[name] = original[name];
    await this.#host.send(op, backValues, back ?? sentBody);
    this.forget();
  }

  async #fromSources(
    sources: readonly PlanSource[],
    name: string,
    known: Readonly<Rec>,
    depth: number,
    listsOnly: boolean,
    fits: (value: unknown) => boolean,
    pick = 0,
  ): Promise<{ value: unknown; origin: Origin } | undefined> {
    const usable = (v: unknown): boolean => v !== undefined && !this.isConsumed(name, v) && fits(v);
    for (const source of sources) {
      if (source.kind === "list") {
        const keys = (await this.#list(source, known, depth)).filter(usable);
        const value = keys.length > 0 ? keys[pick % keys.length] : undefined;
        if (value !== undefined) return { value, origin: "listed" };
      } else if (source.kind === "answer" && !listsOnly) {
        const value = await this.#answer(source, known, depth);
        if (usable(value)) return { value, origin: "answer" };
      }
    }
    if (listsOnly) return undefined;
    for (const source of sources) {
      if (source.kind !== "create") continue;
      const value = await this.#create(source, known, depth, false);
      if (usable(value)) return { value, origin: "created" };
    }
    return undefined;
  }

  /** Parent values for a producer: those already chosen, the rest resolved like any operation's. */
  async #producerValues(producer: OperationCase, known: Readonly<Rec>, depth: number): Promise<Rec | undefined> {
    const resolved = await this.pathValues(producer, known, depth + 1);
    return resolved.missing.length > 0 ? undefined : resolved.values;
  }

  async #list(source: Extract<PlanSource, { kind: "list" }>, known: Readonly<Rec>, depth: number): Promise<unknown[]> {
    const list = this.#host.op(source.operationId);
    if (!list) return [];
    const fixed = await this.#producerValues(list, known, depth);
    if (!fixed) return [];
    const key = `${source.operationId}:${source.field}:${JSON.stringify(fixed)}`;
    const cached = this.#listed.get(key);
    if (cached) return cached;
    const req = await this.#host.request(list, 0, fixed);
    // Only what the list needs: required members and the parents. An optional filter drawn at random
    // could hide every object.
    const values: Rec = { ...fixed };
    for (const p of list.parameters) if (p.required && req?.values[p.name] !== undefined && values[p.name] === undefined) values[p.name] = req.values[p.name];
    // An RPC-style list is a POST: an empty body first (no filter), else the drawn one.
    let res = await this.#host.send(list, values, list.method === "GET" ? undefined : {});
    if (!ok2xx(res) && list.method !== "GET" && req?.body !== undefined) res = await this.#host.send(list, values, req.body);
    const items = ok2xx(res) ? getAt(res.body, source.items) : undefined;
    this.#items.set(key, Array.isArray(items) ? items.filter(isRec) : []);
    // `field` "" : the items are the keys themselves (`{"roles": ["root"]}`).
    const keys = !Array.isArray(items)
      ? []
      : source.field === ""
        ? items.filter((v) => scalar(v))
        : items
            .filter((it) => isRec(it) && it["deleted"] !== true)
            .map((it) => (it as Rec)[source.field])
            .filter((v) => scalar(v));
    this.#listed.set(key, keys);
    return keys;
  }

  async #answer(source: Extract<PlanSource, { kind: "answer" }>, known: Readonly<Rec>, depth: number): Promise<unknown> {
    const from = this.#host.op(source.operationId);
    if (!from) return undefined;
    const fixed = await this.#producerValues(from, known, depth);
    if (!fixed) return undefined;
    const req = await this.#host.request(from, 0, fixed);
    if (!req) return undefined;
    const res = await this.#host.send(from, { ...req.values, ...fixed }, req.body);
    const value = ok2xx(res) ? getAt(res.body, source.pointer) : undefined;
    return scalar(value) ? value : undefined;
  }

  /** A new object's key from `source`'s create; with `own`, always a new one (a case will change or delete it). */
  async #create(source: Extract<PlanSource, { kind: "create" }>, known: Readonly<Rec>, depth: number, own: boolean): Promise<unknown> {
    const create = this.#host.op(source.operationId);
    if (!create) return undefined;
    const fixed = await this.#producerValues(create, known, depth);
    if (!fixed) {
      this.#failures.set(source.operationId, "its own parameters could not be found");
      return undefined;
    }
    const cacheKey = `${source.operationId}:${JSON.stringify(fixed)}`;
    if (!own && this.#made.has(cacheKey)) return this.#made.get(cacheKey);
    const refusals: string[] = [];
    // A schema-valid create may still be refused for what it refers to: a few valid requests, then give up.
    const seen = this.#createRequests.get(create.id) ?? { next: 1 };
    const order = [...new Set([...(seen.worked !== undefined ? [seen.worked] : []), 0, seen.next, seen.next + 1, seen.next + 2])].slice(0, 4);
    this.#createRequests.set(create.id, { ...seen, next: Math.max(seen.next, ...order) + 1 });
    for (const [i, index] of order.entries()) {
      const req = await this.#host.request(create, index, fixed);
      if (!req) break;
      let res = await this.#host.send(create, { ...req.values, ...fixed }, req.body);
      // At the contract's cap of objects held at once, a throw-away target makes room, and the same request goes again.
      if (i === 0 && res.status >= 400 && res.status < 500 && (await this.makeRoom(create, fixed))) res = await this.#host.send(create, { ...req.values, ...fixed }, req.body);
      if (!ok2xx(res)) {
        refusals.push(String(res.status));
        continue;
      }
      const key = createdKey(res, source, req.body);
      if (key === undefined) {
        refusals.push(`${res.status} without the new key`);
        continue;
      }
      this.#createRequests.set(create.id, { ...(this.#createRequests.get(create.id) ?? { next: 1 }), worked: index });
      if (!own) this.#made.set(cacheKey, key);
      return key;
    }
    // A server may serve a create only with fewer members, or one kind of object and not another
    // (a key type with a default algorithm): the request with fewer members, once searched.
    const variant = await this.#createWithFewer(create, source, fixed);
    if (variant !== undefined) {
      if (!own) this.#made.set(cacheKey, variant);
      return variant;
    }
    // Drawn data may be refused for what it says (a zone name that is no DNS name): a listed object
    // of the collection, its key changed, is data the server itself holds.
    const cloned = await this.clone(create, source, fixed, depth);
    if (cloned !== undefined) {
      if (!own) this.#made.set(cacheKey, cloned.key);
      return cloned.key;
    }
    this.#failures.set(source.operationId, refusals.length > 0 ? `it answered ${refusals.join(", ")}, also to a copy of a listed object` : "no valid request could be built");
    return undefined;
  }

  async #createWithFewer(create: OperationCase, source: Extract<PlanSource, { kind: "create" }>, fixed: Readonly<Rec>): Promise<unknown> {
    const found = this.#variantFound.get(create.id);
    if (found === null) return undefined;
    const first = await this.#host.request(create, 0, fixed);
    const candidates = found !== undefined ? [found] : first ? this.#host.variants(create, { values: { ...first.values, ...fixed }, body: first.body }) : [];
    for (const v of candidates) {
      const res = await this.#host.send(create, { ...v.values, ...fixed }, v.body);
      const key = ok2xx(res) ? createdKey(res, source, v.body) : undefined;
      if (key !== undefined) {
        this.#variantFound.set(create.id, v);
        return key;
      }
    }
    // Once found, a variant that stops working is searched again; never found, never again.
    if (found !== undefined) this.#variantFound.delete(create.id);
    else this.#variantFound.set(create.id, null);
    return undefined;
  }

  /**
   * Makes room for one more object of `create` where the contract caps how many may be held at once
   * (`outstanding`) and the target is throw-away: listed objects are deleted, through the
   * collection's own delete, until one fewer than the cap is held. True when any was deleted.
   */
  async makeRoom(create: OperationCase, fixed: Readonly<Rec>): Promise<boolean> {
    const max = create.outstanding;
    if (max === undefined || !this.#host.disposable()) return false;
    const source = this.#listFor(create);
    const itemPath = new RegExp(`^${create.path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/\\{([^}/]+)\\}$`);
    const del = this.#host.ops().find((o) => o.method === "DELETE" && itemPath.test(o.path));
    const param = del ? itemPath.exec(del.path)?.[1] : undefined;
    if (!source || !del || param === undefined) return false;
    this.forget();
    const keys = (await this.#list(source, fixed, 0)).filter((k) => k !== undefined && !this.isConsumed(param, k));
    let deleted = 0;
    for (const key of keys.slice(0, Math.max(0, keys.length - max + 1))) {
      const values = { ...fixed, [param]: key };
      const req = await this.#host.request(del, 0, values);
      const res = await this.#host.send(del, { ...(req?.values ?? {}), ...values }, undefined);
      if (!ok2xx(res)) continue;
      this.consume(param, key);
      deleted++;
    }
    if (deleted > 0) this.forget();
    return deleted > 0;
  }

  /** The list source that gives the keys `create` makes, where the plan has one. */
  #listFor(create: OperationCase): Extract<PlanSource, { kind: "list" }> | undefined {
    for (const op of this.#host.ops()) {
      for (const sources of Object.values(op.sources ?? {})) {
        if (!sources.some((s) => s.kind === "create" && s.operationId === create.id)) continue;
        const list = sources.find((s) => s.kind === "list");
        if (list && list.kind === "list") return list;
      }
    }
    // A create whose answer gives no key (a bare 204): the list on its own collection path still
    // shows what it makes.
    for (const op of this.#host.ops()) {
      for (const sources of Object.values(op.sources ?? {})) {
        const list = sources.find((s): s is Extract<PlanSource, { kind: "list" }> => s.kind === "list" && this.#host.op(s.operationId)?.path === create.path);
        if (list) return list;
      }
    }
    return undefined;
  }

  /**
   * A new object made from a listed one of the same collection (its key changed): the answer to the
   * create and the request that made it, or undefined when no listed object makes one.
   */
  async clone(
    create: OperationCase,
    source: Extract<PlanSource, { kind: "create" }>,
    fixed: Readonly<Rec>,
    depth = 0,
  ): Promise<{ key: unknown; request: { values: Rec; body: unknown }; res: RawResponse; copied: readonly string[] } | undefined> {
    const list = this.#listFor(create);
    if (!list) return undefined;
    await this.#list(list, fixed, depth);
    const listOp = this.#host.op(list.operationId);
    const parents = listOp ? await this.#producerValues(listOp, fixed, depth) : undefined;
    if (!parents) return undefined;
    const templates = this.#items.get(`${list.operationId}:${list.field}:${JSON.stringify(parents)}`) ?? [];
    // The new key marked at its start (`cg1-example.org.`, a name whose end has a meaning), else at
    // its end (`X-Seeded-cg2`, a name whose start has one).
    const marks = [(tag: string) => (text: string) => `${tag}-${text}`, (tag: string) => (text: string) => `${text}-${tag}`];
    for (const template of templates.slice(0, 2)) {
      for (const mark of marks) {
        const renew = mark(`cg${++this.#clones}${Date.now().toString(36).slice(-4)}`);
        const request = this.#host.cloneRequest(create, template, list.field, renew, fixed);
        if (!request) continue;
        const res = await this.#host.send(create, { ...request.values, ...fixed }, request.body);
        if (!ok2xx(res)) continue;
        const key = createdKey(res, source, request.body) ?? (scalar(template[list.field]) ? renew(String(template[list.field])) : undefined);
        // Members sent as the listed object held them are the server's own values (a serial it counts,
        // a time it set): what it answers for them after a create is its business, not a read-back.
        const copied = isRec(request.body) ? Object.keys(request.body).filter((k) => JSON.stringify((request.body as Rec)[k]) === JSON.stringify(template[k])) : [];
        if (key !== undefined) return { key, request: { values: { ...request.values, ...fixed }, body: request.body }, res, copied };
      }
    }
    return undefined;
  }
}

/** The object an answer is about: `data` (or its first item), else the body itself. */
export function subjectOf(body: unknown): Rec | undefined {
  const data = getAt(body, "/data");
  if (Array.isArray(data)) return isRec(data[0]) ? data[0] : undefined;
  if (isRec(data)) return data;
  return isRec(body) ? body : undefined;
}

/** The key a create's answer gives: at one of its pointers, else the last segment of its Location, else (RPC-style) the key the request sent. */
export function createdKey(res: RawResponse, source: Extract<PlanSource, { kind: "create" }>, sentBody?: unknown): unknown {
  for (const p of source.pointers) {
    const v = getAt(res.body, p);
    if (scalar(v)) return v;
  }
  if (source.request !== undefined && ok2xx(res)) {
    const v = getAt(sentBody, source.request);
    if (scalar(v) && v !== "") return v;
  }
  if (source.location) {
    const location = res.headers.get("location");
    const last = location
      ?.split("?")[0]
      ?.split("/")
      .filter((s) => s !== "")
      .at(-1);
    if (last !== undefined) {
      try {
        return decodeURIComponent(last);
      } catch {
        return last;
      }
    }
  }
  return undefined;
}
