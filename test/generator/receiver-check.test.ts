/**
 * `contractgen test --receiver <url>`: sends core's deliveries (valid ones per event type, invalid
 * variants) to a receiver and checks it accepts and refuses them as the contract says. Its teeth:
 * a receiver that accepts everything, one that refuses everything, and one without a handler for
 * some event type each fail, naming the cases; the generated receiver passes.
 */
import { afterEach, describe, expect, it } from "vitest";
import Fastify, { type FastifyInstance } from "fastify";
import { coreReceiver, type CoreReceiverHandlers } from "@devplatform/core/receiver";
import { runCli } from "./helpers.js";

const servers: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function listen(app: FastifyInstance): Promise<string> {
  servers.push(app);
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;
}

const ack = (): undefined => undefined;
const allActivity = new Proxy({}, { get: () => ack, has: () => true, getOwnPropertyDescriptor: () => ({ value: ack, enumerable: true, configurable: true }) });

async function generatedReceiver(handlers: CoreReceiverHandlers): Promise<string> {
  const app = Fastify();
  await app.register(coreReceiver, { handlers });
  return listen(app);
}

/** A hand-written receiver answering every request on every path with one status. */
async function constantReceiver(status: number): Promise<string> {
  const app = Fastify();
  app.addContentTypeParser("*", { parseAs: "string" }, (_req, body, done) => done(null, body));
  app.all("/*", async (_req, reply) => reply.code(status).send());
  return listen(app);
}

describe("contractgen test --receiver", () => {
  it("passes a receiver that accepts every valid delivery and refuses every invalid one (the generated receiver)", async () => {
    const url = await generatedReceiver({ filteredStreamPost: ack, accountActivityEvent: ack, activityEvent: allActivity as NonNullable<CoreReceiverHandlers["activityEvent"]> });
    const r = await runCli(["test", "--receiver", url, "--spec", "core"]);
    expect(r.stdout).not.toContain("FAIL");
    expect(r.stdout).toMatch(/\[profile\.update\.bio\]: a valid profile\.update\.bio event, expected 2XX, got 200/);
    expect(r.stdout).toMatch(/filteredStreamPost: the payload is a JSON array, expected 4XX, got 400/);
    const [, passed, failed] = /(\d+) passed, (\d+) failed/.exec(r.stdout) ?? [];
    expect(Number(passed)).toBeGreaterThan(14);
    expect(Number(failed)).toBe(0);
    expect(r.code).toBe(0);
  });

  it("fails a receiver that accepts everything: each invalid delivery is named with a curl to reproduce it", async () => {
    const url = await constantReceiver(200);
    const r = await runCli(["test", "--receiver", url, "--spec", "core"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL activityEvent: the payload is a JSON string, expected 4XX, got 200/);
    expect(r.stdout).toMatch(/reproduce: curl -i -X POST .*'http:\/\/127\.0\.0\.1:\d+\/activityEvent'/);
    expect(r.stdout).not.toMatch(/FAIL .*a valid/);
  });

  it("fails a receiver that refuses everything, and one missing a handler for an event type", async () => {
    const refusing = await runCli(["test", "--receiver", await constantReceiver(400), "--spec", "core"]);
    expect(refusing.code).toBe(1);
    expect(refusing.stdout).toMatch(/FAIL filteredStreamPost: a valid payload, expected 2XX, got 400/);
    const partial = await runCli(["test", "--receiver", await generatedReceiver({ filteredStreamPost: ack, accountActivityEvent: ack, activityEvent: { "post.create": ack } }), "--spec", "core"]);
    expect(partial.code).toBe(1);
    expect(partial.stdout).toMatch(/FAIL activityEvent \[post\.delete\]: a valid post\.delete event, expected 2XX, got 501/);
    expect(partial.stdout).not.toMatch(/FAIL activityEvent \[post\.create\]/);
  });

  it("reports a receiver that is not listening as failures, and a bad URL as a usage error", async () => {
    const down = await runCli(["test", "--receiver", "http://127.0.0.1:9", "--spec", "core"]);
    expect(down.code).toBe(1);
    expect(down.stdout).toMatch(/FAIL .*error: fetch failed/);
    const bad = await runCli(["test", "--receiver", "not a url"]);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toContain("--receiver must be an http(s) URL");
  });
});
