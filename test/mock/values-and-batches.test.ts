/**
 * `contractgen mock --spec` on a contract whose objects are not all reachable the usual way: some
 * are addressed by values no operation lists or makes (a journey id, a report's format and date),
 * which the mock states on start-up so a contract test can be given them with `--values`; a
 * shop's items are listed and written in batches only (no path names one item), and each item of
 * a batch write is kept, so the list shows it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, FIXTURE, runCli, startMock, type RunningMock } from "./helpers.js";

type Item = { id: string; title: string; price: number };

/** The values the start-up lines state, as JSON. */
function statedValues(banner: string): Record<string, unknown> | undefined {
  const m = /values no operation lists or makes \(contractgen test --values\): (\{.*\})/.exec(banner);
  return m ? (JSON.parse(m[1] as string) as Record<string, unknown>) : undefined;
}

describe("contractgen mock --spec: values no operation lists or makes, and batch writes", () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock(["--spec", FIXTURE("catalog.openapi.yaml")]);
  });
  afterAll(async () => mock?.stop());

  it("states on start-up a value of each path parameter no operation lists or makes, one its schema takes", () => {
    const values = statedValues(mock.banner);
    expect(values, mock.banner).toBeDefined();
    expect(Object.keys(values ?? {}).sort()).toEqual(["date", "format", "journey_id"]);
    expect(values?.["journey_id"]).toMatch(/^J[0-9]{4}$/);
    expect(values?.["date"]).toMatch(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/);
    expect(["json", "xml"]).toContain(values?.["format"]);
  });

  it("leaves out the keys a list or create gives: the suite finds those as a client does", () => {
    expect(statedValues(mock.banner)).not.toHaveProperty("shop_id");
  });

  it("answers 2xx for every value it states", async () => {
    const values = statedValues(mock.banner) ?? {};
    const journey = await call(`${mock.url}/journeys/${String(values["journey_id"])}`);
    expect(journey.status).toBe(200);
    const report = await call(`${mock.url}/${String(values["format"])}/reports/${String(values["date"])}`);
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({ total: expect.any(Number) });
  });

  it("serves a custom method (`/journeys/{journey_id}:download`) beside the read at `/journeys/{journey_id}`, the value without the verb", async () => {
    expect(mock.banner).not.toMatch(/not served/);
    const download = await call(`${mock.url}/journeys/J1234:download`);
    expect(download.status).toBe(200);
    expect(download.body).toEqual({ url: expect.any(String) });
    const read = await call(`${mock.url}/journeys/J1234`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ stops: expect.any(Number) });
  });

  it("keeps each item of a batch write: the list shows a new one, and a second write changes it in place", async () => {
    const shops = (await call(`${mock.url}/shops`)).body as { data: { id: string }[] };
    const shop = shops.data[0]?.id as string;
    const before = ((await call(`${mock.url}/shops/${shop}/items`)).body as { data: Item[] }).data;
    expect(before.some((i) => i.id === "lamp-1")).toBe(false);

    const written = await call(`${mock.url}/shops/${shop}/items`, { method: "PUT", body: { items: [{ id: "lamp-1", title: "Desk lamp", price: 12.5 }] } });
    expect(written.status).toBe(200);
    const listed = ((await call(`${mock.url}/shops/${shop}/items`)).body as { data: Item[] }).data;
    expect(listed.filter((i) => i.id === "lamp-1")).toEqual([{ id: "lamp-1", title: "Desk lamp", price: 12.5 }]);
    expect(listed).toHaveLength(before.length + 1);

    await call(`${mock.url}/shops/${shop}/items`, { method: "PUT", body: { items: [{ id: "lamp-1", title: "Desk lamp", price: 10 }] } });
    const again = ((await call(`${mock.url}/shops/${shop}/items`)).body as { data: Item[] }).data;
    expect(again.filter((i) => i.id === "lamp-1")).toEqual([{ id: "lamp-1", title: "Desk lamp", price: 10 }]);
    expect(again).toHaveLength(before.length + 1);
  });

  it("keeps a batch's items per parent: another shop's list does not show them", async () => {
    const shops = (await call(`${mock.url}/shops`)).body as { data: { id: string }[] };
    const [one, other] = shops.data.map((s) => s.id);
    await call(`${mock.url}/shops/${String(one)}/items`, { method: "PUT", body: { items: [{ id: "chair-9", title: "Chair", price: 40 }] } });
    const elsewhere = ((await call(`${mock.url}/shops/${String(other)}/items`)).body as { data: Item[] }).data;
    expect(elsewhere.some((i) => i.id === "chair-9")).toBe(false);
  });

  it("passes its own contract tests given the values it states, running the cases they were skipped for", async () => {
    const values = JSON.stringify(statedValues(mock.banner));
    const r = await runCli(["test", "--spec", FIXTURE("catalog.openapi.yaml"), "--base-url", mock.url, "--destructive", "--disposable", "--values", values]);
    const out = (r.stdout + r.stderr).replace(/\x1b\[[0-9;]*m/g, "");
    expect(r.code, out).toBe(0);
    expect(out).not.toMatch(/no (journey_id|format|date) of an existing object is known/);
    expect(out).not.toMatch(/does not list id=/);
  });
});
