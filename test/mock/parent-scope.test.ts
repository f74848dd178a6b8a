/**
 * `contractgen mock --spec`: an object belongs to the parent it was made under, or the parent the
 * contract's examples place it under, and is not reached through another. How it is refused follows
 * what each operation declares: its 404, else the nearest client error it declares (a 403), else,
 * for an operation that declares no client error at all, a 404 the contract does not state (as a
 * server would, and as an invalid request gets an undeclared 400).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, FIXTURE, startMock, type RunningMock } from "./helpers.js";

type Book = { book_id: string; title: string };

describe("contractgen mock --spec: objects under their own parent", () => {
  let mock: RunningMock;
  let made: Book;
  const at = (shelf: string, book: string): string => `${mock.url}/shelves/${shelf}/books/${book}`;

  beforeAll(async () => {
    mock = await startMock(["--spec", FIXTURE("shelves.openapi.yaml")]);
    const r = await call(`${mock.url}/shelves/s-a/books`, { method: "POST", body: { title: "Kept" } });
    expect(r.status).toBe(201);
    made = r.body as Book;
  });
  afterAll(async () => mock?.stop());

  it("reaches a book through the shelf it was made on", async () => {
    const r = await call(at("s-a", made.book_id));
    expect(r.status).toBe(200);
    expect(r.body).toEqual(made);
  });

  it("refuses it through another shelf with the read's declared 404", async () => {
    const r = await call(at("s-b", made.book_id));
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ status: 404 });
  });

  it("refuses an update through another shelf with the 403 the update declares (it declares no 404), and changes nothing", async () => {
    const r = await call(at("s-b", made.book_id), { method: "PATCH", body: { title: "Taken" } });
    expect(r.status).toBe(403);
    expect(JSON.stringify(r.body)).toContain("belongs to another shelf_id");
    expect((await call(at("s-a", made.book_id))).body).toEqual(made);
  });

  it("refuses a delete through another shelf with a 404 although the delete declares no client error, and keeps the book", async () => {
    const r = await call(at("s-b", made.book_id), { method: "DELETE" });
    expect(r.status).toBe(404);
    expect((await call(at("s-a", made.book_id))).status).toBe(200);
  });

  it("places the contract's example book under the example's shelf only", async () => {
    expect((await call(at("s-home", "b-dune"))).status).toBe(200);
    expect((await call(at("s-work", "b-dune"))).status).toBe(404);
  });

  it("deletes the book through its own shelf, after which it is gone", async () => {
    expect((await call(at("s-a", made.book_id), { method: "DELETE" })).status).toBe(204);
    expect((await call(at("s-a", made.book_id))).status).toBe(404);
  });
});

describe("contractgen mock --spec: a PUT through another parent, where the create gives the keys", () => {
  let mock: RunningMock;
  let made: { item_id: string; label: string };
  const at = (locker: string, item: string): string => `${mock.url}/lockers/${locker}/items/${item}`;

  beforeAll(async () => {
    mock = await startMock(["--spec", FIXTURE("lockers.openapi.yaml")]);
    const r = await call(`${mock.url}/lockers/l-a/items`, { method: "POST", body: { label: "Kept" } });
    expect(r.status).toBe(201);
    made = r.body as typeof made;
  });
  afterAll(async () => mock?.stop());

  it("refuses the PUT with the 404 it declares instead of making a second object of that key, and leaves the first as it was", async () => {
    const r = await call(at("l-b", made.item_id), { method: "PUT", body: { label: "Taken" } });
    expect(r.status).toBe(404);
    expect((await call(at("l-b", made.item_id))).status).toBe(404);
    expect((await call(at("l-a", made.item_id))).body).toEqual(made);
  });

  it("makes an object for a PUT of a key no locker holds", async () => {
    const r = await call(at("l-b", "i-fresh"), { method: "PUT", body: { label: "New" } });
    expect(r.status).toBe(200);
    expect((await call(at("l-b", "i-fresh"))).body).toMatchObject({ item_id: "i-fresh", label: "New" });
  });
});
