/**
 * Realistic leaf values for mock data: times from a fixed window, identifiers, links, prices, names
 * and short text chosen by property-name heuristics and by `format`. Every function is a pure
 * function of its seed; the generator checks each candidate against the schema before using it, so
 * a heuristic that does not fit a field is simply skipped.
 */
import { hashIdentifier, sha256Hex, type IdentifierKind } from "../client/hash.js";
import { createRng, deriveSeed, type Rng } from "../shared/prng.js";

/** Start of the window mock times fall in (never the clock): 2025-01-01T00:00:00Z. */
export const MOCK_EPOCH = Date.UTC(2025, 0, 1);
/** Times a rule requires to be later than `$now` come from a window no test run will reach. */
export const FUTURE_EPOCH = Date.UTC(2100, 0, 1);
/** Times a rule requires to be earlier than `$now` come from before the mock window. */
export const PAST_EPOCH = Date.UTC(2015, 0, 1);

const DAY = 86_400_000;

/** Which side of `$now` a time must fall on, from the contract's `x-rules`. */
export type TimeHint = "future" | "past";

const WORDS = (
  "amber harbor linen meadow cedar coral summit maple river canyon willow copper velvet atlas " +
  "orbit pixel quartz signal north cobalt ember falcon garden lantern marble nimbus olive prairie " +
  "rocket saffron timber urban vista wander zephyr bright quiet rapid gentle bold clever"
).split(" ");
const NOUNS = "shirt lamp backpack mug notebook jacket sneaker bottle speaker chair kettle scarf".split(" ");
const BRANDS = ["Northwind", "Contoso", "Fabrikam", "Tailspin", "Wingtip", "Adventure Works", "Litware"];
const COLORS = ["red", "navy", "forest green", "charcoal", "sand", "burgundy", "sky blue", "ivory"];
const SIZES = ["XS", "S", "M", "L", "XL", "42", "10.5"];
const HOSTS = ["example.com", "shop.example.com", "media.example.net", "cdn.example.org", "docs.example.com"];
const COUNTRIES = ["US", "GB", "DE", "FR", "JP", "BR", "CA", "IN", "ES", "AU"];
const CURRENCIES = ["USD", "EUR", "GBP", "JPY", "CAD"];
const LANGS = ["en", "es", "fr", "de", "ja", "pt", "it"];
const TIMEZONES = ["America/New_York", "Europe/London", "Asia/Tokyo", "Europe/Berlin", "America/Los_Angeles", "UTC"];
const RATIOS = ["16:9", "9:16", "1:1", "4:3", "1.91:1"];
const PIXELS = [320, 480, 640, 720, 1080, 1280, 1920];
const STATUSES = [400, 401, 403, 404, 409, 429, 500, 503];

const title = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

function digits(rng: Rng, count: number): string {
  let out = String(rng.int(1, 9));
  for (let i = 1; i < count; i++) out += String(rng.int(0, 9));
  return out;
}

/** Numeric text shaped like the contracts' ids (`1346889436626259968`): 10 to 19 digits. */
export function numericId(rng: Rng): string {
  return digits(rng, rng.pick([10, 18, 19, 19]));
}

function words(rng: Rng, min: number, max: number): string[] {
  const n = rng.int(min, max);
  return Array.from({ length: n }, () => rng.pick(WORDS));
}

/** A short readable sentence. */
export function sentence(rng: Rng): string {
  const text = [...words(rng, 3, 8), rng.pick(NOUNS)].join(" ");
  return `${title(text)}.`;
}

/** `YYYY-MM-DDTHH:MM:SS.sssZ` of a UTC instant, without locale-dependent APIs. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * The same instant written the ways contracts' patterns ask for: seconds, milliseconds, a whole
 * hour, a `+00:00` offset, without seconds, the date alone. The first that fits a field is used.
 */
export function timeRenderings(ms: number): string[] {
  const iso = isoTime(ms);
  const seconds = `${iso.slice(0, 19)}Z`;
  const hour = `${isoTime(Math.floor(ms / 3_600_000) * 3_600_000).slice(0, 19)}Z`;
  return [seconds, iso, hour, `${iso.slice(0, 19)}+00:00`, `${hour.slice(0, 19)}+00:00`, `${iso.slice(0, 16)}Z`, `${iso.slice(0, 16)}+00:00`, iso.slice(0, 10)];
}

