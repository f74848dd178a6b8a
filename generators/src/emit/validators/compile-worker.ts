/**
 * Worker-thread entry of the validator compile pool (compile-pool.ts): compiles one input per
 * message (a whole document, or a batch of units) with the same functions the calling thread would
 * run, so the code it sends back is the code an inline compile gives, byte for byte.
 */
import { parentPort } from "node:worker_threads";
import { compileStandalone, compileUnits, type CompileInput, type UnitsInput } from "./compile.js";
import type { UnitCode } from "./units.js";

/** A job as the pool posts it. */
export type CompileRequest = { readonly input: CompileInput } | { readonly units: UnitsInput };

/** What the worker answers: the module's code (or the units' codes), or why it could not compile it. */
export type CompileResponse =
  | { readonly code: string }
  | { readonly units: readonly UnitCode[] }
  | { readonly error: { readonly message: string; readonly stack?: string } };

if (parentPort) {
  const port = parentPort;
  port.on("message", (request: CompileRequest) => {
    let response: CompileResponse;
    try {
      response = "units" in request ? { units: compileUnits(request.units) } : { code: compileStandalone(request.input) };
    } catch (err) {
      const e = err instanceof Error ? err : new Error(String(err));
      response = { error: { message: e.message, ...(e.stack !== undefined ? { stack: e.stack } : {}) } };
    }
    port.postMessage(response);
  });
}
