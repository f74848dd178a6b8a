/**
 * What was sent is what is stored: the members a create or update sent, and how an object read
 * afterwards must hold them (arrays in their order, nested objects member by member, `false`, `0`
 * and `""` as sent, a member the read declares present), and the members that never change.
 */
import { sameValue } from "./invariants.js";
import type { OperationCase } from "./plan.js";

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => v !== null && typeof v === "object" && !Array.isArray(v);
const scalar = (v: unknown): v is string | number | boolean => typeof v === "string" || typeof v === "number" || typeof v === "boolean";

/** One member sent, and the member of the stored object that must hold it. */
export interface SentMember {
  readonly member: string;
  readonly stored: string;
  readonly value: unknown;
  /** The contract says the read shows it: absent afterwards is a failure, not a pass. */
  readonly declared: boolean;
}

/**
 * The members a request sent that the stored object must hold. With the plan's read-back map, every
 * member it names (query value or top-level body member); without one, the scalars sent, by name,
 * checked only where the object shows them.
 */
export function sentMembers(op: OperationCase, values: Readonly<Rec>, body: unknown, map: Readonly<Record<string, string>> | undefined): SentMember[] {
  const out: SentMember[] = [];
  const query = new Set(op.parameters.filter((p) => p.in === "query").map((p) => p.name));
  if (map) {
    for (const [member, stored] of Object.entries(map)) {
      const value = isRec(body) && Object.prototype.hasOwnProperty.call(body, member) ? body[member] : query.has(member) ? values[member] : undefined;
      if (value !== undefined) out.push({ member, stored, value, declared: true });
    }
    return out;
  }
  for (const name of query) if (scalar(values[name])) out.push({ member: name, stored: name, value: values[name], declared: false });
  if (isRec(body)) for (const [k, v] of Object.entries(body)) if (scalar(v)) out.push({ member: k, stored: k, value: v, declared: false });
  return out;
}

/** `2025-01-01T00:00:00Z` and `2025-01-01T00:00:00.000Z` are one instant: a server may write either. */
function sameInstant(a: string, b: string): boolean {
  const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
  return iso.test(a) && iso.test(b) && Date.parse(a) === Date.parse(b) && !Number.isNaN(Date.parse(a));
}

/**
 * Whether `got` holds `sent`: scalars alike (text on the wire: `"5"` is 5), instants alike, arrays
 * item by item in their order (or as the comma-separated text they were sent as), objects member
 * by member for what was sent (a server may add members of its own).
 */
export function holds(sent: unknown, got: unknown, depth = 0): boolean {
  if (depth > 32) return true;
  if (sent === null) return got === null || got === undefined;
  if (scalar(sent)) {
    // Text on the wire: a comma-separated member may be stored as the array it lists.
    if (got === sent || ((scalar(got) || Array.isArray(got)) && sameValue(got, sent))) return true;
    return typeof got === "string" && typeof sent === "string" && sameInstant(got, sent);
  }
  if (Array.isArray(sent)) {
    if (typeof got === "string") return sameValue(sent, got);
    return Array.isArray(got) && got.length === sent.length && sent.every((x, i) => holds(x, got[i], depth + 1));
  }
  if (isRec(sent)) {
    if (!isRec(got)) return false;
    return Object.entries(sent).every(([k, v]) => v === undefined || (Object.prototype.hasOwnProperty.call(got, k) ? holds(v, got[k], depth + 1) : v === null));
  }
  return sameValue(sent, got);
}

/** Each sent member the stored object does not hold, as text. */
export function differences(sent: readonly SentMember[], stored: Rec): string[] {
  const out: string[] = [];
  for (const s of sent) {
    const present = Object.prototype.hasOwnProperty.call(stored, s.stored);
    const label = s.stored === s.member ? s.member : `${s.member} (read as ${s.stored})`;
    if (!present) {
      if (s.declared && s.value !== null) out.push(`${label}: sent ${JSON.stringify(s.value)}, the object has no ${s.stored}`);
      continue;
    }
    if (!holds(s.value, stored[s.stored])) out.push(`${label}: sent ${short(s.value)}, reads back ${short(stored[s.stored])}`);
  }
  return out;
}

/**
 * Waits out the second of the latest time stamp among `members` of `object` (its creation time):
 * a stamp of whole seconds rewritten within its own second reads the same, so an update that
 * restamps what must never change is seen only from the next second on. At most about a second;
 * nothing where the stamp is not now (an older object, a server clock far ahead).
 */
export async function pastStamps(object: Rec | undefined, members: readonly string[]): Promise<void> {
  let until = 0;
  for (const m of members) {
    const v = object?.[m];
    if (typeof v !== "string" || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v)) continue;
    const t = Date.parse(v);
    if (!Number.isNaN(t)) until = Math.max(until, Math.floor(t / 1000) * 1000 + 1000);
  }
  const wait = until - Date.now();
  if (wait > 0 && wait <= 1100) await new Promise((resolve) => setTimeout(resolve, wait));
}

/** Members that must never change and did, between two reads of one object. */
export function changedImmutables(before: Rec, after: Rec, immutable: readonly string[]): string[] {
  const out: string[] = [];
  for (const name of immutable) {
    if (!Object.prototype.hasOwnProperty.call(before, name)) continue;
    const was = before[name];
    const now = after[name];
    if (!holds(was, now) || !holds(now, was)) out.push(`${name} was ${short(was)}, is now ${short(now)}`);
  }
  return out;
}

function short(v: unknown): string {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
