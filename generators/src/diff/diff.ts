/**
 * Entry points of the contract diff: two models (or two bundled documents) in, every change with
 * its severity and the semver bump it implies out.
 */
import { toPointer } from "../load/errors.js";
import type { OpenApiDocument } from "../load/load.js";
import { buildOutline, type ModelOutline, type OperationOutline } from "../model/build.js";
import { bumpOf, sortChanges, toChange, type Change, type DiffResult } from "./change.js";
import { compareSchemaComponents, compareSecuritySchemes } from "./component-compare.js";
import { compareDocument } from "./document-compare.js";
import { compareOperation, type Sides } from "./operation-compare.js";
import { sameJson, unchangedParts } from "./unchanged.js";
import { byCodeUnit, deepEqual, SpecView } from "./view.js";

export interface DiffOptions {
  /**
   * Skip parts the same on both sides (see `unchangedParts`); false walks everything, which finds
   * the same changes more slowly (kept to check that claim). @default true
   */
  readonly skipUnchanged?: boolean;
}

/**
 * Compares two models built by `buildModel` (or their outlines, `buildOutline`: all the diff
 * reads). Operations are matched by method and path (path parameter names aside); an unmatched
 * pair with the same operationId is a move.
 */
export function diffModels(oldModel: ModelOutline, newModel: ModelOutline, options: DiffOptions = {}): DiffResult {
  // The common case during generation (nothing changed since last time) costs one walk.
  if (deepEqual(oldModel.document, newModel.document)) return { changes: [], bump: "none" };
  const views: Sides = {
    old: new SpecView(oldModel.document),
    new: new SpecView(newModel.document),
    clean: { request: new Set(), response: new Set() },
    ...(options.skipUnchanged === false ? {} : { shortcuts: { unchanged: unchangedParts(oldModel.document, newModel.document) } }),
  };
  const changes: Change[] = [...diffOperations(views, oldModel.operations, newModel.operations)];
  for (const f of [...compareSchemaComponents(views.old, views.new, views.shortcuts), ...compareSecuritySchemes(views.old, views.new), ...compareDocument(views.old, views.new)]) {
    changes.push(toChange(f));
  }
  const sorted = sortChanges(changes);
  return { changes: sorted, bump: bumpOf(sorted) };
}

/** Compares two bundled documents (`loadSpec(…).document`, or any OpenAPI 3.x object with internal refs only). */
export function diffSpecs(oldDoc: OpenApiDocument, newDoc: OpenApiDocument, options: DiffOptions = {}): DiffResult {
  // Equal documents normalize to equal documents: no need to build either model to say so.
  if (deepEqual(oldDoc, newDoc)) return { changes: [], bump: "none" };
  return diffModels(buildOutline(oldDoc), buildOutline(newDoc), options);
}

/**
 * diffSpecs with the new side given as its outline (or the model built from it, whose document and
 * operations are what buildOutline gives: buildModel and buildOutline normalize alike, and
 * normalizing twice changes nothing), so the generation's own model is not outlined again.
 */
export function diffAgainstOutline(oldDoc: OpenApiDocument, newModel: ModelOutline, options: DiffOptions = {}): DiffResult {
  if (deepEqual(oldDoc, newModel.document)) return { changes: [], bump: "none" };
  return diffModels(buildOutline(oldDoc), newModel, options);
}

/** `/users/{id}` and `/users/{user_id}` are the same route. */
const routeKey = (op: OperationOutline): string => `${op.method} ${op.path.replace(/\{[^}]*\}/g, "{}")}`;

/**
 * Whether everything `compareOperation` reads is the same on both sides (the path item and what it
 * references, the names the model gave, the effective security), so that it would find nothing.
 */
function sameOperation(views: Sides, o: OperationOutline, n: OperationOutline): boolean {
  return (
    o.path === n.path &&
    o.method === n.method &&
    o.id === n.id &&
    o.idGenerated === n.idGenerated &&
    views.shortcuts?.unchanged(toPointer(["paths", n.path])) === true &&
    sameJson(o.security, n.security)
  );
}

function diffOperations(views: Sides, before: readonly OperationOutline[], after: readonly OperationOutline[]): Change[] {
  const out: Change[] = [];
  const oldByRoute = new Map(before.map((op) => [routeKey(op), op]));
  const newByRoute = new Map(after.map((op) => [routeKey(op), op]));
  const unmatchedOld: OperationOutline[] = [];
  for (const o of before) {
    const n = newByRoute.get(routeKey(o));
    if (!n) unmatchedOld.push(o);
    else if (!sameOperation(views, o, n)) out.push(...compareOperation(views, o, n).map((f) => toChange(f, n)));
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
