/**
 * Stored objects put into an operation's answer. The answer's body comes first (the contract's
 * example, or drawn data, which validate), the object's members are laid over the place the object
 * sits (`/data`, an item of the list), and the whole is checked with the package's validators. A
 * member the answer's schema does not take there (another type, undeclared where no other members
 * are allowed) is put back as the body had it, until the answer validates.
 */
import { copy, getAt, isRec, segments, setAt } from "./pointer.js";
import { put } from "./store.js";
import type { ResponseValidation } from "../../shared/validation.js";

type Rec = Record<string, unknown>;

/** One place an object was laid over, with what the body held there before. */
export interface Place {
  readonly at: string;
  readonly base: Rec;
}

/** Repairs made before giving up on a lay-over and answering the body as it was. */
const MAX_REPAIRS = 6;

/** The pointer an error of `validateResponse` names (`body/data/0/name` → `/data/0/name`). */
function errorPointers(verdict: ResponseValidation): string[] {
  if (verdict.valid) return [];
  const out: string[] = [];
  for (const e of verdict.errors) {
    for (const name of Object.keys(e.parameters)) {
      if (name === "body") out.push("");
      else if (name.startsWith("body/")) out.push(name.slice(4));
    }
  }
  return out;
}

/** Lays `members` over the object at `at` of `body` (made when missing); returns the place, or undefined when there is no object there. */
export function layOver(body: unknown, at: string, members: Readonly<Rec>): Place | undefined {
  let target = getAt(body, at);
  if (target === undefined && at !== "") {
    // An empty list where the object belongs (`/data/0` of `{data: []}`): the object becomes its item.
    const parent = getAt(body, at.slice(0, at.lastIndexOf("/")));
    if (Array.isArray(parent) && /\/0$/.test(at)) {
      parent[0] = {};
      target = parent[0];
    }
  }
  if (!isRec(target)) return undefined;
  // The members go in as the store holds them, uncopied (a GitHub issue is 15 KB): nothing changes
  // an answer's values in place (repair replaces members, pointer writes copy the containers on
  // their path) and the store replaces an object's members rather than changing them. So a
  // snapshot of the place's own members is what it held.
  const base: Rec = { ...target };
  for (const [k, v] of Object.entries(members)) put(target, k, v);
  return { at, base };
}

/**
 * Makes `body` validate by putting members back as `places` had them, one error at a time; the
 * members named in `keep` (the key) go last. Returns whether it validates now.
 */
export function repair(body: unknown, places: readonly Place[], validate: (body: unknown) => ResponseValidation, keep: ReadonlySet<string> = new Set()): boolean {
  for (let round = 0; round < MAX_REPAIRS; round++) {
    const verdict = validate(body);
    if (verdict.valid) return true;
    let changed = false;
    for (const pointer of errorPointers(verdict)) {
      // The innermost place holding the failing member.
      const place = places.filter((p) => pointer === p.at || pointer.startsWith(`${p.at}/`)).sort((a, b) => b.at.length - a.at.length)[0];
      if (!place) continue;
      const target = getAt(body, place.at);
      if (!isRec(target)) continue;
      const member = segments(pointer.slice(place.at.length))[0];
      if (member === undefined) {
        // The object as a whole does not fit (a `oneOf` at its place): back to what the body had, the kept members over it.
        const restored = copy(place.base);
        for (const k of keep) if (Object.prototype.hasOwnProperty.call(target, k) && round < MAX_REPAIRS - 2) put(restored, k, target[k]);
        if (JSON.stringify(restored) !== JSON.stringify(target)) {
          setAt(body, place.at, restored);
          if (place.at === "" && isRec(body)) {
            for (const k of Object.keys(body)) delete body[k];
            Object.assign(body, restored);
          }
          changed = true;
        }
        continue;
      }
      if (keep.has(member) && round < MAX_REPAIRS - 2) continue;
      if (Object.prototype.hasOwnProperty.call(place.base, member)) {
        if (JSON.stringify(target[member]) !== JSON.stringify(place.base[member])) {
          put(target, member, copy(place.base[member]));
          changed = true;
        }
      } else if (Object.prototype.hasOwnProperty.call(target, member)) {
        delete target[member];
        changed = true;
      }
    }
    if (!changed) return false;
  }
  return validate(body).valid;
}
