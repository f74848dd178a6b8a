/**
 * Answers over a size budget, trimmed at element boundaries: trailing elements of the answer's item
 * array (the paging `items` pointer, else its largest array) are dropped until the JSON text fits.
 * The trimmed value is what both the text and `structuredContent` carry, so they never disagree, and
 * it keeps the answer's shape (only array lengths change).
 */
import { own } from "../shared/own.js";

export interface Trimmed {
  readonly value: unknown;
  /** How many elements were left out (0 when the answer fit). */
  readonly omitted: number;
  /** JSON pointer of the trimmed array (`""` for the answer itself). */
  readonly path: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

function decode(seg: string): string {
  return seg.replace(/~1/g, "/").replace(/~0/g, "~");
}

function get(value: unknown, pointer: string): unknown {
  let node = value;
  for (const seg of pointer.split("/").slice(1)) {
    if (Array.isArray(node)) node = node[Number(seg)];
    else if (isRecord(node)) node = own(node, decode(seg));
    else return undefined;
  }
  return node;
}

/** A copy of `value` with the array at `pointer` replaced. */
function replaceAt(value: unknown, pointer: string, replacement: unknown): unknown {
  if (pointer === "") return replacement;
  const [first, ...rest] = pointer.split("/").slice(1);
  const key = decode(first as string);
  const tail = rest.length ? `/${rest.join("/")}` : "";
  if (Array.isArray(value)) return value.map((v, i) => (i === Number(key) ? replaceAt(v, tail, replacement) : v));
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value)) Object.defineProperty(out, k, { value: k === key ? replaceAt(value[k], tail, replacement) : value[k], enumerable: true, writable: true, configurable: true });
    return out;
  }
  return value;
}

/** The pointer of the largest array (by JSON length) in `value`, breadth first. */
function largestArray(value: unknown): string | undefined {
  let best: { pointer: string; size: number } | undefined;
  const queue: { node: unknown; pointer: string }[] = [{ node: value, pointer: "" }];
  for (let i = 0; i < queue.length && i < 10_000; i++) {
    const { node, pointer } = queue[i] as { node: unknown; pointer: string };
    if (Array.isArray(node)) {
      const size = JSON.stringify(node).length;
      if (!best || size > best.size) best = { pointer, size };
      node.forEach((v, j) => queue.push({ node: v, pointer: `${pointer}/${j}` }));
    } else if (isRecord(node)) {
      for (const k of Object.keys(node)) queue.push({ node: node[k], pointer: `${pointer}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}` });
    }
  }
  return best?.pointer;
}

/**
 * `value` trimmed so that `JSON.stringify` of it is at most `maxChars` long, when dropping trailing
 * elements of one array can do it; `itemsPointer` names that array when the contract says which
 * one holds the items. Binary search over the kept count: O(log n) serializations.
 */
export function trimAnswer(value: unknown, maxChars: number, itemsPointer?: string): Trimmed {
  if (JSON.stringify(value).length <= maxChars) return { value, omitted: 0, path: "" };
  const pointer = itemsPointer !== undefined && Array.isArray(get(value, itemsPointer)) ? itemsPointer : largestArray(value);
  if (pointer === undefined) return { value, omitted: 0, path: "" };
  const items = get(value, pointer) as unknown[];
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (JSON.stringify(replaceAt(value, pointer, items.slice(0, mid))).length <= maxChars) lo = mid;
    else hi = mid - 1;
  }
  return { value: replaceAt(value, pointer, items.slice(0, lo)), omitted: items.length - lo, path: pointer };
}
