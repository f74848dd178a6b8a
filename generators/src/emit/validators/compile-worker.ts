/**
 * Worker-thread entry of the validator compile pool (compile-pool.ts): compiles one input per
 * message with the same `compileStandalone` the calling thread would run, so the code it sends back
 * is the code an inline compile gives, byte for byte.
 */
import { parentPort } from "node:worker_threads";
import { compileStandalone, type CompileInput } from "./compile.js";

/** A job as the pool posts it. */
export interface CompileRequest {
  readonly input: CompileInput;
}

/** What the worker answers: the module's code, or why it could not compile it. */
export type CompileResponse = { readonly code: string } | { readonly error: { readonly message: string; readonly stack?: string } };

if (parentPort) {
  const port = parentPort;
  port.on("message", (request: CompileRequest) => {
    let response: CompileResponse;
    try {
      response = { code: compileStandalone(request.input) };
    } catch (err) {
      const e = err instanceof Error ? err : new Error(String(err));
      response = { error: { message: e.message, ...(e.stack !== undefined ? { stack: e.stack } : {}) } };
    }
    port.postMessage(response);
  });
}
