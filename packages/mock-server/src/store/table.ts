/**
 * Rows grouped by the object that owns them (an account, a catalog, an audience). Insertion order is
 * kept: it is the creation order, which lists and cursors page over.
 */
export class Scoped<T> {
  readonly #scopes = new Map<string, Map<string, T>>();

  get(scope: string, id: string): T | undefined {
    return this.#scopes.get(scope)?.get(id);
  }

  set(scope: string, id: string, row: T): T {
    let rows = this.#scopes.get(scope);
    if (!rows) {
      rows = new Map();
      this.#scopes.set(scope, rows);
    }
    rows.set(id, row);
    return row;
  }

  delete(scope: string, id: string): boolean {
    return this.#scopes.get(scope)?.delete(id) ?? false;
  }

  /** The rows of one scope, oldest first. */
  list(scope: string): T[] {
    return [...(this.#scopes.get(scope)?.values() ?? [])];
  }

  /** Drops a whole scope (a catalog deleted with its products). */
  drop(scope: string): void {
    this.#scopes.delete(scope);
  }

  /** Every row with its scope, for lookups across scopes. */
  *entries(): IterableIterator<[scope: string, row: T]> {
    for (const [scope, rows] of this.#scopes) for (const row of rows.values()) yield [scope, row];
  }

  count(scope: string): number {
    return this.#scopes.get(scope)?.size ?? 0;
  }
}