const HOUR = 3_600_000;

// Names that order the times of one object, as [pattern, from, to] offsets from the object's base:
// created before updated, start before end (disjoint ranges, so the order always holds).
const TIME_OFFSETS: readonly [RegExp, number, number][] = [
  [/^(created|posted|registered)(_at|_time)?$|^created/, 0, HOUR - 1000],
  [/^(updated|modified|changed|change)(_at|_time)?$|^updated/, HOUR, 20 * DAY],
  [/^(start|effective|begin|scheduled)(_at|_time|_date)?$|^start/, DAY, 10 * DAY],
  [/^(end|expires|expiry|finish|sunset|deadline)(_at|_time|_date)?$|^end|^expire/, 11 * DAY, 60 * DAY],
];

/**
 * A mock instant for a time field. Times of one object share a base drawn from the object's seed,
 * so `created_at` precedes `updated_at` and `start_time` precedes `end_time`.
 */
export function mockInstant(name: string | undefined, objectSeed: number, seed: number, hint?: TimeHint): number {
  const window = hint === "future" ? FUTURE_EPOCH : hint === "past" ? PAST_EPOCH : MOCK_EPOCH;
  const base = window + createRng(deriveSeed(objectSeed, "time-base")).int(0, 300) * DAY;
  const own = createRng(seed);
  const offset = name === undefined ? undefined : TIME_OFFSETS.find(([re]) => re.test(name.toLowerCase()));
  if (offset) return base + own.int(offset[1], offset[2]);
  return window + own.int(0, 365 * DAY - 1000);
}

const hostOf = (rng: Rng): string => rng.pick(HOSTS);

/** An https link; the extension follows what the field name says it points at. */
export function httpsUrl(rng: Rng, name = ""): string {
  const n = name.toLowerCase();
  const id = numericId(rng);
  if (/image|poster|photo|picture|avatar|thumb/.test(n)) return `https://${hostOf(rng)}/images/${id}.jpg`;
  if (/hls/.test(n)) return `https://${hostOf(rng)}/video/${id}/master.m3u8`;
  if (/video|media/.test(n)) return `https://${hostOf(rng)}/media/${id}.mp4`;
  if (/register|doc|help/.test(n)) return `https://docs.example.com/${rng.pick(WORDS)}`;
  return `https://${hostOf(rng)}/${rng.pick(WORDS)}/${id}`;
}

/** `12.99 USD`: amount with two decimals and an ISO 4217 code. */
export function price(rng: Rng, currency: string): string {
  const amount = rng.int(1, 500);
  const cents = currency === "JPY" ? "" : `.${String(rng.int(0, 99)).padStart(2, "0")}`;
  return `${amount}${cents} ${currency}`;
}

/** The currency of all prices of one object, so they compare (`sale_price < price`). */
export function objectCurrency(objectSeed: number): string {
  return createRng(deriveSeed(objectSeed, "currency")).pick(CURRENCIES);
}

