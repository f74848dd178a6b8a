/**
 * Compares what one operation asks for and answers with: parameters, request body, responses and
 * effective security, plus its own documentation and deprecation.
 */
import type { OperationOutline } from "../model/build.js";
import type { SecurityRequirement } from "../model/ir.js";
import { compareAnnotations } from "./annotations.js";
import type { Finding } from "./change.js";
import { SchemaComparer } from "./schema-compare.js";
import type { Shortcuts } from "./unchanged.js";
import { byCodeUnit, isObj, str, type Loc, type SpecView } from "./view.js";

export interface Sides {
  readonly old: SpecView;
  readonly new: SpecView;
  /** Schema location pairs known equal, per direction (see `SchemaComparer.settle`). */
  readonly clean: { readonly request: Set<string>; readonly response: Set<string> };
  /** What may be skipped as unable to differ (see `unchangedParts`). @default nothing */
  readonly shortcuts?: Shortcuts;
}

/** Findings for one pair of operations matched by method and path, or by operationId for a move. */
export function compareOperation(views: Sides, o: OperationOutline, n: OperationOutline): Finding[] {
  const out: Finding[] = [];
  const request = new SchemaComparer(views.old, views.new, "request", views.clean.request, views.shortcuts);
  const response = new SchemaComparer(views.old, views.new, "response", views.clean.response, views.shortcuts);
  const oItem = views.old.get(views.old.child(views.old.root(), "paths"), o.path);
  const nItem = views.new.get(views.new.child(views.new.root(), "paths"), n.path);
  const oOp = views.old.get(oItem, o.method);
  const nOp = views.new.get(nItem, n.method);

  // Without operationIds both names derive from the path, and a path change is reported on its own.
  if (o.id !== n.id && !(o.idGenerated && n.idGenerated)) {
    out.push({ kind: "operation-id-changed", side: "new", pointer: `${nOp.pointer}/operationId`, message: `operationId '${o.id}' → '${n.id}'` });
  }
  out.push(...compareAnnotations(oOp, nOp, "operation", { docKeys: ["summary", "description", "externalDocs"], deprecated: "operation-deprecated" }));
  const tags = (l: Loc): string => (isObj(l.node) && Array.isArray(l.node["tags"]) ? l.node["tags"].map(String).sort(byCodeUnit).join(", ") : "");
  if (tags(oOp) !== tags(nOp)) out.push({ kind: "tags-changed", side: "new", pointer: `${nOp.pointer}/tags`, message: `operation: tags [${tags(oOp)}] → [${tags(nOp)}]` });

  out.push(...compareParameters(views, { item: oItem, op: oOp, path: o.path }, { item: nItem, op: nOp, path: n.path }, request));
  out.push(...compareRequestBody(views, views.old.child(oOp, "requestBody"), views.new.child(nOp, "requestBody"), request));
  out.push(...compareResponses(views, views.old.get(oOp, "responses"), views.new.get(nOp, "responses"), response));
  out.push(...compareSecurity(o.security, n.security, securityPointer(oOp), securityPointer(nOp)));
  out.push(...request.findings, ...response.findings);
  request.settle();
  response.settle();
  return out;
}

/** Where the effective requirements are written: on the operation, else at the root. */
function securityPointer(op: Loc): string {
  return isObj(op.node) && Array.isArray(op.node["security"]) ? `${op.pointer}/security` : "#/security";
}

interface ParamSite {
  readonly name: string;
  readonly in: string;
  /** The entry in the parameters list (where the operation uses it). */
  readonly use: Loc;
  /** The parameter object itself, after `$ref`s. */
  readonly def: Loc;
}

/** Header names are case-insensitive; everything else is matched exactly. */
const paramKey = (where: string, name: string): string => `${where}:${where === "header" ? name.toLowerCase() : name}`;

function parametersOf(view: SpecView, item: Loc, op: Loc): Map<string, ParamSite> {
  const out = new Map<string, ParamSite>();
  for (const holder of [item, op]) {
    const list = view.child(holder, "parameters");
    if (!Array.isArray(list.node)) continue;
    list.node.forEach((_, i) => {
      const use = view.child(list, i);
      const def = view.deref(use);
      if (!isObj(def.node)) return;
      const name = str(def.node["name"]);
      const location = str(def.node["in"]);
      // Operation-level parameters override path-level ones (same rule as the model).
      if (name !== undefined && location !== undefined) out.set(paramKey(location, name), { name, in: location, use, def });
    });
  }
  return out;
}

