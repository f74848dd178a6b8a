/**
 * Batch writes whose items are a list's objects: a PUT, POST or PATCH at the path a GET lists,
 * whose body holds an array of objects keyed by a member both declare (`PUT …/products` of
 * `{products: [{id, …}]}`, listed by `GET …/products`). One inference for the conformance suite
 * (which writes a new item and looks for it in the list) and the mock (which stores each item).
 */
import type { ApiModel, Operation } from "../../model/ir.js";
import { mediaKind } from "../validators/index.js";
import { isObj, type Resolve } from "./negatives.js";
import { readObjectSchema } from "./read-back.js";
import { bodyContent } from "./requests.js";

type Obj = Record<string, unknown>;

/** A batch write of a list's objects. */
export interface BatchWrite {
  /** The GET at the same path listing the objects. */
  readonly list: Operation;
  /** The body member holding the items (`products`). */
  readonly member: string;
  /** The member keying an item, required in the item and shown by the list (`id`). */
  readonly key: string;
  /** The item's members the list shows too, besides the key (write-only ones left out). */
  readonly shown: readonly string[];
}

const shownOp = (op: Operation | undefined): op is Operation => op !== undefined && op.unspecified === undefined;

/** The batch write `op` is, if it is one: its first body array of objects keyed like the list's items. */
export function batchWriteOf(model: ApiModel, op: Operation, resolve: Resolve): BatchWrite | undefined {
  if (!shownOp(op) || !["put", "post", "patch"].includes(op.method)) return undefined;
  const list = model.operations.find((o) => shownOp(o) && o.method === "get" && o.path === op.path);
  const listed = list ? readObjectSchema(list, resolve) : undefined;
  const content = bodyContent(op);
  if (!list || !listed || content?.schema === undefined || mediaKind(content.mediaType) !== "json") return undefined;
  const body = resolve(content.schema);
  const listedProps = isObj(listed["properties"]) ? listed["properties"] : {};
  for (const [member, raw] of Object.entries(isObj(body["properties"]) ? body["properties"] : {})) {
    const arr = isObj(raw) ? resolve(raw) : undefined;
    const item = arr && arr["type"] === "array" && isObj(arr["items"]) ? resolve(arr["items"]) : undefined;
    const itemProps: Obj = item && isObj(item["properties"]) ? item["properties"] : {};
    const required = Array.isArray(item?.["required"]) ? (item["required"] as unknown[]) : [];
    const key = ["id", "key", "name"].find((k) => itemProps[k] !== undefined && listedProps[k] !== undefined && required.includes(k));
    if (key === undefined) continue;
    const shown = Object.entries(itemProps)
      .filter(([n, s]) => listedProps[n] !== undefined && n !== key && !(isObj(s) && (s["writeOnly"] === true || s["x-read-back"] === false)))
      .map(([n]) => n);
    return { list, member, key, shown };
  }
  return undefined;
}
