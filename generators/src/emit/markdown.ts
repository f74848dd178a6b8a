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
  return mdAligned(
    headers.map(mdCell),
    rows.map((r) => r.map(mdCell)),
  );
}

/**
 * A table of cells that are Markdown already (made with `mdCell`, `mdCode`…), each column padded to
 * its widest cell as prettier aligns tables: READMEs are written as they are, not formatted.
 */
export function mdAligned(headers: readonly string[], rows: readonly (readonly string[])[]): Md {
  const widths = headers.map((h, i) => Math.max(3, displayWidth(h), ...rows.map((r) => displayWidth(r[i] ?? ""))));
  const line = (cells: readonly string[]): string => `| ${widths.map((w, i) => pad(cells[i] ?? "", w)).join(" | ")} |`;
  return new Md([line(headers), `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`, ...rows.map(line)].join("\n"));
}

const pad = (cell: string, width: number): string => cell + " ".repeat(Math.max(0, width - displayWidth(cell)));

/** Code points of East Asian wide and fullwidth forms and of emoji, which take two columns. */
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{20000}-\u{3fffd}\p{Emoji_Presentation}]/u;
/** Combining marks and zero-width characters, which take none. */
const ZERO = /[\p{Mn}\p{Me}\u200b-\u200f\u2060\ufeff]/u;

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Columns a cell takes in a monospace editor, as prettier measures it for alignment. */
export function displayWidth(text: string): number {
  // Printable ASCII, most text: a column each.
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let width = 0;
  for (const ch of text) width += ZERO.test(ch) ? 0 : WIDE.test(ch) ? 2 : 1;
  return width;
}

/**
 * Blank-line runs outside fenced code made one, and one newline at the end: what prettier did to a
 * filled template whose slots were empty (a contract without a description, deliveries…), now that
 * generated Markdown is written as it is.
 */
export function mdTidy(markdown: string): string {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split("\n")) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === undefined || (marker[0] === fence[0] && marker.length >= fence.length))) fence = fence === undefined ? marker : undefined;
    if (fence === undefined && line.trim() === "" && (out.length === 0 || out[out.length - 1] === "")) continue;
    out.push(fence === undefined && line.trim() === "" ? "" : line);
  }
  while (out.length > 0 && out[out.length - 1] === "") out.pop();
  return `${out.join("\n")}\n`;
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
