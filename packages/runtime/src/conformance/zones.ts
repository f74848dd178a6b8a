/**
 * One instant, written in another UTC offset. RFC 3339 lets a client send a date-time in any offset;
 * a server must take `2025-05-07T17:30:00+05:30` as `2025-05-07T12:00:00Z`. Sent where the plain
 * request sent UTC, it shows a server that drops the offset, and one that echoes it where the
 * contract says answers are in UTC.
 */

const RFC3339 = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2})(:\d{2})?(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** Minutes east of UTC that the moved date-time is written in: a half hour, so no whole-hour rounding hides it. */
const EAST = 5 * 60 + 30;
/** The offset used instead when the date-time already is in the first one. */
const WEST = -(3 * 60 + 30);

const two = (n: number): string => String(n).padStart(2, "0");

/** `text` (an RFC 3339 date-time) as the same instant in another offset; undefined when it is no date-time. */
export function inOtherOffset(text: string): string | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const t = Date.parse(text);
  if (Number.isNaN(t)) return undefined;
  const given = m[6] ?? "Z";
  const minutes = given === "+05:30" ? WEST : EAST;
  const local = new Date(t + minutes * 60_000);
  const date = `${local.getUTCFullYear()}-${two(local.getUTCMonth() + 1)}-${two(local.getUTCDate())}`;
  const seconds = m[4] !== undefined || m[5] !== undefined ? `:${two(local.getUTCSeconds())}` : "";
  // The fraction is kept as it was written: moving whole minutes never changes it.
  const fraction = m[5] ?? "";
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${date}T${two(local.getUTCHours())}:${two(local.getUTCMinutes())}${seconds}${fraction}${sign}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}
