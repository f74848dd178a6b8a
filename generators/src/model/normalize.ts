/**
 * Rewrites spec idioms that are valid OpenAPI but that downstream tools read differently into one
 * canonical form, on a copy, before any emitter sees the document.
 */
import { parsePointer } from "../load/errors.js";
import { pascalCase, uniqueNames } from "./naming.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

export function normalizeDocument(doc: Obj): Obj {
  const out = structuredClone(doc);
  const schemas = isObj(out["components"]) && isObj((out["components"] as Obj)["schemas"]) ? ((out["components"] as Obj)["schemas"] as Obj) : {};
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(walk);
      return;
    }
    if (!isObj(node)) return;
    const disc = node["discriminator"];
    if (isObj(disc) && isObj(disc["mapping"])) {
      // A mapping value may be a bare schema name (OpenAPI 3.x §4.8.25); make it a reference.
      const mapping = disc["mapping"] as Obj;
      for (const [key, value] of Object.entries(mapping)) {
        if (typeof value === "string" && !value.includes("#") && !value.includes("/") && Object.prototype.hasOwnProperty.call(schemas, value)) {
          mapping[key] = `#/components/schemas/${value}`;
        }
      }
    }
    for (const v of Object.values(node)) walk(v);
  };
  walk(out);
  hoistSchemasReferencedInsidePaths(out);
  return out;
}

/**
 * A `$ref` into an operation (`#/paths/~1a/post/requestBody/content/…/schema/…`) is valid, but type
 * generators resolve it through optional members (`requestBody` may be undefined) and produce code
 * that does not compile. Each such target is copied to components.schemas once, under a name made
 * from its location, and every reference to it is pointed there.
 */
function hoistSchemasReferencedInsidePaths(doc: Obj): void {
  const targets = new Set<string>();
  const collect = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(collect);
    else if (isObj(node)) {
      const ref = node["$ref"];
      if (typeof ref === "string" && ref.startsWith("#/paths/") && parsePointer(ref).includes("schema")) targets.add(ref);
      for (const v of Object.values(node)) collect(v);
    }
  };
  collect(doc);
  if (targets.size === 0) return;
  const components = (isObj(doc["components"]) ? doc["components"] : (doc["components"] = {})) as Obj;
  const schemas = (isObj(components["schemas"]) ? components["schemas"] : (components["schemas"] = {})) as Obj;
  const ordered = [...targets].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const names = uniqueNames(ordered, (ref) => pascalCase(parsePointer(ref).slice(1).join(" "), "Inline"), Object.keys(schemas));
  const renamed = new Map(ordered.map((ref, i) => [ref, `#/components/schemas/${names[i] as string}`]));
  ordered.forEach((ref, i) => {
    let target: unknown = doc;
    for (const seg of parsePointer(ref)) target = isObj(target) || Array.isArray(target) ? (target as Obj)[seg] : undefined;
    schemas[names[i] as string] = structuredClone(target ?? {});
  });
  const rewrite = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(rewrite);
    else if (isObj(node)) {
      const ref = node["$ref"];
      if (typeof ref === "string" && renamed.has(ref)) node["$ref"] = renamed.get(ref);
      for (const v of Object.values(node)) rewrite(v);
    }
  };
  rewrite(doc);
}
