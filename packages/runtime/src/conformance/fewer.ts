/**
 * Valid requests with fewer optional members. A server may refuse a schema-valid request for rules
 * its contract does not state (two options that exclude each other, a value that must name
 * something it holds); the request with only what the contract requires, then with one optional
 * member at a time, is what such a server most likely serves. Every variant is still one the
 * package's validators accept.
 */

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => v !== null && typeof v === "object" && !Array.isArray(v);

/** A request: parameter values and a body. */
export interface Variant {
  readonly values: Readonly<Rec>;
  readonly body: unknown;
}

/**
 * The variants of `values`/`body`, smallest first: the required members alone, then each optional
 * member added alone, then each optional body member alone with each other value its enum allows
 * (`choices`: a server may serve one kind of object with defaults and not another), at most `max`.
 * `keep` names parameters never dropped (path values, objects the case was given); `valid` is the
 * package's request validator.
 */
export function fewerMembers(
  values: Readonly<Rec>,
  body: unknown,
  keep: ReadonlySet<string>,
  valid: (values: Readonly<Rec>, body: unknown) => boolean,
  max = 8,
  choices: (member: string) => readonly unknown[] = () => [],
): Variant[] {
  const optionalParams = Object.keys(values).filter((name) => !keep.has(name) && valid(without(values, name), body));
  const optionalMembers = isRec(body) ? Object.keys(body).filter((name) => valid(values, without(body, name))) : [];
  if (optionalParams.length === 0 && optionalMembers.length === 0) return [];
  const bareValues = optionalParams.reduce<Readonly<Rec>>((v, name) => without(v, name), values);
  const bareBody = isRec(body) ? optionalMembers.reduce<Rec>((b, name) => without(b, name), body) : body;
  const out: Variant[] = [];
  const add = (v: Readonly<Rec>, b: unknown): void => {
    if (out.length < max && valid(v, b)) out.push({ values: v, body: b });
  };
  add(bareValues, bareBody);
  for (const name of optionalMembers) add(bareValues, { ...(bareBody as Rec), [name]: (body as Rec)[name] });
  for (const name of optionalParams) add({ ...bareValues, [name]: values[name] }, bareBody);
  for (const name of optionalMembers) {
    for (const value of choices(name)) if (JSON.stringify(value) !== JSON.stringify((body as Rec)[name])) add(bareValues, { ...(bareBody as Rec), [name]: value });
  }
  return out;
}

function without(record: Readonly<Rec>, name: string): Rec {
  const copy: Rec = { ...record };
  delete copy[name];
  return copy;
}
