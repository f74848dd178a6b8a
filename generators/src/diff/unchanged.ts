/**
 * Which parts of the new document are exactly as they were, `$ref`s followed. A regenerated
 * contract usually differs from the last one in a few schemas; comparing the thousand operations
 * that do not reach them finds nothing, so the comparison asks here first and walks only what
 * changed. Nothing here decides a change: a part is skipped only when the full comparison of it
 * could not find one, because both sides are the same JSON (same members in the same order) and
 * everything they reference is too.
 */
import { escapePointerSegment, parsePointer, toPointer } from "../load/errors.js";
import { isObj } from "./view.js";

/** Whether the value at a canonical pointer (`#/components/schemas/User/properties/id`), and all it references, is unchanged. */
export type Unchanged = (pointer: string) => boolean;

/** What the comparison may skip; without it every part is walked (the reference result). */
export interface Shortcuts {
  readonly unchanged: Unchanged;
}

/**
 * Parts are compared whole: one path item (`#/paths/~1users`), one component (`#/components/schemas/User`),
 * or one member of any other root member (`#/webhooks/push`). A pointer above that depth is never
 * known unchanged.
 */
function unitOf(pointer: string): string | undefined {
  if (!pointer.startsWith("#/")) return undefined;
  const depth = pointer.startsWith("#/components/") ? 3 : 2;
  // The prefix up to the depth-th segment's end, found without splitting: this runs for every
  // location the comparison asks about.
  let end = 2;
  for (let i = 1; i < depth; i++) {
    const slash = pointer.indexOf("/", end);
    if (slash < 0) return undefined;
    end = slash + 1;
  }
  const next = pointer.indexOf("/", end);
  return next < 0 ? pointer : pointer.slice(0, next);
}

/** JSON equality where member order counts too, so anything read off one side reads the same off the other. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i] as string;
    if (k !== kb[i] || !sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/** Every part of a document, by canonical pointer. */
function partsOf(doc: Record<string, unknown>): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const members = (value: unknown, at: readonly string[]): void => {
    if (isObj(value) || Array.isArray(value)) for (const [key, child] of Object.entries(value)) out.set(toPointer([...at, key]), child);
  };
  for (const [root, value] of Object.entries(doc)) {
    if (root !== "components") members(value, [root]);
    else if (isObj(value)) for (const [kind, group] of Object.entries(value)) members(group, [root, kind]);
  }
  return out;
}

/** The part a `$ref` leads to, memoized; `undefined` for one no part holds (a reference above part depth). */
function refParts(): (ref: string) => string | undefined {
  const memo = new Map<string, string | undefined>();
  return (ref) => {
    if (!memo.has(ref)) {
      let unit: string | undefined;
      try {
        unit = unitOf(toPointer(parsePointer(ref)));
      } catch {
        // A reference the diff could not follow either (malformed escapes): never skip around it.
        unit = undefined;
      }
      memo.set(ref, unit);
    }
    return memo.get(ref);
  };
}

const internalRef = (node: Record<string, unknown>): string | undefined => {
  const ref = node["$ref"];
  return typeof ref === "string" && ref.startsWith("#") ? ref : undefined;
};

function referencedParts(node: unknown, out: Set<string | undefined>, partOf: (ref: string) => string | undefined): void {
  if (Array.isArray(node)) {
    for (const v of node) referencedParts(v, out, partOf);
    return;
  }
  if (!isObj(node)) return;
  const ref = internalRef(node);
  if (ref !== undefined) out.add(partOf(ref));
  for (const value of Object.values(node)) referencedParts(value, out, partOf);
}

/** Locations inside changed parts: which lead to a change below them, which were replaced outright. */
interface Marks {
  /** The value differs somewhere below, or references a changed part. */
  readonly leading: Set<string>;
  /** Different kinds of value, or different members: everything below differs too. */
  readonly replaced: Set<string>;
}

/**
 * Where the walk is: the part's pointer and the member names below it. The pointer string is built
 * only for the locations marked (few), not for every location walked (all of hundreds of parts).
 */
