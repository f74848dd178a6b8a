/**
 * The conformance suite has teeth: `contractgen test` against deliberately broken servers fails,
 * naming the operation and the violation. Each broken server is the mock behind a proxy that
 * breaks one thing in requests or answers.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startMockServer } from "@devplatform/mock-server";
import { ROOT, runCli } from "../generator/helpers.js";

interface Breakage {
  readonly name: string;
  readonly spec: "core" | "ads-audiences" | "ads-campaigns";
  /** Rewrites the request path (query included) before it reaches the mock. */
  readonly request?: (method: string, path: string, headers: IncomingMessage["headers"]) => { path: string; headers: IncomingMessage["headers"] };
  /** Rewrites the answer. */
  readonly response?: (method: string, path: string, status: number, body: unknown) => { status: number; body: unknown } | undefined;
  /** What the failure output must say: the operation and the violation. */
  readonly expect: readonly RegExp[];
}

const AUTH = JSON.stringify({
  bearer: "mock-bearer-token",
  basic: { username: "mock-api-key", password: "mock-api-secret" },
  oauth1: { consumerKey: "mock-api-key", consumerSecret: "mock-api-secret", token: "mock-access-token", tokenSecret: "mock-access-token-secret" },
});
const GOOD_BEARER = "Bearer mock-bearer-token";
const pathOnly = (p: string): string => p.split("?")[0] ?? p;

