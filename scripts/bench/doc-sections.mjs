// docs/benchmarks.md as a list of "## " sections, so that a run replaces only what it measured:
// `npm run bench` rewrites its own sections, `--only` and `npm run bench:profile` theirs, and the
// hand-written ones (Work in progress) are never dropped.

/** [{ heading, text }]: the first has heading "" (title and main table); text includes its heading line. */
export function splitSections(md) {
  const sections = [];
  let current = { heading: "", lines: [] };
  for (const line of md.split("\n")) {
    if (line.startsWith("## ")) {
      sections.push(current);
      current = { heading: line.slice(3).trim(), lines: [] };
    }
    current.lines.push(line);
  }
  sections.push(current);
  return sections.filter((s) => s.heading !== "" || s.lines.some((l) => l.trim() !== "")).map((s) => ({ heading: s.heading, text: trimEnd(s.lines.join("\n")) }));
}

const trimEnd = (text) => text.replace(/\s+$/, "");

/** A heading matches a key when it starts with it: "Where the time goes" matches its dated title. */
const matches = (heading, key) => heading === key || heading.startsWith(`${key} `) || heading.startsWith(`${key}:`);

/**
 * Replaces sections whose heading starts with a given key and inserts new ones before the first
 * section in `before` (or at the end). `updates` is [{ key, text }], text including its heading.
 */
export function upsertSections(md, updates, { before = ["Work in progress"] } = {}) {
  const sections = splitSections(md);
  for (const { key, text } of updates) {
    const at = sections.findIndex((s) => matches(s.heading, key));
    const section = { heading: key, text: trimEnd(text) };
    if (at !== -1) sections[at] = section;
    else {
      const pos = sections.findIndex((s) => before.some((b) => matches(s.heading, b)));
      sections.splice(pos === -1 ? sections.length : pos, 0, section);
    }
  }
  return `${sections.map((s) => s.text).join("\n\n")}\n`;
}

/** The sections of `md` whose heading starts with one of `keys`, in document order. */
export function pickSections(md, keys) {
  return splitSections(md).filter((s) => keys.some((k) => matches(s.heading, k)));
}
