// Our types stage alone, as a process: load + model + types emitter + write, no other artifacts.
// Compared with the openapi-typescript CLI, which does the same job (parse, generate, write).
import { writeFile } from "node:fs/promises";
import { loadSpec, buildModel } from "../../generators/dist/index.js";
import { typesEmitter } from "../../generators/dist/emit/types.js";

const [spec, out] = process.argv.slice(2);
const model = buildModel(await loadSpec(spec), "bench");
const [file] = await typesEmitter.emit({ model, packageName: "bench", exports: new Map() });
await writeFile(out, file.contents);
