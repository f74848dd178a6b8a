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
import type { JsonSchemaObject, McpToolSpec } from "./mcp-tools.js";

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

/** Replaces `#/$defs/X` references with their targets, cycles and deep nesting cut to permissive objects. */
export function inlineRefs(schema: JsonSchemaObject): JsonSchemaObject {
  const defs = isObj(schema["$defs"]) ? schema["$defs"] : {};
  let expanded = 0;
  const walk = (node: unknown, stack: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, stack));
    if (!isObj(node)) return node;
    const ref = node["$ref"];
    if (typeof ref === "string") {
      const m = /^#\/\$defs\/(.+)$/.exec(ref);
      const name = m ? decodePointer(m[1] as string) : undefined;
      const target = name !== undefined && Object.prototype.hasOwnProperty.call(defs, name) ? defs[name] : undefined;
      const siblings = Object.fromEntries(Object.entries(node).filter(([k]) => k !== "$ref"));
      if (name === undefined || target === undefined) return { ...siblings, description: `${String(siblings["description"] ?? "")} (unresolved reference ${ref})`.trim() };
      if (stack.includes(name) || stack.length >= MAX_INLINE_DEPTH || expanded >= MAX_INLINED_REFS) {
        // The type is kept so clients still know it is an object; the content is not constrained.
        const type = isObj(target) && typeof target["type"] === "string" ? { type: target["type"] } : {};
        const why = stack.includes(name) ? "recursive" : stack.length >= MAX_INLINE_DEPTH ? "nested too deep to expand" : "schema too large to expand fully";
        return { ...type, ...siblings, description: `${name} (${why}; not expanded here)${typeof siblings["description"] === "string" ? `: ${siblings["description"]}` : ""}` };
      }
      expanded++;
      const inlined = walk(target, [...stack, name]);
      return isObj(inlined) ? { ...inlined, ...walk(siblings, stack) as Obj } : inlined;
    }
    const out: Obj = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === "$defs") continue;
      Object.defineProperty(out, k, { value: k === "properties" && isObj(v) ? mapValues(v, (x) => walk(x, stack)) : walk(v, stack), enumerable: true, writable: true, configurable: true });
    }
    return out;
  };
  return walk(schema, []) as JsonSchemaObject;
}

function mapValues(o: Obj, f: (v: unknown) => unknown): Obj {
  const out: Obj = {};
  for (const k of Object.keys(o)) Object.defineProperty(out, k, { value: f(o[k]), enumerable: true, writable: true, configurable: true });
  return out;
}

const GEMINI_KEEP = new Set(["type", "format", "description", "nullable", "enum", "properties", "required", "items", "minItems", "maxItems", "minimum", "maximum", "minLength", "maxLength", "pattern", "anyOf", "title"]);
const GEMINI_FORMATS: Readonly<Record<string, readonly string[]>> = { string: ["enum", "date-time"], integer: ["int32", "int64"], number: ["float", "double"] };

/** The OpenAPI 3.0 subset Gemini reads; what it cannot say moves into the description. */
export function geminiSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(geminiSchema);
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
    out[k] = k === "properties" && isObj(v) ? mapValues(v, geminiSchema) : k === "items" || k === "anyOf" ? geminiSchema(v) : v;
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
  // Inlined once: the Gemini subset is taken of the same inlined schemas (geminiSchema copies).
  let inlined: Pick<ProfiledTool, "inputSchema" | "outputSchema">[] | undefined;
  const inlineAll = (): Pick<ProfiledTool, "inputSchema" | "outputSchema">[] => (inlined ??= tools.map((spec) => shapeSchemas(spec, { ...PROFILE_RULES.standard, inline: true })));
  const facts = (schema: JsonSchemaObject, rules: ProfileRules): SchemaFacts => {
    const out = rules.geminiSubset ? (geminiSchema(schema) as JsonSchemaObject) : schema;
    return { schema: out, refs: rules.inline && JSON.stringify(out).includes('"$ref"') };
  };
  const issues: LintIssue[] = [];
  for (const profile of profiles) {
    const rules = PROFILE_RULES[profile];
    const key = `${rules.inline}/${rules.geminiSubset}`;
    let schemas = shaped.get(key);
    if (schemas === undefined) {
      const bases = rules.inline ? inlineAll() : tools.map((spec) => ({ inputSchema: spec.inputSchema, ...(spec.outputSchema ? { outputSchema: spec.outputSchema } : {}) }));
      schemas = bases.map((s) => ({ input: facts(s.inputSchema, rules), ...(s.outputSchema ? { output: facts(s.outputSchema, rules) } : {}) }));
      shaped.set(key, schemas);
    }
    lintShaped(tools, profileNames(tools, profile, serverName), schemas, profile, serverName, issues);
  }
  return issues;
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
    for (const [which, f] of [["inputSchema", shaped.input], ["outputSchema", shaped.output]] as const) {
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