const BREAKAGES: Breakage[] = [
  {
    name: "an echo of the request without its path parameter (x-echo)",
    spec: "ads-campaigns",
    response: (method, path, status, body) => {
      if (method !== "GET" || !/^\/12\/accounts\/[^/]+$/.test(pathOnly(path)) || status !== 200) return undefined;
      const b = body as { request: { params: Record<string, unknown> } };
      const { account_id: _dropped, ...params } = b.request.params;
      return { status, body: { ...b, request: { ...b.request, params } } };
    },
    expect: [/getAccount \(GET \/12\/accounts\/\{account_id\}\)/, /whose echo of the request at \/request\/params leaves out the path parameter account_id/],
  },
  {
    name: "a list filter of several values applied to the first alone",
    spec: "ads-campaigns",
    response: (method, path, status, body) => {
      const asked = new URL(path, "http://x").searchParams.get("creative_types");
      if (method !== "GET" || !/\/account_media$/.test(pathOnly(path)) || asked === null || !asked.includes(",") || status !== 200) return undefined;
      const first = asked.split(",")[0];
      const b = body as { data: { creative_type?: string }[] };
      return { status, body: { ...b, data: b.data.filter((m) => m.creative_type === first) } };
    },
    expect: [/listAccountMedia \(GET \/12\/accounts\/\{account_id\}\/account_media\)/, /with creative_types=\S+,\S+ leaves out objects it matches/],
  },
  {
    name: "a stated default not applied (count left out pages by 1, not 200)",
    spec: "ads-campaigns",
    // The answer, not the request, is rewritten: the request is OAuth-signed over its query.
    response: (method, path, status, body) => {
      if (method !== "GET" || pathOnly(path) !== "/12/accounts" || /[?&]count=/.test(path) || status !== 200) return undefined;
      const b = body as { data: unknown[] };
      return { status, body: { ...b, data: b.data.slice(0, 1) } };
    },
    expect: [/listAccounts \(GET \/12\/accounts\)/, /answers otherwise without count than with count=200, its stated default/],
  },
  {
    name: "a wrong enum value in a response",
    spec: "ads-campaigns",
    response: (method, path, status, body) =>
      method === "GET" && /^\/12\/accounts\/[^/]+$/.test(pathOnly(path)) && status === 200
        ? { status, body: { ...(body as object), data: { ...(body as { data: object }).data, industry_type: "NOT_AN_INDUSTRY" } } }
        : undefined,
    expect: [/getAccount \(GET \/12\/accounts\/\{account_id\}\)/, /industry_type must be equal to one of the allowed values/],
  },
  {
    name: "a missing required field",
    spec: "ads-audiences",
    response: (method, path, status, body) => {
      if (method !== "GET" || pathOnly(path) !== "/12/product_catalogs" || status !== 200) return undefined;
      const b = body as { data: Record<string, unknown>[] };
      return { status, body: { ...b, data: b.data.map(({ name: _name, ...rest }) => rest) } };
    },
    expect: [/listProductCatalogs \(GET \/12\/product_catalogs\)/, /body\/data\/0\/name is required/],
  },
  {
    name: "200 instead of 404 on a repeated delete",
    spec: "ads-campaigns",
    response: (method, path, status, body) =>
      method === "DELETE" && /\/line_items\//.test(path) && status === 404 ? { status: 200, body: { request: { params: {} }, data: (body as { data?: unknown }).data ?? {} } } : undefined,
    expect: [/deleteLineItem \(DELETE \/12\/accounts\/\{account_id\}\/line_items\/\{line_item_id\}\)/, /a repeated delete must answer 404/],
  },
  {
    name: "a missing auth check",
    spec: "core",
    // Whatever credentials arrive, the server sees good ones: so wrong and missing ones get through.
    request: (_method, path, headers) => (pathOnly(path).startsWith("/2/posts/search/webhooks/") ? { path, headers: { ...headers, authorization: GOOD_BEARER } } : { path, headers }),
    expect: [/createStreamLink \(POST \/2\/posts\/search\/webhooks\/\{webhook_id\}\)/, /without credentials, expected 401/],
  },
  {
    name: "a wrong problem type",
    spec: "core",
    response: (_method, path, status, body) =>
      pathOnly(path).startsWith("/2/posts/search/webhooks/") && status === 400 ? { status, body: { ...(body as object), type: "https://api.example.com/2/problems/conflict" } } : undefined,
    expect: [
      /createStreamLink \(POST \/2\/posts\/search\/webhooks\/\{webhook_id\}\)/,
      /with problem type https:\/\/api\.example\.com\/2\/problems\/conflict, expected \{problem_base\}\/invalid-request/,
    ],
  },
  {
    name: "an invalid request accepted",
    spec: "core",
    // The check is lost on the way: a webhook id breaking its pattern reaches the server as a valid
    // one. (Bearer auth here: an OAuth 1.0a signature would itself expose a rewritten request.)
    request: (_method, path, headers) => ({ path: path.replace(/^\/2\/posts\/search\/webhooks\/%21/, "/2/posts/search/webhooks/1"), headers }),
    expect: [/createStreamLink \(POST \/2\/posts\/search\/webhooks\/\{webhook_id\}\)/, /accepted a request with webhook_id not matching its pattern/],
  },
  {
    name: "a page one row longer than count",
    spec: "ads-campaigns",
    response: (method, path, status, body) => {
      const url = new URL(path, "http://x");
      const count = Number(url.searchParams.get("count"));
      if (method !== "GET" || url.pathname !== "/12/accounts" || status !== 200 || !count) return undefined;
      const b = body as { data: Record<string, unknown>[] };
      if (b.data.length !== count || b.data[0] === undefined) return undefined;
      return { status, body: { ...b, data: [...b.data, { ...b.data[0], id: "4999999999999999999" }] } };
    },
    expect: [
      /listAccounts \(GET \/12\/accounts\) breaks its paging contract/,
      /holds 3 items, more than the 2 asked for with count/,
      /seed 1: contractgen test --seed 1/,
      /repeat: curl -i -X GET 'http:\/\/127\.0\.0\.1:\d+\/12\/accounts\?/,
    ],
  },
  {
    name: "a total_count that does not count the records",
    spec: "ads-campaigns",
    response: (method, path, status, body) =>
      method === "GET" && pathOnly(path) === "/12/accounts" && /with_total_count=true/.test(path) && status === 200
        ? { status, body: { ...(body as object), total_count: ((body as { total_count: number }).total_count ?? 0) + 1 } }
        : undefined,
    expect: [/listAccounts \(GET \/12\/accounts\) breaks its paging contract/, /\/total_count is \d+, but walking every page found \d+ items/],
  },
  {
    name: "a soft delete that leaves deleted false",
    spec: "ads-campaigns",
    response: (method, path, status, body) =>
      method === "DELETE" && /\/line_item_curated_categories\//.test(pathOnly(path)) && status === 200
        ? { status, body: { ...(body as object), data: { ...(body as { data: object }).data, deleted: false } } }
        : undefined,
    expect: [/deleteLineItemCuratedCategory \(DELETE [^)]+\): the deleted object answers deleted=false, expected true/],
  },
  {
    name: "reads served from a stale cache after an update",
    spec: "ads-campaigns",
    // The first answer for each account is kept and served again, whatever changed since.
    response: (() => {
      const cache = new Map<string, unknown>();
      return (method: string, path: string, status: number, body: unknown) => {
        const at = pathOnly(path);
        if (method !== "GET" || !/^\/12\/accounts\/[^/]+$/.test(at) || status !== 200) return undefined;
        if (!cache.has(at)) cache.set(at, body);
        return { status, body: cache.get(at) };
      };
    })(),
    expect: [/getAccount \(GET \/12\/accounts\/\{account_id\}\): \S+ after it was updated does not hold what was sent: (name|industry_type): sent/],
  },
  {
    name: "a batch answer that drops a product",
    spec: "ads-audiences",
    response: (method, path, status, body) => {
      if (method !== "PUT" || !/\/products$/.test(pathOnly(path)) || status !== 200) return undefined;
      const b = body as { data: { products_response: unknown[] } };
      return { status, body: { ...b, data: { ...b.data, products_response: b.data.products_response.slice(1) } } };
    },
    expect: [/upsertProducts \(PUT [^)]+\) answered 200 .*breaking the contract's response rules: products-response-one-per-product/],
  },
];

