/**
 * Entry points of the contract diff: two models (or two bundled documents) in, every change with
 * its severity and the semver bump it implies out.
 */
import type { OpenApiDocument } from "../load/load.js";
import type { SourceFile } from "../load/source.js";
import { buildModel } from "../model/build.js";
import type { ApiModel, Operation } from "../model/ir.js";
import { bumpOf, sortChanges, toChange, type Change, type DiffResult } from "./change.js";
import { compareSchemaComponents, compareSecuritySchemes } from "./component-compare.js";
import { compareDocument } from "./document-compare.js";
import { compareOperation, type Sides } from "./operation-compare.js";
import { byCodeUnit, deepEqual, SpecView } from "./view.js";

/**
 * Compares two models built by `buildModel`. Operations are matched by method and path (path
 * parameter names aside); an unmatched pair with the same operationId is a move.
 */
export function diffModels(oldModel: ApiModel, newModel: ApiModel): DiffResult {
  // The common case during generation (nothing changed since last time) costs one walk.
  if (deepEqual(oldModel.document, newModel.document)) return { changes: [], bump: "none" };
  const views: Sides = {
    old: new SpecView(oldModel.document),
    new: new SpecView(newModel.document),
    clean: { request: new Set(), response: new Set() },
  };
  const changes: Change[] = [...diffOperations(views, oldModel.operations, newModel.operations)];
  for (const f of [
    ...compareSchemaComponents(views.old, views.new),
    ...compareSecuritySchemes(views.old, views.new),
    ...compareDocument(views.old, views.new),
  ]) {
    changes.push(toChange(f));
  }
  const sorted = sortChanges(changes);
  return { changes: sorted, bump: bumpOf(sorted) };
}

/** Compares two bundled documents (`loadSpec(…).document`, or any OpenAPI 3.x object with internal refs only). */
export function diffSpecs(oldDoc: OpenApiDocument, newDoc: OpenApiDocument): DiffResult {
  return diffModels(modelOf(oldDoc, "old"), modelOf(newDoc, "new"));
}

function modelOf(document: OpenApiDocument, name: string): ApiModel {
  const root: SourceFile = { absPath: "", displayPath: name, text: "", data: document, locate: () => ({ line: 1, col: 1 }) };
  return buildModel({ root, files: [root], document, version: document.openapi.startsWith("3.0") ? "3.0" : "3.1", hash: "", warnings: [] }, name);
}

/** `/users/{id}` and `/users/{user_id}` are the same route. */
const routeKey = (op: Operation): string => `${op.method} ${op.path.replace(/\{[^}]*\}/g, "{}")}`;

function diffOperations(views: Sides, before: readonly Operation[], after: readonly Operation[]): Change[] {
  const out: Change[] = [];
  const oldByRoute = new Map(before.map((op) => [routeKey(op), op]));
  const newByRoute = new Map(after.map((op) => [routeKey(op), op]));
  const unmatchedOld: Operation[] = [];
  for (const o of before) {
    const n = newByRoute.get(routeKey(o));
    if (n) out.push(...compareOperation(views, o, n).map((f) => toChange(f, n)));
    else unmatchedOld.push(o);
  }
  const unmatchedNew = new Map(after.filter((n) => !oldByRoute.has(routeKey(n))).map((n) => [n.id, n]));
  for (const o of [...unmatchedOld].sort((a, b) => byCodeUnit(a.id, b.id))) {
    const n = o.idGenerated ? undefined : unmatchedNew.get(o.id);
    if (n && !n.idGenerated) {
      unmatchedNew.delete(o.id);
      out.push(
        toChange(
          {
            kind: "operation-moved",
            side: "new",
            pointer: n.pointer,
            message: `operation moved from ${o.method.toUpperCase()} ${o.path} to ${n.method.toUpperCase()} ${n.path}`,
          },
          n,
        ),
      );
      out.push(...compareOperation(views, o, n).map((f) => toChange(f, n)));
      continue;
    }
    out.push(toChange({ kind: "operation-removed", side: "old", pointer: o.pointer, message: `operation ${o.method.toUpperCase()} ${o.path} removed` }, o));
  }
  for (const n of unmatchedNew.values()) {
    out.push(toChange({ kind: "operation-added", side: "new", pointer: n.pointer, message: `operation ${n.method.toUpperCase()} ${n.path} added` }, n));
  }
  return out;
}
