/**
 * A parser for the plain invocations of `generate` and `check`, without yargs. Loading yargs and
 * building its help text cost about a third of a no-op run, which is the run users make most.
 * Anything this parser does not accept exactly (help, unknown or repeated flags, `--no-x`, `--`)
 * returns undefined, and the caller hands the command line to yargs, which owns every message.
 */
import { parseArgs } from "node:util";

/** An option as both yargs and this parser read it. */
export interface QuickOption {
  readonly type: "string" | "boolean";
  readonly describe: string;
  /** A single-letter alias, `-q`. */
  readonly alias?: string;
  /** Only booleans have defaults here: a string flag left out stays undefined. */
  readonly default?: boolean;
}

/** The parsed values: booleans default to false, strings are undefined when not given. */
export type QuickValues<O extends Record<string, QuickOption>> = {
  -readonly [K in keyof O]: O[K]["type"] extends "boolean" ? boolean : string | undefined;
};

export interface QuickParse<O extends Record<string, QuickOption>> {
  readonly values: QuickValues<O>;
  readonly positionals: readonly string[];
}

/**
 * Parses `args` (the command line after the command's name) against `options`, or returns
 * undefined when yargs should see it instead.
 */
export function quickParse<O extends Record<string, QuickOption>>(args: readonly string[], options: O, maxPositionals: number): QuickParse<O> | undefined {
  const config: Record<string, { type: "string" | "boolean"; short?: string }> = {};
  for (const [name, o] of Object.entries(options)) config[name] = { type: o.type, ...(o.alias !== undefined ? { short: o.alias } : {}) };
  let parsed: ReturnType<typeof parseArgs<{ options: typeof config; strict: true; allowPositionals: true; tokens: true }>>;
  try {
    parsed = parseArgs({ args: [...args], options: config, strict: true, allowPositionals: true, tokens: true });
  } catch {
    return undefined;
  }
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    // After `--` yargs keeps arguments apart; a repeated string flag becomes an array there. Let it decide.
    if (token.kind === "option-terminator") return undefined;
    if (token.kind === "option") {
      if (seen.has(token.name)) return undefined;
      seen.add(token.name);
    }
  }
  if (parsed.positionals.length > maxPositionals) return undefined;
  const values: Record<string, string | boolean | undefined> = {};
  for (const [name, o] of Object.entries(options)) {
    const v = parsed.values[name];
    values[name] = o.type === "boolean" ? v === true : typeof v === "string" ? v : undefined;
  }
  return { values: values as QuickValues<O>, positionals: parsed.positionals };
}
