/** The `scaffold` command's options (kept apart from the command so the CLI loads no ts-morph to parse them). */
import type { Argv } from "yargs";

export interface ScaffoldArgs {
  source?: string | undefined;
  out?: string | undefined;
  check: boolean;
  templates?: string | undefined;
  name?: string | undefined;
  config?: string | undefined;
  quiet: boolean;
}

export function scaffoldOptions<T>(y: Argv<T>): Argv<T & ScaffoldArgs> {
  return y
    .positional("source", { type: "string", describe: "an OpenAPI document, or a package contractgen generated (packages/core); default: every `scaffold` entry of the config file" })
    .option("out", { type: "string", describe: "the server project's folder (created, or updated in place); needed with <source>" })
    .option("config", { type: "string", describe: "config file [default: contractgen.config.ts, .mjs or .json if present]" })
    .option("check", { type: "boolean", default: false, describe: "write nothing; exit 1 and list handlers missing or stale (CI)" })
    .option("templates", { type: "string", describe: "folder of templates overriding the built-in ones by path (scaffold/src/app.ts.tpl …)" })
    .option("name", { type: "string", describe: "npm name of the contract package (spec input; default: the spec's file name)" })
    .option("quiet", { type: "boolean", default: false, alias: "q", describe: "print errors only" }) as Argv<T & ScaffoldArgs>;
}
