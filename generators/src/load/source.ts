import { readFile } from "node:fs/promises";
import path from "node:path";
import { LineCounter, parseDocument, isNode, isMap, isSeq, isPair, isScalar, type Document, type Node } from "yaml";
import { SpecError, parsePointer, toPointer } from "./errors.js";
import { fastYamlData } from "./yaml-fast.js";
import { cachedParse, isJsonExact, keepParse, parsedKey, type TextStore } from "./parse-cache.js";
import { dataDepthExceeds, textDepthExceeds, tooDeep } from "./depth.js";

/** 1-based line and column of a character offset, from the text alone. */
export function linePos(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, col: offset - start + 1 };
}

/** A parsed spec file that can say where any of its values stands. */
export interface SourceFile {
  /** Absolute path, used to resolve relative `$ref`s. */
  readonly absPath: string;
  /** Path shown to users and written into headers (relative, forward slashes). */
  readonly displayPath: string;
  readonly text: string;
  readonly data: unknown;
  /** 1-based line and column of the value at `pointer`, or of its nearest existing parent. */
  locate(pointer: string): { line: number; col: number };
}

export function displayPathOf(absPath: string, cwd: string = process.cwd()): string {
  const rel = path.relative(cwd, absPath);
  const shown = rel === "" || rel.startsWith("..") || path.isAbsolute(rel) ? path.basename(absPath) : rel;
  return shown.split(path.sep).join("/");
}

/** `store`: parsed YAML data kept between processes (parse-cache.ts). @default none */
export async function readSourceFile(absPath: string, displayPath: string, store?: TextStore): Promise<SourceFile> {
  const text = await readFile(absPath, "utf8");
  return parseSourceText(absPath, displayPath, text, store);
}

export function parseSourceText(absPath: string, displayPath: string, text: string, store?: TextStore): SourceFile {
  const isJson = /\.json$/i.test(absPath);
  // A YAML text parsed before in this process or, as data, by an earlier one (parse-cache.ts);
  // JSON.parse is as fast as a copy.
  const kept = isJson ? undefined : cachedParse(text);
  const key = isJson || !store ? undefined : parsedKey(text);
  // Looked up on an in-process hit too: a store keeps only the entries its last run used.
  const storedJson = key === undefined ? undefined : store?.get(key);
  const stored = kept || storedJson === undefined ? undefined : storedData(storedJson);
  let doc: { document: Document; counter: LineCounter } | undefined = kept?.located;
  const yamlDoc = (): { document: Document; counter: LineCounter } => {
    if (!doc) {
      const counter = new LineCounter();
      // Merge keys (`<<: *common`, YAML 1.1) are read as merges: real documents share error answers so.
      doc = { document: parseDocument(text, { lineCounter: counter, uniqueKeys: true, prettyErrors: false, merge: true }), counter };
    }
    return doc;
  };

  const located = (): unknown => {
    const { document, counter } = yamlDoc();
    if (document.errors.length > 0) {
      throw new SpecError(
        document.errors.map((e) => {
          const pos = counter.linePos(e.pos[0]);
          return {
            file: displayPath,
            line: pos.line,
            col: pos.col,
            pointer: "#",
            message: `invalid YAML: ${e.message.split("\n")[0]}`,
            fix: e.code === "DUPLICATE_KEY" ? "remove or rename the duplicated key" : "correct the YAML syntax at this position (indentation, quoting, a missing colon)",
          };
        }),
      );
    }
    try {
      return document.toJS({ maxAliasCount: 10_000 });
    } catch (err) {
      // `yaml` refuses aliases that would expand without bound (the "billion laughs" document).
      if (!(err instanceof ReferenceError)) throw err;
      throw new SpecError([
        {
          file: displayPath,
          line: 1,
          col: 1,
          pointer: "#",
          message: `invalid YAML: ${err.message}`,
          fix: "replace the aliases (*name) of large anchored collections with the collections themselves, or with $ref",
        },
      ]);
    }
  };

  // Before any YAML parser recurses: a document nested thousands of levels deep is refused where it
  // gets too deep, by a scan of its text (depth.ts). JSON.parse does not recurse; a JSON file's depth
  // is checked by the loader's first walk of its data (load.ts), which costs nothing extra.
  // A text parsed before (this process or the pack) passed the scan then.
  const deep = isJson || kept || stored ? undefined : textDepthExceeds(text, false);
  if (deep !== undefined) throw new SpecError([tooDeep(displayPath, linePos(text, deep.offset), "#")]);

  let data: unknown;
  if (isJson) {
    try {
      data = JSON.parse(text);
    } catch (err) {
      // JSON.parse messages carry an offset but no line; YAML's parser (a JSON superset) finds the spot.
      const { document, counter } = yamlDoc();
      const first = document.errors[0];
      const pos = first ? counter.linePos(first.pos[0]) : { line: 1, col: 1 };
      throw new SpecError([
        {
          file: displayPath,
          line: pos.line,
          col: pos.col,
          pointer: "#",
          message: `invalid JSON: ${(err as Error).message}`,
          fix: "correct the JSON syntax at this position",
        },
      ]);
    }
  } else if (stored) {
    data = stored.data;
  } else if (kept) {
    data = structuredClone(kept.data);
    if (key !== undefined && storedJson === undefined && isJsonExact(data)) store?.set(key, JSON.stringify(data));
  } else {
    // js-yaml reads most files several times faster; `yaml` (located nodes, its error messages)
    // takes over whenever the two could differ (yaml-fast.ts).
    const fast = fastYamlData(text);
    data = fast ? fast.data : located();
    keepParse(text, { ...(doc ? { located: doc } : {}), data: structuredClone(data) });
    if (key !== undefined && isJsonExact(data)) store?.set(key, JSON.stringify(data));
  }

  const locateIn = (pointer: string): { line: number; col: number } => {
    const { document, counter } = yamlDoc();
    const segments = parsePointer(pointer);
    // Walk down as far as the pointer exists so a missing key points at its parent.
    let node: unknown = document.contents;
    let keyNode: Node | undefined;
    for (const segment of segments) {
      if (isMap(node)) {
        const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === segment);
        if (!pair) break;
        keyNode = isNode(pair.key) ? pair.key : undefined;
        node = pair.value;
      } else if (isSeq(node)) {
        const item = node.items[Number(segment)];
        if (item === undefined) break;
        keyNode = undefined;
        node = item;
      } else break;
    }
    const anchor = keyNode ?? (isNode(node) ? node : undefined);
    const offset = anchor?.range?.[0] ?? 0;
    return counter.linePos(offset);
  };

  // Aliases can nest what the text does not (`b: &b [*a]`, `c: &c [*b]` …).
  if (!isJson && !kept && !stored && text.includes("*")) {
    const at = dataDepthExceeds(data);
    if (at !== undefined) {
      const pointer = toPointer(at);
      throw new SpecError([tooDeep(displayPath, locateIn(pointer), pointer)]);
    }
  }

  return { absPath, displayPath, text, data, locate: locateIn };
}

/** The data a store's entry holds, or undefined when the entry is unreadable. */
function storedData(json: string): { data: unknown } | undefined {
  try {
    return { data: JSON.parse(json) as unknown };
  } catch {
    // A damaged entry is a miss: the text is parsed, and the entry written again.
    return undefined;
  }
}

export { toPointer };
