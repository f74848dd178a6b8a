import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** A file the server answers with: its media type and bytes. */
export interface StaticFile {
  readonly type: string;
  readonly body: string | Uint8Array;
}

export interface StaticServer {
  /** `http://127.0.0.1:<port>`: loopback is a secure context, so the page may register a Service Worker. */
  readonly origin: string;
  close(): Promise<void>;
}

/** Serves `files` by exact path on 127.0.0.1 (a free port); anything else is a 404. */
export function serveStatic(files: Readonly<Record<string, StaticFile>>): Promise<StaticServer> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    const file = Object.prototype.hasOwnProperty.call(files, path) ? files[path] : undefined;
    if (file === undefined) {
      res.writeHead(404, { "content-type": "text/plain" }).end(`not served: ${path}`);
      return;
    }
    // no-store: a stale worker script or bundle from an earlier run must never answer this one.
    res.writeHead(200, { "content-type": file.type, "cache-control": "no-store" }).end(file.body);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        origin: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            // The browser may keep connections alive; close them so close() does not wait on them.
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
