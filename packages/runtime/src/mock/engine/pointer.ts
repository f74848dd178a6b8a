/** JSON pointers over answers: read, write and split (`/data/0/id`). */
import { setOwn } from "../../shared/own.js";
import { getAt, segments } from "../../shared/pointer.js";

export { getAt, segments };

type Rec = Record<string, unknown>;
export const isRec = (v: unknown): v is Rec => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * The container at `segs` below `doc`, each container on the way (but `doc` itself) replaced by a
 * shallow copy of it first; undefined when there is none. An answer's values may be shared with
 * the objects the mock keeps (they are laid over it uncopied, render.ts): writing through the
 * copies changes the answer and nothing else.
 */
function ownedAt(doc: unknown, segs: readonly string[]): unknown {
  let node = doc;
  for (const seg of segs) {
    let child: unknown;
    if (Array.isArray(node)) child = node[Number(seg)];
    else if (isRec(node) && Object.prototype.hasOwnProperty.call(node, seg)) child = node[seg];
    if (child === null || typeof child !== "object") return undefined;
    const fresh: unknown = Array.isArray(child) ? child.slice() : { ...(child as Rec) };
    if (Array.isArray(node)) node[Number(seg)] = fresh;
    else setOwn(node as Rec, seg, fresh);
    node = fresh;
  }
  return node;
}

/**
 * `doc` as an answer of its own to change at `pointer`: a shallow copy of it, with each container on
 * the way to `pointer` and the one there shallow copies too. Everything else stays shared with
 * `doc`, which is never changed.
 */
export function ownPath(doc: unknown, pointer: string): unknown {
  if (doc === null || typeof doc !== "object") return doc;
  const root: unknown = Array.isArray(doc) ? doc.slice() : { ...(doc as Rec) };
  ownedAt(root, segments(pointer));
  return root;
}

/** Sets the value at `pointer` (its parent must exist), changing nothing shared (see `ownedAt`); false when there is no parent. */
export function setAt(doc: unknown, pointer: string, value: unknown): boolean {
  const segs = segments(pointer);
  const last = segs.pop();
  if (last === undefined) return false;
  const parent = ownedAt(doc, segs);
  if (Array.isArray(parent) && /^\d+$/.test(last)) parent[Number(last)] = value;
  else if (isRec(parent)) setOwn(parent, last, value);
  else return false;
  return true;
}

/** Removes the member at `pointer`, changing nothing shared (see `ownedAt`); false when there was none. */
export function deleteAt(doc: unknown, pointer: string): boolean {
  const segs = segments(pointer);
  const last = segs.pop();
  if (last === undefined) return false;
  if (!isRec(getAt(doc, segs.map((s) => `/${s.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("")))) return false;
  const parent = ownedAt(doc, segs);
  if (!isRec(parent) || !Object.prototype.hasOwnProperty.call(parent, last)) return false;
  delete parent[last];
  return true;
}

/**
 * A deep copy of JSON data, as `JSON.parse(JSON.stringify(value))` gives it (members whose value
 * is undefined dropped, non-finite numbers as null, `__proto__` kept as data) without the text in
 * between: every answer the mock sends is copied from what it keeps, several times over.
 */
export function copy<T>(value: T): T {
  return value === undefined ? value : (clone(value) as T);
}

function clone(value: unknown): unknown {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (value === null || typeof value !== "object") return value;
  // A value with its own JSON form (a Date) is copied as that form.
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return JSON.parse(JSON.stringify(value)) as unknown;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      out[i] = v === undefined || typeof v === "function" || typeof v === "symbol" ? null : clone(v);
    }
    return out;
  }
  const out: Rec = {};
  for (const k of Object.keys(value)) {
    const v = (value as Rec)[k];
    if (v === undefined || typeof v === "function" || typeof v === "symbol") continue;
    // `out` is a fresh plain object: only `__proto__` needs defining rather than assigning.
    if (k === "__proto__") setOwn(out, k, clone(v));
    else out[k] = clone(v);
  }
  return out;
}
