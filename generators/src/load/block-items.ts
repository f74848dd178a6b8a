/**
 * Where each item of a top-level block sequence starts, read from the lines of a YAML text.
 *
 * A workflow document records each workflow's `file:line:col`. Locating a value otherwise needs
 * the `yaml` package's located document (source.ts), which the fast path of loading never builds:
 * for the three repository contracts' workflow files, building it was 0.16 s of a 3 s cold run, to
 * find the start of a few list items. This reads the start of each item from the lines instead,
 * when the text around the sequence takes the plain block shape that leaves no doubt:
 *
 * ```yaml
 * key:
 *   - first: …        # an item's value starts on its dash's line
 *     …               # deeper lines belong to the item, whatever they hold
 *   - second: …
 * next: …             # a column-0 line ends the sequence
 * ```
 *
 * Anything else gives undefined and the caller locates with the parsed document: a tab where
 * indentation is read, an item whose value starts on a later line or with an anchor, tag or alias,
 * a line indented less than the items but not at column 0, a document marker, the key found on
 * no line or on two lines, or a count of items other than the data's (which catches a continuation
 * line of a multi-line scalar read as an item or as the end). The positions equal the `yaml`
 * document's (test/load/block-items.test.ts compares them over the repository's workflow files and
 * variants of their layout).
 */

/** A 1-based line and column, as `SourceFile.locate` gives them. */
export interface LineCol {
  readonly line: number;
  readonly col: number;
}

/** First characters of an item's value that start a node exactly where they stand. */
const NODE_START = /^[A-Za-z0-9_$"'{[]/;

/**
 * Line and column of the start of each item of the block sequence that is the value of the
 * top-level key `key`, or undefined when the text's shape leaves any doubt (see the module
 * comment). `count` is the number of items the parsed data holds.
 */
export function blockSequenceItems(text: string, key: string, count: number): LineCol[] | undefined {
  if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(key)) return undefined;
  const lines = text.split("\n");
  const head = new RegExp(`^${key}:[ ]*(?:#.*)?\\r?$`);
  const heads = lines.flatMap((line, i) => (head.test(line) ? [i] : []));
  if (heads.length !== 1) return undefined;
  const items: LineCol[] = [];
  let indent: number | undefined;
  for (let i = (heads[0] as number) + 1; i < lines.length; i++) {
    const line = (lines[i] as string).replace(/\r$/, "");
    if (/^[ ]*(?:#.*)?$/.test(line)) continue;
    const depth = /^[ ]*/.exec(line)?.[0].length ?? 0;
    const rest = line.slice(depth);
    if (rest.startsWith("\t")) return undefined;
    const dash = /^-(?:[ ]+|$)/.exec(rest);
    if (indent === undefined) {
      if (!dash) return undefined;
      indent = depth;
    }
    if (depth > indent) continue;
    if (depth === indent && dash) {
      const value = rest.slice(dash[0].length);
      if (!NODE_START.test(value)) return undefined;
      items.push({ line: i + 1, col: depth + dash[0].length + 1 });
      continue;
    }
    // Column 0 and not an item: the next top-level key ends the sequence. A document marker, or a
    // line between column 0 and the items' indentation, is a shape this does not read.
    if (depth === 0 && !/^(?:---|\.\.\.)(?:[ ]|$)/.test(rest)) break;
    return undefined;
  }
  return items.length === count ? items : undefined;
}
