import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CLI = path.join(ROOT, "generators/dist/cli.js");
export const FIXTURE = (name: string): string => path.join("test/mock/fixtures", name);

export interface RunningMock {
  readonly url: string;
  /** What the process wrote to stderr until it was ready (its start-up lines). */
  readonly banner: string;
  stop(): Promise<void>;
}

/**
 * `contractgen mock <args>` on port 0, as a user starts it: resolves once the start-up line names
 * its address, rejects with what it printed if it exits first (or says nothing within the time).
 */
export function startMock(args: readonly string[]): Promise<RunningMock> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [CLI, "mock", ...args, "--port", "0", "--quiet"], { cwd: ROOT, env: { ...process.env, NO_COLOR: "1" } });
    let err = "";
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`contractgen mock said nothing usable within 90 s:\n${err}`));
    }, 90_000);
    child.stderr?.on("data", (d: Buffer) => {
      err += d.toString();
      const m = / at (http:\/\/127\.0\.0\.1:\d+)/.exec(err);
      if (m && /Prefer:/.test(err)) {
        clearTimeout(timer);
        resolve({
          url: m[1] as string,
          banner: err,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done();
              child.once("exit", () => done());
              child.kill("SIGTERM");
            }),
        });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`contractgen mock exited (${code}) before serving:\n${err}`));
    });
  });
}

/** Runs `contractgen <args>` to its end. */
export function runCli(args: readonly string[]): Promise<{ code: number; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: "1" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** A JSON request; the answer's status, headers and parsed body (text where it is not JSON). */
export async function call(url: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<{ status: number; headers: Headers; body: unknown }> {
  const res = await fetch(url, {
    method: init.method ?? "GET",
    headers: { ...(init.body !== undefined ? { "content-type": "application/json" } : {}), ...init.headers },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    // Not JSON: the text itself.
  }
  return { status: res.status, headers: res.headers, body };
}
