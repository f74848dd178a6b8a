/**
 * Cursor paging over stored rows: `count` rows from the offset the cursor names. Cursors are opaque
 * to clients but deterministic, so a seed and a request sequence always give the same cursors.
 */

export interface Page<T> {
  readonly data: T[];
  readonly next_cursor: string | null;
}

const CURSOR = /^c-([0-9a-z]{1,10})$/;

export function encodeCursor(offset: number): string {
  return `c-${offset.toString(36)}`;
}

/** The offset a cursor names, or undefined when it is not one this server handed out. */
export function decodeCursor(cursor: string): number | undefined {
  const m = CURSOR.exec(cursor);
  if (!m) return undefined;
  const offset = Number.parseInt(m[1] as string, 36);
  return Number.isSafeInteger(offset) ? offset : undefined;
}

export type PageResult<T> = { readonly ok: true; readonly page: Page<T> } | { readonly ok: false; readonly message: string };

export function paginate<T>(rows: readonly T[], count: number, cursor: string | undefined): PageResult<T> {
  let offset = 0;
  if (cursor !== undefined) {
    const decoded = decodeCursor(cursor);
    if (decoded === undefined || decoded > rows.length) return { ok: false, message: `cursor ${JSON.stringify(cursor.slice(0, 40))} is not valid` };
    offset = decoded;
  }
  const end = offset + count;
  return { ok: true, page: { data: rows.slice(offset, end), next_cursor: end < rows.length ? encodeCursor(end) : null } };
}
