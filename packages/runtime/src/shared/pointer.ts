/**
 * JSON pointers (RFC 6901) over plain values: split and read. One implementation for the mock
 * engine, the contract tests and Arazzo's runtime expressions.
 */

/** The unescaped segments of `pointer` (`""` is the whole value). */
export function segments(pointer: string): string[] {
  return pointer === ""
    ? []
    : pointer
        .split("/")
        .slice(1)
        .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** The value at `pointer`, or undefined where the path leads nowhere (an array takes only indexes, an object only its own members). */
export function getAt(value: unknown, pointer: string): unknown {
  let node = value;
  for (const seg of segments(pointer)) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(seg)) return undefined;
      node = node[Number(seg)];
    } else if (node !== null && typeof node === "object" && Object.prototype.hasOwnProperty.call(node, seg)) node = (node as Record<string, unknown>)[seg];
    else return undefined;
  }
  return node;
}
