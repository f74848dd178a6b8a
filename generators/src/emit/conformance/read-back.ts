/**
 * What a read of an object shows of each member a create or update sends: the read-back map of a
 * lifecycle or update sequence, and the members that must never change. A request member is read
 * back under its own name when the read's object declares it, under the name its `x-read-back`
 * gives, and not at all when `x-read-back: false` or `writeOnly` says it is not stored as sent.
 */
import type { Operation } from "../../model/ir.js";
import { isObj, type Resolve } from "../../model/schema-resolve.js";
import { mediaKind } from "../validators/index.js";
import { bodyContent } from "./requests.js";

type Obj = Record<string, unknown>;
const props = (s: Obj | undefined): Obj => (s && isObj(s["properties"]) ? s["properties"] : {});

/** The object a read answers: its `data` (or `data`'s first item), else the answer itself. */
export function readObjectSchema(read: Operation, resolve: Resolve): Obj | undefined {
  const r = read.responses.find((x) => /^2/.test(x.status));
  const c = r?.contents.find((x) => mediaKind(x.mediaType) === "json");
  if (c?.schema === undefined) return undefined;
  const root = resolve(c.schema);
  const data = props(root)["data"] !== undefined ? resolve(props(root)["data"]) : undefined;
  if (!data) return root["type"] === "array" ? resolve(root["items"] ?? {}) : root;
  return data["type"] === "array" ? resolve(data["items"] ?? {}) : data;
}

/** The members a request of `op` sends that hold the object's own fields: query parameters and top-level body members. */
function requestMembers(op: Operation, resolve: Resolve): [string, Obj][] {
  const out: [string, Obj][] = [];
  for (const p of op.parameters) if (p.in === "query") out.push([p.name, isObj(p.schema) ? { ...resolve(p.schema), ...pick(p.schema) } : {}]);
  const content = bodyContent(op);
  if (content?.schema !== undefined && mediaKind(content.mediaType) !== "none") {
    for (const [name, s] of Object.entries(props(resolve(content.schema)))) out.push([name, isObj(s) ? { ...resolve(s), ...pick(s) } : {}]);
  }
  return out;
}

/** The annotations written beside a `$ref` (3.1 allows siblings), which resolving would lose. */
function pick(s: unknown): Obj {
  if (!isObj(s)) return {};
  const out: Obj = {};
  for (const k of ["x-read-back", "writeOnly"]) if (s[k] !== undefined) out[k] = s[k];
  return out;
}

/** Request member → member of the read's object that must hold it afterwards. */
export function readBackMap(op: Operation, read: Operation | undefined, resolve: Resolve): Record<string, string> {
  const object = read ? readObjectSchema(read, resolve) : undefined;
  const stored = props(object);
  const out: Record<string, string> = {};
  const path = new Set(op.parameters.filter((p) => p.in === "path").map((p) => p.name));
  for (const [name, schema] of requestMembers(op, resolve)) {
    if (path.has(name) || schema["writeOnly"] === true || schema["x-read-back"] === false) continue;
    const target = typeof schema["x-read-back"] === "string" ? schema["x-read-back"] : name;
    const held = stored[target];
    // A member the read's object does not declare is not checked: the contract does not say it shows.
    if (held === undefined || (isObj(held) && resolve(held)["writeOnly"] === true)) continue;
    out[name] = target;
  }
  return out;
}

/** Request members that have a `default` and are read back: what an object made without them holds. */
export function readBackDefaults(op: Operation, map: Readonly<Record<string, string>>, resolve: Resolve): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, schema] of requestMembers(op, resolve)) {
    if (map[name] !== undefined && schema["default"] !== undefined) out[name] = schema["default"];
  }
  return out;
}

/** Members of the read's object that never change once it exists: `x-immutable: true`, and its key. */
export function immutableMembers(read: Operation | undefined, resolve: Resolve, key: string | undefined): string[] {
  const object = read ? readObjectSchema(read, resolve) : undefined;
  const out = Object.entries(props(object))
    .filter(([, s]) => isObj(s) && (s["x-immutable"] === true || resolve(s)["x-immutable"] === true))
    .map(([n]) => n);
  if (key !== undefined && props(object)[key] !== undefined && !out.includes(key)) out.unshift(key);
  return out;
}
