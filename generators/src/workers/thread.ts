/**
 * Worker-thread entry of the generator's pool (pool.ts): each message names a module of the
 * generator, one of its exported functions and the arguments; the function's (awaited) result is
 * sent back. Modules are imported on first use, so a worker that only formats never loads ajv.
 */
import { parentPort } from "node:worker_threads";

/** A task as the pool posts it. */
export interface TaskRequest {
  /** Which task the answer is for: a worker may hold several (pool.ts, `depth`). */
  readonly id: number;
  /** URL of the generator module that exports `fn`. */
  readonly module: string;
  readonly fn: string;
  readonly args: readonly unknown[];
}

type Answer = { readonly value: unknown } | { readonly error: { readonly message: string; readonly stack?: string } };

/** What the worker answers: the function's result, or why it failed. */
export type TaskResponse = { readonly id: number } & Answer;

if (parentPort) {
  const port = parentPort;
  // One task at a time, in the order posted: a task's heap is reclaimable before the next starts.
  let previous: Promise<unknown> = Promise.resolve();
  port.on("message", (request: TaskRequest) => {
    previous = previous.then(async () => {
      const response = await answer(request);
      try {
        port.postMessage({ id: request.id, ...response });
      } catch (err) {
        // A result no structured clone takes: the task fails, and the tasks after it still run.
        port.postMessage({ id: request.id, error: { message: `a worker's result could not be sent back: ${err instanceof Error ? err.message : String(err)}` } });
      }
    });
  });
}

async function answer(request: TaskRequest): Promise<Answer> {
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