const templateNames = (path: string): string[] => [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1] as string);

function compareParameters(views: Sides, o: { item: Loc; op: Loc; path: string }, n: { item: Loc; op: Loc; path: string }, request: SchemaComparer): Finding[] {
  const out: Finding[] = [];
  const before = parametersOf(views.old, o.item, o.op);
  const after = parametersOf(views.new, n.item, n.op);
  // Operations are matched with path parameter names blanked; pair those parameters by position.
  const renamed = new Map<string, string>();
  const oNames = templateNames(o.path);
  const nNames = templateNames(n.path);
  if (oNames.length === nNames.length) {
    oNames.forEach((name, i) => {
      const newName = nNames[i] as string;
      if (name !== newName && before.has(paramKey("path", name)) && after.has(paramKey("path", newName)) && !after.has(paramKey("path", name))) {
        renamed.set(paramKey("path", newName), paramKey("path", name));
      }
    });
  }
  const matchedOld = new Set<string>();
  for (const key of [...after.keys()].sort(byCodeUnit)) {
    const np = after.get(key) as ParamSite;
    const oldKey = renamed.get(key) ?? key;
    const op = before.get(oldKey);
    const label = `${np.in} parameter '${np.name}'`;
    const required = (p: ParamSite): boolean => p.in === "path" || (isObj(p.def.node) && p.def.node["required"] === true);
    if (!op) {
      out.push({
        kind: required(np) ? "required-parameter-added" : "parameter-added",
        side: "new",
        pointer: np.use.pointer,
        message: `${required(np) ? "required" : "optional"} ${label} added`,
      });
      continue;
    }
    matchedOld.add(oldKey);
    if (op.name !== np.name) {
      out.push({
        kind: "path-parameter-renamed",
        side: "new",
        pointer: `${np.def.pointer}/name`,
        message: `path parameter '${op.name}' renamed to '${np.name}'`,
      });
    }
    if (required(op) !== required(np)) {
      out.push({
        kind: required(np) ? "parameter-became-required" : "parameter-became-optional",
        side: "new",
        pointer: `${np.def.pointer}/required`,
        message: `${label} became ${required(np) ? "required" : "optional"}`,
      });
    }
    const serialization = (p: ParamSite): string => {
      const d = isObj(p.def.node) ? p.def.node : {};
      const style = str(d["style"]) ?? (p.in === "query" || p.in === "cookie" ? "form" : "simple");
      const explode = typeof d["explode"] === "boolean" ? d["explode"] : style === "form";
      return `style ${style}, explode ${String(explode)}${d["allowReserved"] === true ? ", allowReserved" : ""}`;
    };
    if (serialization(op) !== serialization(np)) {
      out.push({
        kind: "parameter-serialization-changed",
        side: "new",
        pointer: np.def.pointer,
        message: `${label}: ${serialization(op)} → ${serialization(np)}`,
      });
    }
    request.compare(parameterSchema(views.old, op.def), parameterSchema(views.new, np.def), label);
    out.push(...compareAnnotations(op.def, np.def, label, { docKeys: ["description", "example", "examples"], deprecated: "parameter-deprecated" }));
  }
  for (const key of [...before.keys()].sort(byCodeUnit)) {
    if (matchedOld.has(key)) continue;
    const op = before.get(key) as ParamSite;
    out.push({ kind: "parameter-removed", side: "old", pointer: op.use.pointer, message: `${op.in} parameter '${op.name}' removed` });
  }
  return out;
}

/** `schema`, or the schema of the single `content` entry a parameter may use instead. */
function parameterSchema(view: SpecView, def: Loc): Loc {
  const schema = view.child(def, "schema");
  if (schema.node !== undefined) return schema;
  const content = view.child(def, "content");
  const first = isObj(content.node) ? Object.keys(content.node)[0] : undefined;
  return first === undefined ? schema : view.child(view.get(content, first), "schema");
}

interface Media {
  readonly type: string;
  /** The media type object, after `$ref`s. */
  readonly loc: Loc;
  /** Where the operation lists it: additions and removals are reported there, not at a shared component. */
  readonly use: string;
}

/** Media types are case-insensitive (RFC 9110); keyed lower-case, shown as written. */
function mediaOf(view: SpecView, holder: Loc): Map<string, Media> {
  const out = new Map<string, Media>();
  for (const [type, use] of view.entries(view.child(holder, "content"))) out.set(type.toLowerCase(), { type, loc: view.deref(use), use: use.pointer });
  return out;
}

