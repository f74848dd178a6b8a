/**
 * The fast path for reading a YAML spec's data. The `yaml` package builds a full document (every
 * node with its source range) so that any value can be located for an error message; that costs
 * about six times what js-yaml takes to produce the same data (the three repository specs: ~750 ms
 * against ~130 ms in a fresh process). Spec files are read on every run, and locating is only
 * needed when something is wrong, so the data comes from js-yaml and the located document is built
 * on first use (source.ts).
 *
 * The two must agree exactly, so js-yaml runs with a schema that resolves plain scalars as YAML
 * 1.2's core schema does (which is what `yaml` uses), and every construct where the two could
 * still differ is left to `yaml`: this returns undefined and the caller parses as before. Those
 * are: anything js-yaml rejects (so every error message stays `yaml`'s), `%YAML`/`%TAG`
 * directives, explicit tags, merge keys (`<<`: `yaml` merges them), null or empty keys (`yaml` makes them "", js-yaml "null"), complex
 * keys, flow collections that may span lines (`yaml` checks their indentation, js-yaml does
 * not), cyclic aliases, and aliases that expand to more than MAX_ALIAS_EXPANSION nodes (`yaml`
 * bounds expansion; the stages after loading walk the data as a tree). Below that bound an alias
 * `yaml` would count as excessive (an anchor used more than 10,000 times) is accepted here. The text checks over-approximate: a false alarm costs speed, never data.
 * test/load/yaml-fast.test.ts compares both parsers over the repository's files and its
 * dependencies'; scripts/corpus/yaml-fast.mjs over any folder (DigitalOcean's 2,900-file spec, the
 * OpenAPI specification's repository: identical data on every file the fast path read).
 */
import jsyaml from "js-yaml";

/** A plain-scalar type that resolves by pattern, as YAML 1.2's core schema defines it. */
function coreType(tag: string, forms: readonly (readonly [RegExp, (s: string) => unknown])[], acceptsEmpty = false): jsyaml.Type {
  const formOf = (s: string): ((s: string) => unknown) | undefined => forms.find(([re]) => re.test(s))?.[1];
  return new jsyaml.Type(tag, {
    kind: "scalar",
    resolve: (data: unknown) => (data === null ? acceptsEmpty : typeof data === "string" && formOf(data) !== undefined),
    construct: (data: unknown) => (data === null ? null : (formOf(data as string) as (s: string) => unknown)(data as string)),
  });
}

const CORE_1_2 = jsyaml.FAILSAFE_SCHEMA.extend({
  implicit: [
    coreType("tag:yaml.org,2002:null", [[/^(?:~|[Nn]ull|NULL)?$/, () => null]], true),
    coreType("tag:yaml.org,2002:bool", [[/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/, (s) => s[0] === "t" || s[0] === "T"]]),
    coreType("tag:yaml.org,2002:int", [
      [/^0o[0-7]+$/, (s) => parseInt(s.slice(2), 8)],
      [/^[-+]?[0-9]+$/, (s) => parseInt(s, 10)],
      [/^0x[0-9a-fA-F]+$/, (s) => parseInt(s.slice(2), 16)],
    ]),
    coreType("tag:yaml.org,2002:float", [
      [/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/, (s) => (s.slice(-3).toLowerCase() === "nan" ? NaN : s[0] === "-" ? -Infinity : Infinity)],
      [/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/, (s) => parseFloat(s)],
      [/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/, (s) => parseFloat(s)],
    ]),
  ],
});

