import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { HttpStatusError, NetworkError, StreamEndedError, StreamParseError, TimeoutError } from "../src/client/errors.js";
import { createProblemParser, Problem } from "../src/shared/problem.js";
import { readNdjson, streamWithReconnect, type StreamWithReconnectOptions } from "../src/client/stream.js";
import { createTransport } from "../src/client/transport.js";
import { recordingSleep, startServer, type TestServer } from "./support/server.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const enc = new TextEncoder();

/** A body delivering exactly these chunks. */
function body(...chunks: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(typeof c === "string" ? enc.encode(c) : c);
      controller.close();
    },
  });
}

async function parseAll(stream: ReadableStream<Uint8Array>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const value of readNdjson(stream)) out.push(value);
  return out;
}

describe("readNdjson", () => {
  it("parses one value per line", async () => {
    expect(await parseAll(body('{"a":1}\n{"b":[2]}\n"text"\n3\n'))).toEqual([{ a: 1 }, { b: [2] }, "text", 3]);
  });

  it("joins lines split across chunks anywhere", async () => {
    expect(await parseAll(body('{"id":', '"1"}\n{"id"', ':"2"}', "\n", '{"id":"3"}\n'))).toEqual([{ id: "1" }, { id: "2" }, { id: "3" }]);
  });

  it("decodes multibyte characters split across chunks", async () => {
    const bytes = enc.encode('{"text":"é☕😀"}\n');
    const oneByteChunks = [...bytes].map((b) => new Uint8Array([b]));
    expect(await parseAll(body(...oneByteChunks))).toEqual([{ text: "é☕😀" }]);
  });

  it("skips blank keep-alive lines, \\r\\n ones included", async () => {
    expect(await parseAll(body("\r\n", '{"a":1}\r\n', "\r\n\r\n", "\n", '{"b":2}\r\n', "  \n"))).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it("parses a last line without a newline", async () => {
    expect(await parseAll(body('{"a":1}\n{"b":2}'))).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it("throws a StreamParseError carrying the malformed line, after yielding the good ones before it", async () => {
    const seen: unknown[] = [];
    const error = await (async () => {
      for await (const v of readNdjson(body('{"ok":1}\n\r\n{not json}\r\n{"ok":2}\n'))) seen.push(v);
    })().catch((e: unknown) => e);
    expect(seen).toEqual([{ ok: 1 }]);
    expect(error).toBeInstanceOf(StreamParseError);
    expect(error).toMatchObject({ name: "StreamParseError", line: "{not json}", lineNumber: 3 });
  });

  it("refuses a line longer than maxLineLength instead of buffering without end", async () => {
    const stream = body('{"a":"', "x".repeat(100), "y".repeat(100));
    const run = (async () => {
      for await (const _ of readNdjson(stream, undefined, { maxLineLength: 150 })) void _;
    })();
    await expect(run).rejects.toBeInstanceOf(StreamParseError);
  });

  it("cancels the body when the consumer stops early", async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(enc.encode('{"n":1}\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const _ of readNdjson(stream)) break;
    expect(cancelled).toBe(true);
  });
});

// Problem classes as the generated core package would declare them.
class OperationalDisconnectProblem extends Problem {
  static override readonly type = "https://problems.example/operational-disconnect";
  static override readonly slug = "operational-disconnect";
  static override readonly memberNames = ["disconnect_type"];
  declare readonly disconnect_type?: string;
}
class StreamingConnectionProblem extends Problem {
  static override readonly type = "https://problems.example/streaming-connection";
  static override readonly slug = "streaming-connection";
  static override readonly memberNames = ["connection_issue"];
  declare readonly connection_issue?: string;
}
const parseProblem = createProblemParser([OperationalDisconnectProblem, StreamingConnectionProblem]);
const classify = (value: unknown): Error | undefined => (value !== null && typeof value === "object" && "type" in value && "title" in value ? parseProblem(value) : undefined);

type Script = (res: ServerResponse, socket: Socket) => void;

/** A streaming server: connection n follows script n; beyond the scripts it holds the connection open. */
async function streamingServer(...scripts: Script[]): Promise<TestServer> {
  let n = 0;
  server = await startServer((_req, res, raw) => {
    const script = scripts[n++];
    if (!script) {
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      res.flushHeaders();
      return;
    }
    script(res, raw.socket);
  });
  return server;
}

const events =
  (...values: unknown[]): Script =>
  (res) => {
    res.writeHead(200, { "content-type": "application/x-ndjson" });
    res.end(values.map((v) => `${JSON.stringify(v)}\n`).join(""));
  };

function consume(options: Partial<StreamWithReconnectOptions> & { until: (events: unknown[]) => boolean }) {
  const { sleep, delays } = recordingSleep();
  const reconnects: [number, Error][] = [];
  const seen: unknown[] = [];
  const done = (async () => {
    for await (const event of streamWithReconnect({
      connect: (signal) => fetch(`${server?.url}/2/activity/stream`, { signal }),
      classify,
      sleep,
      random: () => 0.5,
      onReconnect: (attempt, reason) => reconnects.push([attempt, reason]),
      ...options,
    })) {
      seen.push(event);
      if (options.until(seen)) break;
    }
  })();
  return { done, delays, reconnects, seen };
}

describe("streamWithReconnect against a real server", () => {
  it("reconnects with backoff after the server drops the connection mid-stream", async () => {
    await streamingServer(
      (res, socket) => {
        res.writeHead(200, { "content-type": "application/x-ndjson" });
        res.write('{"id":1}\n{"id":2}\n{"id":');
        setTimeout(() => socket.destroy(), 20);
      },
      events({ id: 3 }),
    );
    const run = consume({ until: (seen) => seen.length === 3 });
    await run.done;
    expect(run.seen).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(run.reconnects.map(([n, reason]) => [n, reason.constructor])).toEqual([[1, NetworkError]]);
    expect(run.delays).toEqual([500]); // full jitter at 0.5 of the 1000 ms first ceiling
  });

  it("grows the backoff while connections bring nothing, and resets it once an event flows", async () => {
    await streamingServer(events({ n: 1 }), events(), events(), events({ n: 2 }), events({ n: 3 }));
    const run = consume({ until: (seen) => seen.length === 3 });
    await run.done;
    expect(run.seen).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(run.reconnects.map(([n]) => n)).toEqual([1, 2, 3, 1]);
    expect(run.reconnects.every(([, reason]) => reason instanceof StreamEndedError)).toBe(true);
    expect(run.delays).toEqual([500, 1000, 2000, 500]);
  });

  it("reconnects after an operational-disconnect problem event", async () => {
    await streamingServer(
      events({ id: "a" }, { type: "https://problems.example/operational-disconnect", title: "Operational disconnect", disconnect_type: "UpstreamOperationalDisconnect" }),
      events({ id: "b" }),
    );
    const run = consume({ until: (seen) => seen.length === 2 });
    await run.done;
    expect(run.seen).toEqual([{ id: "a" }, { id: "b" }]);
    const reason = run.reconnects[0]?.[1];
    expect(reason).toBeInstanceOf(OperationalDisconnectProblem);
    expect((reason as OperationalDisconnectProblem).disconnect_type).toBe("UpstreamOperationalDisconnect");
  });

  it("throws a streaming-connection problem event to the consumer as the typed error classify returned", async () => {
    await streamingServer(events({ id: "a" }, { type: "https://problems.example/streaming-connection", title: "Streaming connection", connection_issue: "RuleConfigurationIssue" }));
    const run = consume({ until: () => false });
    const error = await run.done.catch((e: unknown) => e);
    expect(run.seen).toEqual([{ id: "a" }]);
    expect(error).toBeInstanceOf(StreamingConnectionProblem);
    expect((error as StreamingConnectionProblem).connection_issue).toBe("RuleConfigurationIssue");
    expect(run.reconnects).toEqual([]);
    expect(server?.received).toHaveLength(1);
  });

  it("classifies the body of a non-2xx connect answer: TooManyConnections is thrown", async () => {
    await streamingServer((res) => {
      res.writeHead(429, { "content-type": "application/problem+json" });
      res.end(JSON.stringify({ type: "https://problems.example/streaming-connection", title: "Too many", status: 429, connection_issue: "TooManyConnections" }));
    });
    const error = await consume({ until: () => false }).done.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamingConnectionProblem);
    expect((error as Problem).status).toBe(429);
  });

  it("waits the Retry-After of a 503 connect answer, then connects again", async () => {
    await streamingServer(
      (res) => {
        res.writeHead(503, { "content-type": "text/plain", "retry-after": "3" });
        res.end("busy");
      },
      events({ id: 1 }),
    );
    const run = consume({ until: (seen) => seen.length === 1 });
    await run.done;
    expect(run.delays).toEqual([3000]);
    expect(run.reconnects[0]?.[1]).toBeInstanceOf(HttpStatusError);
  });

  it("does not reconnect after a 401: the HttpStatusError is thrown", async () => {
    await streamingServer((res) => {
      res.writeHead(401, { "content-type": "application/json" });
      res.end('{"errors":[{"code":89,"message":"Invalid or expired token."}]}');
    });
    const error = await consume({ until: () => false }).done.catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "HttpStatusError", status: 401 });
  });

  it("gives up after maxReconnects consecutive reconnects, throwing the last reason", async () => {
    await streamingServer(events(), events(), events(), events());
    const run = consume({ until: () => false, backoff: { maxReconnects: 2 } });
    await expect(run.done).rejects.toBeInstanceOf(StreamEndedError);
    expect(run.reconnects.map(([n]) => n)).toEqual([1, 2]);
    expect(server?.received).toHaveLength(3);
  });

  it("stops on the caller's abort without reconnecting", async () => {
    await streamingServer((res) => {
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      res.write('{"id":1}\n'); // then nothing: the connection stays open
    });
    const controller = new AbortController();
    const run = consume({
      signal: controller.signal,
      until: () => {
        setTimeout(() => controller.abort(new Error("shutting down")), 10);
        return false;
      },
    });
    await expect(run.done).rejects.toThrow("shutting down");
    expect(run.reconnects).toEqual([]);
    expect(server?.received).toHaveLength(1);
  });

  it("closes the connection when the consumer breaks out", async () => {
    let closed = false;
    await streamingServer((res) => {
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      res.write('{"id":1}\n');
      res.on("close", () => {
        closed = true;
      });
    });
    await consume({ until: () => true }).done;
    await new Promise((r) => setTimeout(r, 50));
    expect(closed).toBe(true);
  });

  it("works with Transport.open as the connector, authenticating each connection", async () => {
    await streamingServer(
      (res) => {
        res.writeHead(200, { "content-type": "application/x-ndjson" });
        res.end('{"data":{"event_type":"post.create"}}\n');
      },
      events({ data: { event_type: "post.delete" } }),
    );
    const transport = createTransport({ baseUrl: server?.url as string, auth: { bearer: "stream-token" } });
    const run = consume({
      connect: (signal) => transport.open({ method: "GET", path: "/2/activity/stream", security: [["bearer"]], signal }),
      until: (seen) => seen.length === 2,
    });
    await run.done;
    expect(run.seen).toEqual([{ data: { event_type: "post.create" } }, { data: { event_type: "post.delete" } }]);
    expect(server?.received.map((r) => r.headers.authorization)).toEqual(["Bearer stream-token", "Bearer stream-token"]);
  });

  it("Transport.open: the timeout bounds the wait for the head, not the life of the stream", async () => {
    await streamingServer((res) => {
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      res.flushHeaders();
      setTimeout(() => res.end('{"late":true}\n'), 150);
    });
    const transport = createTransport({ baseUrl: server?.url as string, timeoutMs: 50 });
    const response = await transport.open({ method: "GET", path: "/2/activity/stream" });
    const values: unknown[] = [];
    for await (const v of readNdjson(response.body as ReadableStream<Uint8Array>)) values.push(v);
    expect(values).toEqual([{ late: true }]);
  });

  it("Transport.open: a head slower than the timeout is a TimeoutError", async () => {
    await streamingServer((res) => {
      setTimeout(() => {
        res.writeHead(200);
        res.end();
      }, 300);
    });
    const transport = createTransport({ baseUrl: server?.url as string, timeoutMs: 50 });
    await expect(transport.open({ method: "GET", path: "/2/activity/stream" })).rejects.toBeInstanceOf(TimeoutError);
  });
});
