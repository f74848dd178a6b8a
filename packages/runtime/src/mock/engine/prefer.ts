/**
 * Prism's `Prefer` conventions: `Prefer: code=404` answers that declared status, `example=<name>`
 * the named example, `dynamic=true` data drawn afresh instead of the contract's example. Several
 * preferences go in one header, separated by commas or semicolons.
 */

export interface Preference {
  readonly code?: number;
  readonly example?: string;
  readonly dynamic?: boolean;
}

const NONE: Preference = Object.freeze({});

export function parsePrefer(header: unknown): Preference {
  const text = Array.isArray(header) ? header.join(",") : typeof header === "string" ? header : "";
  if (text === "") return NONE;
  const out: { code?: number; example?: string; dynamic?: boolean } = {};
  for (const part of text.split(/[,;]/)) {
    const eq = part.indexOf("=");
    if (eq === -1) continue;
    const key = part.slice(0, eq).trim().toLowerCase();
    let value = part.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (key === "code" && /^[1-5]\d\d$/.test(value)) out.code = Number(value);
    else if (key === "example" && value !== "") out.example = value;
    else if (key === "dynamic") out.dynamic = value.toLowerCase() === "true";
  }
  return out;
}

/** Whether a request asks for anything but the default answer. */
export function prefers(p: Preference): boolean {
  return p.code !== undefined || p.example !== undefined || p.dynamic === true;
}
