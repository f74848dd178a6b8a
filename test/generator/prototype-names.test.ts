/**
 * `Object.prototype` member names (`__proto__`, `constructor`, `toString`, …) are legal everywhere a
 * contract names something. The fixture uses each of them as a schema name, a property name, a path
 * parameter, an enum value, an operationId and a security scheme name; the generated package must
 * compile under strict settings and behave: validators see own keys only, the server routes every
 * operation to its own handler (or 501), the client sends each value, and nothing touches a prototype.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import path from "node:path";
import { pathToFileURL } from "node:url";
import Fastify, { type FastifyInstance } from "fastify";
import { spawnSync } from "node:child_process";
import { FIXTURES, TSC, runCli, workspaceTmpDir } from "./helpers.js";

const NAMES = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
] as const;

type Verdict = { valid: boolean; problem?: { errors: { message: string }[] } };
type Validators = {
  schemaValidators: Record<string, ((data: unknown) => boolean) & { errors?: unknown }>;
  validateRequest: (id: string, input: Record<string, unknown>) => Verdict;
};
type Mocks = { mockSchema: (name: string, seed?: number) => unknown };
type Client = Record<string, (args: Record<string, unknown>) => Promise<unknown>>;
type Server = { openapiServer: (app: FastifyInstance, options: Record<string, unknown>) => Promise<void> };

/** A body with every name as an own key, as JSON.parse makes it. */
const fullBody = (): Record<string, string> => JSON.parse(JSON.stringify(Object.fromEntries(NAMES.map((n) => [n, `v-${n}`])))) as Record<string, string>;

let out = "";
let generation = { code: -1, stderr: "" };
const load = async <T>(module: string): Promise<T> => (await import(pathToFileURL(path.join(out, "dist", `${module}.js`)).href)) as T;

beforeAll(async () => {
  out = path.join(workspaceTmpDir(), "prototype-names");
  generation = await runCli(["generate", path.join(FIXTURES, "prototype-names/openapi.yaml"), "--out", out, "--name", "@t/prototype-names"]);
});

describe("Object.prototype member names", () => {
  it("generate without an internal error and compile under strict tsc", () => {
    expect(generation.stderr).not.toMatch(/internal error|TypeError|at .*\.js:\d+/);
    expect(generation.code).toBe(0);
    const build = spawnSync(process.execPath, [TSC, "-p", out], { encoding: "utf8" });
    expect(build.stdout + build.stderr).toBe("");
    expect(build.status).toBe(0);
  });

  it("are validated as own keys: a missing `constructor` or `__proto__` is missing, a present one is data", async () => {
    const { schemaValidators } = await load<Validators>("validators");
    const validate = schemaValidators["Constructor"] ?? schemaValidators["Constructor2"];
    expect(validate).toBeTypeOf("function");
    expect(validate!(fullBody())).toBe(true);
    expect(validate!({})).toBe(false);
    expect(JSON.stringify(validate!.errors)).toContain("__proto__");
    expect(JSON.stringify(validate!.errors)).toContain("constructor");
    const wrongType = { ...fullBody(), toString: 1 };
    expect(validate!(wrongType)).toBe(false);
  });

  it("take enum values and parameter names that are prototype members", async () => {
    const { validateRequest } = await load<Validators>("validators");
    for (const id of NAMES) {
      const ok = validateRequest(id, { path: { [id]: "p" }, query: { valueOf: "toString" }, headers: {}, body: fullBody() });
      expect(ok.valid, `${id}: ${JSON.stringify(ok.problem)}`).toBe(true);
    }
    const bad = validateRequest("valueOf", { path: { valueOf: "p" }, query: { valueOf: "nope" }, headers: {}, body: fullBody() });
    expect(bad.valid).toBe(false);
    expect(JSON.stringify(bad.problem)).toContain("valueOf");
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("make mock data with every name as an own key, valid against its schema", async () => {
    const { mockSchema } = await load<Mocks>("mocks");
    const { schemaValidators } = await load<Validators>("validators");
    const value = mockSchema("__proto__", 7) as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(value, "__proto__")).toBe(true);
    expect(Object.prototype.hasOwnProperty.call(value, "constructor")).toBe(true);
    expect(schemaValidators["Proto"]!(value)).toBe(true);
  });

  describe("served by the generated plugin and called with the generated client", () => {
    let app: FastifyInstance;
    let client: Client;
    const seen: { path: Record<string, unknown>; body: Record<string, unknown> }[] = [];

    beforeAll(async () => {
      const { openapiServer } = await load<Server>("server");
      const echo = (input: { path: Record<string, unknown>; body: Record<string, unknown> }) => {
        seen.push(input);
        return { status: 200, body: { path: String(Object.values(input.path)[0]), kind: "toString", body: input.body } };
      };
      // Only `proto` and `valueOf2` are implemented: every other operation, `constructor` and
      // `toString` included, must answer 501 rather than run Object.prototype's functions.
      app = Fastify();
      await app.register(openapiServer, { handlers: { proto: echo, valueOf2: echo }, security: { bearer: (t: string) => (t === "good" ? { user: "u" } : undefined) } });
      const url = await app.listen({ port: 0, host: "127.0.0.1" });
      const { createOpenapiClient } = await load<{ createOpenapiClient: (o: Record<string, unknown>) => Client }>("client");
      client = createOpenapiClient({ baseUrl: url, auth: { bearer: "good" }, retry: false });
    });
    afterAll(async () => {
      await app?.close();
    });

    it("route `__proto__` and `valueOf` to their handlers with the path value and the whole body", async () => {
      const viaProto = (await client["proto"]!({ ["__proto__"]: "p-1", valueOf: "constructor", body: fullBody() })) as Record<string, unknown>;
      expect(viaProto["path"]).toBe("p-1");
      expect(viaProto["body"]).toEqual(fullBody());
      const viaValueOf = (await client["valueOf2"]!({ valueOf: "p-2", body: fullBody() })) as Record<string, unknown>;
      expect(viaValueOf["path"]).toBe("p-2");
      const handled = seen.at(-1)!;
      expect(Object.prototype.hasOwnProperty.call(handled.body, "__proto__")).toBe(true);
      expect(Object.getPrototypeOf(handled.body)).toBe(Object.prototype);
    });

    it.each(["constructor", "toString", "hasOwnProperty", "__defineGetter__"])("answer 501 for %s, which has no handler", async (id) => {
      const res = await app.inject({
        method: "POST",
        url: `/op${NAMES.indexOf(id as (typeof NAMES)[number])}/x`,
        headers: { authorization: "Bearer good", "content-type": "application/json" },
        payload: JSON.stringify(fullBody()),
      });
      expect(res.statusCode).toBe(501);
      expect(res.json()).toMatchObject({ status: 501 });
    });

    it("refuse a request without the `constructor` scheme's credentials", async () => {
      const res = await app.inject({ method: "POST", url: "/op0/x", headers: { "content-type": "application/json" }, payload: JSON.stringify(fullBody()) });
      expect(res.statusCode).toBe(401);
    });
  });
});
