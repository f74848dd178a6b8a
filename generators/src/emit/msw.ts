import type { ApiModel } from "../model/ir.js";
import { camelCase } from "../model/naming.js";
import { defineEmitter } from "./emitter.js";
import { tsHeader } from "./header.js";
import { ident, jsdoc, ts } from "./ts.js";

/**
 * Where the API is by default: the contract's first server with its variables at their defaults
 * (an absolute URL, or a path every origin serves it under); the root of any origin without one.
 */
export function defaultBaseUrl(model: ApiModel): string {
  const server = model.servers[0];
  if (!server) return "";
  let url = server.url;
  for (const v of server.variables) url = url.split(`{${v.name}}`).join(v.default);
  if (/\{[^}]*\}/.test(url)) return "";
  url = url.replace(/\/+$/, "");
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return url;
  if (url.startsWith("//")) return `https:${url}`;
  return url === "" ? "" : url.startsWith("/") ? url : `/${url}`;
}

/**
 * `./msw`: Mock Service Worker handlers backed by the package's mock (`createMock`: the same data,
 * state and validation as `contractgen mock`), for front-end and unit tests in Node and the
 * browser. msw is an optional peer: the module takes msw's `http` from the caller and never
 * imports it.
 */
export const mswEmitter = defineEmitter({
  name: "msw",
  exports: { "./msw": "msw" },
  barrel: "none",
  dependencies: { "@contractgen/runtime": "^0.1.0" },
  optionalPeers: { msw: "^2.0.0 || ^3.0.0" },
  emit({ model }) {
    const name = `${camelCase(model.name, "api")}MswHandlers`;
    const code = ts`import { mswHandlers, type MswHttp } from "@contractgen/runtime/msw";
import type { MockEngine, MockEngineOptions } from "@contractgen/runtime/mock-engine";
import { routes } from "../compiled/server.tables.js";
import { createMock } from "./mocks.js";
import { validateRequest, validateResponse } from "./validators.js";

export type { MswHttp } from "@contractgen/runtime/msw";

/** Where the handlers answer by default: the contract's first server (a path answers on any origin). */
export const defaultBaseUrl = ${defaultBaseUrl(model)};

export interface MswOptions extends MockEngineOptions {
  /**
   * Where the API is: an absolute URL, or a path on any origin.
   * @default defaultBaseUrl
   */
  readonly baseUrl?: string;
  /**
   * The mock to answer from, shared with other handlers or a server (its state included).
   * @default a new one made with these options (createMock)
   */
  readonly engine?: MockEngine;
}

${jsdoc(`MSW handlers for ${model.info.title}: \`setupServer(...${name}(http))\` in Node (msw/node), \`setupWorker(...)\` in the browser (msw/browser), with msw's \`http\`. Requests are judged by the package's validators and answered from the contract's examples and seeded data, stateful where the contract implies it.`)}export function ${ident(name)}<H>(http: MswHttp<H>, options: MswOptions = {}): H[] {
  const engine = options.engine ?? createMock(options);
  return mswHandlers(http, { routes, validation: { validateRequest, validateResponse }, engine, baseUrl: options.baseUrl ?? defaultBaseUrl });
}
`;
    return [{ path: "src/msw.ts", contents: tsHeader(model) + code.text }];
  },
});
