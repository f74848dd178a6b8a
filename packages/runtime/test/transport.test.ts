import { afterEach, describe, expect, it } from "vitest";
import { ResponseParseError } from "../src/client/errors.js";
import { createTransport } from "../src/client/transport.js";
import { expandPath, serializeQuery, type QueryParam } from "../src/client/url.js";
import { json, startServer, type TestServer } from "./support/server.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("query serialization (OpenAPI 3.1 §4.8.12.4 style examples)", () => {
  const color = ["blue", "black", "brown"];
  const rgb = { R: 100, G: 200, B: 150 };

  it.each<[string, QueryParam, string]>([
    ["form primitive", { name: "color", value: "blue" }, "color=blue"],
    ["form array, explode (default)", { name: "color", value: color }, "color=blue&color=black&color=brown"],
    ["form array, no explode", { name: "color", value: color, explode: false }, "color=blue,black,brown"],
    ["form object, explode (default)", { name: "color", value: rgb }, "R=100&G=200&B=150"],
    ["form object, no explode", { name: "color", value: rgb, explode: false }, "color=R,100,G,200,B,150"],
    ["spaceDelimited array", { name: "color", value: color, style: "spaceDelimited" }, "color=blue%20black%20brown"],
    ["spaceDelimited object", { name: "color", value: rgb, style: "spaceDelimited" }, "color=R%20100%20G%20200%20B%20150"],
    ["pipeDelimited array", { name: "color", value: color, style: "pipeDelimited" }, "color=blue|black|brown"],
    ["pipeDelimited object", { name: "color", value: rgb, style: "pipeDelimited" }, "color=R|100|G|200|B|150"],
    ["deepObject", { name: "color", value: rgb, style: "deepObject" }, "color[R]=100&color[G]=200&color[B]=150"],
    ["deepObject, nested", { name: "f", value: { a: { b: 1 } }, style: "deepObject" }, "f[a][b]=1"],
    ["undefined is left out", { name: "color", value: undefined }, ""],
    ["null sends an empty value", { name: "color", value: null }, "color="],
    ["undefined members are left out", { name: "o", value: { a: 1, b: undefined }, explode: false }, "o=a,1"],
    ["empty array, explode: nothing", { name: "ids", value: [] }, ""],
    ["empty array, no explode: empty value", { name: "ids", value: [], explode: false }, "ids="],
    ["booleans and numbers", { name: "n", value: [true, 1.5, 0] }, "n=true&n=1.5&n=0"],
    ["dates as ISO 8601", { name: "start_time", value: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)) }, "start_time=2026-01-02T03%3A04%3A05.000Z"],
  ])("%s", (_, param, expected) => {
    expect(serializeQuery([param])).toBe(expected);
  });

  it.each([
    ["reserved characters are percent-encoded", "a&b=c?d/e#f", "q=a%26b%3Dc%3Fd%2Fe%23f"],
    ["space as %20, plus as %2B", "a b+c", "q=a%20b%2Bc"],
    ["sub-delimiters encodeURIComponent keeps are encoded too", "!*'()", "q=%21%2A%27%28%29"],
    ["commas inside values are encoded, keeping them apart from the form delimiter", "a,b", "q=a%2Cb"],
    ["UTF-8", "café ☕", "q=caf%C3%A9%20%E2%98%95"],
  ])("%s", (_, value, expected) => {
    expect(serializeQuery([{ name: "q", value }])).toBe(expected);
  });

  it("keeps the order parameters are given in, and encodes names", () => {
    expect(
      serializeQuery([
        { name: "post.fields", value: ["id", "text"], explode: false },
        { name: "a b", value: 1 },
      ]),
    ).toBe("post.fields=id,text&a%20b=1");
  });

  it("refuses values a style cannot carry", () => {
    expect(() => serializeQuery([{ name: "x", value: Number.NaN }])).toThrow(TypeError);
    expect(() => serializeQuery([{ name: "x", value: [{ nested: true }] }])).toThrow(TypeError);
  });
});