function compareRequestBody(views: Sides, oUse: Loc, nUse: Loc, request: SchemaComparer): Finding[] {
  const o = views.old.deref(oUse);
  const n = views.new.deref(nUse);
  const required = (l: Loc): boolean => isObj(l.node) && l.node["required"] === true;
  const hasO = isObj(o.node);
  const hasN = isObj(n.node);
  if (!hasO && !hasN) return [];
  if (!hasO) {
    const req = required(n);
    return [
      {
        kind: req ? "required-request-body-added" : "request-body-added",
        side: "new",
        pointer: nUse.pointer,
        message: `${req ? "required" : "optional"} request body added`,
      },
    ];
  }
  if (!hasN) return [{ kind: "request-body-removed", side: "old", pointer: oUse.pointer, message: "request body removed" }];
  const out: Finding[] = [];
  if (required(o) !== required(n)) {
    out.push({
      kind: required(n) ? "request-body-became-required" : "request-body-became-optional",
      side: "new",
      pointer: `${n.pointer}/required`,
      message: `request body became ${required(n) ? "required" : "optional"}`,
    });
  }
  out.push(...compareAnnotations(o, n, "request body", { docKeys: ["description"] }));
  out.push(
    ...compareMedia(views, mediaOf(views.old, o), mediaOf(views.new, n), "request body", request, {
      added: "request-media-type-added",
      removed: "request-media-type-removed",
    }),
  );
  return out;
}

function compareMedia(
  views: Sides,
  before: Map<string, Media>,
  after: Map<string, Media>,
  subject: string,
  comparer: SchemaComparer,
  kinds: { added: "request-media-type-added" | "response-media-type-added"; removed: "request-media-type-removed" | "response-media-type-removed" },
): Finding[] {
  const out: Finding[] = [];
  for (const key of [...new Set([...before.keys(), ...after.keys()])].sort(byCodeUnit)) {
    const o = before.get(key);
    const n = after.get(key);
    if (o && !n) out.push({ kind: kinds.removed, side: "old", pointer: o.use, message: `${subject}: media type ${o.type} removed` });
    else if (!o && n) out.push({ kind: kinds.added, side: "new", pointer: n.use, message: `${subject}: media type ${n.type} added` });
    else if (o && n) {
      const where = `${subject} ${n.type}`;
      comparer.compare(views.old.child(o.loc, "schema"), views.new.child(n.loc, "schema"), where);
      out.push(...compareAnnotations(o.loc, n.loc, where, { docKeys: ["example", "examples"] }));
    }
  }
  return out;
}

function compareResponses(views: Sides, o: Loc, n: Loc, response: SchemaComparer): Finding[] {
  const out: Finding[] = [];
  // `2xx` and `2XX` are the same range.
  const statuses = (view: SpecView, l: Loc): Map<string, { status: string; loc: Loc; use: string }> =>
    new Map(
      view
        .entries(l)
        .filter(([s]) => !s.startsWith("x-"))
        .map(([status, use]) => [status.toUpperCase(), { status, loc: view.deref(use), use: use.pointer }]),
    );
  const before = statuses(views.old, o);
  const after = statuses(views.new, n);
  for (const key of [...new Set([...before.keys(), ...after.keys()])].sort(byCodeUnit)) {
    const or = before.get(key);
    const nr = after.get(key);
    if (or && !nr) {
      out.push({ kind: "response-status-removed", side: "old", pointer: or.use, message: `response ${or.status} removed` });
      continue;
    }
    if (!or && nr) {
      out.push({ kind: "response-status-added", side: "new", pointer: nr.use, message: `response ${nr.status} added` });
      continue;
    }
    if (!or || !nr) continue;
    const subject = `response ${nr.status}`;
    out.push(...compareAnnotations(or.loc, nr.loc, subject, { docKeys: ["description"] }));
    out.push(...compareHeaders(views, or.loc, nr.loc, subject, response));
    out.push(
      ...compareMedia(views, mediaOf(views.old, or.loc), mediaOf(views.new, nr.loc), subject, response, {
        added: "response-media-type-added",
        removed: "response-media-type-removed",
      }),
    );
  }
  return out;
}

