/**
 * The generated `./msw` entry: a package generated from a contract nobody wrote handlers for, its
 * MSW handlers installed with msw/node, its own generated client calling them. The handlers run
 * the same engine as `contractgen mock --spec`, so what holds over HTTP holds here: state,
 * validation by the package's validators, Prefer.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE, ROOT, runCli } from "./helpers.js";

type Pet = { name: string; species: string; age?: number };
interface PetsClient {
  listPets(args?: { limit?: number }): Promise<Pet[]>;
  createPet(args: { body: Pet }): Promise<Pet>;
  getPet(args: { name: string }): Promise<Pet>;
  updatePet(args: { name: string; body: Partial<Pet> }): Promise<Pet>;
  deletePet(args: { name: string }): Promise<unknown>;
  raw: { getPet(args: { name: string; headers?: Record<string, string> }): Promise<{ status: number; body: unknown }> };
}

const BASE = "http://pets.test/v1";

describe("generated ./msw handlers, called by the generated client in Node", () => {
  let dir: string;
  let server: ReturnType<typeof setupServer>;
  let client: PetsClient;

  beforeAll(async () => {
    // Under the workspace, so the generated code resolves @contractgen/runtime as a consumer's would.
    mkdirSync(path.join(ROOT, ".tmp"), { recursive: true });
    dir = mkdtempSync(path.join(ROOT, ".tmp", "msw-"));
    const gen = await runCli(["generate", FIXTURE("pets.openapi.yaml"), "--out", dir, "-q"]);
    expect(gen.code, gen.stderr).toBe(0);
    const msw = (await import(path.join(dir, "src/msw.ts"))) as { petsOpenapiMswHandlers: (h: typeof http, o: { baseUrl: string; seed?: number }) => Parameters<typeof setupServer> };
    const made = (await import(path.join(dir, "src/client.ts"))) as { createPetsOpenapiClient: (o: { baseUrl: string }) => PetsClient };
    server = setupServer(...msw.petsOpenapiMswHandlers(http, { baseUrl: BASE, seed: 3 }));
    server.listen({ onUnhandledRequest: "error" });
    client = made.createPetsOpenapiClient({ baseUrl: BASE });
  });

  afterAll(() => {
    server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("keeps what the client makes: created, read, listed, changed, deleted, then a 404", async () => {
    expect(await client.createPet({ body: { name: "bella", species: "cat", age: 1 } })).toEqual({ name: "bella", species: "cat", age: 1 });
    expect(await client.getPet({ name: "bella" })).toEqual({ name: "bella", species: "cat", age: 1 });
    expect((await client.listPets()).filter((p) => p.name === "bella")).toHaveLength(1);
    expect(await client.updatePet({ name: "bella", body: { age: 2 } })).toEqual({ name: "bella", species: "cat", age: 2 });
    await client.deletePet({ name: "bella" });
    await expect(client.getPet({ name: "bella" })).rejects.toMatchObject({ status: 404 });
  });

  it("refuses an invalid request with a 400 problem naming the parameter", async () => {
    const res = await fetch(`${BASE}/pets?limit=0`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { status: number; detail: string };
    expect(body.status).toBe(400);
    expect(JSON.stringify(body)).toContain("limit");
  });

  it("answers a named example when Prefer asks for it", async () => {
    const res = await client.raw.getPet({ name: "anyone", headers: { prefer: "example=tom" } });
    expect(res).toMatchObject({ status: 200, body: { name: "tom", species: "cat", age: 5 } });
  });

  it("leaves requests outside the base URL to the next handler", async () => {
    await expect(fetch("http://elsewhere.test/pets")).rejects.toThrow();
  });
});
