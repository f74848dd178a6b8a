/**
 * Rewrites spec idioms that are valid OpenAPI but that downstream tools read differently into one
 * canonical form, on a copy, before any emitter sees the document.
 */
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
  return out;
}