describe("path parameters", () => {
  it.each([
    ["/2/posts/{id}", { id: "1234" }, "/2/posts/1234"],
    ["/2/posts/{id}", { id: 42 }, "/2/posts/42"],
    ["/12/accounts/{account_id}/custom_audiences/{id}/users", { account_id: "18ce54d4x5t", id: "abc" }, "/12/accounts/18ce54d4x5t/custom_audiences/abc/users"],
    ["/x/{v}", { v: "a/b?c#d e%" }, "/x/a%2Fb%3Fc%23d%20e%25"],
    ["/x/{v}", { v: true }, "/x/true"],
  ])("%s with %j is %s", (template, params, expected) => {
    expect(expandPath(template, params)).toBe(expected);
  });

  it.each([[{}], [{ id: "" }], [{ id: "." }], [{ id: ".." }]])("refuses %j, which would change the path", (params) => {
    expect(() => expandPath("/2/posts/{id}", params)).toThrow(TypeError);
  });

  it("arrive at the server as sent: one segment, decodable to the original", async () => {
    server = await startServer((req, res) => json(res, 200, { path: req.path }));
    const transport = createTransport({ baseUrl: `${server.url}/`, retry: false });
    const res = await transport.request({
      method: "GET",
      path: "/2/posts/{id}",
      pathParams: { id: "../admin?x" },
      query: [{ name: "expansions", value: ["author_id", "attachments.media_keys"], explode: false }],
    });
    const path = (res.body as { path: string }).path;
    expect(path).toBe("/2/posts/..%2Fadmin%3Fx?expansions=author_id,attachments.media_keys");
    expect(decodeURIComponent(path.split("/")[3]?.split("?")[0] ?? "")).toBe("../admin?x");
  });
});

describe("request bodies as the server receives them", () => {
  async function received(spec: { body: unknown; contentType?: string }) {
    server = await startServer((req, res) => json(res, 200, { type: req.headers["content-type"] ?? null, body: req.body }));
    const transport = createTransport({ baseUrl: server.url, retry: false });
    const res = await transport.request({ method: "POST", path: "/b", ...spec });
    return res.body as { type: string | null; body: string };
  }

  it("JSON for application/json", async () => {
    expect(await received({ body: { text: "hé" }, contentType: "application/json" })).toEqual({
      type: "application/json",
      body: '{"text":"hé"}',
    });
  });

  it("JSON when no content type is given for a plain value", async () => {
    expect(await received({ body: [{ operation_type: "Update" }] })).toEqual({
      type: "application/json",
      body: '[{"operation_type":"Update"}]',
    });
  });

  it("JSON for a +json media type, strings JSON-encoded", async () => {
    expect(await received({ body: "text", contentType: "application/merge-patch+json" })).toEqual({
      type: "application/merge-patch+json",
      body: '"text"',
    });
  });

  it("URL-encoded for application/x-www-form-urlencoded, arrays repeating the name", async () => {
    expect(await received({ body: { grant_type: "client_credentials", scope: ["a b", "c"] }, contentType: "application/x-www-form-urlencoded" })).toEqual({
      type: "application/x-www-form-urlencoded",
      body: "grant_type=client_credentials&scope=a+b&scope=c",
    });
  });

  it("multipart: FormData passed through, with the boundary fetch chose", async () => {
    const form = new FormData();
    form.append("media", new Blob([new Uint8Array([1, 2, 3])]), "x.bin");
    const { type, body } = await received({ body: form, contentType: "multipart/form-data" });
    expect(type).toMatch(/^multipart\/form-data; boundary=/);
    expect(body).toContain('name="media"; filename="x.bin"');
  });

  it("raw bytes and text as given", async () => {
    expect(await received({ body: new TextEncoder().encode("raw"), contentType: "application/octet-stream" })).toEqual({
      type: "application/octet-stream",
      body: "raw",
    });
    expect(await received({ body: "plain", contentType: "text/csv" })).toEqual({ type: "text/csv", body: "plain" });
  });
});