/** Text where the parsers could differ (see the module comment); matches inside strings are harmless. */
const LEFT_TO_YAML = [
  // %YAML 1.1 switches `yaml` to another schema; %TAG declares tag handles.
  /^%/m,
  // An explicit tag (`!!int`, `!local`, `!<uri>`) where a node starts.
  /(?:^[ \t]*|[:?-][ \t]+|[[{,][ \t]*)!/m,
  // A null or empty key: `~:`, `null:`, `: value`.
  /(?:^[ \t]*(?:-[ \t]+)*|[{,][ \t]*)(?:~|[Nn]ull|NULL)?[ \t]*:(?:[ \t]|$)/m,
  // A merge key (`<<: *common`): `yaml` reads it as a merge, js-yaml's core schema as a key.
  /(?:^[ \t]*(?:-[ \t]+)*|[{,][ \t]*)<<[ \t]*:/m,
  // An explicit key (`? key`) or a flow collection as a key (`[a, b]: c`).
  /^[ \t]*(?:-[ \t]+)*\?(?:[ \t]|$)/m,
  /^[ \t]*(?:-[ \t]+)*[[{].*[\]}][ \t]*:(?:[ \t]|$)/m,
];

/** A line whose value is a block scalar (`key: |`, `- >-`): the lines indented below it are text. */
const BLOCK_SCALAR_START = /(?::|^[ \t]*-|^)[ \t]+[|>][-+1-9]{0,2}[ \t]*(?:#.*)?$|^[|>][-+1-9]{0,2}[ \t]*$/;

/**
 * True when some line opens more `[`/`{` than it closes, or the reverse: a flow collection may span
 * lines there, and `yaml` holds its continuation lines to indentation rules js-yaml does not check.
 * The text of block scalars (code samples in descriptions) is skipped; brackets in other strings
 * count too (a false alarm only costs the slower parse).
 */
function mayContinueFlowAcrossLines(text: string): boolean {
  // Indentation of the node that owns the block scalar being skipped, or -1 outside one.
  let blockOwner = -1;
  for (const line of text.split("\n")) {
    const indent = line.length - line.trimStart().length;
    if (blockOwner >= 0) {
      if (line.trim() === "" || indent > blockOwner) continue;
      blockOwner = -1;
    }
    let depth = 0;
    for (let i = 0; i < line.length; i++) {
      const c = line.charCodeAt(i);
      if (c === 0x5b || c === 0x7b) depth++;
      else if (c === 0x5d || c === 0x7d) depth--;
    }
    if (depth !== 0) return true;
    // The node's own column: past any `- ` sequence indicators, where its key starts.
    if (BLOCK_SCALAR_START.test(line)) blockOwner = indent + (/^[ \t]*((?:-[ \t]+)*)/.exec(line)?.[1]?.length ?? 0);
  }
  return false;
}

/**
 * Nodes that aliases add beyond the document's own, above which `yaml` decides: it bounds alias
 * expansion (its "resource exhaustion" error) and the stages after loading walk the data as a
 * tree. The repository's advertising specs reuse a few anchors (servers, pagination notes), a few
 * hundred nodes in all.
 * @default 1,000,000
 */
const MAX_ALIAS_EXPANSION = 1_000_000;

/**
 * How many nodes the data has when every shared object (an alias of a collection: js-yaml and
 * `yaml` both give one object for an anchor and its aliases) is counted at each place it appears,
 * minus the nodes it has counted once; undefined for a cycle (`a: &x {b: *x}`), also left to `yaml`.
 */
function aliasExpansion(data: unknown): number | undefined {
  const sizes = new Map<object, number>();
  const open = new Set<object>();
  let own = 0;
  const size = (v: unknown): number => {
    if (typeof v !== "object" || v === null) return 1;
    const known = sizes.get(v);
    if (known !== undefined) return known;
    if (open.has(v)) throw new RangeError("cycle");
    open.add(v);
    let n = 1;
    own++;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child !== "object" || child === null) own++;
      n += size(child);
      if (n > Number.MAX_SAFE_INTEGER / 2) throw new RangeError("too large");
    }
    open.delete(v);
    sizes.set(v, n);
    return n;
  };
  try {
    const total = size(data);
    return total - Math.max(own, 1);
  } catch {
    return undefined;
  }
}

/** The data of a YAML text as `yaml` would give it, or undefined when `yaml` must parse it. */
export function fastYamlData(text: string): { readonly data: unknown } | undefined {
  if (LEFT_TO_YAML.some((re) => re.test(text)) || mayContinueFlowAcrossLines(text)) return undefined;
  let data: unknown;
  try {
    data = jsyaml.load(text, { schema: CORE_1_2 });
  } catch {
    return undefined;
  }
  // An empty document: `yaml` gives null where js-yaml gives undefined.
  if (data === undefined) data = null;
  const added = aliasExpansion(data);
  return added !== undefined && added <= MAX_ALIAS_EXPANSION ? { data } : undefined;
}
