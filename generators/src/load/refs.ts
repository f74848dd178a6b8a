import path from "node:path";
import { parsePointer } from "./errors.js";

export interface RefSite {
  /** Pointer segments of the object holding `$ref`. */
  readonly at: readonly string[];
  readonly ref: string;
}

/** A discriminator whose `mapping` is an object: where it is, and the mapping. */
export interface MappingSite {
  /** Pointer segments of the object holding `discriminator`. */
  readonly at: readonly string[];
  readonly mapping: Readonly<Record<string, unknown>>;
}

/** A `pattern` string or a `patternProperties` name: where it is (its pointer's segments) and its text. */
export interface PatternSite {
  readonly at: readonly string[];
  readonly pattern: string;
}

/** What the loader checks in a parsed file, found in one walk. */
export interface FileSites {
  /** Every `$ref` string, in document order. */
  readonly refs: readonly RefSite[];
  /** Every discriminator mapping, in document order. */
  readonly mappings: readonly MappingSite[];
  /** Every `pattern` string and `patternProperties` name, data and extensions included (patterns.ts sorts them out). */
  readonly patterns: readonly PatternSite[];
}

/**
 * The `$ref`s and discriminator mappings of a parsed file, in one walk: the loader reads refs to
 * find files, checks them, and checks mappings, and three walks of GitHub's description cost a
 * tenth of a second more than one.
 */
/** A walk met a value nested deeper than it may go; `at` is its pointer's segments. */
export class TooDeep extends Error {
  constructor(readonly at: readonly string[]) {
    super("nested too deep");
  }
}

/** `maxDepth`: deeper objects and arrays throw TooDeep. @default Infinity */
export function fileSites(data: unknown, maxDepth = Infinity): FileSites {
  const refs: RefSite[] = [];
  const mappings: MappingSite[] = [];
  const patterns: PatternSite[] = [];
  walkEntries(
    data,
    (key, value, at) => {
      if (key === "$ref" && typeof value === "string") {
        refs.push({ at: [...at], ref: value });
        return false;
      }
      if (key === "pattern" && typeof value === "string") patterns.push({ at: [...at, key], pattern: value });
      else if (key === "patternProperties" && value !== null && typeof value === "object" && !Array.isArray(value)) {
        for (const name of Object.keys(value)) patterns.push({ at: [...at, key, name], pattern: name });
      }
      if (key === "discriminator" && value !== null && typeof value === "object") {
        const mapping = (value as { mapping?: unknown }).mapping;
        if (mapping !== null && typeof mapping === "object" && !Array.isArray(mapping)) mappings.push({ at: [...at], mapping: mapping as Record<string, unknown> });
      }
      return true;
    },
    maxDepth,
  );
  return { refs, mappings, patterns };
}

/**
 * Calls `visit` with every member of every object and array below `data`, in document order, and
 * the path of the member's parent; the member is walked into when `visit` returns true. The path is
 * one stack for the whole walk (copy it to keep it): a path per node made large specs allocate
 * millions of arrays.
 */
export function walkEntries(data: unknown, visit: (key: string, value: unknown, at: readonly string[]) => boolean, maxDepth = Infinity): void {
  const at: string[] = [];
  const member = (key: string, value: unknown): void => {
    if (!visit(key, value, at)) return;
    // The walk recurses: a file deeper than the loader reads stops it here, before the stack does.
    if (at.length >= maxDepth && value !== null && typeof value === "object") throw new TooDeep([...at, key]);
    at.push(key);
    walk(value);
    at.pop();
  };
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) for (let i = 0; i < node.length; i++) member(String(i), node[i]);
    else for (const [key, value] of Object.entries(node)) member(key, value);
  };
  walk(data);
}

export interface ResolvedRef {
  /** Absolute file path of the target, or undefined for an internal ref. */
  readonly file: string | undefined;
  readonly pointer: string;
  readonly remote: boolean;
}

export function resolveRef(ref: string, fromFile: string): ResolvedRef {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(ref)) return { file: undefined, pointer: "", remote: true };
  const hash = ref.indexOf("#");
  const filePart = hash === -1 ? ref : ref.slice(0, hash);
  const pointer = hash === -1 ? "" : ref.slice(hash + 1);
  if (filePart === "") return { file: undefined, pointer, remote: false };
  return { file: path.resolve(path.dirname(fromFile), decodeURI(filePart)), pointer, remote: false };
}

/** The value at `pointer` inside `data`, or `undefined` with how far the walk got. */
export function getAtPointer(data: unknown, pointer: string): { found: boolean; value: unknown; depth: number } {
  let node = data;
  const segments = parsePointer(pointer);
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string;
    if (node === null || typeof node !== "object" || !Object.prototype.hasOwnProperty.call(node, segment)) {
      return { found: false, value: undefined, depth: i };
    }
    node = (node as Record<string, unknown>)[segment];
  }
  return { found: true, value: node, depth: segments.length };
}
