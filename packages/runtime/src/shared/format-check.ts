/**
 * `format` checks for the mock generator's own validation, as strict as the precompiled validators
 * (ajv-formats, full mode) for every value the generator produces: RFC 3339 times with seconds and
 * a zone, absolute URIs with a host after `//`. Formats a check does not know pass, as they do there.
 */

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function validDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return d <= (m === 2 && !leap ? 28 : (DAYS[m - 1] as number));
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

function isDate(text: string): boolean {
  const m = DATE.exec(text);
  return m !== null && validDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

function isTime(text: string): boolean {
  const m = TIME.exec(text);
  if (!m) return false;
  const [h, min, s] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const zoneOk = m[5] === undefined || (Number(m[5]) <= 23 && Number(m[6]) <= 59);
  return h <= 23 && min <= 59 && s <= 60 && zoneOk;
}

function isDateTime(text: string): boolean {
  const t = text.search(/[Tt ]/);
  return t === 10 && isDate(text.slice(0, 10)) && isTime(text.slice(11));
}

const HOST_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

function isHostname(text: string): boolean {
  if (text.length === 0 || text.length > 253) return false;
  return text.split(".").every((label) => HOST_LABEL.test(label));
}

function isIpv4(text: string): boolean {
  const parts = text.split(".");
  return parts.length === 4 && parts.every((p) => /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/.test(p));
}

function isIpv6(text: string): boolean {
  if (!/^[0-9A-Fa-f:.]+$/.test(text) || text.split("::").length > 2) return false;
  const groups = text.split(":").filter((g) => g !== "");
  return groups.length <= 8 && groups.every((g) => /^[0-9A-Fa-f]{1,4}$/.test(g) || isIpv4(g));
}

function isUri(text: string): boolean {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):(\S*)$/.exec(text);
  if (!m) return false;
  const rest = m[2] as string;
  if (!rest.startsWith("//")) return rest.length > 0;
  const authority = rest.slice(2).split(/[/?#]/)[0] as string;
  const host = authority.replace(/^[^@]*@/, "").replace(/:\d*$/, "");
  return host.length > 0 && !/[\s<>"{}|\\^`]/.test(rest);
}

const CHECKS = new Map<string, (text: string) => boolean>(
  Object.entries({
    "date-time": isDateTime,
    date: isDate,
    time: isTime,
    uri: isUri,
    url: (t: string) => isUri(t) && /^https?:\/\//i.test(t),
    iri: isUri,
    "uri-reference": (t: string) => !/\s/.test(t),
    "iri-reference": (t: string) => !/\s/.test(t),
    email: (t: string) => /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/.test(t),
    hostname: isHostname,
    ipv4: isIpv4,
    ipv6: isIpv6,
    uuid: (t: string) => /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i.test(t),
    byte: (t: string) => /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(t),
    duration: (t: string) => /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$/.test(t),
    regex: (t: string) => {
      try {
        new RegExp(t, "u");
        return true;
      } catch {
        return false;
      }
    },
    "json-pointer": (t: string) => /^(?:\/(?:[^~/]|~[01])*)*$/.test(t),
  }),
);

const NUMBER_CHECKS = new Map<string, (n: number) => boolean>([
  ["int32", (n) => Number.isInteger(n) && n >= -2147483648 && n <= 2147483647],
  ["int64", (n) => Number.isInteger(n)],
  ["float", (n) => Number.isFinite(n)],
  ["double", (n) => Number.isFinite(n)],
]);

/** True when `value` fits `format`; a format applies only to its own type, as in the validators. */
export function checkFormat(format: string, value: unknown): boolean {
  if (typeof value === "string") return CHECKS.get(format)?.(value) ?? true;
  if (typeof value === "number") return NUMBER_CHECKS.get(format)?.(value) ?? true;
  return true;
}
