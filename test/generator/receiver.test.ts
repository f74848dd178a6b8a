/**
 * Webhooks and callbacks: a contract's deliveries get payload types, validators and a receiver (a
 * Fastify plugin with one typed handler per delivery, per event type where a discriminator names
 * them, and a fallback). The fixture is generated, compiled with strict tsc, then driven through
 * `app.inject` (the whole Fastify pipeline without a socket).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import Fastify, { type FastifyInstance } from "fastify";
import { FIXTURES, TSC, runCli, typecheck, workspaceTmpDir } from "./helpers.js";

interface Input {
  deliveryId: string;
  body: Record<string, unknown>;
  headers: Record<string, unknown>;
}
interface Fallback {
  reason: string;
  deliveryId: string | undefined;
  eventType?: string;
  legacy: boolean;
  body: unknown;
}
type Reply = { status: number; body?: unknown } | void;
interface ReceiverModule {
  openapiReceiver: (app: FastifyInstance, options: Record<string, unknown>) => Promise<void>;
  deliveries: readonly { id: string; path: string }[];
}

let out = "";
let mod: ReceiverModule;

beforeAll(async () => {
  out = path.join(workspaceTmpDir(), "webhooks");
  const r = await runCli(["generate", path.join(FIXTURES, "webhooks/openapi.yaml"), "--out", out, "--name", "@t/webhooks"]);
  expect(r.code, r.stderr).toBe(0);
  const build = spawnSync(process.execPath, [TSC, "-p", out], { encoding: "utf8" });
  expect(build.stdout + build.stderr).toBe("");
  mod = (await import(pathToFileURL(path.join(out, "dist/receiver.js")).href)) as ReceiverModule;
  // Generation and a tsc build: seconds when idle, minutes on a shared, loaded machine.
}, 300_000);

async function receiver(handlers: object, options: object = {}): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(mod.openapiReceiver, { handlers, ...options });
  return app;
}

const post = (app: FastifyInstance, url: string, payload: unknown, contentType = "application/json") =>
  app.inject({ method: "POST", url, headers: { "content-type": contentType }, payload: typeof payload === "string" ? payload : JSON.stringify(payload) });

describe("generated receiver", () => {
  it("has one route per delivery: webhooks by name, callbacks by operation and callback name", () => {
    expect(mod.deliveries.map((d) => [d.id, d.path])).toEqual([
      ["newPet", "/newPet"],
      ["accountEvent", "/accountEvent"],
      ["orderEvent", "/orderEvent"],
      ["subscribe/onStatus", "/subscribe/onStatus"],
    ]);
  });

  it("hands a valid payload to its handler and answers the contract's success status", async () => {
    const seen: Input[] = [];
    const app = await receiver({ newPet: (input: Input) => void seen.push(input) });
    const res = await post(app, "/newPet", { id: 7, name: "Rex" });
    expect(res.statusCode).toBe(200);
    expect(seen.map((s) => [s.deliveryId, s.body])).toEqual([["newPet", { id: 7, name: "Rex" }]]);
  });

  it("answers what the handler returns", async () => {
    const app = await receiver({ newPet: (): Reply => ({ status: 202, body: { queued: true } }) });
    const res = await post(app, "/newPet", { id: 7, name: "Rex" });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ queued: true });
  });

  it("refuses an invalid payload with 400 problem+json naming each bad member, without calling the handler", async () => {
    let called = false;
    const app = await receiver({ newPet: () => void (called = true) });
    const res = await post(app, "/newPet", { id: 0 });
    expect(res.statusCode).toBe(400);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    const problem = res.json() as { status: number; errors: { parameters: Record<string, unknown> }[] };
    expect(problem.status).toBe(400);
    const named = problem.errors.flatMap((e) => Object.keys(e.parameters));
    expect(named.sort()).toEqual(["body/id", "body/name"]);
    expect(called).toBe(false);
  });

  it("refuses malformed JSON with 400 and a media type the contract does not list with 415", async () => {
    const app = await receiver({ newPet: () => undefined });
    expect((await post(app, "/newPet", "{not json")).statusCode).toBe(400);
    const res = await post(app, "/newPet", "id=1", "application/x-www-form-urlencoded");
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ status: 415 });
  });

  it("dispatches by event type to one handler each (enum of the discriminating property)", async () => {
    const calls: string[] = [];
    const app = await receiver({
      accountEvent: {
        "profile.update": (i: Input) => void calls.push(`profile:${String(i.body["user_id"])}`),
        "post.create": (i: Input) => void calls.push(`post:${String(i.body["user_id"])}`),
      },
    });
    expect((await post(app, "/accountEvent", { event_type: "post.create", user_id: "12" })).statusCode).toBe(202);
    expect((await post(app, "/accountEvent", { event_type: "profile.update", user_id: "13" })).statusCode).toBe(202);
    expect((await post(app, "/accountEvent", { event_type: "post.create", user_id: "x" })).statusCode).toBe(400);
    expect(calls).toEqual(["post:12", "profile:13"]);
  });

  it("dispatches by discriminator mapping and validates against the mapped schema", async () => {
    const calls: unknown[] = [];
    const app = await receiver({ orderEvent: { "order.shipped": (i: Input) => void calls.push(i.body) } });
    expect((await post(app, "/orderEvent", { kind: "order.shipped", carrier: "DHL" })).statusCode).toBe(200);
    expect((await post(app, "/orderEvent", { kind: "order.shipped" })).statusCode).toBe(400);
    expect(calls).toEqual([{ kind: "order.shipped", carrier: "DHL" }]);
  });

  it("surfaces unknown and legacy event types to the fallback handler instead of refusing or dropping them", async () => {
    const fallbacks: Fallback[] = [];
    const app = await receiver({ accountEvent: { "post.create": () => undefined } }, { fallback: (f: Fallback): Reply => void fallbacks.push(f) });
    expect((await post(app, "/accountEvent", { event_type: "ProfileUpdate", user_id: "1" })).statusCode).toBe(202);
    expect((await post(app, "/accountEvent", { event_type: "spaces.start", anything: true })).statusCode).toBe(202);
    // A known event type without a handler reaches the fallback too, after validation.
    expect((await post(app, "/accountEvent", { event_type: "profile.update", user_id: "2" })).statusCode).toBe(202);
    expect(fallbacks.map((f) => [f.reason, f.deliveryId, f.eventType, f.legacy])).toEqual([
      ["unknown-event-type", "accountEvent", "ProfileUpdate", true],
      ["unknown-event-type", "accountEvent", "spaces.start", false],
      ["no-handler", "accountEvent", "profile.update", false],
    ]);
  });

  it("answers 501 problem+json for what no handler takes when there is no fallback", async () => {
    const app = await receiver({});
    const unknown = await post(app, "/accountEvent", { event_type: "ProfileUpdate" });
    expect(unknown.statusCode).toBe(501);
    expect(String((unknown.json() as { detail: string }).detail)).toContain("legacy");
    expect((await post(app, "/newPet", { id: 1, name: "a" })).statusCode).toBe(501);
  });

  it("receives callbacks like webhooks, with the callback's own success status", async () => {
    const got: unknown[] = [];
    const app = await receiver({ subscribeOnStatus: (i: Input) => void got.push(i.body) });
    expect((await post(app, "/subscribe/onStatus", { status: "paused" })).statusCode).toBe(204);
    expect((await post(app, "/subscribe/onStatus", { status: "gone" })).statusCode).toBe(400);
    expect(got).toEqual([{ status: "paused" }]);
  });

  it("moves routes with `paths`; deliveries sharing one are told apart by `select`, else by which payload validates", async () => {
    const calls: string[] = [];
    const handlers = { newPet: () => void calls.push("pet"), subscribeOnStatus: () => void calls.push("status") };
    const shared = { paths: { newPet: "/hooks", "subscribe/onStatus": "/hooks" } };
    const byShape = await receiver(handlers, shared);
    expect((await post(byShape, "/hooks", { status: "active" })).statusCode).toBe(204);
    expect((await post(byShape, "/hooks", { id: 3, name: "Tom" })).statusCode).toBe(200);
    expect((await post(byShape, "/hooks", { nothing: 1 })).statusCode).toBe(501);
    const bySelect = await receiver(handlers, { ...shared, select: ({ headers }: { headers: Record<string, unknown> }) => (headers["x-kind"] === "pet" ? "newPet" : undefined) });
    const res = await bySelect.inject({ method: "POST", url: "/hooks", headers: { "content-type": "application/json", "x-kind": "pet" }, payload: { id: 1, name: "A" } });
    expect(res.statusCode).toBe(200);
    expect(calls).toEqual(["status", "pet", "pet"]);
  });

  it("types each handler's payload: declared members read as their types, misuse does not compile", () => {
    // One type-check: every @ts-expect-error line must be an error, every other line must compile.
    writeFileSync(
      path.join(out, "src/consumer-check.ts"),
      `import type { OpenapiReceiverHandlers } from "./receiver.js";
export const good: OpenapiReceiverHandlers = {
  newPet: ({ body }) => { const n: string = body.name; const id: number = body.id; void n; void id; },
  accountEvent: { "post.create": ({ body }) => { const t: "post.create" = body.event_type; void t; } },
  orderEvent: { "order.shipped": ({ body }) => { const c: string = body.carrier; void c; } },
  subscribeOnStatus: ({ body }) => { const s: "active" | "paused" = body.status; void s; },
};
export const bad: OpenapiReceiverHandlers = {
  // @ts-expect-error name is a string
  newPet: ({ body }) => { const n: number = body.name; void n; },
  // @ts-expect-error not an event type of accountEvent
  accountEvent: { "no.such": () => undefined },
  // @ts-expect-error a shipped order has no total
  orderEvent: { "order.shipped": ({ body }) => { const t: number = body.total; void t; } },
};
`,
    );
    const checked = typecheck(out);
    writeFileSync(path.join(out, "src/consumer-check.ts"), "export {};\n");
    expect(checked.output).toBe("");
    expect(checked.ok).toBe(true);
  }, 300_000);
});

describe("generated receiver for hostile delivery names and event types", () => {
  it("compiles, runs none of them, and dispatches each event type to its own handler", async () => {
    const dir = path.join(workspaceTmpDir(), "hostile-webhooks");
    const r = await runCli(["generate", path.join(FIXTURES, "webhooks/hostile.yaml"), "--out", dir, "--name", "@t/hostile-webhooks"]);
    expect(r.code, r.stderr).toBe(0);
    const build = spawnSync(process.execPath, [TSC, "-p", dir], { encoding: "utf8" });
    expect(build.stdout + build.stderr).toBe("");
    const g = globalThis as Record<string, unknown>;
    delete g["pwned"];
    const hostile = (await import(pathToFileURL(path.join(dir, "dist/receiver.js")).href)) as {
      hostileReceiver: (app: FastifyInstance, options: Record<string, unknown>) => Promise<void>;
      deliveries: readonly { id: string; path: string }[];
    };
    await import(pathToFileURL(path.join(dir, "dist/index.js")).href);
    expect(g["pwned"]).toBeUndefined();
    const [webhook, ctor] = hostile.deliveries;
    expect(webhook?.id).toBe("\"; globalThis.pwned = 'webhook'; \"");
    expect(ctor?.id).toBe("constructor");

    const seen: string[] = [];
    const byType = Object.create(null) as Record<string, (i: Input) => void>;
    for (const t of ["`${globalThis.pwned = 'enum'}`", "__proto__", "constructor", "a\u2028b"]) {
      Object.defineProperty(byType, t, { value: (i: Input) => void seen.push(String(i.body["kind"])), enumerable: true });
    }
    const handlers = Object.create(null) as Record<string, unknown>;
    handlers["globalThisPwnedWebhook"] = byType;
    const app = Fastify();
    await app.register(hostile.hostileReceiver, { handlers, fallback: () => ({ status: 299 }) });
    for (const kind of ["__proto__", "constructor", "a\u2028b", "toString"]) {
      const res = await app.inject({ method: "POST", url: webhook?.path ?? "", headers: { "content-type": "application/json" }, payload: JSON.stringify({ kind }) });
      expect(res.statusCode, kind).toBe(kind === "toString" ? 299 : 200);
    }
    expect(seen).toEqual(["__proto__", "constructor", "a\u2028b"]);
    // The delivery named `constructor` is a route like any other; with no handler it reaches the fallback.
    const res = await app.inject({ method: "POST", url: "/constructor", headers: { "content-type": "application/json" }, payload: JSON.stringify({}) });
    expect(res.statusCode).toBe(299);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  }, 300_000);
});
