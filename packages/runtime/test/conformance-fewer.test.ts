/**
 * Valid requests with fewer optional members: the required members alone first, then each optional
 * one added alone, then each other value of an optional member's enum alone; path values and
 * members the validators require are never left out.
 */
import { describe, expect, it } from "vitest";
import { fewerMembers } from "../src/conformance/fewer.js";

type Rec = Record<string, unknown>;
/** A validator that requires `key` in the body and `zone` among the values. */
const valid = (values: Readonly<Rec>, body: unknown): boolean => values["zone"] !== undefined && typeof body === "object" && body !== null && "key" in body;

describe("fewerMembers", () => {
  it("starts from the required members alone, then adds one optional member at a time", () => {
    const got = fewerMembers({ zone: "z", verbose: true }, { key: "k", lease: "1", prev_kv: true }, new Set(["zone"]), valid);
    expect(got).toEqual([
      { values: { zone: "z" }, body: { key: "k" } },
      { values: { zone: "z" }, body: { key: "k", lease: "1" } },
      { values: { zone: "z" }, body: { key: "k", prev_kv: true } },
      { values: { zone: "z", verbose: true }, body: { key: "k" } },
    ]);
  });
  it("offers nothing where every member is required", () => {
    expect(fewerMembers({ zone: "z" }, { key: "k" }, new Set(["zone"]), valid)).toEqual([]);
  });
  it("keeps what it is told to keep even where the validators would let it go", () => {
    const got = fewerMembers({ zone: "z", id: "7" }, { key: "k" }, new Set(["zone", "id"]), valid);
    expect(got).toEqual([]);
  });
  it("then offers each other value of an optional member's enum alone (a server with a default for one kind only)", () => {
    const got = fewerMembers({ zone: "z" }, { key: "k", keytype: "zsk" }, new Set(["zone"]), valid, 8, (m) => (m === "keytype" ? ["ksk", "zsk", "csk"] : []));
    expect(got).toEqual([
      { values: { zone: "z" }, body: { key: "k" } },
      { values: { zone: "z" }, body: { key: "k", keytype: "zsk" } },
      { values: { zone: "z" }, body: { key: "k", keytype: "ksk" } },
      { values: { zone: "z" }, body: { key: "k", keytype: "csk" } },
    ]);
  });
  it("stops at the cap", () => {
    const body = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`m${i}`, i]));
    expect(fewerMembers({ zone: "z" }, { key: "k", ...body }, new Set(["zone"]), valid, 5)).toHaveLength(5);
  });
});