interface Location {
  readonly part: string;
  readonly keys: string[];
}

const pointerAt = (at: Location): string => at.part + at.keys.map((k) => `/${escapePointerSegment(k)}`).join("");

/** Walks one changed part on both sides together; true when this location leads to a change. */
function mark(a: unknown, b: unknown, at: Location, changedRef: (ref: string) => boolean, marks: Marks): boolean {
  if (a === b && (a === null || typeof a !== "object")) return false;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object" || Array.isArray(a) !== Array.isArray(b)) {
    const pointer = pointerAt(at);
    marks.replaced.add(pointer);
    marks.leading.add(pointer);
    return true;
  }
  const oa = a as Record<string, unknown>;
  const ob = b as Record<string, unknown>;
  const ka = Object.keys(oa);
  const kb = Object.keys(ob);
  if (ka.length !== kb.length || ka.some((k, i) => k !== kb[i])) {
    const pointer = pointerAt(at);
    marks.replaced.add(pointer);
    marks.leading.add(pointer);
    return true;
  }
  const ref = Array.isArray(ob) ? undefined : internalRef(ob);
  let leads = ref !== undefined && changedRef(ref);
  for (const k of kb) {
    at.keys.push(k);
    if (mark(oa[k], ob[k], at, changedRef, marks)) leads = true;
    at.keys.pop();
  }
  if (leads) marks.leading.add(pointerAt(at));
  return leads;
}

/**
 * Compares the two documents part by part, marks as changed every part that references a changed
 * one, directly or through others (reference cycles included), then finds inside each changed part
 * the locations that lead to the change: the rest of it is unchanged too.
 */
export function unchangedParts(oldDoc: Record<string, unknown>, newDoc: Record<string, unknown>): Unchanged {
  const before = partsOf(oldDoc);
  const after = partsOf(newDoc);
  const changed = new Set<string>();
  for (const [pointer, value] of after) if (!before.has(pointer) || !sameJson(before.get(pointer), value)) changed.add(pointer);
  for (const pointer of before.keys()) if (!after.has(pointer)) changed.add(pointer);

  // Who references whom, read off the new side: an unchanged part references the same parts on both.
  const referrers = new Map<string, string[]>();
  const partOf = refParts();
  for (const [pointer, value] of after) {
    const refs = new Set<string | undefined>();
    referencedParts(value, refs, partOf);
    for (const target of refs) {
      if (target === undefined) changed.add(pointer);
      else if (target !== pointer) {
        const list = referrers.get(target);
        if (list) list.push(pointer);
        else referrers.set(target, [pointer]);
      }
    }
  }
  const queue = [...changed];
  while (queue.length > 0) {
    for (const referrer of referrers.get(queue.pop() as string) ?? []) {
      if (changed.has(referrer)) continue;
      changed.add(referrer);
      queue.push(referrer);
    }
  }

  const marks: Marks = { leading: new Set(), replaced: new Set() };
  const changedRef = (ref: string): boolean => {
    const target = partOf(ref);
    return target === undefined || changed.has(target);
  };
  const examined = new Set<string>();
  for (const pointer of changed) {
    if (!before.has(pointer) || !after.has(pointer)) continue;
    examined.add(pointer);
    mark(before.get(pointer), after.get(pointer), { part: pointer, keys: [] }, changedRef, marks);
  }
  const isUnchanged = (pointer: string): boolean => {
    const unit = unitOf(pointer);
    if (unit === undefined) return false;
    if (!changed.has(unit)) return true;
    if (!examined.has(unit) || marks.leading.has(pointer)) return false;
    for (let at = pointer; ; at = at.slice(0, at.lastIndexOf("/"))) {
      if (marks.replaced.has(at)) return false;
      if (at.length <= unit.length) return true;
    }
  };
  const answers = new Map<string, boolean>();
  return (pointer) => {
    // The comparison asks about the same locations once per operation that reaches them.
    let answer = answers.get(pointer);
    if (answer === undefined) answers.set(pointer, (answer = isUnchanged(pointer)));
    return answer;
  };
}
