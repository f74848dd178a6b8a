import { afterEach, describe, expect, it } from "vitest";
import { NetworkError, TimeoutError } from "../src/client/errors.js";
import { backoffDelay, isIdempotent, resolveRetryOptions, retryDelay, serverDelayMs } from "../src/client/retry.js";
import { createTransport } from "../src/client/transport.js";
import { json, recordingSleep, startServer, type TestServer } from "./support/server.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A server that answers the scripted responses in turn, then 200. */
async function scripted(...steps: (((res: import("node:http").ServerResponse, socket: import("node:net").Socket) => void) | number)[]) {
  let n = 0;
  server = await startServer((_req, res, raw) => {
    const step = steps[n++];
    if (step === undefined) return json(res, 200, { attempt: n });
    if (typeof step === "number") return json(res, step, { attempt: n });
    step(res, raw.socket);
  });
  return server;
}

describe("backoff", () => {
  const options = { minDelayMs: 250, maxDelayMs: 30_000, factor: 2 };

  it.each([
    [0, 250],
    [1, 500],
    [2, 1000],
    [6, 16_000],
    [7, 30_000], // 32_000 capped
    [20, 30_000],
  ])("retry %i draws below a ceiling of %i ms (full jitter)", (attempt, ceiling) => {
    expect(backoffDelay(attempt, options, () => 0)).toBe(0);
    expect(backoffDelay(attempt, options, () => 0.5)).toBe(Math.floor(ceiling / 2));
    expect(backoffDelay(attempt, options, () => 0.999_999)).toBe(ceiling - 1);
  });
});

describe("server delay hints", () => {
  const now = Date.UTC(2026, 5, 1, 12, 0, 0);

  it.each<[string, Record<string, string>, number | undefined]>([
    ["Retry-After in seconds", { "retry-after": "7" }, 7000],
    ["Retry-After as an HTTP date", { "retry-after": "Mon, 01 Jun 2026 12:00:05 GMT" }, 5000],
    ["Retry-After in the past", { "retry-after": "Mon, 01 Jun 2026 11:00:00 GMT" }, 0],
    ["x-rate-limit-reset in epoch seconds", { "x-rate-limit-reset": String(now / 1000 + 42) }, 42_000],
    ["Retry-After wins over x-rate-limit-reset", { "retry-after": "1", "x-rate-limit-reset": String(now / 1000 + 42) }, 1000],
    ["garbage is ignored", { "retry-after": "soon", "x-rate-limit-reset": "later" }, undefined],
    ["no hint", {}, undefined],
  ])("%s", (_, headers, expected) => {
    expect(serverDelayMs(new Headers(headers), now)).toBe(expected);
  });

  it("caps a hint at maxDelayMs", () => {
    const options = resolveRetryOptions({ maxDelayMs: 10_000, now: () => now });
    expect(retryDelay(0, options, new Headers({ "retry-after": "900" }))).toBe(10_000);
  });
});

describe("idempotency", () => {
  it.each([
    ["GET", true],
    ["head", true],
    ["OPTIONS", true],
    ["PUT", true],
    ["DELETE", true],
    ["POST", false],
    ["PATCH", false],
  ])("%s idempotent: %s", (method, expected) => {
    expect(isIdempotent(method)).toBe(expected);
  });
});

