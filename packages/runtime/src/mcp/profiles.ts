/**
 * Client profiles: the same tools reshaped for what each major MCP client accepts, and a linter that
 * says, per tool and rule, when a tool cannot be expressed for one. Pure functions over JSON Schema;
 * the generator runs the linter at generation time (a failure stops generation), the MCP server
 * applies the transform when it lists its tools.
 *
 * What each profile knows of its client (from the clients' documentation and issue trackers):
 * - `standard`: the schemas as generated (self-contained 2020-12, `$defs` and local `$ref`s).
 * - `claude` / `claude-code`: no remote references; property names `^[a-zA-Z0-9_.-]{1,64}$`; Claude
 *   Code exposes tools as `mcp__<server>__<tool>`, a name that must fit in 64 characters.
 * - `cursor`: refs inlined; server name plus tool name within 60 characters; about 40 tools in all.
 * - `openai`: function names `^[a-zA-Z0-9_-]{1,64}$`; the parameters' top level an object without
 *   `anyOf`/`oneOf`/`allOf`/`enum`/`not`; at most 128 tools.
 * - `gemini`: the OpenAPI 3.0 schema subset: no `$ref`, `const`, `oneOf`, `allOf`,
 *   `additionalProperties`, type lists (`nullable` instead), few formats.
 */
import type { JsonSchemaObject, McpToolSpec } from "./tools.js";

export const PROFILES = ["standard", "claude", "claude-code", "cursor", "openai", "gemini"] as const;
export type McpProfile = (typeof PROFILES)[number];

