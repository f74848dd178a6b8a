/**
 * `contractgen mock` as a user starts it: the CLI in its own process, on a free loopback port, with
 * the options the CLI passes (request logging on). Requests go over HTTP with node:http, which sends
 * any method with any body and the Host header the OAuth 1.0a signatures were made for.
 */
import { spawn } from "node:child_process";
import { request } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../generators/dist/cli.js");

export interface CliMock {
  send(req: { method: string; url: string; headers: Record<string, string>; payload?: string }): Promise<{ statusCode: number; headers: Record<string, unknown>; body: string }>;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  stop(): void;
}

export async function startCliMock(): Promise<CliMock> {
  const child = spawn(process.execPath, [CLI, "mock", "--port", "0", "--seed", "1"], { stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr.on("data", (d: Buffer) => {
      log += d.toString();
      const m = /serving .* at http:\/\/127\.0\.0\.1:(\d+)/.exec(log);
      if (m) resolve(Number(m[1]));
    });
    child.on("exit", (code) => reject(new Error(`contractgen mock exited with ${code}:\n${log}`)));
  });
  const send: CliMock["send"] = (req) =>
    new Promise((resolve, reject) => {
      const r = request({ host: "127.0.0.1", port, method: req.method, path: req.url, headers: req.headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      });
      r.on("error", (e) => reject(new Error(`${req.method} ${req.url.slice(0, 120)} (${req.payload?.length ?? 0} bytes): ${e.message}; the process said: ${log.slice(-1500)}`)));
      r.end(req.payload);
    });
  return { send, stderr: () => log, stop: () => child.kill() };
}
