/**
 * Field selection as the conformance suite checks it (`x-field-selection` on an operation): which
 * parameter chooses the fields of the answer's objects, their defaults, and the expansions that put
 * related objects under `includes`, each kind with its own fields parameter and defaults. The names
 * a fields parameter can take come from its schema (`enum`, else `x-values-seen`).
 */
import type { Operation } from "../../model/ir.js";
import { isObj, type Resolve } from "../../model/schema-resolve.js";

type Obj = Record<string, unknown>;
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

/** The names a comma-separated fields parameter lists: its items' enum, else the values the document shows. */
function fieldNames(op: Operation, param: string | undefined, resolve: Resolve): string[] {
  const p = param === undefined ? undefined : op.parameters.find((x) => x.name === param && x.in === "query");
  if (!p) return [];
  const s = resolve(p.schema);
  const items = isObj(s["items"]) ? { ...resolve(s["items"]), ...s["items"] } : s;
  return [...new Set([...strings(items["enum"]), ...strings(items["x-values-seen"])])];
}

export function fieldSelectionPlan(op: Operation, resolve: Resolve): Obj | undefined {
  const fs = op.fieldSelection;
  if (!fs || op.unspecified !== undefined || typeof fs["objects"] !== "string" || typeof fs["fields"] !== "string") return undefined;
  const names = fieldNames(op, fs["fields"], resolve);
  const expansions = isObj(fs["expansions"]) ? fs["expansions"] : undefined;
  const kinds = (Array.isArray(expansions?.["kinds"]) ? expansions["kinds"] : []).filter(isObj).map((k) => ({
    expansion: String(k["expansion"]),
    include: String(k["include"]),
    ...(typeof k["from"] === "string" ? { from: k["from"] } : {}),
    ...(typeof k["key"] === "string" ? { key: k["key"] } : {}),
    ...(typeof k["fields"] === "string" ? { fields: k["fields"], names: fieldNames(op, k["fields"], resolve) } : {}),
    ...(Array.isArray(k["defaults"]) ? { defaults: strings(k["defaults"]) } : {}),
    ...(Array.isArray(k["always"]) ? { always: strings(k["always"]) } : {}),
  }));
  return {
    objects: fs["objects"],
    fields: fs["fields"],
    names,
    defaults: strings(fs["defaults"]),
    ...(Array.isArray(fs["always"]) ? { always: strings(fs["always"]) } : {}),
    ...(typeof fs["key"] === "string" ? { key: fs["key"] } : {}),
    ...(expansions && typeof expansions["param"] === "string"
      ? { expansions: { param: expansions["param"], includes: typeof expansions["includes"] === "string" ? expansions["includes"] : "/includes", kinds } }
      : {}),
  };
}
