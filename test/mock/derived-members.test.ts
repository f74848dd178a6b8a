/**
 * Members a contract derives from others (response rules of kind `template`, `equals` and `offset`)
 * hold in every answer of `contractgen mock --spec`, whatever it drew or stored: a poll's `uri` is
 * `poll://<id>`, its `ends_at` is `starts_at` plus `minutes`, and a read answers the poll its path
 * names. The contract's own suite, which checks those rules, passes against it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE, runCli, startMock, type RunningMock } from "./helpers.js";

type Poll = { id: string; uri: string; minutes: number; starts_at: string; ends_at: string };

const ends = (p: Poll): string => new Date(Date.parse(p.starts_at) + p.minutes * 60_000).toISOString().replace(".000Z", "Z");

describe("contractgen mock --spec: members the contract derives from others", () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock(["--spec", FIXTURE("polls.openapi.yaml")]);
  }, 120_000);
  afterAll(() => mock?.stop());

  it("answers a created poll, the list and a read with each uri and end time derived as stated", async () => {
    const made = (await (await fetch(`${mock.url}/polls`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ title: "Lunch", minutes: 90 }) })).json()) as {
      data: Poll;
    };
    expect(made.data.uri).toBe(`poll://${made.data.id}`);
    expect(made.data.ends_at).toBe(ends(made.data));
    const listed = (await (await fetch(`${mock.url}/polls`)).json()) as { data: Poll[] };
    expect(listed.data.length).toBeGreaterThan(1);
    for (const p of listed.data) {
      expect(p.uri).toBe(`poll://${p.id}`);
      expect(Date.parse(p.ends_at)).toBe(Date.parse(ends(p)));
    }
    const read = (await (await fetch(`${mock.url}/polls/${made.data.id}`)).json()) as { data: Poll };
    expect(read.data.id).toBe(made.data.id);
  });

  it("answers a read without state (Prefer: dynamic=true) with the poll its path names", async () => {
    const res = await fetch(`${mock.url}/polls/123456789`, { headers: { prefer: "dynamic=true" } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: Poll };
    expect(body.data.id).toBe("123456789");
  });

  it("passes the contract's own suite, which checks those rules on every answer", async () => {
    const r = await runCli(["test", "--spec", FIXTURE("polls.openapi.yaml"), "--base-url", mock.url, "--destructive"]);
    expect(r.stdout + r.stderr).toMatch(/\d+ passed, 0 failed/);
    expect(r.code).toBe(0);
  }, 180_000);
});
