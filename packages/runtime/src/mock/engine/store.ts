/**
 * The objects of one collection, kept per combination of its parent path values (the cards of one
 * account): seeded on first use with a few objects drawn from the collection's item schema and
 * the keys the contract's examples name, then made, changed and deleted by requests. Hard-deleted
 * keys are remembered so they answer 404; soft-deleted objects stay, marked.
 */
import { setOwn } from "../../shared/own.js";
import { deriveSeed } from "../../shared/prng.js";
import type { MockSchema } from "../mock-data.js";
import { isRec } from "./pointer.js";
import type { MockCollection } from "./table.js";

type Rec = Record<string, unknown>;

export interface StoredObject {
  /** The key as text (path values arrive as text). */
  readonly key: string;
  /** The object's members, the key among them. */
  data: Rec;
  deleted: boolean;
}

export interface Scope {
  readonly objects: Map<string, StoredObject>;
  /** Keys deleted for good. */
  readonly gone: Set<string>;
  /**
   * Keys this scope never gives to a new object: those the contract's examples place under other
   * parents (a seeded object drawn with the example's key would be that parent's object, reached
   * through another).
   */
  readonly reserved: ReadonlySet<string>;
}

/** What the store draws with: values of a schema, and whether a value fits one. */
export interface StoreTools {
  draw(schema: MockSchema | undefined, seed: number): unknown;
  fits(schema: MockSchema, value: unknown): boolean;
}

/** Objects each scope starts with: enough for a list to have more than one page of two. */
export const SEEDED_OBJECTS = 3;

/**
 * Drafts a collection's creates take turns over, each drawn once. Drawing an object is the dearest
 * step of a create (a GitHub issue, with its user, repository and labels, costs 3–7 ms); a server
 * fills what a client leaves out with the same defaults every time anyway. Each new object is a copy
 * of its turn's draft with the request's members and its own key over it.
 */
export const CREATE_DRAFTS = 8;

/** Sets a member as data (a `__proto__` key included). */
export function put(target: Rec, key: string, value: unknown): void {
  setOwn(target, key, value);
}

const scalar = (v: unknown): v is string | number | boolean => typeof v === "string" || typeof v === "number" || typeof v === "boolean";

/** Whether a scope has, or had, an object with `key` (a deleted key is never given again), or leaves it to another. */
const taken = (scope: Scope, key: unknown): boolean => scope.objects.has(String(key)) || scope.gone.has(String(key)) || scope.reserved.has(String(key));

export class CollectionStore {
  readonly collection: MockCollection;
  readonly #tools: StoreTools;
  readonly #seed: number;
  readonly #scopes = new Map<string, Scope>();
  #made = 0;
  /** Creates so far, choosing the turn of `#drafts`. */
  #creates = 0;
  readonly #drafts: Rec[] = [];
  /** The key schema's draws were all taken in one call (`newKey`). */
  #drawsSpent = false;
  /** Where the count of `newKey`'s last resort stopped. */
  #counted = 0;

  constructor(collection: MockCollection, tools: StoreTools, seed: number) {
    this.collection = collection;
    this.#tools = tools;
    this.#seed = deriveSeed(seed, collection.itemPath);
  }

  /** The scope of the parents in `path` values (its objects seeded on first use). */
  scope(path: Readonly<Rec>): Scope {
    const id = this.collection.parents.map((p) => String(path[p] ?? "")).join("\u0000");
    let scope = this.#scopes.get(id);
    if (!scope) {
      const at = this.collection.exampleParents;
      const exampleScope = at === undefined || id === this.collection.parents.map((p) => String(Object.prototype.hasOwnProperty.call(at, p) ? at[p] : "")).join("\u0000");
      const reserved = new Set(exampleScope ? [] : (this.collection.exampleKeys ?? []).filter(scalar).map(String));
      scope = { objects: new Map(), gone: new Set(), reserved };
      this.#scopes.set(id, scope);
      this.#seedScope(scope, id, exampleScope);
    }
    return scope;
  }

  #seedScope(scope: Scope, id: string, exampleScope: boolean): void {
    const seed = deriveSeed(this.#seed, id);
    for (const example of exampleScope ? (this.collection.exampleKeys ?? []) : []) {
      if (scalar(example) && !scope.objects.has(String(example))) this.#insert(scope, this.draft(deriveSeed(seed, `example:${String(example)}`)), example);
    }
    for (let i = 0; i < SEEDED_OBJECTS; i++) {
      const data = this.draft(deriveSeed(seed, i));
      const own = data[this.collection.keyField];
      const key = scalar(own) && !scope.objects.has(String(own)) && !scope.reserved.has(String(own)) && this.keyFits(own) ? own : this.newKey(scope, data);
      this.#insert(scope, data, key);
    }
  }

  /** An object drawn from the item schema (an empty one when there is none, or it is not an object). */
  draft(seed: number): Rec {
    const drawn = this.collection.itemSchema === undefined ? undefined : this.#tools.draw(this.collection.itemSchema, seed);
    return isRec(drawn) ? drawn : {};
  }

