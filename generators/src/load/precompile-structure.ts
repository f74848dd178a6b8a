/**
 * Build step (`npm run build:generators`): compiles the structure validators into standalone code
 * in dist/load, so that a run loads them instead of compiling the OpenAPI schemas with ajv.
 * Usage: node generators/dist/load/precompile-structure.js
 */
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PRECOMPILED, VALIDATORS, newAjv, schemaOf, structureKey, type Dialect, type ValidatorName } from "./structure-schemas.js";

const require = createRequire(import.meta.url);

/** Writes one standalone CommonJS module per dialect; returns the files written. */
export function precompileStructure(dir: string = path.dirname(fileURLToPath(import.meta.url))): string[] {
  const standalone = (require("ajv/dist/standalone") as { default: (ajv: object, refs: Record<string, string>) => string }).default;
  const key = structureKey();
  const written: string[] = [];
  for (const dialect of Object.keys(PRECOMPILED) as Dialect[]) {
    const ajv = newAjv(dialect, true);
    const refs: Record<string, string> = {};
    for (const [name, d] of Object.entries(VALIDATORS) as [ValidatorName, Dialect][]) {
      if (d !== dialect) continue;
      const { schema, id } = schemaOf(name);
      if (schema) ajv.addSchema(schema);
      refs[name] = id;
    }
    const file = path.join(dir, PRECOMPILED[dialect]);
    writeFileSync(file, `${standalone(ajv, refs)}\nexports.key = ${JSON.stringify(key)};\n`);
    written.push(file);
  }
  return written;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const f of precompileStructure()) process.stdout.write(`precompiled ${path.relative(process.cwd(), f)}\n`);
}