/** The rules of one profile. */
export interface ProfileRules {
  /** Replace `$ref`s by the schemas they name (cycles cut). */
  readonly inline: boolean;
  /** Reduce schemas to the OpenAPI 3.0 subset Gemini reads. */
  readonly geminiSubset: boolean;
  /** Longest tool name for a server of this name (the client's own prefix counted). */
  readonly nameBudget: (serverName: string) => number;
  readonly namePattern: RegExp;
  /** Tools the client takes in all, when it documents a limit. */
  readonly maxTools?: number;
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export const PROFILE_RULES: Readonly<Record<McpProfile, ProfileRules>> = {
  standard: { inline: false, geminiSubset: false, nameBudget: () => 64, namePattern: TOOL_NAME },
  claude: { inline: true, geminiSubset: false, nameBudget: () => 64, namePattern: TOOL_NAME },
  "claude-code": { inline: true, geminiSubset: false, nameBudget: (s) => 64 - `mcp__${s}__`.length, namePattern: TOOL_NAME },
  cursor: { inline: true, geminiSubset: false, nameBudget: (s) => 60 - s.length - 1, namePattern: TOOL_NAME, maxTools: 40 },
  openai: { inline: true, geminiSubset: false, nameBudget: () => 64, namePattern: TOOL_NAME, maxTools: 128 },
  gemini: { inline: true, geminiSubset: true, nameBudget: () => 64, namePattern: /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/ },
};

/** Property names every profile's clients accept (Anthropic's and OpenAI's rule). */
const PROPERTY_NAME = /^[a-zA-Z0-9_.-]{1,64}$/;
/** Nested references inlined before the rest is cut to a permissive object (keeps schemas finite and small). */
const MAX_INLINE_DEPTH = 6;
/**
 * References expanded per schema before the rest is cut: wide schemas (each referencing many others)
 * would otherwise grow exponentially with depth. Cut in walk order, so the result is deterministic.
 */
const MAX_INLINED_REFS = 200;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** A tool as one profile lists it. */
export interface ProfiledTool {
  readonly name: string;
  readonly spec: McpToolSpec;
  readonly inputSchema: JsonSchemaObject;
  readonly outputSchema?: JsonSchemaObject;
  readonly description: string;
}

/** One reason a tool cannot be listed for a profile. */
export interface LintIssue {
  readonly profile: McpProfile;
  readonly tool: string;
  readonly rule: string;
  readonly message: string;
}

/**
 * `name` shortened to `budget` characters: kept when it fits, else cut and given a stable suffix
 * made from the whole name, so two long names with the same start stay apart.
 */
export function fitName(name: string, budget: number): string {
  if (name.length <= budget) return name;
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  const suffix = `_${h.toString(36).padStart(7, "0").slice(0, 6)}`;
  return name.slice(0, Math.max(1, budget - suffix.length)) + suffix;
}

function decodePointer(seg: string): string {
  return seg.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** Sets `k` on a fresh plain object: by assignment, which is faster, unless `k` would set the prototype. */
function put(out: Obj, k: string, v: unknown): void {
  if (k === "__proto__") Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  else out[k] = v;
}

/** An expansion as `Expansions` keeps it: what it came out as, how many expansions it used, whether it mentions `$ref`. */
interface Expansion {
  readonly result: unknown;
  readonly used: number;
  readonly mentions: boolean;
}

/**
 * Expansions of `$defs` entries shared between the schemas of one lint, by `key`: what an expansion
 * comes out as depends only on its target, on which of the names it reaches are already being
 * expanded (cycles are cut by them), on the depth, and on how many expansions the schema has left.
 * Each entry keeps how many it used, and is only taken when that many are left; expansions the
 * limit cut are not kept.
 */
interface Expansions {
  key(name: string, stack: readonly string[]): string;
  get(key: string): Expansion | undefined;
  set(key: string, entry: Expansion): void;
  /** Where `mentionsRef` keeps what it found of objects these expansions share. */
  readonly searched: Map<object, boolean>;
}

/** Replaces `#/$defs/X` references with their targets, cycles and deep nesting cut to permissive objects. */
export function inlineRefs(schema: JsonSchemaObject): JsonSchemaObject {
  return inlineWith(schema, undefined).schema;
}

/** Whether JSON text holds `"$ref"` where this string is written (as a value or a member name). */
const writesRef = (s: string): boolean => s === "$ref" || s.endsWith('"$ref');
/** Whether JSON.stringify writes a member of this value (it leaves out the others). */
const written = (v: unknown): boolean => v !== undefined && typeof v !== "function" && typeof v !== "symbol";

/**
 * `inlineRefs`, reusing `shared` expansions when given: the caller vouches that every schema it
 * inlines with the same map resolves each name to the same target, and that nothing mutates results
 * (they share objects). Also says whether `JSON.stringify` of the result would contain `"$ref"`
 * (found while the result is made, and kept with each expansion, rather than searched again).
 */
function inlineWith(schema: JsonSchemaObject, shared: Expansions | undefined): { schema: JsonSchemaObject; mentions: boolean } {
  const defs = isObj(schema["$defs"]) ? schema["$defs"] : {};
  const searched = shared?.searched ?? new Map<object, boolean>();
  let expanded = 0;
  // Whether the expansion limit cut something since the innermost expansion that may be kept began.
  let limited = false;
  // Whether what was written since the innermost expansion (or merge) began mentions `$ref`.
  let mentions = false;
  const walk = (node: unknown, stack: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, stack));
    if (!isObj(node)) {
      if (typeof node === "string" && writesRef(node)) mentions = true;
      return node;
    }
    const ref = node["$ref"];
    if (typeof ref === "string") {
      const m = /^#\/\$defs\/(.+)$/.exec(ref);
      const name = m ? decodePointer(m[1] as string) : undefined;
      const target = name !== undefined && Object.prototype.hasOwnProperty.call(defs, name) ? defs[name] : undefined;
      const siblings = Object.fromEntries(Object.entries(node).filter(([k]) => k !== "$ref"));
      if (name === undefined || target === undefined) {
        const out = { ...siblings, description: `${String(siblings["description"] ?? "")} (unresolved reference ${ref})`.trim() };
        if (mentionsRef(out, searched)) mentions = true;
        return out;
      }
      if (stack.includes(name) || stack.length >= MAX_INLINE_DEPTH || expanded >= MAX_INLINED_REFS) {
        if (!stack.includes(name) && stack.length < MAX_INLINE_DEPTH) limited = true;
        // The type is kept so clients still know it is an object; the content is not constrained.
        const type = isObj(target) && typeof target["type"] === "string" ? { type: target["type"] } : {};
        const why = stack.includes(name) ? "recursive" : stack.length >= MAX_INLINE_DEPTH ? "nested too deep to expand" : "schema too large to expand fully";
        const out = { ...type, ...siblings, description: `${name} (${why}; not expanded here)${typeof siblings["description"] === "string" ? `: ${siblings["description"]}` : ""}` };
        if (mentionsRef(out, searched)) mentions = true;
        return out;
      }
      const outerMentions = mentions;
      mentions = false;
      let inlined: unknown;
      const key = shared?.key(name, stack);
      const known = key !== undefined ? shared?.get(key) : undefined;
      if (known !== undefined && expanded + known.used <= MAX_INLINED_REFS) {
        // Every expansion inside it happens below the limit again, so it comes out the same.
        expanded += known.used;
        inlined = known.result;
        mentions = known.mentions;
      } else {
        const before = expanded;
        const outerLimited = limited;
        limited = false;
        expanded++;
        inlined = walk(target, [...stack, name]);
        if (key !== undefined && !limited) shared?.set(key, { result: inlined, used: expanded - before, mentions });
        limited ||= outerLimited;
      }
      // Without siblings the copy would be the expansion again: it is shared instead (nothing changes it).
      if (!isObj(inlined) || Object.keys(siblings).length === 0) {
        mentions ||= outerMentions;
        return inlined;
      }
      const inlinedMentions = mentions;
      mentions = false;
      const own = walk(siblings, stack) as Obj;
      const out = { ...inlined, ...own };
      // Members of the expansion the siblings replace are not written: searched again then.
      const replaced = inlinedMentions && Object.keys(own).some((k) => Object.prototype.hasOwnProperty.call(inlined, k));
      mentions = outerMentions || (replaced ? mentionsRef(out, searched) : inlinedMentions || mentions);
      return out;
    }
    const out: Obj = {};
    for (const k of Object.keys(node)) {
      if (k === "$defs") continue;
      const v = node[k];
      let value: unknown;
      if (k === "properties" && isObj(v)) {
        const props: Obj = {};
        for (const p of Object.keys(v)) {
          const x = walk(v[p], stack);
          put(props, p, x);
          if (written(x) && writesRef(p)) mentions = true;
        }
        value = props;
      } else value = walk(v, stack);
      put(out, k, value);
      if (written(value) && writesRef(k)) mentions = true;
    }
    return out;
  };
  const out = walk(schema, []) as JsonSchemaObject;
  return { schema: out, mentions };
}

