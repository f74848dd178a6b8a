/** JSON pointers over answers: read, write and split (`/data/0/id`). */

import { getAt, segments } from "../../shared/pointer.js";

export { getAt, segments };

type Rec = Record<string, unknown>;
export const isRec = (v: unknown): v is Rec => v !== null && typeof v === "object" && !Array.isArray(v);

/** Sets the value at `pointer` (its parent must exist); false when it does not. */
export function setAt(doc: unknown, pointer: string, value: unknown): boolean {
  const segs = segments(pointer);
  const last = segs.pop();
  if (last === undefined) return false;
  const parent = getAt(doc, segs.map((s) => `/${s.replace(/~/g, "~0").replace(/\//g, "~1")}`).join(""));
  if (Array.isArray(parent) && /^\d+$/.test(last)) parent[Number(last)] = value;
  else if (isRec(parent)) Object.defineProperty(parent, last, { value, enumerable: true, writable: true, configurable: true });
  else return false;
  return true;
}

/** Removes the member at `pointer`; false when there was none. */
export function deleteAt(doc: unknown, pointer: string): boolean {
  const segs = segments(pointer);
  const last = segs.pop();
  if (last === undefined) return false;
  const parent = getAt(doc, segs.map((s) => `/${s.replace(/~/g, "~0").replace(/\//g, "~1")}`).join(""));
  if (!isRec(parent) || !Object.prototype.hasOwnProperty.call(parent, last)) return false;
  delete parent[last];
  return true;
}

/** A deep copy of JSON data. */
export function copy<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}
