/**
 * `contractgen mock`: with `--spec`, serves any contract through its generated package's plugin
 * and mock engine (mock/serve.ts); without, starts `@devplatform/mock-server`, the hand-written
 * stateful mock of this repository's three APIs. Both are loaded at run time, so the generator has
 * no build-time dependency on code it generates.
 */
import type { Reporter } from "./pipeline.js";
export interface MockCommandOptions {
  readonly port: number;
  readonly host: string;
  readonly seed: number;
  readonly log: boolean;
  readonly credentials: Readonly<Record<string, string>>;
  /** Serve `POST /__mock/deliveries` (development-only webhook delivery). @default false */
  readonly deliveries?: boolean;
  /** Send every core delivery to this receiver (loopback only) once the mock listens. @default undefined */
  readonly deliverTo?: string;
}

interface DeliveryOutcome {
  readonly deliveryId: string;
  readonly eventType?: string;
  readonly url: string;
  readonly status?: number;
  readonly error?: string;
}

interface MockServerModule {
  startMockServer(options: Record<string, unknown>): Promise<{ url: string; close(): Promise<void>; credentials: Readonly<Record<string, string>> }>;
  deliverToReceiver(options: { url: string }): Promise<DeliveryOutcome[]>;
}

export async function startMock(options: MockCommandOptions): Promise<{ url: string; close(): Promise<void> }> {
  const name = "@devplatform/mock-server";
  let mod: MockServerModule;
  try {
    mod = (await import(name)) as MockServerModule;
  } catch (err) {
    throw new Error(`cannot load ${name}: build it first (npm run build). ${(err as Error).message}`);
  }
  const server = await mod.startMockServer({
    port: options.port,
    host: options.host,
    seed: options.seed,
    // The mock server takes a function per answered request; --quiet passes none.
    ...(options.log ? { log: logLine } : {}),
    credentials: options.credentials,
    deliveries: options.deliveries === true,
  });
  const c = server.credentials;
  process.stderr.write(
    [
      `contractgen mock: serving core, ads-audiences and ads-campaigns at ${server.url}`,
      `  bearer token (always valid):  ${c["bearerToken"] ?? "?"}`,
      `  API key / secret (Basic, OAuth 1.0a consumer):  ${c["apiKey"] ?? "?"} / ${c["apiSecret"] ?? "?"}`,
      `  OAuth 1.0a access token / secret:  ${c["accessToken"] ?? "?"} / ${c["accessTokenSecret"] ?? "?"}`,
      `  app-only bearer tokens: POST ${server.url}/oauth2/token with Basic credentials`,
      ...(options.deliveries ? [`  webhook deliveries on request: POST ${server.url}/__mock/deliveries {"url": "http://127.0.0.1:<port>"}`] : []),
      "",
    ].join("\n"),
  );
  if (options.deliverTo !== undefined) {
    // A receiver that is down is reported per delivery; a target the mock refuses stops here.
    const outcomes = await mod.deliverToReceiver({ url: options.deliverTo });
    for (const o of outcomes) {
      process.stderr.write(`delivered ${o.deliveryId}${o.eventType !== undefined ? ` [${o.eventType}]` : ""} → ${o.url}: ${o.error ?? String(o.status)}\n`);
    }
  }
  const stop = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  return server;
}

export interface SpecMockOptions {
  readonly specs: readonly string[];
  readonly cwd: string;
  readonly port: number;
  readonly host: string;
  readonly seed: number;
  readonly log: boolean;
  readonly stateless: boolean;
  /** Take only the development credentials (giving any of them implies it). */
  readonly checkCredentials: boolean;
  readonly credentials: Readonly<Record<string, string>>;
  readonly packagesDir?: string;
  readonly reporter: Reporter;
}

/** `contractgen mock --spec …`: serves the contracts until interrupted. */
export async function startSpecMock(options: SpecMockOptions): Promise<{ url: string; close(): Promise<void> }> {
  const { serveMocks, startupLines } = await import("./mock/serve.js");
  const given = Object.keys(options.credentials).length > 0;
  const running = await serveMocks({
    specs: options.specs,
    cwd: options.cwd,
    ...(options.packagesDir !== undefined ? { packagesDir: options.packagesDir } : {}),
    port: options.port,
    host: options.host,
    seed: options.seed,
    stateless: options.stateless,
    checkCredentials: options.checkCredentials || given,
    credentials: options.credentials,
    reporter: options.reporter,
    ...(options.log ? { log: logLine } : {}),
  });
  process.stderr.write(`${startupLines(running, { stateless: options.stateless, seed: options.seed }).join("\n")}\n`);
  const stop = (): void => {
    void running.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  return running;
}

/** One line per answered request on stderr: `GET /2/posts → 200 (1.2 ms) getPosts`. */
function logLine(entry: { operationId: string; method: string; url: string; status: number; ms: number }): void {
  process.stderr.write(`${entry.method} ${entry.url} → ${entry.status} (${entry.ms.toFixed(1)} ms) ${entry.operationId}\n`);
}