describe("response parsing", () => {
  async function answer(status: number, contentType: string | undefined, body: string | Uint8Array, method = "GET") {
    server = await startServer((_req, res) => {
      res.writeHead(status, contentType ? { "content-type": contentType } : {});
      res.end(body);
    });
    const transport = createTransport({ baseUrl: server.url, retry: false });
    return transport.request({ method: method as "GET", path: "/r" });
  }

  it.each([
    ["JSON", 200, "application/json; charset=utf-8", '{"data":{"id":"1"}}', { data: { id: "1" } }],
    [
      "problem+json, whatever the status",
      404,
      "application/problem+json",
      '{"type":"https://api.example.com/problems/resource-not-found","title":"Not Found"}',
      { type: "https://api.example.com/problems/resource-not-found", title: "Not Found" },
    ],
    [
      "form-encoded (the OAuth token answers)",
      200,
      "application/x-www-form-urlencoded",
      "oauth_token=Z6eEdO8MOmk394WozF5oKyuAv855l4Mlqo7hhlSLik&oauth_token_secret=Kd75W4OQfb2oJTV0vzGzeXftVAwgMnEK9MumzYcM&oauth_callback_confirmed=true",
      {
        oauth_token: "Z6eEdO8MOmk394WozF5oKyuAv855l4Mlqo7hhlSLik",
        oauth_token_secret: "Kd75W4OQfb2oJTV0vzGzeXftVAwgMnEK9MumzYcM",
        oauth_callback_confirmed: "true",
      },
    ],
    ["text", 200, "text/plain; charset=utf-8", "héllo", "héllo"],
    ["an empty JSON body as undefined", 200, "application/json", "", undefined],
  ])("%s", async (_, status, type, raw, expected) => {
    const res = await answer(status, type, raw);
    expect(res.status).toBe(status);
    expect(res.contentType).toBe(type);
    expect(res.body).toEqual(expected);
  });

  it("form-encoded answers land on a null-prototype object, so __proto__ is just data", async () => {
    const res = await answer(200, "application/x-www-form-urlencoded", "__proto__=x&a=1");
    const body = res.body as Record<string, string>;
    expect(Object.getPrototypeOf(body)).toBeNull();
    expect(body["__proto__"]).toBe("x");
  });

  it("other media types as bytes", async () => {
    const res = await answer(200, "image/png", new Uint8Array([137, 80, 78, 71]));
    expect(res.body).toBeInstanceOf(Uint8Array);
    expect([...(res.body as Uint8Array)]).toEqual([137, 80, 78, 71]);
  });

  it("204 as undefined", async () => {
    server = await startServer((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    const res = await createTransport({ baseUrl: server.url }).request({ method: "DELETE", path: "/2/connections/all" });
    expect(res).toMatchObject({ status: 204, body: undefined });
  });

  it("invalid JSON as a ResponseParseError carrying status and text", async () => {
    const error = await answer(502, "application/json", "<html>Bad gateway</html>").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseParseError);
    expect(error).toMatchObject({ status: 502, text: "<html>Bad gateway</html>" });
  });
});

describe("request headers", () => {
  it("merges transport headers, the user agent, request headers and auth, auth last", async () => {
    server = await startServer((req, res) => json(res, 200, req.headers));
    const transport = createTransport({
      baseUrl: server.url,
      headers: { "x-client": "runtime-test", accept: "application/json" },
      userAgent: "contractgen-test/1.0",
      auth: { bearer: "real" },
      retry: false,
    });
    const res = await transport.request({
      method: "GET",
      path: "/h",
      headers: { authorization: "Bearer spoofed", "x-request": "1" },
      security: [["bearer"]],
    });
    expect(res.body).toMatchObject({
      "x-client": "runtime-test",
      "x-request": "1",
      accept: "application/json",
      "user-agent": "contractgen-test/1.0",
      authorization: "Bearer real",
    });
  });
});
