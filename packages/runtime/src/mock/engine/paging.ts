/**
 * Cursor paging by a list's `x-pagination`: a page of the asked size (the page-size parameter, else
 * its default, else every object) from the offset the cursor names, and the next page's cursor,
 * null on the last page. Cursors are opaque text the server gave; one it never gave is refused.
 */
import type { MockSchema } from "../mock-data.js";
import type { StoredObject } from "./store.js";
import type { MockPaging } from "./table.js";

export type Page = { readonly items: readonly StoredObject[]; readonly next: string | null } | { readonly invalid: string };

const CURSOR = /^c-([0-9a-z]{1,10})$/;

/** A cursor for `offset` that the cursor parameter's schema takes (`c-<base 36>`, else the offset as digits). */
export function encodeCursor(offset: number, schema: MockSchema | undefined, fits: (schema: MockSchema, value: unknown) => boolean): string {
  const candidates = [`c-${offset.toString(36)}`, String(offset)];
  return candidates.find((c) => schema === undefined || fits(schema, c)) ?? (candidates[0] as string);
}

export function decodeCursor(cursor: string): number | undefined {
  const m = CURSOR.exec(cursor);
  const n = m ? Number.parseInt(m[1] as string, 36) : /^\d{1,15}$/.test(cursor) ? Number(cursor) : Number.NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

export function pageOf(objects: readonly StoredObject[], paging: MockPaging | undefined, query: Readonly<Record<string, unknown>>, fits: (schema: MockSchema, value: unknown) => boolean): Page {
  if (!paging) return { items: objects, next: null };
  const raw = query[paging.cursor];
  let offset = 0;
  if (raw !== undefined && raw !== null && raw !== "") {
    const decoded = decodeCursor(String(raw));
    if (decoded === undefined || decoded > objects.length) return { invalid: `${paging.cursor} ${JSON.stringify(String(raw).slice(0, 40))} is not a cursor this server gave` };
    offset = decoded;
  }
  const asked = paging.pageSize ? query[paging.pageSize.name] : undefined;
  const size = typeof asked === "number" && asked > 0 ? asked : typeof asked === "string" && /^\d+$/.test(asked) && Number(asked) > 0 ? Number(asked) : (paging.pageSize?.default ?? objects.length);
  const end = offset + Math.max(1, size);
  return { items: objects.slice(offset, end), next: end < objects.length ? encodeCursor(end, paging.cursorSchema, fits) : null };
}