function mapValues(o: Obj, f: (v: unknown) => unknown): Obj {
  const out: Obj = {};
  for (const k of Object.keys(o)) put(out, k, f(o[k]));
  return out;
}

const GEMINI_KEEP = new Set([
  "type",
  "format",
  "description",
  "nullable",
  "enum",
  "properties",
  "required",
  "items",
  "minItems",
  "maxItems",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "pattern",
  "anyOf",
  "title",
]);
const GEMINI_FORMATS: Readonly<Record<string, readonly string[]>> = { string: ["enum", "date-time"], integer: ["int32", "int64"], number: ["float", "double"] };

/** The OpenAPI 3.0 subset Gemini reads; what it cannot say moves into the description. */
export function geminiSchema(node: unknown): unknown {
  return geminiTop(node, geminiSchema);
}

/** `geminiSchema`, each object reduced once (results are shared: inputs must not change). */
function geminiShared(node: unknown, done: Map<object, unknown>): unknown {
  if (node === null || typeof node !== "object") return geminiTop(node, (n) => geminiShared(n, done));
  let out = done.get(node);
  if (out === undefined) done.set(node, (out = geminiTop(node, (n) => geminiShared(n, done))));
  return out;
}

/**
 * `node` reduced to Gemini's subset at its top, its member schemas (properties, items, anyOf) by
 * `reduce`: with `geminiSchema`, the whole schema; with the identity, what the linter reads of the top.
 */
