/**
 * The type of a body as one direction sees it, when the contract's direction views hold it
 * (model/directions.ts, printed by types-views.ts): `requestComponents["schemas"]["Matcher"]` for
 * a body that is a reference to a schema with a view, `requestBodies["POST /silences application/json"]`
 * for an inline body with one; undefined when the body reads as `components` and `paths` say.
 */
import type { ApiModel, Operation } from "../model/ir.js";
import { bodyKey, directionViews } from "../model/directions.js";
import { VIEW_NAMES } from "./types-views.js";
import { ident, ts, type Code } from "./ts.js";

const REF = /^#\/components\/schemas\/([^/]+)$/;

export function viewBodyType(model: ApiModel, direction: "request" | "response", op: Pick<Operation, "method" | "path">, mediaType: string, schema: unknown, status?: string): Code | undefined {
  const view = directionViews(model.document)[direction];
  const names = VIEW_NAMES[direction];
  const ref = schema !== null && typeof schema === "object" ? (schema as Record<string, unknown>)["$ref"] : undefined;
  const m = typeof ref === "string" ? REF.exec(ref) : null;
  if (m) {
    const name = decodeURIComponent(m[1] as string)
      .replace(/~1/g, "/")
      .replace(/~0/g, "~");
    return view.components.has(name) ? ts`${ident(names.components)}["schemas"][${name}]` : undefined;
  }
  const key = bodyKey(op.method, op.path, mediaType, status);
  return view.bodies.has(key) ? ts`${ident(names.bodies)}[${key}]` : undefined;
}

/** The view interfaces a module's text uses, to import from the types. */
export function viewImports(text: string): string[] {
  return [...Object.values(VIEW_NAMES.request), ...Object.values(VIEW_NAMES.response)].filter((n) => new RegExp(`\\b${n}\\[`).test(text));
}