async function brokenProxy(target: string, b: Breakage): Promise<{ url: string; server: Server }> {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const method = req.method ?? "GET";
      const rewritten = b.request ? b.request(method, req.url ?? "/", req.headers) : { path: req.url ?? "/", headers: req.headers };
      const up = httpRequest({ host: upstream.hostname, port: upstream.port, method, path: rewritten.path, headers: { ...rewritten.headers, host: req.headers.host } }, (answer) => {
        const parts: Buffer[] = [];
        answer.on("data", (c: Buffer) => parts.push(c));
        answer.on("end", () => {
          const text = Buffer.concat(parts).toString("utf8");
          const type = String(answer.headers["content-type"] ?? "");
          let status = answer.statusCode ?? 500;
          let out = text;
          if (b.response && /json/.test(type) && text !== "") {
            const changed = b.response(method, req.url ?? "/", status, JSON.parse(text));
            if (changed) {
              status = changed.status;
              out = JSON.stringify(changed.body);
            }
          }
          const headers = { ...answer.headers, "content-length": String(Buffer.byteLength(out)) };
          res.writeHead(status, headers);
          res.end(out);
        });
      });
      up.on("error", (e) => {
        res.writeHead(502);
        res.end(String(e));
      });
      up.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe("contractgen test against deliberately broken servers", () => {
  // A fresh mock per case: the state scenarios delete objects and invalidate tokens. It is a
  // throw-away server, so runs say --disposable: deletes the contract cannot make an object for
  // (line items) act on listed ones rather than being skipped.
  let mock: Awaited<ReturnType<typeof startMockServer>> | undefined;
  beforeEach(async () => {
    // Replies are checked by the suite, not by the mock itself, so breakages reach the wire.
    mock = await startMockServer({ port: 0, validateResponses: false });
  });
  afterEach(async () => {
    await mock?.close();
  });

  it("passes against the unbroken mock through the same proxy, so failures below are the breakages", async () => {
    const proxy = await brokenProxy(mock?.url ?? "", { name: "none", spec: "ads-campaigns", expect: [] });
    try {
      const r = await runCli(["test", "--base-url", proxy.url, "--spec", "ads-campaigns", "ads-audiences", "--auth", AUTH, "--destructive", "--disposable"], ROOT);
      expect(r.stdout).toMatch(/\d+ passed, 0 failed/);
      expect(r.code).toBe(0);
    } finally {
      proxy.server.close();
    }
  });

  it.each(BREAKAGES)("fails on $name, naming the operation and the violation", async (b) => {
    const proxy = await brokenProxy(mock?.url ?? "", b);
    try {
      const r = await runCli(["test", "--base-url", proxy.url, "--spec", b.spec, "--auth", AUTH, "--destructive", "--disposable"], ROOT);
      const output = (r.stdout + r.stderr).replace(/\x1b\[[0-9;]*m/g, "");
      expect(r.code).toBe(1);
      expect(output).toMatch(/\d+ passed, [1-9]\d* failed/);
      for (const pattern of b.expect) expect(output).toMatch(pattern);
    } finally {
      proxy.server.close();
    }
  });
});
