/**
 * RPC-style operations (a gRPC gateway's `POST /v1/role/get`): no path parameter names the object;
 * the folder names the resource, the last segment the verb, and the key travels in the body. The
 * suite must act on real objects there too: a read names a listed role, a delete or a revoke one the
 * suite added for it, and a revoke first grants what it revokes. Against an in-memory server that
 * refuses unknown roles (412) and revokes only what was granted, `contractgen test` reaches every
 * operation with a 2xx; a server whose answer to a real role breaks the schema is caught.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { ROOT, runCli } from "../generator/helpers.js";
import { relationsOf } from "../../generators/src/model/relations.js";
import { buildModel, loadSpec } from "../../generators/src/index.js";

const op = (id: string, request: string, response: string) => ({
  post: {
    operationId: id,
    parameters: [{ name: "body", in: "body", required: true, schema: { $ref: `#/definitions/${request}` } }],
    responses: { "200": { description: "ok", schema: { $ref: `#/definitions/${response}` } }, default: { description: "error", schema: { $ref: "#/definitions/Status" } } },
  },
});

const DOCUMENT = {
  swagger: "2.0",
  info: { title: "Roles", version: "1.0.0" },
  consumes: ["application/json"],
  produces: ["application/json"],
  paths: {
    "/v1/role/add": op("RoleAdd", "RoleAddRequest", "Empty"),
    "/v1/role/get": op("RoleGet", "RoleGetRequest", "RoleGetResponse"),
    "/v1/role/list": op("RoleList", "Empty", "RoleListResponse"),
    "/v1/role/delete": op("RoleDelete", "RoleGetRequest", "Empty"),
    "/v1/role/grant": op("RoleGrantPermission", "GrantRequest", "Empty"),
    "/v1/role/revoke": op("RoleRevokePermission", "RevokeRequest", "Empty"),
  },
  definitions: {
    Empty: { type: "object" },
    RoleAddRequest: { type: "object", properties: { name: { type: "string" } } },
    RoleGetRequest: { type: "object", properties: { role: { type: "string" } } },
    RoleGetResponse: { type: "object", properties: { perm: { type: "array", items: { $ref: "#/definitions/Permission" } } } },
    RoleListResponse: { type: "object", properties: { roles: { type: "array", items: { type: "string" } } } },
    Permission: { type: "object", properties: { key: { type: "string" } } },
    GrantRequest: { type: "object", properties: { name: { type: "string" }, perm: { $ref: "#/definitions/Permission" } } },
    RevokeRequest: { type: "object", properties: { role: { type: "string" }, key: { type: "string" } } },
    Status: { type: "object", properties: { error: { type: "string" }, code: { type: "integer", format: "int32" } } },
  },
};

/** A role store over the six RPCs; `broken` makes a read of an existing role answer `perm` as text. */
async function roles(broken = false): Promise<{ url: string; server: Server; served: Map<string, number> }> {
  const store = new Map<string, Set<string>>([["root", new Set()]]);
  const served = new Map<string, number>();
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (d: Buffer) => (text += d.toString()));
    req.on("end", () => {
      const send = (status: number, body: unknown): void => {
        if (status === 200) served.set(req.url ?? "", (served.get(req.url ?? "") ?? 0) + 1);
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      let body: Record<string, unknown>;
      try {
        const parsed: unknown = text === "" ? {} : JSON.parse(text);
        if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return send(400, { error: "body must be an object", code: 3 });
        body = parsed as Record<string, unknown>;
      } catch {
        return send(400, { error: "body is not JSON", code: 3 });
      }
      const text1 = (k: string): string | undefined => (typeof body[k] === "string" && body[k] !== "" ? (body[k] as string) : undefined);
      const missing = (): void => send(412, { error: "role name not found", code: 9 });
      switch (req.url) {
        case "/v1/role/add": {
          const name = text1("name");
          if (name === undefined) return send(400, { error: "role name is empty", code: 3 });
          if (store.has(name)) return send(412, { error: "role name already exists", code: 9 });
          store.set(name, new Set());
          return send(200, {});
        }
        case "/v1/role/list":
          return send(200, { roles: [...store.keys()].sort() });
        case "/v1/role/get": {
          const perms = store.get(text1("role") ?? "");
          if (!perms) return missing();
          return send(200, broken ? { perm: "none" } : { perm: [...perms].map((key) => ({ key })) });
        }
        case "/v1/role/delete": {
          const role = text1("role") ?? "";
          if (!store.has(role)) return missing();
          store.delete(role);
          return send(200, {});
        }
        case "/v1/role/grant": {
          const perms = store.get(text1("name") ?? "");
          if (!perms) return missing();
          const perm = body["perm"] as Record<string, unknown> | undefined;
          perms.add(String(perm?.["key"] ?? ""));
          return send(200, {});
        }
        case "/v1/role/revoke": {
          const perms = store.get(text1("role") ?? "");
          if (!perms) return missing();
          if (!perms.delete(String(body["key"] ?? ""))) return send(412, { error: "permission is not granted to the role", code: 9 });
          return send(200, {});
        }
        default:
          return send(404, { error: "not found", code: 5 });
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, served };
}

const plain = (s: string): string => s.replace(/\x1b\[[0-9;]*m/g, "");

describe("relations of RPC-style operations", () => {
  it("reads take a listed role, changes one the suite adds, and the revoke undoes the grant", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "cg-rpc-rel-"));
    try {
      writeFileSync(path.join(dir, "roles.json"), JSON.stringify(DOCUMENT));
      const r = relationsOf(buildModel(await loadSpec(path.join(dir, "roles.json")), "roles"));
      const list = { kind: "list", operationId: "RoleList", items: "/roles", field: "" };
      const add = { kind: "create", operationId: "RoleAdd", pointers: [], location: false, request: "/name" };
      expect(r.references.get("RoleGet")).toEqual([{ in: "body", name: "role", many: false, sources: [list, add], own: "read" }]);
      expect(r.references.get("RoleDelete")).toEqual([{ in: "body", name: "role", many: false, sources: [list, add], own: "change" }]);
      expect(r.references.get("RoleGrantPermission")).toEqual([{ in: "body", name: "name", many: false, sources: [list, add], own: "change" }]);
      // The create names a new role and the list none: neither takes one.
      expect(r.references.get("RoleAdd")).toBeUndefined();
      expect(r.references.get("RoleList")).toBeUndefined();
      expect(r.undoes.get("RoleRevokePermission")).toBe("RoleGrantPermission");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("contractgen test on RPC-style operations", () => {
  let dir: string;
  let good: Awaited<ReturnType<typeof roles>>;
  let bad: Awaited<ReturnType<typeof roles>>;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "cg-rpc-"));
    expect(path.relative(ROOT, dir).startsWith("..")).toBe(true);
    writeFileSync(path.join(dir, "roles.json"), JSON.stringify(DOCUMENT));
    good = await roles();
    bad = await roles(true);
  });
  afterAll(() => {
    good?.server.close();
    bad?.server.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("reaches every operation with a 2xx on real roles, and passes", async () => {
    const r = await runCli(["test", "--spec", "roles.json", "--base-url", good.url, "--destructive"], dir);
    const out = plain(r.stdout + r.stderr);
    expect(r.code, out).toBe(0);
    for (const p of Object.keys(DOCUMENT.paths)) expect(good.served.get(p) ?? 0, `${p} answered no 2xx`).toBeGreaterThan(0);
    // The seeded role is read, never deleted: deletes act on roles the suite added.
    expect(out).not.toMatch(/\b[1-9]\d* failed/);
  });

  it("fails where a read of an existing role breaks the schema", async () => {
    const r = await runCli(["test", "--spec", "roles.json", "--base-url", bad.url, "--destructive"], dir);
    const out = plain(r.stdout + r.stderr);
    expect(r.code, out).toBe(1);
    expect(out).toMatch(/RoleGet \(POST \/v1\/role\/get\) answered 200 .*which breaks the contract: .*perm must be array/);
  });
});
