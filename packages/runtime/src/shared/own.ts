/**
 * Reading and writing records by names that come from a contract. Such names may be
 * `Object.prototype` members (`constructor`, `toString`, `__proto__` are legal parameter, property
 * and operation names): `record[name]` would find the prototype's function where the record has no
 * such key, and `record["__proto__"] = v` would replace the prototype instead of adding a key.
 */

/** The record's own value for `key`, never one inherited from its prototype. */
export function own<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

/** Sets `key` as an own, enumerable data property, also when it is `__proto__`. */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  // Only `__proto__` is an accessor on Object.prototype; every other name assigns an own data
  // property, and assignment is many times cheaper than defineProperty on the request path.
  if (key !== "__proto__" && (isPlainTarget(record) || Object.prototype.hasOwnProperty.call(record, key))) record[key] = value;
  else Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A record assignment cannot misroute: its prototype is Object.prototype or null. */
function isPlainTarget(record: object): boolean {
  const proto = Object.getPrototypeOf(record) as unknown;
  return proto === Object.prototype || proto === null;
}
