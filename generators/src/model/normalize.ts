/**
 * Rewrites spec idioms that are valid OpenAPI but that downstream tools read differently into one
 * canonical form, on a copy (the document itself when nothing needs it), before any emitter sees it.
 */
import { parsePointer } from "../load/errors.js";
import { pascalCase, uniqueNames } from "./naming.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * `doc` in canonical form: `doc` itself when nothing in it needs rewriting (GitHub's description and
 * the repository's specs), else a rewritten copy; `doc` is never written to. A copy of GitHub's
 * 10 MB document took a tenth of a second and left as much garbage, on every run. Nothing after
 * this writes to the model's document either (a test generates every spec with it frozen).
 */
export function normalizeDocument(doc: Obj): Obj {
  if (!needsRewriting(doc)) return doc;
  const out = structuredClone(doc);
  const schemas = schemasOf(out);
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
      for (const [key, value] of Object.entries(mapping)) if (bareMappingName(value, schemas)) mapping[key] = `#/components/schemas/${value as string}`;
    }
    nullOrComposite(node);
    for (const v of Object.values(node)) walk(v);
  };
  walk(out);
  hoistSchemaRefs(out);
  return out;
}

/** The document's component schemas (none: an empty object). */
const schemasOf = (doc: Obj): Obj => (isObj(doc["components"]) && isObj(doc["components"]["schemas"]) ? doc["components"]["schemas"] : {});

/** A bare schema name as a discriminator mapping value, which normalizing turns into a reference. */
const bareMappingName = (value: unknown, schemas: Obj): boolean => typeof value === "string" && !value.includes("#") && !value.includes("/") && Object.prototype.hasOwnProperty.call(schemas, value);

/** Whether `node` is `type: "null"` beside `oneOf`/`anyOf` (see nullOrComposite). */
function nullBesideComposite(node: Obj): boolean {
  const type = node["type"];
  const onlyNull = type === "null" || (Array.isArray(type) && type.length === 1 && type[0] === "null");
  return onlyNull && (Array.isArray(node["oneOf"]) || Array.isArray(node["anyOf"]));
}

/** Whether normalizing would change anything: a mapping by bare name, null beside a composite, a reference to hoist. */
function needsRewriting(doc: Obj): boolean {
  const schemas = schemasOf(doc);
  const found = (node: unknown): boolean => {
    if (Array.isArray(node)) return node.some(found);
    if (!isObj(node)) return false;
    const disc = node["discriminator"];
    if (isObj(disc) && isObj(disc["mapping"]) && Object.values(disc["mapping"]).some((v) => bareMappingName(v, schemas))) return true;
    if (nullBesideComposite(node)) return true;
    const ref = node["$ref"];
    if (typeof ref === "string" && hoistableRef(ref)) return true;
    for (const v of Object.values(node)) if (found(v)) return true;
    return false;
  };
  return found(doc);
}

/**
 * `type: "null"` beside `oneOf`/`anyOf` asks for a value that is null and also one of the branches:
 * as written it accepts nothing when the branches exclude null, and openapi-typescript prints it as
 * `null & (…)`, which TypeScript rejects when a branch refers back to the schema. Every document
 * seen writing it means "null or one of these" (the 3.0 `nullable` idiom carried into 3.1), so that
 * is what it becomes: `anyOf: [{ type: "null" }, { oneOf/anyOf: branches }]`.
 */
function nullOrComposite(node: Obj): void {
  if (!nullBesideComposite(node)) return;
  const composite: Obj = {};
  for (const key of ["oneOf", "anyOf"]) {
    if (node[key] !== undefined) composite[key] = node[key];
    delete node[key];
  }
  delete node["type"];
  node["anyOf"] = [{ type: "null" }, composite];
}

/**
 * A `$ref` whose target is a schema somewhere other than `components.schemas/<name>` is valid, but
 * the generators cannot follow it: openapi-typescript turns it into indexed access on the types of
 * the containing object (`paths[…]["requestBody"]` may be undefined; a schema has no `definitions`
 * member; `components["parameters"]["id"]` is the parameter's value, not an object with `schema`),
 * and the validators compile only `components.schemas`. Each such target is copied to
 * components.schemas once, under a name made from its location, and every reference to it is pointed
 * there. Targets are: schemas inside `paths`, schemas inside other components (`#/components/
 * parameters/id/schema`), locations inside a named schema other than a chain of `properties`
 * (`#/components/schemas/Address/definitions/type`, `…/items`), and schemas kept under a root
 * extension (`#/x-stream-definitions/…`) or a Swagger 2.0 `definitions` left in place.
 */
export function hoistableRef(ref: string): boolean {
  if (!ref.startsWith("#/")) return false;
  const segs = parsePointer(ref);
  if (segs[0] === "paths" || segs[0] === "webhooks" || segs[0] === "x-webhooks") return segs.includes("schema");
  // Schemas kept at a root extension (grpc-gateway's `#/x-stream-definitions/…`) or a 2.0 leftover (`#/definitions/…`).
  if ((segs[0]?.startsWith("x-") || segs[0] === "definitions") && segs.length >= 2) return true;
  if (segs[0] !== "components" || segs.length < 3) return false;
  if (segs[1] !== "schemas") return segs.slice(3).includes("schema");
  const rest = segs.slice(3);
  for (let i = 0; i < rest.length; i += 2) if (rest[i] !== "properties" || rest[i + 1] === undefined) return true;
  return false;
}

function hoistedName(ref: string): string {
  const segs = parsePointer(ref);
  // Historical names for targets inside paths (`PathsPetsPostRequestBody…`) stay as they were.
  const words = segs[0] === "components" && segs[1] === "schemas" ? segs.slice(2) : segs.slice(1);
  return pascalCase(words.join(" "), "Inline");
}

function hoistSchemaRefs(doc: Obj): void {
  const targets = new Set<string>();
  const collect = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(collect);
    else if (isObj(node)) {
      const ref = node["$ref"];
      if (typeof ref === "string" && hoistableRef(ref)) targets.add(ref);
      for (const v of Object.values(node)) collect(v);
    }
  };
  collect(doc);
  if (targets.size === 0) return;
  const components = (isObj(doc["components"]) ? doc["components"] : (doc["components"] = {})) as Obj;
  const schemas = (isObj(components["schemas"]) ? components["schemas"] : (components["schemas"] = {})) as Obj;
  const ordered = [...targets].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const names = uniqueNames(ordered, hoistedName, Object.keys(schemas));
  const renamed = new Map(ordered.map((ref, i) => [ref, `#/components/schemas/${names[i] as string}`]));
  // Copies are taken before any reference is rewritten, then rewritten with everything else.
  const copies = ordered.map((ref) => {
    let target: unknown = doc;
    for (const seg of parsePointer(ref)) target = isObj(target) || Array.isArray(target) ? (target as Obj)[seg] : undefined;
    return structuredClone(target ?? {});
  });
  ordered.forEach((_ref, i) => (schemas[names[i] as string] = copies[i]));
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
