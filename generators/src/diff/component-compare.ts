/**
 * Component schemas and security schemes, compared by name. A schema that disappears under one name
 * and appears with the same shape under another was renamed (or moved to another file), not
 * removed. Schemas an operation uses are compared where the operation uses them, in the right
 * direction; only the ones no operation reaches are compared here.
 */
import { escapePointerSegment, parsePointer } from "../load/errors.js";
import { compareAnnotations } from "./annotations.js";
import type { Finding } from "./change.js";
import { SchemaComparer } from "./schema-compare.js";
import type { Shortcuts } from "./unchanged.js";
import { byCodeUnit, isObj, stableJson, type Loc, type SpecView } from "./view.js";

const SCHEMAS_PREFIX = "#/components/schemas/";

function schemasOf(view: SpecView): Map<string, Loc> {
  const components = view.get(view.root(), "components");
  const holder = view.child(components, "schemas");
  return new Map(view.entries(holder));
}

/**
 * Reachable schema names by document: `--watch` diffs each run's document against the last run's,
 * the same object (pipeline.ts keeps its outline), whose names were found in the run before.
 */
const reachableIn = new WeakMap<object, ReadonlySet<string>>();

/** Names of component schemas any path reaches through `$ref`s, directly or transitively. */
export function reachableSchemas(view: SpecView): ReadonlySet<string> {
  const known = reachableIn.get(view.document);
  if (known !== undefined) return known;
  const out = findReachable(view);
  reachableIn.set(view.document, out);
  return out;
}

function findReachable(view: SpecView): Set<string> {
  const out = new Set<string>();
  const visitedRefs = new Set<string>();
  const stack: unknown[] = [view.child(view.root(), "paths").node];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    if (!isObj(node)) continue;
    const ref = node["$ref"];
    if (typeof ref === "string" && ref.startsWith("#") && !visitedRefs.has(ref)) {
      visitedRefs.add(ref);
      if (ref.startsWith(SCHEMAS_PREFIX)) out.add(parsePointer(ref)[2] as string);
      stack.push(view.deref({ node, pointer: "" }).node);
    }
    for (const value of Object.values(node)) stack.push(value);
  }
  return out;
}

const schemaPointer = (name: string): string => `${SCHEMAS_PREFIX}${escapePointerSegment(name)}`;

/** Cheap shape key that two schemas must share to be worth a full comparison as a rename. */
function outline(view: SpecView, loc: Loc): string {
  const d = view.deref(loc).node;
  if (!isObj(d)) return stableJson(d);
  const props = isObj(d["properties"]) ? Object.keys(d["properties"]).sort(byCodeUnit) : [];
  return stableJson([d["type"] ?? null, props, Array.isArray(d["enum"]) ? d["enum"].length : null, Array.isArray(d["allOf"]) ? d["allOf"].length : null]);
}

/** @param shortcuts what may be skipped as unable to differ (see `SchemaComparer`). @default nothing */
export function compareSchemaComponents(oldView: SpecView, newView: SpecView, shortcuts?: Shortcuts): Finding[] {
  const before = schemasOf(oldView);
  const after = schemasOf(newView);
  const usedBefore = reachableSchemas(oldView);
  const usedAfter = reachableSchemas(newView);
  const out: Finding[] = [];
  const comparer = new SchemaComparer(oldView, newView, "schema", new Set(), shortcuts);

  for (const name of [...before.keys()].sort(byCodeUnit)) {
    const o = before.get(name) as Loc;
    const n = after.get(name);
    if (!n || usedBefore.has(name) || usedAfter.has(name)) continue;
    comparer.compare(o, n, `schema ${name}`);
  }
  out.push(...comparer.findings);

  const removed = [...before.keys()].filter((k) => !after.has(k)).sort(byCodeUnit);
  const added = new Set([...after.keys()].filter((k) => !before.has(k)).sort(byCodeUnit));
  for (const name of removed) {
    const o = before.get(name) as Loc;
    const shape = outline(oldView, o);
    const match = [...added].find((candidate) => {
      const n = after.get(candidate) as Loc;
      return outline(newView, n) === shape && comparer.sameShape(o, n);
    });
    if (match !== undefined) {
      added.delete(match);
      out.push({ kind: "schema-renamed", side: "new", pointer: schemaPointer(match), message: `schema ${name} renamed to ${match}` });
    } else {
      out.push({ kind: "schema-removed", side: "old", pointer: schemaPointer(name), message: `schema ${name} removed` });
    }
  }
  for (const name of added) out.push({ kind: "schema-added", side: "new", pointer: schemaPointer(name), message: `schema ${name} added` });
  return out;
}

/** `value` without `x-` members at any depth. */
function withoutExtensions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutExtensions);
  if (!isObj(value)) return value;
  return Object.fromEntries(Object.entries(value).flatMap(([k, v]) => (k.startsWith("x-") ? [] : [[k, withoutExtensions(v)]])));
}

/** Members of a security scheme that change how a client authenticates. */
const SCHEME_BEHAVIOUR = ["type", "scheme", "in", "name", "bearerFormat", "flows", "openIdConnectUrl", "x-oauth1"] as const;

export function compareSecuritySchemes(oldView: SpecView, newView: SpecView): Finding[] {
  const schemes = (view: SpecView): Map<string, Loc> => {
    const holder = view.child(view.get(view.root(), "components"), "securitySchemes");
    return new Map(view.entries(holder).map(([name]) => [name, view.get(holder, name)]));
  };
  const before = schemes(oldView);
  const after = schemes(newView);
  const out: Finding[] = [];
  for (const name of [...new Set([...before.keys(), ...after.keys()])].sort(byCodeUnit)) {
    const o = before.get(name);
    const n = after.get(name);
    if (o && !n) out.push({ kind: "security-scheme-removed", side: "old", pointer: o.pointer, message: `security scheme ${name} removed` });
    else if (!o && n) out.push({ kind: "security-scheme-added", side: "new", pointer: n.pointer, message: `security scheme ${name} added` });
    else if (o && n) {
      const on = isObj(o.node) ? o.node : {};
      const nn = isObj(n.node) ? n.node : {};
      // Extensions inside the flows (`x-revocation-url`) tell tools about the flow; a client authenticates as before.
      const behaviour = (node: Record<string, unknown>, k: string): string => stableJson(k === "flows" ? withoutExtensions(node[k]) : node[k]);
      const changed = SCHEME_BEHAVIOUR.filter((k) => behaviour(on, k) !== behaviour(nn, k));
      if (!changed.includes("flows") && stableJson(on["flows"]) !== stableJson(nn["flows"]))
        out.push({ kind: "annotation-changed", side: "new", pointer: `${n.pointer}/flows`, message: `security scheme ${name}: an extension of its flows changed` });
      if (changed.length > 0) out.push({ kind: "security-scheme-changed", side: "new", pointer: n.pointer, message: `security scheme ${name}: ${changed.join(", ")} changed` });
      const docs = compareAnnotations(o, n, `security scheme ${name}`, { docKeys: ["description"] });
      // x-oauth1 is compared above as behaviour.
      out.push(...docs.filter((f) => !f.pointer.endsWith("/x-oauth1")));
    }
  }
  return out;
}