function geminiTop(node: unknown, reduce: (node: unknown) => unknown): unknown {
  if (Array.isArray(node)) return node.map((n) => reduce(n));
  if (!isObj(node)) return node === true ? {} : node;
  const s: Obj = { ...node };
  const notes: string[] = [];
  if (s["const"] !== undefined) {
    s["enum"] = [s["const"]];
    delete s["const"];
  }
  if (Array.isArray(s["oneOf"])) {
    s["anyOf"] = [...(Array.isArray(s["anyOf"]) ? s["anyOf"] : []), ...s["oneOf"]];
    delete s["oneOf"];
  }
  if (Array.isArray(s["allOf"])) {
    // Merged: the members' properties and required lists, the first type given.
    for (const part of s["allOf"]) {
      if (!isObj(part)) continue;
      if (isObj(part["properties"])) s["properties"] = { ...(isObj(s["properties"]) ? s["properties"] : {}), ...part["properties"] };
      if (Array.isArray(part["required"])) s["required"] = [...new Set([...(Array.isArray(s["required"]) ? s["required"] : []), ...part["required"]])];
      if (s["type"] === undefined && part["type"] !== undefined) s["type"] = part["type"];
      if (s["description"] === undefined && typeof part["description"] === "string") s["description"] = part["description"];
    }
    delete s["allOf"];
  }
  if (Array.isArray(s["type"])) {
    const types = s["type"].filter((t) => t !== "null");
    if (types.length < s["type"].length) s["nullable"] = true;
    if (types.length === 1) s["type"] = types[0];
    else {
      delete s["type"];
      if (types.length > 1) s["anyOf"] = types.map((t) => ({ type: t }));
    }
  }
  if (s["type"] === undefined && isObj(s["properties"])) s["type"] = "object";
  const format = s["format"];
  if (typeof format === "string" && !(GEMINI_FORMATS[String(s["type"])] ?? []).includes(format)) {
    notes.push(`format: ${format}`);
    delete s["format"];
  }
  if (s["exclusiveMinimum"] !== undefined) notes.push(`greater than ${String(s["exclusiveMinimum"])}`);
  if (s["exclusiveMaximum"] !== undefined) notes.push(`less than ${String(s["exclusiveMaximum"])}`);
  if (s["default"] !== undefined) notes.push(`default: ${JSON.stringify(s["default"])}`);
  const out: Obj = {};
  for (const k of Object.keys(s)) {
    if (!GEMINI_KEEP.has(k)) continue;
    const v = s[k];
    out[k] = k === "properties" && isObj(v) ? mapValues(v, reduce) : k === "items" || k === "anyOf" ? reduce(v) : v;
  }
  if (Array.isArray(out["required"]) && isObj(out["properties"])) {
    const props = out["properties"];
    out["required"] = out["required"].filter((r) => typeof r === "string" && Object.prototype.hasOwnProperty.call(props, r));
  }
  if (notes.length > 0) out["description"] = `${typeof out["description"] === "string" ? `${out["description"]} ` : ""}(${notes.join("; ")})`;
  return out;
}

const TOP_LEVEL_FORBIDDEN = ["anyOf", "oneOf", "allOf", "enum", "not", "$ref"];

/** A tool's schemas reshaped by `rules` (names aside, which depend on the profile's budget). */
function shapeSchemas(spec: McpToolSpec, rules: ProfileRules): Pick<ProfiledTool, "inputSchema" | "outputSchema"> {
  const shape = (schema: JsonSchemaObject): JsonSchemaObject => {
    let out = rules.inline ? inlineRefs(schema) : schema;
    if (rules.geminiSubset) out = geminiSchema(out) as JsonSchemaObject;
    return out;
  };
  return { inputSchema: shape(spec.inputSchema), ...(spec.outputSchema ? { outputSchema: shape(spec.outputSchema) } : {}) };
}

/** Tool names fitted to `profile`'s budget for a server called `serverName`, unique among themselves. */
function profileNames(tools: readonly McpToolSpec[], profile: McpProfile, serverName: string): string[] {
  const budget = Math.max(8, PROFILE_RULES[profile].nameBudget(serverName));
  const taken = new Set<string>();
  return tools.map((spec) => {
    let name = fitName(spec.name, budget);
    for (let i = 2; taken.has(name); i++) name = fitName(`${spec.name}_${i}`, budget);
    taken.add(name);
    return name;
  });
}

/** Every tool reshaped for `profile`, names fitted to its budget for a server called `serverName`. */
export function applyProfile(tools: readonly McpToolSpec[], profile: McpProfile, serverName: string): ProfiledTool[] {
  const rules = PROFILE_RULES[profile];
  const names = profileNames(tools, profile, serverName);
  return tools.map((spec, i) => ({ name: names[i] as string, spec, ...shapeSchemas(spec, rules), description: spec.description }));
}

/** What the linter reads of one reshaped schema, found once for every profile that shapes alike. */
interface SchemaFacts {
  /** The reshaped schema; at least its top level (members may be as they were before reshaping). */
  readonly schema: JsonSchemaObject;
  /** A `$ref` is left after inlining (only asked of inlining profiles). */
  readonly refs: boolean;
}

/** Why each tool cannot be listed for `profile` (empty when every tool can). */
export function lintProfile(tools: readonly McpToolSpec[], profile: McpProfile, serverName: string): LintIssue[] {
  return lintProfiles(tools, [profile], serverName);
}

/**
 * `lintProfile` for each of `profiles`, issues in profile order. Profiles that reshape schemas the
 * same way (claude, claude-code, cursor and openai all inline) share one reshaping: linting every
 * profile of a large API reshaped each tool five times.
 */