function uuid(rng: Rng): string {
  const hex = (n: number): string => Array.from({ length: n }, () => "0123456789abcdef"[rng.int(0, 15)]).join("");
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${"89ab"[rng.int(0, 3)]}${hex(3)}-${hex(12)}`;
}

function email(rng: Rng): string {
  return `${rng.pick(WORDS)}.${rng.pick(WORDS)}${rng.int(1, 99)}@example.com`;
}

function token(rng: Rng, length: number): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from({ length }, () => alphabet[rng.int(0, alphabet.length - 1)]).join("");
}

/** A string for a `format`, or undefined for formats without a generator here. */
export function formatValue(format: string, rng: Rng, ctx: { name?: string; instant: () => number }): string | undefined {
  switch (format) {
    case "date-time":
      return timeRenderings(ctx.instant())[0];
    case "date":
      return isoTime(ctx.instant()).slice(0, 10);
    case "time":
      return `${isoTime(ctx.instant()).slice(11, 19)}Z`;
    case "uri":
    case "url":
    case "iri":
    case "uri-reference":
    case "iri-reference":
      return httpsUrl(rng, ctx.name);
    case "email":
    case "idn-email":
      return email(rng);
    case "uuid":
      return uuid(rng);
    case "hostname":
    case "idn-hostname":
      return hostOf(rng);
    case "ipv4":
      return `${rng.int(1, 223)}.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}`;
    case "ipv6":
      return `2001:db8::${rng.int(1, 0xffff).toString(16)}`;
    case "int64":
    case "int32":
      return String(rng.int(1, format === "int32" ? 2_000_000_000 : 9_000_000_000_000));
    case "byte":
      return btoa(token(rng, 12));
    case "duration":
      return rng.pick(["PT15M", "PT1H", "P1D", "P7D", "PT30S"]);
    case "password":
      return token(rng, 16);
    default:
      return undefined;
  }
}

/** Lower-case name with `_`/`-`/camelCase humps split into `_`. */
export function normalizeName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/-/g, "_")
    .toLowerCase();
}

const HASH_KINDS: readonly IdentifierKind[] = ["email", "device_id", "handle", "platform_id", "phone_number"];

/** A 64 lower-hex SHA-256 digest of a plausible identifier for the field (`x-hashed: sha256`). */
export function hashedValue(rng: Rng, name = ""): string {
  const n = normalizeName(name);
  const kind = HASH_KINDS.find((k) => n === k || n.startsWith(k) || n.endsWith(k));
  switch (kind) {
    case "email":
      return hashIdentifier("email", email(rng));
    case "phone_number":
      return hashIdentifier("phone_number", `+1555${digits(rng, 7)}`);
    case "handle":
      return hashIdentifier("handle", `@${rng.pick(WORDS)}${rng.int(1, 999)}`);
    case "device_id":
      return hashIdentifier("device_id", uuid(rng));
    case "platform_id":
      return hashIdentifier("platform_id", numericId(rng));
    default:
      return sha256Hex(`mock:${name}:${numericId(rng)}`);
  }
}

/** Context a name heuristic may use: the object's seed (shared currency, ordered times). */
export interface NameContext {
  readonly objectSeed: number;
  readonly instant: () => number;
}

/** One name rule: which names it reads, and the candidates it adds (in order, from the same draws). */
interface NameRule {
  readonly test: RegExp;
  /** Only where no earlier rule added a candidate. */
  readonly onlyFirst?: boolean;
  readonly add: (n: string, rng: Rng, ctx: NameContext) => readonly string[];
}

const NAME_RULES: readonly NameRule[] = [
  { test: /(^|_)card_uri$|^card_uris?$/, add: (_, rng) => [`card://${numericId(rng)}`] },
  { test: /(^|_)uri$/, onlyFirst: true, add: (n, rng) => [`${n.replace(/_uri$/, "").replace(/_/g, "-") || "item"}://${numericId(rng)}`] },
  { test: /(^|_)(url|link|href|website)s?$|^(url|link)_/, add: (n, rng) => [httpsUrl(rng, n)] },
  { test: /(^|_)(email)$/, add: (_, rng) => [email(rng)] },
  { test: /(^|_)price$|_price_|amount_text/, add: (_, rng, ctx) => [price(rng, objectCurrency(ctx.objectSeed))] },
  { test: /(_at|_time|_date|^date|^time|timestamp)$/, add: (_, _rng, ctx) => timeRenderings(ctx.instant()) },
  { test: /(^|_)(id|ids|id_str|identifier|number)$|_id_/, add: (_, rng) => [numericId(rng)] },
  { test: /(^|_)key$|_keys$/, add: (_, rng) => [`${rng.int(1, 9)}_${numericId(rng)}`] },
  { test: /(^|_)(country|country_code|country_codes)$/, add: (_, rng) => [rng.pick(COUNTRIES)] },
  { test: /(^|_)currency$/, add: (_, _rng, ctx) => [objectCurrency(ctx.objectSeed)] },
  { test: /(^|_)(lang|language|locale)$/, add: (_, rng) => [rng.pick(LANGS)] },
  { test: /(^|_)time_?zone$/, add: (_, rng) => [rng.pick(TIMEZONES)] },
  { test: /(^|_)colou?r$/, add: (_, rng) => [rng.pick(COLORS)] },
  { test: /(^|_)size$/, add: (_, rng) => [rng.pick(SIZES)] },
  { test: /(^|_)brand$/, add: (_, rng) => [rng.pick(BRANDS)] },
  { test: /(^|_)gtin$/, add: (_, rng) => [digits(rng, 13)] },
  { test: /(^|_)mpn$/, add: (_, rng) => [`MPN-${digits(rng, 6)}`] },
  { test: /domain$/, add: (_, rng) => [hostOf(rng)] },
  { test: /aspect_ratio$/, add: (_, rng) => [rng.pick(RATIOS)] },
  { test: /(^|_)(username|screen_name|handle)$/, add: (_, rng) => [`${rng.pick(WORDS)}${rng.pick(WORDS)}${rng.int(1, 99)}`] },
  { test: /(^|_)(phone|phone_number)$/, add: (_, rng) => [`+1555${digits(rng, 7)}`] },
  { test: /(cursor|token|secret|nonce)$/, add: (_, rng) => [token(rng, 24)] },
  {
    test: /(^|_)(name|business_name|campaign_name|file_name)$/,
    add: (n, rng) => [n.endsWith("file_name") ? `${rng.pick(WORDS)}_${rng.pick(NOUNS)}.mp4` : `${title(rng.pick(WORDS))} ${title(rng.pick(NOUNS))}`],
  },
  { test: /(^|_)(title|label|headline)$/, add: (_, rng) => [`${title(rng.pick(WORDS))} ${rng.pick(WORDS)} ${rng.pick(NOUNS)}`] },
  { test: /(^|_)(description|text|full_text|summary|message|detail|body|comment|note)$/, add: (_, rng) => [sentence(rng)] },
  { test: /(^|_)(hashtag|tag|cta)$/, add: (_, rng) => [`#${rng.pick(WORDS)}`] },
];