  /** Whether a key fits the key parameter's schema (as sent: text, or the number it spells). */
  keyFits(value: unknown): boolean {
    const schema = this.collection.keySchema;
    if (schema === undefined) return true;
    if (this.#tools.fits(schema, value)) return true;
    const text = String(value);
    return this.#tools.fits(schema, text) || (/^-?\d+(\.\d+)?$/.test(text) && this.#tools.fits(schema, Number(text)));
  }

  /** A key no object of the scope has (nor had), shaped like the keys the contract takes. */
  newKey(scope: Scope, like: Rec): unknown {
    const numeric = typeof like[this.collection.keyField] === "number";
    // Once every draw of one call was taken, the key schema has given what it has: later creates
    // count on at once instead of drawing 24 keys that are taken each time.
    for (let attempt = 0; attempt < 24 && !this.#drawsSpent; attempt++) {
      const n = this.#made++;
      const drawn = this.collection.keySchema === undefined ? undefined : this.#tools.draw(this.collection.keySchema, deriveSeed(this.#seed, `key:${n}`));
      const candidate = scalar(drawn) ? (numeric && typeof drawn === "string" && /^\d+$/.test(drawn) ? Number(drawn) : drawn) : undefined;
      if (candidate !== undefined && !taken(scope, candidate)) return candidate;
    }
    this.#drawsSpent = true;
    // The key schema gives too few values (an enum, a few words): count on from where the last
    // count stopped, so each create tries a few numbers rather than every number used before.
    for (let tries = 0; ; tries++) {
      const n = ++this.#counted;
      const candidate = numeric ? 1000 + n : String(1000 + n);
      if (!taken(scope, candidate) && this.keyFits(candidate)) return candidate;
      if (tries > 100_000) return `${String(1000 + n)}-${this.#made++}`;
    }
  }

  #insert(scope: Scope, data: Rec, key: unknown): StoredObject {
    const typed = typeof data[this.collection.keyField] === "number" && typeof key === "string" && /^-?\d+$/.test(key) ? Number(key) : key;
    put(data, this.collection.keyField, typed);
    // An object drawn or sent with the contract's soft-delete mark set is a deleted one: lists show
    // it only with their flag, as they show one deleted by a request.
    const soft = this.collection.soft?.field;
    const obj: StoredObject = { key: String(key), data, deleted: soft !== undefined && Object.prototype.hasOwnProperty.call(data, soft) && data[soft] === true };
    scope.objects.delete(obj.key);
    scope.gone.delete(obj.key);
    scope.objects.set(obj.key, obj);
    return obj;
  }

  /** The object with `key`: `gone` when it was deleted for good, undefined when it never existed. */
  find(scope: Scope, key: unknown): StoredObject | "gone" | undefined {
    const k = String(key);
    if (scope.gone.has(k)) return "gone";
    return scope.objects.get(k);
  }

  /** Whether another scope (other parents) holds an object with `key`: it is that parent's, not this one's. */
  heldElsewhere(scope: Scope, key: unknown): boolean {
    const k = String(key);
    // The objects the contract's examples place under their parents exist from the start, asked
    // for or not: the scope they sit in is seeded before looking.
    const at = this.collection.exampleParents;
    if (at !== undefined) this.scope(at);
    for (const other of this.#scopes.values()) if (other !== scope && (other.objects.has(k) || other.gone.has(k))) return true;
    return false;
  }

  /**
   * An object made now: drawn from the item schema, the request's members over it. Its key is
   * `key` when given (a PUT names it), else the one its members give, else the one the drawn
   * object has (as seeded objects get theirs), where free and fitting, else a new one.
   */
  create(scope: Scope, members: Rec, key?: unknown): StoredObject {
    const turn = this.#creates++ % CREATE_DRAFTS;
    const drafted = (this.#drafts[turn] ??= this.draft(deriveSeed(this.#seed, `made:${turn}`)));
    const base = structuredClone(drafted);
    const drawnKey = base[this.collection.keyField];
    // A new object is live unless the request itself marks it: the draft's drawn mark is not its own.
    const soft = this.collection.soft?.field;
    if (soft !== undefined && base[soft] === true) put(base, soft, false);
    for (const [k, v] of Object.entries(members)) put(base, k, v);
    return this.#insert(scope, base, key !== undefined ? key : this.#keyOf(scope, members[this.collection.keyField], drawnKey, base));
  }

  #keyOf(scope: Scope, given: unknown, drawn: unknown, like: Rec): unknown {
    if (scalar(given) && !scope.objects.has(String(given)) && this.keyFits(given)) return given;
    if (scalar(drawn) && !taken(scope, drawn) && this.keyFits(drawn)) return drawn;
    return this.newKey(scope, like);
  }

  /** Objects in the order they were made, deleted ones only when asked for. */
  list(scope: Scope, withDeleted: boolean): StoredObject[] {
    return [...scope.objects.values()].filter((o) => withDeleted || !o.deleted);
  }

  remove(scope: Scope, key: string): void {
    scope.objects.delete(key);
    scope.gone.add(key);
  }

  /** Every scope forgotten: the next request seeds afresh. */
  reset(): void {
    this.#scopes.clear();
    this.#made = 0;
    this.#creates = 0;
    this.#drawsSpent = false;
  }
}
