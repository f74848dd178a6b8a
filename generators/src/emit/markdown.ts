/** Escaping for spec text placed into generated Markdown (READMEs): the Markdown twin of ts.ts. */

/** Plain text: no HTML, no emphasis or links from the spec, no breaking out of a table row. */
export function mdText(text: string): string {
  return text
    .replace(/\r\n?|[\u2028\u2029\u0085]/g, "\n")
    .replace(/[\\`*_{}[\]()#+!|<>~]/g, (c) => `\\${c}`)
    .replace(/&/g, "&amp;");
}

/** One table cell: newlines become spaces. */
export function mdCell(text: string): string {
  return mdText(text).replace(/\n+/g, " ").trim();
}

/** Inline code span that survives backticks inside the text. */
export function mdCode(text: string): string {
  const flat = text.replace(/\r\n?|[\n\u2028\u2029\u0085]/g, " ");
  const longest = Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = flat.startsWith("`") || flat.endsWith("`") || flat === "" ? " " : "";
  return `${fence}${pad}${flat.replace(/\|/g, "\\|")}${pad}${fence}`;
}

/**
 * Markdown the generator assembled from escaped pieces (a table of `mdCell`s): passes through a
 * Markdown template slot as is, where a plain string is escaped with `mdText`.
 */
export class Md {
  /** @internal made by `mdTable` or `mdLines`, never from spec text directly. */
  constructor(readonly text: string) {}
}

/** A table; every cell is spec text, escaped here. */
export function mdTable(headers: readonly string[], rows: readonly (readonly string[])[]): Md {
  const line = (cells: readonly string[]): string => `| ${cells.map(mdCell).join(" | ")} |`;
  return new Md([line(headers), `| ${headers.map(() => "---").join(" | ")} |`, ...rows.map(line)].join("\n"));
}

/** A bulleted list of spec text. */
export function mdList(items: readonly string[]): Md {
  return new Md(items.map((i) => `- ${mdCell(i)}`).join("\n"));
}

/** Inline code (a command, a path) as Markdown that passes a template slot as is. */
export function mdInlineCode(text: string): Md {
  return new Md(mdCode(text));
}

/**
 * Lines an emitter assembled itself from `mdText`/`mdCell`/`mdCode` pieces, as one slot value: the
 * Markdown twin of ts.ts's `raw`. Never pass spec text here unescaped.
 */
export function mdBlock(lines: readonly string[]): Md {
  return new Md(lines.join("\n"));
}
