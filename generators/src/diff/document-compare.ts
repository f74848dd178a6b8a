/**
 * Document-level parts outside operations and components: info, servers, tags and root extensions.
 * `info.version` is the label of the very change being measured, so it is not itself a change.
 */
import { compareAnnotations } from "./annotations.js";
import type { Finding } from "./change.js";
import { byCodeUnit, isObj, str, type Loc, type SpecView } from "./view.js";

export function compareDocument(oldView: SpecView, newView: SpecView): Finding[] {
  const out: Finding[] = [];
  const oInfo = oldView.get(oldView.root(), "info");
  const nInfo = newView.get(newView.root(), "info");
  out.push(...compareAnnotations(oInfo, nInfo, "info", { docKeys: ["title", "summary", "description", "termsOfService", "contact", "license"] }));
  // Root x- extensions only: the root's other members are compared by their own rules.
  const extensionsOnly = (l: Loc): Loc => ({
    node: isObj(l.node) ? Object.fromEntries(Object.entries(l.node).filter(([k]) => k.startsWith("x-"))) : {},
    pointer: "#",
  });
  out.push(...compareAnnotations(extensionsOnly(oldView.root()), extensionsOnly(newView.root()), "document", { docKeys: [] }));
  out.push(...compareServers(oldView, newView));
  out.push(...compareTags(oldView, newView));
  return out;
}

function listOf(view: SpecView, key: string): { loc: Loc; node: Record<string, unknown> }[] {
  const holder = view.child(view.root(), key);
  if (!Array.isArray(holder.node)) return [];
  return holder.node.flatMap((_, i) => {
    const loc = view.get(holder, i);
    return isObj(loc.node) ? [{ loc, node: loc.node }] : [];
  });
}

function compareServers(oldView: SpecView, newView: SpecView): Finding[] {
  const byUrl = (view: SpecView): Map<string, Loc> => new Map(listOf(view, "servers").map((s) => [String(s.node["url"] ?? "/"), s.loc]));
  const before = byUrl(oldView);
  const after = byUrl(newView);
  const out: Finding[] = [];
  for (const url of [...new Set([...before.keys(), ...after.keys()])].sort(byCodeUnit)) {
    const o = before.get(url);
    const n = after.get(url);
    if (o && !n) out.push({ kind: "server-removed", side: "old", pointer: o.pointer, message: `server ${url} removed` });
    else if (!o && n) out.push({ kind: "server-added", side: "new", pointer: n.pointer, message: `server ${url} added` });
    else if (o && n) {
      out.push(...compareAnnotations(o, n, `server ${url}`, { docKeys: ["description", "variables"] }));
    }
  }
  return out;
}

function compareTags(oldView: SpecView, newView: SpecView): Finding[] {
  const byName = (view: SpecView): Map<string, Loc> => new Map(listOf(view, "tags").flatMap((t) => (str(t.node["name"]) !== undefined ? [[t.node["name"] as string, t.loc] as const] : [])));
  const before = byName(oldView);
  const after = byName(newView);
  const out: Finding[] = [];
  for (const name of [...new Set([...before.keys(), ...after.keys()])].sort(byCodeUnit)) {
    const o = before.get(name);
    const n = after.get(name);
    if (o && n) out.push(...compareAnnotations(o, n, `tag ${name}`, { docKeys: ["description", "externalDocs"] }));
    else if (o || n) {
      const side = n ? "new" : "old";
      out.push({ kind: "tags-changed", side, pointer: (n ?? o)?.pointer ?? "#/tags", message: `tag ${name} ${n ? "added" : "removed"}` });
    }
  }
  return out;
}