describe("retries against a real server", () => {
  it("429 with Retry-After: waits what the server asked, then succeeds", async () => {
    const s = await scripted((res) => json(res, 429, {}, { "retry-after": "2" }));
    const { sleep, delays } = recordingSleep();
    const transport = createTransport({ baseUrl: s.url, retry: { sleep } });
    const res = await transport.request({ method: "GET", path: "/2/posts" });
    expect(res.status).toBe(200);
    expect(delays).toEqual([2000]);
    expect(s.received).toHaveLength(2);
  });

  it("503 with x-rate-limit-reset: waits until the reset", async () => {
    const now = 1_900_000_000_000;
    const s = await scripted((res) => json(res, 503, {}, { "x-rate-limit-reset": String(now / 1000 + 3) }));
    const { sleep, delays } = recordingSleep();
    const transport = createTransport({ baseUrl: s.url, retry: { sleep, now: () => now } });
    expect((await transport.request({ method: "GET", path: "/x" })).status).toBe(200);
    expect(delays).toEqual([3000]);
  });

  it("without hints: exponential full-jitter backoff, then the last answer once retries run out", async () => {
    const s = await scripted(503, 503, 503, 503);
    const { sleep, delays } = recordingSleep();
    const transport = createTransport({ baseUrl: s.url, retry: { retries: 3, minDelayMs: 100, random: () => 0.5, sleep } });
    const res = await transport.request({ method: "GET", path: "/x" });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ attempt: 4 });
    expect(delays).toEqual([50, 100, 200]);
  });

  it("does not retry statuses outside retryOn", async () => {
    const s = await scripted(500);
    const transport = createTransport({ baseUrl: s.url, retry: { sleep: recordingSleep().sleep } });
    expect((await transport.request({ method: "GET", path: "/x" })).status).toBe(500);
    expect(s.received).toHaveLength(1);
  });

  it("retries a dropped connection (network error)", async () => {
    const s = await scripted((_res, socket) => socket.destroy());
    const { sleep, delays } = recordingSleep();
    const transport = createTransport({ baseUrl: s.url, retry: { sleep } });
    const res = await transport.request({ method: "GET", path: "/x" });
    expect(res.status).toBe(200);
    expect(delays).toHaveLength(1);
  });

  it("does not retry POST by default: the 503 comes back, and a dropped connection is a NetworkError with its cause", async () => {
    const s = await scripted(503, (_res, socket) => socket.destroy());
    const transport = createTransport({ baseUrl: s.url, retry: { sleep: recordingSleep().sleep } });
    expect((await transport.request({ method: "POST", path: "/2/posts", body: {} })).status).toBe(503);
    const error = await transport.request({ method: "POST", path: "/2/posts", body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).cause).toBeDefined();
    expect(s.received).toHaveLength(2);
  });

  it("retries POST when retryNonIdempotent is set", async () => {
    const s = await scripted(503, 503);
    const transport = createTransport({ baseUrl: s.url, retry: { sleep: recordingSleep().sleep, retryNonIdempotent: true } });
    expect((await transport.request({ method: "POST", path: "/x", body: {} })).status).toBe(200);
    expect(s.received).toHaveLength(3);
  });

  it("retries POST when the request declares itself idempotent", async () => {
    const s = await scripted(503);
    const transport = createTransport({ baseUrl: s.url, retry: { sleep: recordingSleep().sleep } });
    expect((await transport.request({ method: "POST", path: "/x", body: {}, idempotent: true })).status).toBe(200);
    expect(s.received).toHaveLength(2);
  });

  it("does not retry GET when the request declares itself non-idempotent", async () => {
    const s = await scripted(503);
    const transport = createTransport({ baseUrl: s.url, retry: { sleep: recordingSleep().sleep } });
    expect((await transport.request({ method: "GET", path: "/x", idempotent: false })).status).toBe(503);
  });

  it("retry: false never retries", async () => {
    const s = await scripted(429);
    const transport = createTransport({ baseUrl: s.url, retry: false });
    expect((await transport.request({ method: "GET", path: "/x" })).status).toBe(429);
    expect(s.received).toHaveLength(1);
  });

  it("an abort during the backoff stops retrying with the abort reason", async () => {
    const s = await scripted(503, 503, 503);
    const controller = new AbortController();
    const reason = new Error("caller gave up");
    const transport = createTransport({
      baseUrl: s.url,
      retry: {
        sleep: (_ms, signal) => {
          controller.abort(reason);
          return Promise.reject(signal?.reason);
        },
      },
    });
    await expect(transport.request({ method: "GET", path: "/x", signal: controller.signal })).rejects.toBe(reason);
    expect(s.received).toHaveLength(1);
  });

  it("an already aborted signal sends nothing", async () => {
    const s = await scripted();
    const transport = createTransport({ baseUrl: s.url });
    await expect(transport.request({ method: "GET", path: "/x", signal: AbortSignal.abort(new Error("no")) })).rejects.toThrow("no");
    expect(s.received).toHaveLength(0);
  });

  it("a slow answer is a TimeoutError", async () => {
    server = await startServer(async (_req, res) => {
      await new Promise((r) => setTimeout(r, 500));
      json(res, 200, {});
    });
    const transport = createTransport({ baseUrl: server.url, timeoutMs: 50 });
    const started = Date.now();
    const error = await transport.request({ method: "GET", path: "/slow" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).timeoutMs).toBe(50);
    expect(Date.now() - started).toBeLessThan(400);
  });

  it("the timeout covers retries and waits: a long backoff ends in a TimeoutError, not another attempt", async () => {
    const s = await scripted((res) => json(res, 503, {}, { "retry-after": "10" }));
    const transport = createTransport({ baseUrl: s.url, retry: {} });
    const error = await transport.request({ method: "GET", path: "/x", timeoutMs: 100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(s.received).toHaveLength(1);
  });

  it("the caller's abort is told apart from the timeout", async () => {
    server = await startServer(async (_req, res) => {
      await new Promise((r) => setTimeout(r, 500));
      json(res, 200, {});
    });
    const transport = createTransport({ baseUrl: server.url, timeoutMs: 5_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user cancelled")), 30);
    await expect(transport.request({ method: "GET", path: "/slow", signal: controller.signal })).rejects.toThrow("user cancelled");
  });
});
