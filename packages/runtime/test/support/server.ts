import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** A request as the server received it, body buffered. */
export interface Received {
  readonly method: string;
  /** Path and query as sent on the request line. */
  readonly path: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
}

export type Handler = (req: Received, res: ServerResponse, raw: IncomingMessage) => unknown;

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Every request, in arrival order. */
  readonly received: Received[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 and an ephemeral port. */
export async function startServer(handler: Handler): Promise<TestServer> {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((raw, res) => {
    const chunks: Buffer[] = [];
    raw.on("data", (c: Buffer) => chunks.push(c));
    raw.on("end", () => {
      const req: Received = {
        method: raw.method ?? "",
        path: raw.url ?? "",
        headers: raw.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      received.push(req);
      Promise.resolve(handler(req, res, raw)).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
        res.end(String(error));
      });
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/** The decoded `user:password` of a Basic header, or undefined. */
export function basicCredentials(header: string | undefined): string | undefined {
  const m = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header ?? "");
  return m ? Buffer.from(m[1] as string, "base64").toString("utf8") : undefined;
}

/** Records sleeps instead of waiting. */
export function recordingSleep(): { sleep: (ms: number, signal?: AbortSignal) => Promise<void>; delays: number[] } {
  const delays: number[] = [];
  return {
    delays,
    sleep: (ms, signal) => {
      delays.push(ms);
      return signal?.aborted ? Promise.reject(signal.reason) : Promise.resolve();
    },
  };
}
