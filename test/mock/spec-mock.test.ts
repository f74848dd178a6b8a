/**
 * `contractgen mock --spec <document>` serves a contract nobody wrote a mock for: the process is
 * started as a user starts it and spoken to over HTTP. The contracts are small on purpose, so each
 * behaviour below has one obvious cause: a 3.0 collection keyed by `name` whose list is a bare
 * array, and a Swagger 2.0 collection under a base path, keyed by an integer `id`, behind an API key.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, FIXTURE, runCli, startMock, type RunningMock } from "./helpers.js";

type Pet = { name: string; species: string; age?: number };

describe("contractgen mock --spec on an OpenAPI 3.0 document (collection keyed by name, bare-array list)", () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock(["--spec", FIXTURE("pets.openapi.yaml")]);
  });
  afterAll(async () => mock?.stop());

  it("says what it serves, where, and that it keeps state", () => {
    expect(mock.banner).toMatch(/serving Pet shelter 1\.0\.0 \(test\/mock\/fixtures\/pets\.openapi\.yaml\) at http:\/\/127\.0\.0\.1:\d+: 5 operation\(s\), stateful \(1 collection\), seed 1/);
  });

  it("keeps what is made: created, read, listed, changed, deleted, then gone", async () => {
    const made = await call(`${mock.url}/pets`, { method: "POST", body: { name: "fido", species: "dog", age: 2 } });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({ name: "fido", species: "dog", age: 2 });

    const read = await call(`${mock.url}/pets/fido`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ name: "fido", species: "dog", age: 2 });

    const listed = await call(`${mock.url}/pets`);
    expect(listed.status).toBe(200);
    expect(Array.isArray(listed.body)).toBe(true);
    expect((listed.body as Pet[]).filter((p) => p.name === "fido")).toEqual([{ name: "fido", species: "dog", age: 2 }]);

    const changed = await call(`${mock.url}/pets/fido`, { method: "PATCH", body: { age: 7 } });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ name: "fido", species: "dog", age: 7 });
    expect((await call(`${mock.url}/pets/fido`)).body).toEqual({ name: "fido", species: "dog", age: 7 });

    const deleted = await call(`${mock.url}/pets/fido`, { method: "DELETE" });
    expect(deleted.status).toBe(204);
    const after = await call(`${mock.url}/pets/fido`);
    expect(after.status).toBe(404);
    expect(after.body).toMatchObject({ status: 404 });
    expect((await call(`${mock.url}/pets`)).body as Pet[]).not.toContainEqual(expect.objectContaining({ name: "fido" }));
    expect((await call(`${mock.url}/pets/fido`, { method: "DELETE" })).status).toBe(404);
  });

  it("refuses an invalid request with the contract's 4xx in its problem shape, naming the parameter", async () => {
    const badQuery = await call(`${mock.url}/pets?limit=abc`);
    expect(badQuery.status).toBe(400);
    expect(badQuery.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(badQuery.body).toMatchObject({ status: 400, title: "Bad Request" });
    expect(JSON.stringify(badQuery.body)).toContain("limit");

    const badBody = await call(`${mock.url}/pets`, { method: "POST", body: { name: "rex", species: "dragon" } });
    expect(badBody.status).toBe(400);
    expect(JSON.stringify(badBody.body)).toContain("species");
    // Refused, so not kept.
    expect((await call(`${mock.url}/pets/rex`)).status).toBe(404);
  });

  it("answers what Prefer asks for: a declared status, a named example", async () => {
    const notFound = await call(`${mock.url}/pets/anyone`, { headers: { prefer: "code=404" } });
    expect(notFound.status).toBe(404);
    expect(notFound.body).toMatchObject({ status: 404 });

    const tom = await call(`${mock.url}/pets/anyone`, { headers: { prefer: "example=tom" } });
    expect(tom.status).toBe(200);
    expect(tom.body).toEqual({ name: "tom", species: "cat", age: 5 });
    const rex = await call(`${mock.url}/pets/anyone`, { headers: { prefer: "example=rex" } });
    expect(rex.body).toEqual({ name: "rex", species: "dog", age: 3 });
  });

  it("draws fresh valid data with Prefer: dynamic=true", async () => {
    const a = await call(`${mock.url}/pets`, { headers: { prefer: "dynamic=true" } });
    const b = await call(`${mock.url}/pets`, { headers: { prefer: "dynamic=true" } });
    expect(a.status).toBe(200);
    expect(Array.isArray(a.body)).toBe(true);
    expect(a.body).not.toEqual(b.body);
  });
});

describe("contractgen mock --spec: seeds and --stateless", () => {
  it("gives the same answers for the same seed and others for another", async () => {
    const first = await startMock(["--spec", FIXTURE("pets.openapi.yaml"), "--seed", "7"]);
    const second = await startMock(["--spec", FIXTURE("pets.openapi.yaml"), "--seed", "7"]);
    const other = await startMock(["--spec", FIXTURE("pets.openapi.yaml"), "--seed", "8"]);
    try {
      const a = await call(`${first.url}/pets`);
      const b = await call(`${second.url}/pets`);
      const c = await call(`${other.url}/pets`);
      expect((a.body as Pet[]).length).toBeGreaterThan(0);
      expect(a.body).toEqual(b.body);
      expect(c.body).not.toEqual(a.body);
    } finally {
      await Promise.all([first.stop(), second.stop(), other.stop()]);
    }
  });

  it("keeps nothing with --stateless: a create is answered but not listed or readable", async () => {
    const mock = await startMock(["--spec", FIXTURE("pets.openapi.yaml"), "--stateless"]);
    try {
      expect(mock.banner).toMatch(/, stateless, seed 1/);
      const before = await call(`${mock.url}/pets`);
      const made = await call(`${mock.url}/pets`, { method: "POST", body: { name: "ghost", species: "cat" } });
      expect(made.status).toBe(201);
      expect((await call(`${mock.url}/pets`)).body).toEqual(before.body);
      const read = await call(`${mock.url}/pets/ghost`);
      // The contract's example, not the object sent.
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ name: "rex", species: "dog", age: 3 });
    } finally {
      await mock.stop();
    }
  });
});

describe("contractgen mock --spec on a Swagger 2.0 document (base path, integer ids, API key)", () => {
  let mock: RunningMock;
  const key = { "x-api-key": "any-key" };
  beforeAll(async () => {
    mock = await startMock(["--spec", FIXTURE("store.swagger.yaml")]);
  });
  afterAll(async () => mock?.stop());

  it("serves under the document's base path", () => {
    expect(mock.banner).toMatch(/serving Book store 2\.0 .* at http:\/\/127\.0\.0\.1:\d+\/api: 5 operation\(s\), stateful \(1 collection\)/);
  });

  it("asks for the API key the contract requires", async () => {
    const res = await call(`${mock.url}/api/books`);
    expect(res.status).toBe(401);
    expect(await call(`${mock.url}/api/books`, { headers: key })).toMatchObject({ status: 200 });
  });

  it("keeps a created book under the id its answer gives, through read, list, replace and delete", async () => {
    const made = await call(`${mock.url}/api/books`, { method: "POST", headers: key, body: { title: "Emma", pages: 300 } });
    expect(made.status).toBe(201);
    const book = made.body as { id: number; title: string; pages: number };
    expect(book).toMatchObject({ title: "Emma", pages: 300 });
    expect(Number.isInteger(book.id)).toBe(true);

    expect((await call(`${mock.url}/api/books/${book.id}`, { headers: key })).body).toEqual(book);
    const listed = (await call(`${mock.url}/api/books`, { headers: key })).body as { items: { id: number }[] };
    expect(listed.items.filter((b) => b.id === book.id)).toEqual([book]);

    const replaced = await call(`${mock.url}/api/books/${book.id}`, { method: "PUT", headers: key, body: { title: "Persuasion" } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ id: book.id, title: "Persuasion" });

    expect((await call(`${mock.url}/api/books/${book.id}`, { method: "DELETE", headers: key })).status).toBe(204);
    expect((await call(`${mock.url}/api/books/${book.id}`, { headers: key })).status).toBe(404);
  });

  it("refuses an id that is no integer with the contract's own error shape, naming the parameter", async () => {
    const res = await call(`${mock.url}/api/books/abc`, { headers: key });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: expect.any(Number), message: expect.stringContaining("id") });
  });

  it("answers the contract's example for the read when the state is not asked (Prefer: code=200)", async () => {
    const res = await call(`${mock.url}/api/books/1`, { headers: { ...key, prefer: "code=200" } });
    expect(res.body).toEqual({ id: 7, title: "Dune", pages: 412 });
  });
});

describe("contractgen mock --spec on broken input", () => {
  it("exits 2 with the place and the fix for a spec whose $ref goes nowhere", async () => {
    const r = await runCli(["mock", "--spec", FIXTURE("broken.yaml"), "--port", "0"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/broken\.yaml:\d+:\d+ #\/paths\/~1x\/get\/responses\/200/);
    expect(r.stderr).toMatch(/fix:/);
  });

  it("exits 2 for a document that is not YAML at all", async () => {
    const r = await runCli(["mock", "--spec", FIXTURE("not-yaml.yaml"), "--port", "0"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/invalid YAML/);
  });
});

describe("contractgen mock --spec on operations told apart by a header (AWS's #X-Amz-Target paths)", () => {
  it("routes POST / by X-Amz-Target, and refuses an unknown target naming the header", async () => {
    const mock = await startMock(["--spec", FIXTURE("targets.openapi.yaml")]);
    try {
      expect(mock.banner).toMatch(/2 operation\(s\)/);
      expect(mock.banner).not.toMatch(/not served/);
      const colour = await call(`${mock.url}/`, { method: "POST", headers: { "x-amz-target": "Svc.GetColour" }, body: { Name: "a" } });
      expect(colour.status).toBe(200);
      expect(colour.body).toEqual({ Colour: expect.stringMatching(/^(red|blue)$/) });
      const size = await call(`${mock.url}/`, { method: "POST", headers: { "x-amz-target": "Svc.GetSize" }, body: { Name: "a" } });
      expect(size.status).toBe(200);
      expect(size.body).toEqual({ Size: expect.any(Number) });
      const unknown = await call(`${mock.url}/`, { method: "POST", headers: { "x-amz-target": "Svc.Nope" }, body: { Name: "a" } });
      expect(unknown.status).toBe(480);
      expect(JSON.stringify(unknown.body)).toContain("x-amz-target");
    } finally {
      await mock.stop();
    }
  });
});
