/**
 * The filters of a list: query parameters that keep only the objects they match. Stated by
 * `x-filter` on the parameter (`match`: equals, in, prefix, contains or term; the item `member` or
 * `members` it reads; `caseInsensitive`), and inferred for id filters named for the listed
 * collection (`card_ids` on `…/cards`, `account_media_ids` on `…/account_media`).
 */
import type { Operation } from "../../model/ir.js";
import { listItems } from "../../model/relations.js";
import { isObj, type Resolve } from "../../model/schema-resolve.js";

type Obj = Record<string, unknown>;

const MATCHES = new Set(["equals", "in", "prefix", "contains", "term"]);

/** The singular of a collection's last segment: `categories` → `category`, `account_media` stays. */
function singular(word: string): string {
  return word.replace(/ies$/, "y").replace(/s$/, "");
}

export function filterPlans(op: Operation, resolve: Resolve): Obj[] {
  if (op.method !== "get" || op.unspecified !== undefined) return [];
  const list = listItems(op, resolve);
  if (!list) return [];
  const itemProps = isObj(list.item["properties"]) ? Object.keys(list.item["properties"]) : [];
  const last =
    op.path
      .split("/")
      .filter((s) => s !== "" && !s.startsWith("{"))
      .at(-1) ?? "";
  const idNames = new Set([`${last}_ids`, `${singular(last)}_ids`]);
  const out: Obj[] = [];
  for (const p of op.parameters) {
    if (p.in !== "query") continue;
    const stated = p.x?.["x-filter"];
    if (isObj(stated) && typeof stated["match"] === "string" && MATCHES.has(stated["match"])) {
      const members = Array.isArray(stated["members"]) ? stated["members"].filter((m): m is string => typeof m === "string") : typeof stated["member"] === "string" ? [stated["member"]] : [p.name];
      out.push({
        param: p.name,
        match: stated["match"],
        members,
        ...(typeof stated["caseInsensitive"] === "boolean" ? { caseInsensitive: stated["caseInsensitive"] } : {}),
        items: list.items,
        ...(itemProps.includes("id") ? { key: "id" } : {}),
      });
    } else if (idNames.has(p.name) && itemProps.includes("id")) {
      out.push({ param: p.name, match: "in", members: ["id"], items: list.items, key: "id" });
    }
  }
  return out;
}