function compareHeaders(views: Sides, o: Loc, n: Loc, subject: string, response: SchemaComparer): Finding[] {
  const out: Finding[] = [];
  const headers = (view: SpecView, res: Loc): Map<string, { name: string; loc: Loc; use: string }> => {
    const holder = view.child(res, "headers");
    return new Map(view.entries(holder).map(([name, use]) => [name.toLowerCase(), { name, loc: view.deref(use), use: use.pointer }]));
  };
  const before = headers(views.old, o);
  const after = headers(views.new, n);
  const required = (l: Loc): boolean => isObj(l.node) && l.node["required"] === true;
  for (const key of [...new Set([...before.keys(), ...after.keys()])].sort(byCodeUnit)) {
    const oh = before.get(key);
    const nh = after.get(key);
    if (oh && !nh) out.push({ kind: "response-header-removed", side: "old", pointer: oh.use, message: `${subject}: header '${oh.name}' removed` });
    else if (!oh && nh) out.push({ kind: "response-header-added", side: "new", pointer: nh.use, message: `${subject}: header '${nh.name}' added` });
    else if (oh && nh) {
      const label = `${subject} header '${nh.name}'`;
      if (required(oh.loc) !== required(nh.loc)) {
        out.push({
          kind: required(nh.loc) ? "response-header-became-required" : "response-header-became-optional",
          side: "new",
          pointer: `${nh.loc.pointer}/required`,
          message: `${label} became ${required(nh.loc) ? "required" : "optional"}`,
        });
      }
      response.compare(views.old.child(oh.loc, "schema"), views.new.child(nh.loc, "schema"), label);
      out.push(...compareAnnotations(oh.loc, nh.loc, label, { docKeys: ["description", "example", "examples"], deprecated: "property-deprecated" }));
    }
  }
  return out;
}

/** One way to authenticate: the schemes it combines, each with its scopes. */
type Alternative = Map<string, Set<string>>;

const alternativeKey = (req: SecurityRequirement): string =>
  req
    .map((r) => r.scheme)
    .sort(byCodeUnit)
    .join(" + ");

function alternatives(list: readonly SecurityRequirement[]): Map<string, Alternative> {
  // No requirement at all means anonymous access, the same as one empty requirement.
  const reqs = list.length === 0 ? [[]] : list;
  return new Map(reqs.map((req) => [alternativeKey(req), new Map(req.map((r) => [r.scheme, new Set(r.scopes)]))]));
}

const describe = (key: string): string => (key === "" ? "anonymous access" : key);

/**
 * Security compares the alternatives (OR) an operation accepts, each a set (AND) of schemes with
 * scopes. Needing credentials where none were needed, dropping an alternative and adding a scope
 * all turn away calls that used to succeed.
 */
export function compareSecurity(o: readonly SecurityRequirement[], n: readonly SecurityRequirement[], oPointer: string, nPointer: string): Finding[] {
  const before = alternatives(o);
  const after = alternatives(n);
  const out: Finding[] = [];
  const anonymousBefore = before.has("");
  const anonymousAfter = after.has("");
  if (anonymousBefore && before.size === 1 && !anonymousAfter) {
    const names = [...after.keys()].sort(byCodeUnit).map(describe).join(" or ");
    return [{ kind: "security-requirement-added", side: "new", pointer: nPointer, message: `authentication now required: ${names}` }];
  }
  if (anonymousAfter && after.size === 1) {
    // Once anyone may call, no alternative that used to work can be turned away.
    if (anonymousBefore && before.size === 1) return [];
    return [{ kind: "security-requirement-removed", side: "new", pointer: nPointer, message: "authentication no longer required" }];
  }
  for (const key of [...new Set([...before.keys(), ...after.keys()])].sort(byCodeUnit)) {
    const ob = before.get(key);
    const na = after.get(key);
    if (ob && !na) out.push({ kind: "security-alternative-removed", side: "old", pointer: oPointer, message: `security: ${describe(key)} no longer accepted` });
    else if (!ob && na) out.push({ kind: "security-alternative-added", side: "new", pointer: nPointer, message: `security: ${describe(key)} now accepted` });
    else if (ob && na) {
      for (const [scheme, scopes] of [...na].sort(([a], [b]) => byCodeUnit(a, b))) {
        const had = ob.get(scheme) ?? new Set<string>();
        const added = [...scopes].filter((s) => !had.has(s)).sort(byCodeUnit);
        const removed = [...had].filter((s) => !scopes.has(s)).sort(byCodeUnit);
        if (added.length > 0) out.push({ kind: "security-scope-added", side: "new", pointer: nPointer, message: `security ${scheme}: scope ${added.join(", ")} now required` });
        if (removed.length > 0)
          out.push({
            kind: "security-scope-removed",
            side: "new",
            pointer: nPointer,
            message: `security ${scheme}: scope ${removed.join(", ")} no longer required`,
          });
      }
    }
  }
  return out;
}
