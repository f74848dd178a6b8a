/**
 * readOnly and writeOnly at the top level of a body: which required members one direction may leave
 * out (OpenAPI §4.8.24), for the client's and server's argument, result and reply types.
 */
import type { ApiModel } from "./ir.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * Required top-level properties of a body schema marked `flag` (readOnly for requests, writeOnly for
 * responses), through `$ref` and `allOf`; none for unions, whose members Omit cannot reach.
 */
export function flaggedRequired(model: ApiModel, schema: unknown, flag: "readOnly" | "writeOnly"): string[] {
  const out = new Set<string>();
  const seen = new Set<unknown>();
  const byRef = (ref: unknown): unknown => {
    const m = typeof ref === "string" ? /^#\/components\/schemas\/([^/]+)$/.exec(ref) : null;
    const name = m ? decodeURIComponent(m[1] as string).replace(/~1/g, "/").replace(/~0/g, "~") : undefined;
    return name === undefined ? undefined : model.schemas.find((x) => x.name === name)?.schema;
  };
  const visit = (node: unknown): void => {
    if (!isObj(node) || seen.has(node)) return;
    seen.add(node);
    if (node["$ref"] !== undefined) return visit(byRef(node["$ref"]));
    const props = isObj(node["properties"]) ? node["properties"] : {};
    if (Array.isArray(node["required"])) {
      for (const r of node["required"]) {
        const prop = typeof r === "string" ? props[r] : undefined;
        const resolved = isObj(prop) && prop["$ref"] !== undefined ? { ...(isObj(byRef(prop["$ref"])) ? (byRef(prop["$ref"]) as Obj) : {}), ...prop } : prop;
        if (isObj(resolved) && resolved[flag] === true) out.add(r as string);
      }
    }
    if (Array.isArray(node["allOf"])) node["allOf"].forEach(visit);
  };
  const root = isObj(schema) && schema["$ref"] !== undefined ? byRef(schema["$ref"]) : schema;
  if (isObj(root) && (root["oneOf"] !== undefined || root["anyOf"] !== undefined)) return [];
  visit(schema);
  return [...out];
}

