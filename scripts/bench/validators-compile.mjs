// One process: how long ajv takes to load and compile the same schemas at start-up instead
// (every named schema of the bundled spec, JSON Schema 2020-12, allErrors, formats).
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const spec = process.argv[2];
const { loadSpec, buildModel } = await import("../../generators/dist/index.js");
const { toJsonSchema } = await import("../../generators/dist/emit/validators/json-schema.js");
const model = buildModel(await loadSpec(spec), "bench");
const root = { $id: "https://contractgen.invalid/schema.json", components: { schemas: Object.fromEntries(model.schemas.map((s) => [s.name, toJsonSchema(s.schema)])) } };
const t = performance.now();
const Ajv2020 = require("ajv/dist/2020").default;
const addFormats = require("ajv-formats").default;
const ajv = new Ajv2020({ allErrors: true, strict: false, logger: false });
addFormats(ajv);
ajv.addSchema(root);
for (const s of model.schemas) ajv.getSchema(`${root.$id}#/components/schemas/${encodeURIComponent(s.name)}`);
process.stdout.write(String(performance.now() - t));
