/**
 * `contractgen mock --spec …`: serves any contract `generate` accepts from one Fastify process. Each
 * package's own generated plugin (routing, validation with its precompiled validators,
 * authentication, its error shapes) runs the package's mock engine (`createMock` of its `./mocks`):
 * examples and seeded data, state for the collections the contract implies, Prism's `Prefer`
 * conventions. A contract whose server is a path (`/api/v2`) is served under it, as
 * `contractgen test` addresses it; others at the root.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { MockEngine, MockEngineOptions } from "@contractgen/runtime/mock-engine";
import type { RouteSpec, ServerOptions } from "@contractgen/runtime/server";
import type { Reporter } from "../pipeline.js";
import { UsageError } from "../usage-error.js";
import { packageFolder, preparePackage, type MockPackage } from "./source.js";

export interface ServeOptions extends MockEngineOptions {
  /** Documents or package folders (or names under `packagesDir`). */
  readonly specs: readonly string[];
  readonly cwd: string;
  /** @default "<cwd>/packages" */
  readonly packagesDir?: string;
  /** Where documents are generated. @default "<cwd>/node_modules/.cache/contractgen/mock" */
  readonly cacheDir?: string;
  readonly port: number;
  readonly host: string;
  /** One call per answered request. @default none */
  readonly log?: (entry: { operationId: string; method: string; url: string; status: number; ms: number }) => void;
  readonly reporter: Reporter;
}

/** One package being served. */
export interface Served {
  readonly pkg: MockPackage;
  /** The path its operations are served under (`""` for the root). */
  readonly prefix: string;
  readonly engine: MockEngine;
  readonly operations: number;
  readonly collections: number;
  /** Operations left out (declared twice, or a path the router refuses), with why. */
  readonly skipped: readonly string[];
}

export interface RunningMock {
  /** `http://host:port`. */
  readonly url: string;
  readonly served: readonly Served[];
  readonly app: FastifyInstance;
  close(): Promise<void>;
}

/** The path prefix of a contract whose first server is a plain path (`/api/v2`), else none. */
export function prefixOf(serverUrl: string | undefined): string {
  if (serverUrl === undefined || !/^\/[^{}]*$/.test(serverUrl)) return "";
  return serverUrl.replace(/\/+$/, "");
}

interface PackageModules {
  readonly server: Readonly<Record<string, unknown>> & { readonly routes?: readonly RouteSpec[] };
  readonly mocks: { readonly createMock?: (options?: MockEngineOptions) => MockEngine };
  readonly tables: { readonly methodNames?: Readonly<Record<string, string>> };
}

async function importPackage(pkg: MockPackage): Promise<PackageModules> {
  const at = (file: string): string => pathToFileURL(path.join(pkg.modules, file)).href;
  const [server, mocks, tables] = await Promise.all([import(at("server.js")), import(at("mocks.js")), import(pathToFileURL(path.join(pkg.modules, "..", "compiled", "server.tables.js")).href)]);
  return { server: server as PackageModules["server"], mocks: mocks as PackageModules["mocks"], tables: tables as PackageModules["tables"] };
}

/** The package's Fastify plugin (`<name>Server`). */
function pluginOf(server: PackageModules["server"]): ((app: FastifyInstance, options: ServerOptions<Record<string, unknown>>) => Promise<void>) | undefined {
  const found = Object.entries(server).find(([k, v]) => typeof v === "function" && /Server$/.test(k));
  return found?.[1] as ((app: FastifyInstance, options: ServerOptions<Record<string, unknown>>) => Promise<void>) | undefined;
}

