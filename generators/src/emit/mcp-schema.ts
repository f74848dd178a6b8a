/**
 * Tool schemas for the MCP emitter: the contract's parameter, body and response schemas as
 * self-contained JSON Schema 2020-12. Component references become `#/$defs/<name>`; the components
 * a tool needs are listed by name and kept once per package (the runtime attaches them per tool), so
 * a large API's tool table stays linear in size. OpenAPI-only keywords and `x-` extensions are left
 * out: MCP clients compile these schemas with their own validators, strict ones among them.
 */
import type { ApiModel, JsonSchema } from "../model/ir.js";
import { toJsonSchema } from "./validators/json-schema.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** Keywords that are OpenAPI's, not JSON Schema's: strict validators refuse them. */
const OPENAPI_ONLY = new Set(["example", "discriminator", "xml", "externalDocs", "nullable"]);
const COMPONENT_REF = /^#\/components\/schemas\/(.+)$/;
/**
 * Formats JSON Schema 2020-12 defines, and OpenAPI's own: what clients' validators know. Any other
 * (`uriref`, `int8`, `json` …) moves into the description: strict validators refuse unknown formats,
 * lenient ones (the MCP SDK's) warn about each on every listing.
 */
const KNOWN_FORMATS = new Set(
  (
    "date-time date time duration email idn-email hostname idn-hostname ipv4 ipv6 uri uri-reference iri iri-reference uuid " +
    "uri-template json-pointer relative-json-pointer regex int32 int64 float double byte binary password"
  ).split(" "),
);

function decodeSegment(seg: string): string {
  return decodeURIComponent(seg).replace(/~1/g, "/").replace(/~0/g, "~");
}

