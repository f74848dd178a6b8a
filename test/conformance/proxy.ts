/**
 * A server with one bug: the mock behind a proxy that rewrites one kind of answer. Conformance
 * tests start the engine mock of a fixture contract and break it here, so a check is shown to fail
 * on the bug it is for while passing on the mock itself.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * `rewrite` returns the body to send instead of a 2xx answer's, or undefined to pass it on; `route`,
 * where given, sends a request somewhere else on the target (a server that ignores part of a path).
 */
export async function proxy(
  target: string,
  rewrite: (method: string, url: URL, body: unknown) => unknown,
  route: (method: string, url: URL) => URL = (_method, url) => url,
): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (d: Buffer) => (text += d.toString()));
    req.on("end", () => {
      const url = route(req.method ?? "GET", new URL(req.url ?? "/", target));
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string" && k !== "host" && k !== "content-length") headers[k] = v;
      void fetch(url, { method: req.method ?? "GET", headers, ...(text === "" ? {} : { body: text }) })
        .then(async (r) => {
          const raw = await r.text();
          let body: unknown = raw;
          try {
            body = raw === "" ? raw : JSON.parse(raw);
          } catch {
            // not JSON: passed on as it came
          }
          const changed = r.ok ? rewrite(req.method ?? "GET", url, body) : undefined;
          res.writeHead(r.status, { "content-type": r.headers.get("content-type") ?? "application/json" });
          res.end(changed === undefined ? raw : JSON.stringify(changed));
        })
        .catch((e: unknown) => {
          res.writeHead(502);
          res.end(String(e));
        });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** What a staged server does around each request it passes on (`forward`). */
export interface ForwardHooks {
  /** The body to send on instead of `text` (a server that changes what it was sent). */
  readonly body?: (method: string, url: URL, text: string) => Promise<string>;
  /** Runs after the target answered `status`, before the answer goes back (a server with side effects). */
  readonly after?: (method: string, url: URL, text: string, status: number) => Promise<void>;
}

/**
 * A server with one bug in what it does rather than in what it answers: each request goes on to
 * `target` (its body as `hooks.body` makes it), `hooks.after` runs, and the target's answer goes back.
 */
export async function forward(target: string, hooks: ForwardHooks): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (d: Buffer) => (text += d.toString()));
    req.on("end", () => {
      void (async () => {
        const method = req.method ?? "GET";
        const url = new URL(req.url ?? "/", target);
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string" && k !== "host" && k !== "content-length") headers[k] = v;
        const body = hooks.body ? await hooks.body(method, url, text) : text;
        const r = await fetch(url, { method, headers, ...(body === "" ? {} : { body }) });
        const raw = await r.text();
        await hooks.after?.(method, url, text, r.status);
        res.writeHead(r.status, { "content-type": r.headers.get("content-type") ?? "application/json" });
        res.end(raw);
      })().catch((e: unknown) => {
        res.writeHead(502);
        res.end(String(e));
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