export async function serveMocks(options: ServeOptions): Promise<RunningMock> {
  const packagesDir = options.packagesDir ?? path.join(options.cwd, "packages");
  const cacheDir = options.cacheDir ?? path.join(options.cwd, "node_modules", ".cache", "contractgen", "mock");
  const packages: MockPackage[] = [];
  for (const spec of options.specs) {
    const dir = await packageFolder(spec, { cwd: options.cwd, packagesDir, cacheDir, reporter: options.reporter });
    if (packages.some((p) => p.dir === dir)) continue;
    packages.push(preparePackage(spec, dir, cacheDir));
  }
  // Fastify is an optional peer: a team that only generates and tests installs none (its packages
  // build without it); serving a mock is what needs it.
  const Fastify = await import("fastify").then(
    (m) => m.default,
    () => {
      throw new UsageError("contractgen mock --spec serves through Fastify, which is not installed here: npm install -D fastify@^5");
    },
  );
  const { problemBody, problemNotFound } = await import("@contractgen/runtime/server");
  const log = options.log;
  const app = Fastify({
    logger: false,
    // Ids are opaque strings of any length to a contract; Fastify's default cap is 100 characters.
    routerOptions: { maxParamLength: 2048 },
    // A contract may declare HEAD itself; undeclared ones are not answered.
    exposeHeadRoutes: false,
    frameworkErrors: (error, request, reply) => {
      const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
      log?.({ operationId: "-", method: request.method, url: request.url, status, ms: 0 });
      void (reply as FastifyReply)
        .code(status)
        .type("application/problem+json")
        .send(JSON.stringify(problemBody(status, error.message)));
    },
  });
  app.setNotFoundHandler((request, reply) => {
    log?.({ operationId: "-", method: request.method, url: request.url, status: 404, ms: 0 });
    return problemNotFound(request, reply);
  });

  const served: Served[] = [];
  const routesAt = new Map<string, string>();
  for (const pkg of packages) {
    const modules = await importPackage(pkg);
    const plugin = pluginOf(modules.server);
    const createMock = modules.mocks.createMock;
    const methodNames = modules.tables.methodNames;
    if (!plugin || !createMock || !methodNames) throw new UsageError(`--spec ${pkg.given}: ${pkg.name} lacks its server plugin or createMock: generate it again with this contractgen`);
    const engine = createMock(engineOptions(options));
    const prefix = prefixOf(pkg.serverUrl);
    const routes = modules.server.routes ?? [];
    // Two contracts answering one method and path cannot share a process: say which.
    for (const r of routes) {
      const key = `${r.method.toUpperCase()} ${prefix}${r.path.replace(/\{[^}]+\}/g, "{}")}`;
      const other = routesAt.get(key);
      if (other !== undefined && other !== pkg.name) throw new UsageError(`${other} and ${pkg.name} both answer ${r.method.toUpperCase()} ${prefix}${r.path}: serve them from two processes (--port)`);
      routesAt.set(key, pkg.name);
    }
    // The plugin takes handlers by method name, as a team's handler object has them.
    const handlers: Record<string, unknown> = {};
    for (const [id, method] of Object.entries(methodNames)) if (Object.prototype.hasOwnProperty.call(engine.handlers, id)) handlers[method] = engine.handlers[id];
    const skipped: string[] = [];
    await app.register(
      async (scope) =>
        plugin(scope as FastifyInstance, {
          handlers,
          security: engine.security,
          shapeError: engine.shapeError,
          // The engine checks each answer it makes against the contract.
          validateResponses: false,
          onSkippedRoute: (route, reason) => skipped.push(`${route.id} (${route.method} ${route.path}): ${reason}`),
          ...(log ? { onResponse: log } : {}),
        }),
      { prefix },
    );
    const table = (await import(pathToFileURL(path.join(pkg.modules, "..", "compiled", "mocks.data.js")).href)) as { mockTable?: () => { collections: readonly unknown[] } };
    served.push({ pkg, prefix, engine, operations: routes.length, collections: options.stateless ? 0 : (table.mockTable?.().collections.length ?? 0), skipped });
  }
  await app.listen({ port: options.port, host: options.host });
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : options.port;
  const shownHost = options.host.includes(":") ? `[${options.host}]` : options.host;
  return { url: `http://${shownHost}:${port}`, served, app, close: () => app.close() };
}

function engineOptions(options: ServeOptions): MockEngineOptions {
  return {
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.stateless ? { stateless: true } : {}),
    ...(options.checkCredentials ? { checkCredentials: true } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
  };
}

/** The start-up lines: what is served where, how, and with which credentials. */
export function startupLines(running: RunningMock, options: Pick<ServeOptions, "stateless" | "seed">): string[] {
  const lines: string[] = [];
  for (const s of running.served) {
    const state = options.stateless ? "stateless" : s.collections > 0 ? `stateful (${s.collections} collection${s.collections === 1 ? "" : "s"})` : "stateless (no collections in the contract)";
    lines.push(
      `contractgen mock: serving ${s.pkg.title}${s.pkg.version ? ` ${s.pkg.version}` : ""} (${s.pkg.given}) at ${running.url}${s.prefix}: ${s.operations} operation(s), ${state}, seed ${options.seed ?? 1}`,
    );
    for (const line of s.skipped) lines.push(`  not served: ${line}`);
  }
  const e = running.served[0]?.engine;
  if (e) {
    const c = e.credentials;
    lines.push(
      e.checksCredentials
        ? `  credentials checked: bearer ${c.bearerToken}; API key ${c.apiKey}; Basic ${c.apiKey}:${c.apiSecret}; OAuth 1.0a ${c.apiKey}/${c.apiSecret} with token ${c.accessToken}/${c.accessTokenSecret}`
        : `  credentials: any of the right scheme (--check-credentials takes only the development ones: bearer ${c.bearerToken}, API key ${c.apiKey}, Basic ${c.apiKey}:${c.apiSecret})`,
    );
  }
  const values = servedValues(running.served);
  if (Object.keys(values).length > 0) lines.push(`  values no operation lists or makes (contractgen test --values): ${JSON.stringify(values)}`);
  lines.push(`  Prefer: code=<status>, example=<name>, dynamic=true choose the answer`);
  return lines;
}

/**
 * The path values every served contract answers that no operation of it lists or makes (each
 * engine's `knownValues`), by parameter name: what a contract test is given with `--values`, as a
 * user would pass them. A name two contracts state differently is left out: one value is given
 * per name, and the other contract may not take it.
 */
export function servedValues(served: readonly Served[]): Record<string, string | number | boolean> {
  const out = new Map<string, string | number | boolean>();
  const clashing = new Set<string>();
  for (const s of served) {
    for (const [name, value] of Object.entries(s.engine.knownValues())) {
      const had = out.get(name);
      if (had !== undefined && had !== value) clashing.add(name);
      else out.set(name, value);
    }
  }
  for (const name of clashing) out.delete(name);
  return Object.fromEntries(out);
}
