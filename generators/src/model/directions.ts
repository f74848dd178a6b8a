/**
 * Which members of a body's declared type one direction may leave out, for the client's and
 * server's argument, result and reply types: required readOnly members in requests and required
 * writeOnly members in responses (OpenAPI §4.8.24), and in requests also members with a `default`
 * that are not `required`. openapi-typescript types a defaulted member as present, which is right for
 * responses (the server fills the default in) but would make a caller send a value the server would
 * default anyway. Top level only (through `$ref` and `allOf`), like the rest of this file.
 */
import type { ApiModel } from "./ir.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * Required top-level properties of a body schema marked `flag` (readOnly for requests, writeOnly for
 * responses), through `$ref` and `allOf`; none for unions, whose members Omit cannot reach.
 */
export function flaggedRequired(model: ApiModel, schema: unknown, flag: "readOnly" | "writeOnly"): string[] {
  return membersMatching(model, schema, (node, props, byRef) => {
    const out: string[] = [];
    for (const r of Array.isArray(node["required"]) ? node["required"] : []) {
      const prop = typeof r === "string" && Object.hasOwn(props, r) ? props[r] : undefined;
      if (resolved(prop, byRef)?.[flag] === true) out.push(r as string);
    }
    return out;
  });
}

/** Members a request body may leave out: required readOnly ones, and optional ones with a `default`. */
export function requestOptional(model: ApiModel, schema: unknown): string[] {
  const defaulted = membersMatching(model, schema, (node, props, byRef) => {
    const required = new Set(Array.isArray(node["required"]) ? node["required"] : []);
    return Object.keys(props).filter((k) => !required.has(k) && resolved(props[k], byRef)?.["default"] !== undefined);
  });
  return [...new Set([...flaggedRequired(model, schema, "readOnly"), ...defaulted])];
}

/** A property schema with its `$ref` target's keywords under its own. */
function resolved(prop: unknown, byRef: (ref: unknown) => unknown): Obj | undefined {
  if (!isObj(prop)) return undefined;
  if (prop["$ref"] === undefined) return prop;
  const target = byRef(prop["$ref"]);
  return { ...(isObj(target) ? target : {}), ...prop };
}

type Matcher = (node: Obj, props: Obj, byRef: (ref: unknown) => unknown) => string[];

/** Top-level member names `match` picks from a body schema, through `$ref` and `allOf`; none for unions. */
function membersMatching(model: ApiModel, schema: unknown, match: Matcher): string[] {
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
    for (const name of match(node, props, byRef)) out.add(name);
    if (Array.isArray(node["allOf"])) node["allOf"].forEach(visit);
  };
  const root = isObj(schema) && schema["$ref"] !== undefined ? byRef(schema["$ref"]) : schema;
  if (isObj(root) && (root["oneOf"] !== undefined || root["anyOf"] !== undefined)) return [];
  visit(schema);
  return [...out];
}

