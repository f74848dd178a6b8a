/**
 * Worker-thread entry of the generator's pool (pool.ts): each message names a module of the
 * generator, one of its exported functions and the arguments; the function's (awaited) result is
 * sent back. Modules are imported on first use, so a worker that only formats never loads ajv.
 */
import { parentPort } from "node:worker_threads";

/** A task as the pool posts it. */
export interface TaskRequest {
  /** URL of the generator module that exports `fn`. */
  readonly module: string;
  readonly fn: string;
  readonly args: readonly unknown[];
}

/** What the worker answers: the function's result, or why it failed. */
export type TaskResponse = { readonly value: unknown } | { readonly error: { readonly message: string; readonly stack?: string } };

if (parentPort) {
  const port = parentPort;
  port.on("message", (request: TaskRequest) => {
    void answer(request).then((response) => port.postMessage(response));
  });
}

async function answer(request: TaskRequest): Promise<TaskResponse> {
  try {
    const mod = (await import(request.module)) as Record<string, unknown>;
    const fn = mod[request.fn];
    if (typeof fn !== "function") throw new Error(`${request.module} exports no function ${request.fn}`);
    return { value: await (fn as (...args: readonly unknown[]) => unknown)(...request.args) };
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    return { error: { message: e.message, ...(e.stack !== undefined ? { stack: e.stack } : {}) } };
  }
}