function encodeSegment(seg: string): string {
  return seg.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * Schemas of one package, converted once; `needs` records which components a tool needs. The model
 * is not changed while tools are planned, and nothing changes a conversion once made: a schema object
 * many operations share (a component parameter's, a response's component) is converted once, the
 * components it references recorded and added again to each tool's `needs` in the same order.
 */
export class ToolSchemas {
  private readonly components = new Map<string, JsonSchema>();
  readonly defs: Record<string, unknown> = {};
  /** Conversions by schema object and direction, with the components they referenced, in order. */
  private readonly converted = new Map<string, Map<object, { readonly value: Obj | boolean; readonly refs: readonly string[] }>>();
  /** The components each converted definition references, in the order `collect` meets them. */
  private readonly referenced = new WeakMap<object, readonly string[]>();

  constructor(model: ApiModel) {
    for (const s of model.schemas) this.components.set(s.name, s.schema);
  }

  /** `schema` as tool JSON Schema; components it reaches are added to `needs` (and to `defs`). */
  convert(schema: JsonSchema | undefined, needs: Set<string>, relax?: "readOnly" | "writeOnly"): Obj | boolean {
    if (schema === undefined) return {};
    if (schema === null || typeof schema !== "object") return this.clean(toJsonSchema(schema), needs, relax) as Obj | boolean;
    let byObject = this.converted.get(relax ?? "");
    if (byObject === undefined) this.converted.set(relax ?? "", (byObject = new Map()));
    const known = byObject.get(schema);
    if (known !== undefined) {
      for (const name of known.refs) this.addDef(name, needs);
      return known.value;
    }
    const refs: string[] = [];
    const value = this.clean(toJsonSchema(schema), needs, relax, refs) as Obj | boolean;
    byObject.set(schema, { value, refs });
    return value;
  }

  /** The component `name` resolved one level (for deciding whether a response is an object). */
  resolveTop(schema: unknown): unknown {
    let s = schema;
    for (let hops = 0; hops < 10 && isObj(s) && typeof s["$ref"] === "string"; hops++) {
      const m = COMPONENT_REF.exec(s["$ref"]);
      s = m ? this.components.get(decodeSegment(m[1] as string)) : undefined;
    }
    return s;
  }

  private addDef(name: string, needs: Set<string>): void {
    if (needs.has(name)) return;
    needs.add(name);
    if (Object.prototype.hasOwnProperty.call(this.defs, name)) {
      // Already converted once: record what it needs in turn.
      this.collect(this.defs[name], needs);
      return;
    }
    this.defs[name] = true; // placeholder: a cycle reaching back here stops
    const target = this.components.get(name);
    const local = new Set<string>();
    this.defs[name] = this.clean(toJsonSchema(target ?? {}), local);
    for (const n of local) this.addDef(n, needs);
  }

  /** Adds what a converted definition references (a placeholder references nothing yet). */
  private collect(def: unknown, needs: Set<string>): void {
    if (def === null || typeof def !== "object") return;
    let names = this.referenced.get(def);
    if (names === undefined) {
      // Found once per definition: definitions are not changed once converted. A name met again
      // would be skipped by addDef, as it is already needed by then.
      const found = new Set<string>();
      const visit = (node: unknown): void => {
        if (Array.isArray(node)) node.forEach(visit);
        else if (isObj(node)) {
          const ref = node["$ref"];
          if (typeof ref === "string" && ref.startsWith("#/$defs/")) found.add(decodeSegment(ref.slice(8)));
          for (const v of Object.values(node)) visit(v);
        }
      };
      visit(def);
      this.referenced.set(def, (names = [...found]));
    }
    for (const name of names) this.addDef(name, needs);
  }

  /** `node` cleaned; each component it references is added to `needs` (and, in order, to `refs`). */
  private clean(node: unknown, needs: Set<string>, relax?: "readOnly" | "writeOnly", refs?: string[]): unknown {
    if (Array.isArray(node)) return node.map((n) => this.clean(n, needs, relax, refs));
    if (!isObj(node)) return node;
    const out: Obj = {};
    for (const [k, v] of Object.entries(node)) {
      if (k.startsWith("x-") || OPENAPI_ONLY.has(k)) continue;
      if (k === "$ref" && typeof v === "string") {
        const m = COMPONENT_REF.exec(v);
        if (m) {
          const name = decodeSegment(m[1] as string);
          this.addDef(name, needs);
          refs?.push(name);
          out[k] = `#/$defs/${encodeSegment(name)}`;
        } else {
          // A reference this conversion cannot follow is left open rather than dangling.
          out["description"] = `${typeof node["description"] === "string" ? `${node["description"]} ` : ""}(schema at ${v} not shown)`;
        }
        continue;
      }
      const value =
        k === "properties" || k === "patternProperties" || k === "$defs" || k === "dependentSchemas"
          ? isObj(v)
            ? mapEntries(v, (x) => this.clean(x, needs, relax, refs))
            : v
          : k === "enum" || k === "const" || k === "default" || k === "examples"
            ? v
            : this.clean(v, needs, relax, refs);
      put(out, k, value);
    }
    const format = out["format"];
    if (typeof format === "string" && !KNOWN_FORMATS.has(format)) {
      delete out["format"];
      out["description"] = `${typeof out["description"] === "string" ? `${out["description"]} ` : ""}(format: ${format})`;
    }
    if (relax && Array.isArray(out["required"]) && isObj(out["properties"])) {
      // The direction may leave these out (a request its readOnly members, a response its writeOnly ones).
      const props = out["properties"];
      out["required"] = out["required"].filter((r) => !(typeof r === "string" && isObj(props[r]) && this.flagged(props[r], relax)));
      if ((out["required"] as unknown[]).length === 0) delete out["required"];
    }
    return out;
  }

  private flagged(schema: Obj, flag: "readOnly" | "writeOnly"): boolean {
    if (schema[flag] === true) return true;
    const target = this.resolveTop(schema);
    return isObj(target) && target[flag] === true;
  }
}

/** Sets `k` on a fresh plain object: by assignment (faster), unless `k` would set the prototype. */
function put(out: Obj, k: string, v: unknown): void {
  if (k === "__proto__") Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  else out[k] = v;
}

function mapEntries(o: Obj, f: (v: unknown) => unknown): Obj {
  const out: Obj = {};
  for (const k of Object.keys(o)) put(out, k, f(o[k]));
  return out;
}

/** True when `schema` (already resolved) can itself be an MCP output schema: an object, no combinators on top. */
export function isPlainObjectSchema(schema: unknown): boolean {
  if (!isObj(schema)) return false;
  const type = schema["type"];
  const objectTyped = type === "object" || (type === undefined && isObj(schema["properties"]));
  return objectTyped && ["anyOf", "oneOf", "allOf", "not", "enum", "const", "if", "$ref"].every((k) => schema[k] === undefined) && schema["nullable"] !== true;
}