export function lintProfiles(tools: readonly McpToolSpec[], profiles: readonly McpProfile[], serverName: string): LintIssue[] {
  const shaped = new Map<string, { input: SchemaFacts; output?: SchemaFacts }[]>();
  // Inlined once: the Gemini subset is taken of the same inlined schemas. Expansions are shared
  // between tools (nothing here changes a schema once made, and the maps go with the call).
  const sharing = new SharedExpansions();
  const reduced = new Map<object, unknown>();
  type Inlined = { schema: JsonSchemaObject; mentions: boolean };
  let inlined: { input: Inlined; output?: Inlined }[] | undefined;
  const inlineAll = (): { input: Inlined; output?: Inlined }[] =>
    (inlined ??= tools.map((spec) => ({ input: sharing.inline(spec.inputSchema), ...(spec.outputSchema ? { output: sharing.inline(spec.outputSchema) } : {}) })));
  const facts = (base: Inlined, rules: ProfileRules): SchemaFacts => {
    if (!rules.geminiSubset) return { schema: base.schema, refs: rules.inline && base.mentions };
    // The linter reads the top of the reduced schema, which does not depend on how its members are
    // reduced. Every string the Gemini subset writes is one of the schema's, or a description that
    // ends in ")": the whole reduction can mention `$ref` only if the schema does.
    const top = geminiTop(base.schema, (n) => n) as JsonSchemaObject;
    return { schema: top, refs: rules.inline && base.mentions && mentionsRef(geminiShared(base.schema, reduced), sharing.searched) };
  };
  const issues: LintIssue[] = [];
  for (const profile of profiles) {
    const rules = PROFILE_RULES[profile];
    const key = `${rules.inline}/${rules.geminiSubset}`;
    let schemas = shaped.get(key);
    if (schemas === undefined) {
      // Not inlined, the `$ref` search is not asked for.
      const as = (schema: JsonSchemaObject): Inlined => ({ schema, mentions: false });
      const bases = rules.inline ? inlineAll() : tools.map((spec) => ({ input: as(spec.inputSchema), ...(spec.outputSchema ? { output: as(spec.outputSchema) } : {}) }));
      schemas = bases.map((s) => ({ input: facts(s.input, rules), ...(s.output ? { output: facts(s.output, rules) } : {}) }));
      shaped.set(key, schemas);
    }
    lintShaped(tools, profileNames(tools, profile, serverName), schemas, profile, serverName, issues);
  }
  return issues;
}

/**
 * Inlining that shares expansions between the schemas whose `$defs` agree: each name they define
 * has the same target in all of them, and each names every definition its definitions reference
 * (so no expansion reads a name one schema resolves and another does not). Tools from one table
 * agree (`attachDefs` gives each the table's own definitions, all that it reaches); a schema that
 * does not is inlined on its own.
 */
class SharedExpansions implements Expansions {
  private readonly expansions = new Map<string, Expansion>();
  readonly searched = new Map<object, boolean>();
  private readonly targets = new Map<string, unknown>();
  private readonly references = new WeakMap<object, readonly string[]>();
  /** The names each name's target reaches, through any number of references. */
  private readonly reach = new Map<string, ReadonlySet<string>>();

  /** `schema` inlined, and whether its JSON text would contain `"$ref"`. */
  inline(schema: JsonSchemaObject): { schema: JsonSchemaObject; mentions: boolean } {
    const defs = schema["$defs"];
    return inlineWith(schema, !isObj(defs) || this.agrees(defs) ? this : undefined);
  }

  key(name: string, stack: readonly string[]): string {
    // A target that references nothing expands the same anywhere.
    if (this.referencesOf(this.targets.get(name)).length === 0) return JSON.stringify([name]);
    if (stack.length === 0) return JSON.stringify([name, 0]);
    const reach = this.reachOf(name);
    return JSON.stringify([name, stack.length, ...stack.filter((n) => reach.has(n)).sort()]);
  }

  get(key: string): Expansion | undefined {
    return this.expansions.get(key);
  }

  set(key: string, entry: Expansion): void {
    this.expansions.set(key, entry);
  }

  private reachOf(name: string): ReadonlySet<string> {
    let reach = this.reach.get(name);
    if (reach === undefined) {
      const found = new Set<string>();
      const todo = [...this.referencesOf(this.targets.get(name))];
      for (let n = todo.pop(); n !== undefined; n = todo.pop()) {
        if (found.has(n)) continue;
        found.add(n);
        todo.push(...this.referencesOf(this.targets.get(n)));
      }
      this.reach.set(name, (reach = found));
    }
    return reach;
  }