/** The normalized name and the rules it matches, per name: a contract has few names, drawn over and over. */
const rulesByName = new Map<string, { readonly n: string; readonly rules: readonly NameRule[] }>();

function rulesFor(name: string): { readonly n: string; readonly rules: readonly NameRule[] } {
  let found = rulesByName.get(name);
  if (found === undefined) {
    const n = normalizeName(name);
    const rules: NameRule[] = [];
    for (const rule of NAME_RULES) if (rule.test.test(n) && !(rule.onlyFirst === true && rules.length > 0)) rules.push(rule);
    found = { n, rules };
    // Names come from contracts (a bounded set), but a long-lived process may see many contracts.
    if (rulesByName.size >= 10_000) rulesByName.clear();
    rulesByName.set(name, found);
  }
  return found;
}

/**
 * Candidate strings suggested by a property name (`card_uri`, `*_id`, `price`, `name` …), most
 * specific first. Empty when the name says nothing.
 */
export function stringsForName(name: string | undefined, rng: Rng, ctx: NameContext): string[] {
  if (name === undefined) return [];
  const { n, rules } = rulesFor(name);
  const out: string[] = [];
  for (const rule of rules) out.push(...rule.add(n, rng, ctx));
  return out;
}

/** Plain readable text for a free string, fitted to its length limits. */
export function freeText(rng: Rng, minLength: number, maxLength: number): string {
  let text = words(rng, 1, 2).join(" ");
  while ([...text].length < minLength) text += ` ${rng.pick(WORDS)}`;
  const chars = [...text];
  if (chars.length > maxLength) text = chars.slice(0, maxLength).join("").trimEnd();
  while ([...text].length < minLength) text += "x";
  return text;
}

/** An integer a field name suggests (`*_count`, `width`, `*_micro` …), or undefined. */
export function integerForName(name: string | undefined, rng: Rng): number | undefined {
  if (name === undefined) return undefined;
  const n = normalizeName(name);
  if (/(^|_)count$|_count_|^total$/.test(n)) return rng.int(0, 5000);
  if (/(^|_)(width|height)$/.test(n)) return rng.pick(PIXELS);
  if (/_micro$/.test(n)) return rng.int(1, 5000) * 10_000;
  if (/(_ms|_millis)$/.test(n)) return rng.int(1000, 600_000);
  if (/(_seconds|_secs)$/.test(n)) return rng.int(1, 600);
  if (/^(id|.*_id)$/.test(n)) return rng.int(1_000_000_000_000_000, 9_000_000_000_000_000);
  if (/^(start|end|index|offset)$/.test(n)) return rng.int(0, 280);
  if (/^status$/.test(n)) return rng.pick(STATUSES);
  if (/^code$/.test(n)) return rng.int(1, 399);
  return undefined;
}
