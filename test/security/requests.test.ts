/**
 * Hostile requests and deliveries against packages generated from a hostile contract
 * (test/fixtures/security/openapi.yaml): catastrophic patterns on a path parameter, a query
 * parameter and a body member, a recursive body schema, formats on 200k-character values, prototype
 * keys, 10k query parameters, traversal and NUL in a path, oversized headers; signed and id-carrying
 * webhooks sent twice, forged, stale and oversized. Each case states its answer and a time bound;
 * none may be a 5xx, none may hang, nothing may reach a prototype. The server listens on loopback
 * and is driven with fetch, so requests really run side by side.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import Fastify, { type FastifyInstance } from "fastify";
import { signStandardWebhook } from "@contractgen/runtime/receiver";
import { FIXTURES, TSC, runCli, workspaceTmpDir } from "../generator/helpers.js";

type Plugin = (app: FastifyInstance, options: Record<string, unknown>) => Promise<void>;
interface Validators {
  validateRequest(id: string, input: Record<string, unknown>): { valid: boolean; problem?: { errors: { parameters: Record<string, unknown> }[] } };
}

let out = "";
let server: Plugin;
let receiver: Plugin;
let validators: Validators;
let app: FastifyInstance;
let base = "";
const created: unknown[] = [];

beforeAll(async () => {
  out = path.join(workspaceTmpDir("cg-security-"), "pkg");
  const r = await runCli(["generate", path.join(FIXTURES, "security/openapi.yaml"), "--out", out, "--name", "@t/security"]);
  expect(r.code, r.stderr).toBe(0);
  const build = spawnSync(process.execPath, [TSC, "-p", out], { encoding: "utf8" });
  expect(build.stdout + build.stderr).toBe("");
  server = ((await import(pathToFileURL(path.join(out, "dist/server.js")).href)) as Record<string, Plugin>)["openapiServer"] as Plugin;
  receiver = ((await import(pathToFileURL(path.join(out, "dist/receiver.js")).href)) as Record<string, Plugin>)["openapiReceiver"] as Plugin;
  validators = (await import(pathToFileURL(path.join(out, "dist/validators.js")).href)) as Validators;
  app = Fastify();
  await app.register(server, {
    handlers: {
      ping: () => ({ status: 200, body: {} }),
      createItem: (input: unknown) => {
        created.push(input);
        return { status: 201, body: {} };
      },
    },
  });
  base = await app.listen({ host: "127.0.0.1", port: 0 });
  // Generation and a tsc build: seconds when idle, minutes on a shared, loaded machine.
}, 300_000);

afterAll(async () => {
  await app?.close();
});

/** A request and how long its answer took. */
async function timed(url: string, init: RequestInit = {}): Promise<{ status: number; body: Record<string, unknown>; ms: number }> {
  const t = performance.now();
  const res = await fetch(`${base}${url}`, init);
  const text = await res.text();
  return { status: res.status, body: text === "" ? {} : (JSON.parse(text) as Record<string, unknown>), ms: performance.now() - t };
}
const json = (body: unknown): RequestInit => ({ method: "POST", headers: { "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) });
/** The parameters a 400 problem names. */
const named = (body: Record<string, unknown>): string[] => ((body["errors"] as { parameters: Record<string, unknown> }[] | undefined) ?? []).flatMap((e) => Object.keys(e.parameters));

// A run of a's and a mismatch: RegExp would backtrack for longer than the universe has existed
// (60 on the path: Fastify answers 414 for a parameter over 100 characters before any validation).
const EVIL = `${"a".repeat(10_000)}!`;
const EVIL_PATH = `${"a".repeat(60)}!`;
const EVIL_URL = `http://a.bc/${"a".repeat(5_000)}!`;

describe("catastrophic patterns are answered 400 in milliseconds while other requests are served", () => {
  it("on a path parameter, beside a concurrent request", async () => {
    const [evil, ping] = await Promise.all([timed(`/items/${EVIL_PATH}`, json({})), timed("/ping")]);
    expect(evil.status).toBe(400);
    expect(named(evil.body)).toContain("code");
    expect(evil.ms).toBeLessThan(2_000);
    expect(ping.status).toBe(200);
    expect(ping.ms).toBeLessThan(2_000);
  });

  it("on a query parameter and on a body member (maxLength beside the pattern does not stop it on RegExp)", async () => {
    const q = await timed(`/items/aaa?site=${encodeURIComponent(EVIL_URL)}`, json({}));
    expect(q.status).toBe(400);
    expect(named(q.body)).toContain("site");
    const b = await timed("/items/aaa", json({ name: `${"a".repeat(40)}!` }));
    expect(b.status).toBe(400);
    expect(b.ms).toBeLessThan(2_000);
  });

  it("in ./validators (what ./mcp calls): validateRequest decides at once", () => {
    const t = performance.now();
    const v = validators.validateRequest("createItem", { path: { code: EVIL }, query: { site: EVIL_URL }, body: { name: `${"a".repeat(40)}!` }, contentType: "application/json" });
    expect(v.valid).toBe(false);
    expect(performance.now() - t).toBeLessThan(1_000);
  });

  it("a value that matches still passes: the engine keeps the patterns' meaning", async () => {
    const ok = await timed("/items/aaaa?site=https://example.com/a/b", json({ name: "aaa", tree: { a: { b: {} } } }));
    expect(ok.status).toBe(201);
  });
});

describe("deep, long and odd input is a 4xx, never a 5xx", () => {
  it("a body nested 10,000 levels deep: 400 naming the body (was 500)", async () => {
    const deep = `{"tree":${'{"a":'.repeat(10_000)}{}${"}".repeat(10_000)}}`;
    const r = await timed("/items/aaa", json(deep));
    expect(r.status).toBe(400);
    expect(named(r.body)).toContain("body");
    expect(String(r.body["detail"])).toMatch(/deeper than 256/);
  });

  it("format values of 200,000 characters: 400 quickly", async () => {
    const long = "a".repeat(200_000);
    const r = await timed("/items/aaa", json({ homepage: `http://${long}`, email: `${long}@x`, when: long }));
    expect(r.status).toBe(400);
    expect(r.ms).toBeLessThan(2_000);
  });

  it("__proto__ and constructor keys pollute nothing", async () => {
    const r = await timed("/items/aaa", json('{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},"tree":{"__proto__":{"polluted":1}}}'));
    expect(r.status).toBeLessThan(500);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("10,000 query parameters, traversal and NUL in the path, an oversized header", async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => `p${i}=${i}`).join("&");
    const q = await timed(`/items/aaa?${many}`, json({}));
    expect(q.status).toBeLessThan(500);
    for (const p of ["..%2F..%2Fetc%2Fpasswd", "a%00a", "%2e%2e", "a%0d%0aX-Injected:%201"]) {
      const r = await timed(`/items/${p}`, json({}));
      // 400 (the pattern) or 404 (no such route once the router resolves the dots), never a handler.
      expect([400, 404], p).toContain(r.status);
    }
    const h = await fetch(`${base}/ping`, { headers: { "x-big": "a".repeat(64 * 1024) } }).then(
      (res) => res.status,
      () => 431,
    );
    expect(h).toBeGreaterThanOrEqual(400);
    expect(h).toBeLessThan(500);
    expect(created).toHaveLength(1);
  });
});

describe("the generated client", () => {
  it("sends CRLF and traversal in a path value percent-encoded, and refuses CRLF in a header value", async () => {
    const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
    const raw = createServer((req, res) => {
      seen.push({ url: req.url ?? "", headers: req.headers });
      res.writeHead(201, { "content-type": "application/json" }).end("{}");
    });
    await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
    try {
      const { createOpenapiClient } = (await import(pathToFileURL(path.join(out, "dist/client.js")).href)) as {
        createOpenapiClient: (o: object) => { createItem: (a: Record<string, unknown>) => Promise<unknown> };
      };
      const client = createOpenapiClient({ baseUrl: `http://127.0.0.1:${(raw.address() as AddressInfo).port}`, retry: false });
      await client.createItem({ code: "a\r\nX-Injected: 1/../../x", body: {} });
      expect(seen[0]?.url).toBe("/items/a%0D%0AX-Injected%3A%201%2F..%2F..%2Fx");
      const refused = await client.createItem({ code: "aaa", "X-Trace": "v\r\nX-Injected: 1", body: {} }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(refused).toBeInstanceOf(Error);
      expect(seen.some((r) => r.headers["x-injected"] !== undefined)).toBe(false);
      expect(seen).toHaveLength(1);
    } finally {
      raw.close();
    }
  });
});

describe("the generated receiver", () => {
  const SECRET = `whsec_${Buffer.from("a test secret of 32 bytes, fixed").toString("base64")}`;
  const handled: string[] = [];
  let hooks: FastifyInstance;
  const deliver = (url: string, body: string, headers: Record<string, string>) => hooks.inject({ method: "POST", url, headers: { "content-type": "application/json", ...headers }, payload: body });
  const signed = (id: string, body: string, at = Math.floor(Date.now() / 1000)): Record<string, string> => ({
    "webhook-id": id,
    "webhook-timestamp": String(at),
    "webhook-signature": signStandardWebhook(SECRET, id, at, body),
  });

  beforeAll(async () => {
    hooks = Fastify();
    await hooks.register(receiver, {
      handlers: { signedEvent: () => void handled.push("signed"), countedEvent: () => void handled.push("counted") },
      signingSecret: SECRET,
      bodyLimit: 4096,
    });
  });

  it("refuses to start without the secret of a contract that signs its deliveries", async () => {
    await expect(Fastify().register(receiver, { handlers: {} }).ready()).rejects.toThrow(/signingSecret/);
  });

  it("verifies Standard Webhooks signatures: missing, forged and stale are 401, the handler never runs", async () => {
    const body = JSON.stringify({ kind: "x" });
    expect((await deliver("/signedEvent", body, {})).statusCode).toBe(401);
    const forged = signed("msg_1", body);
    expect((await deliver("/signedEvent", JSON.stringify({ kind: "y" }), forged)).statusCode).toBe(401);
    expect((await deliver("/signedEvent", body, signed("msg_1", body, Math.floor(Date.now() / 1000) - 3600))).statusCode).toBe(401);
    expect(handled).toEqual([]);
  });

  it("runs a handler once per delivery: a replay is answered as a success without running it", async () => {
    const body = JSON.stringify({ kind: "x" });
    const headers = signed("msg_2", body);
    const first = await deliver("/signedEvent", body, headers);
    const again = await deliver("/signedEvent", body, headers);
    expect([first.statusCode, again.statusCode]).toEqual([204, 204]);
    expect(again.headers["webhook-duplicate"]).toBe("true");
    const c1 = await deliver("/countedEvent", "{}", { "x-delivery-id": "d-1" });
    const c2 = await deliver("/countedEvent", "{}", { "x-delivery-id": "d-1" });
    const c3 = await deliver("/countedEvent", "{}", { "x-delivery-id": "d-2" });
    expect([c1.statusCode, c2.statusCode, c3.statusCode]).toEqual([202, 202, 202]);
    expect(handled).toEqual(["signed", "counted", "counted"]);
  });

  it("answers an oversized delivery 413 and a deep one 400", async () => {
    const big = JSON.stringify({ kind: "a".repeat(10_000) });
    expect((await deliver("/countedEvent", big, { "x-delivery-id": "big" })).statusCode).toBe(413);
    const deepHooks = Fastify();
    await deepHooks.register(receiver, { handlers: {}, signingSecret: SECRET });
    const deep = `{"kind":"x","more":${"[".repeat(10_000)}${"]".repeat(10_000)}}`;
    const r = await deepHooks.inject({ method: "POST", url: "/countedEvent", headers: { "content-type": "application/json" }, payload: deep });
    expect(r.statusCode).toBe(400);
    expect(r.body).toMatch(/deeper than 256/);
  });
});