  /** Whether `defs` gives each name the target the others gave it, and names all their references. */
  private agrees(defs: Obj): boolean {
    const names = Object.getOwnPropertyNames(defs);
    for (const name of names) {
      const target = defs[name];
      if (target === undefined) return false;
      const known = this.targets.get(name);
      if (known === undefined) this.targets.set(name, target);
      else if (known !== target) return false;
    }
    for (const name of names) {
      for (const r of this.referencesOf(defs[name])) if (!Object.prototype.hasOwnProperty.call(defs, r) || defs[r] === undefined) return false;
    }
    return true;
  }

  /** The names `target` references anywhere as `#/$defs/<name>`. */
  private referencesOf(target: unknown): readonly string[] {
    if (target === null || typeof target !== "object") return [];
    let names = this.references.get(target);
    if (names === undefined) {
      const found = new Set<string>();
      const visit = (node: unknown): void => {
        if (Array.isArray(node)) for (const n of node) visit(n);
        else if (isObj(node)) {
          const ref = node["$ref"];
          const m = typeof ref === "string" ? /^#\/\$defs\/(.+)$/.exec(ref) : null;
          if (m) found.add(decodePointer(m[1] as string));
          for (const k of Object.keys(node)) visit(node[k]);
        }
      };
      visit(target);
      this.references.set(target, (names = [...found]));
    }
    return names;
  }
}

/**
 * Whether `JSON.stringify(node)` contains `"$ref"`, each object searched once (`seen`): the text
 * holds it where a string written (a member name, or a value) is `$ref` or ends with `"$ref`.
 */
function mentionsRef(node: unknown, seen: Map<object, boolean>): boolean {
  if (typeof node === "string") return node === "$ref" || node.endsWith('"$ref');
  if (node === null || typeof node !== "object") return false;
  let found = seen.get(node);
  if (found === undefined) {
    found = false;
    if (Array.isArray(node)) {
      for (const n of node)
        if (mentionsRef(n, seen)) {
          found = true;
          break;
        }
    } else {
      for (const k of Object.keys(node)) {
        const v = (node as Obj)[k];
        // JSON.stringify leaves out members it cannot write.
        if (v === undefined || typeof v === "function" || typeof v === "symbol") continue;
        if (mentionsRef(k, seen) || mentionsRef(v, seen)) {
          found = true;
          break;
        }
      }
    }
    seen.set(node, found);
  }
  return found;
}

function lintShaped(
  tools: readonly McpToolSpec[],
  profiledNames: readonly string[],
  schemas: readonly { input: SchemaFacts; output?: SchemaFacts }[],
  profile: McpProfile,
  serverName: string,
  issues: LintIssue[],
): void {
  const rules = PROFILE_RULES[profile];
  const issue = (tool: string, rule: string, message: string): void => {
    issues.push({ profile, tool, rule, message });
  };
  const budget = rules.nameBudget(serverName);
  if (budget < 8) issue("*", "server-name-budget", `the server name ${JSON.stringify(serverName)} leaves ${budget} characters for tool names; use a shorter server name`);
  const names = new Set<string>();
  tools.forEach((spec, i) => {
    const name = profiledNames[i] as string;
    const shaped = schemas[i] as { input: SchemaFacts; output?: SchemaFacts };
    if (!rules.namePattern.test(name)) issue(spec.name, "tool-name", `name ${JSON.stringify(name)} does not match ${rules.namePattern.source}`);
    if (name.length > budget) issue(spec.name, "tool-name-budget", `name ${JSON.stringify(name)} is longer than ${budget} characters`);
    if (names.has(name)) issue(spec.name, "tool-name-unique", `name ${JSON.stringify(name)} is used twice`);
    names.add(name);
    for (const [which, f] of [
      ["inputSchema", shaped.input],
      ["outputSchema", shaped.output],
    ] as const) {
      if (f === undefined) continue;
      const schema = f.schema;
      if (schema["type"] !== "object") issue(spec.name, `${which}-object`, `${which} must be an object schema (type: object)`);
      for (const k of TOP_LEVEL_FORBIDDEN) if (schema[k] !== undefined) issue(spec.name, `${which}-top-level`, `${which} has ${k} at the top level`);
      if (f.refs) issue(spec.name, `${which}-refs`, `${which} still holds a $ref after inlining`);
      if (isObj(schema["properties"]) && which === "inputSchema") {
        for (const p of Object.keys(schema["properties"])) if (!PROPERTY_NAME.test(p)) issue(spec.name, "property-name", `argument ${JSON.stringify(p)} does not match ${PROPERTY_NAME.source}`);
      }
    }
  });
}
