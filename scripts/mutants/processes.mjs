// @ts-check
/**
 * Child processes of a mutation run (tsc, mock servers, suites), tracked so an interrupted run
 * stops every one it started, by pid, and nothing else.
 */
import { spawn } from "node:child_process";

/** @type {Set<import("node:child_process").ChildProcess>} */
const children = new Set();

/**
 * Runs a command to completion, with a time limit; output is collected.
 * @param {string} command
 * @param {readonly string[]} args
 * @param {{ cwd: string; timeoutMs: number; env?: NodeJS.ProcessEnv }} options
 * @returns {Promise<{ code: number | null; output: string; timedOut: boolean }>}
 */
export function run(command, args, options) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
    children.add(child);
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, options.timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code, output, timedOut });
    });
  });
}

/**
 * Starts a long-running child and resolves once a line of its stdout matches `ready` (or it exits,
 * or the time limit passes: then the result says why).
 * @param {string} command
 * @param {readonly string[]} args
 * @param {{ cwd: string; ready: RegExp; timeoutMs: number }} options
 * @returns {Promise<{ ok: true; match: RegExpExecArray; stop(): Promise<void> } | { ok: false; reason: string }>}
 */
export function start(command, args, options) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, stdio: ["ignore", "pipe", "pipe"] });
    children.add(child);
    let out = "";
    let err = "";
    let settled = false;
    const exited = new Promise((r) =>
      child.on("close", () => {
        children.delete(child);
        r(undefined);
      }),
    );
    const stop = async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    };
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      void stop();
      resolve({ ok: false, reason: `not ready within ${options.timeoutMs} ms: ${(err || out).slice(-500)}` });
    }, options.timeoutMs);
    child.stdout.on("data", (d) => {
      out += d;
      const match = options.ready.exec(out);
      if (match && !settled) {
        settled = true;
        clearTimeout(timer);
        resolve({ ok: true, match, stop });
      }
    });
    child.stderr.on("data", (d) => (err += d));
    child.on("close", (code) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ok: false, reason: `exited with ${code} before it was ready: ${(err || out).slice(-500)}` });
    });
  });
}

/** Stops every child still running (on SIGINT/SIGTERM). */
export function stopAll() {
  for (const child of children) child.kill("SIGKILL");
}
