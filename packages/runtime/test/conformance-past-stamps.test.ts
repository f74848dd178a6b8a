/**
 * An update that rewrites a creation time is seen only once the stamp's own second is over: a stamp
 * of whole seconds rewritten within it reads the same. `pastStamps` waits out that second, and
 * nothing for an older stamp, a member that is no time, or a clock far ahead.
 */
import { describe, expect, it } from "vitest";
import { pastStamps } from "../src/conformance/read-back.js";

const wholeSecond = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");

describe("pastStamps", () => {
  it("waits until the second of a stamp made now is over", async () => {
    const stamp = wholeSecond(Date.now());
    await pastStamps({ created_at: stamp }, ["created_at"]);
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(stamp) + 1000);
  });

  const noWait: { given: string; object: Record<string, unknown>; members: string[] }[] = [
    { given: "an older stamp", object: { created_at: "2025-05-10T10:00:00Z" }, members: ["created_at"] },
    { given: "a member that is no time", object: { id: "1760000000000000001" }, members: ["id"] },
    { given: "a stamp a minute ahead (a server clock far ahead)", object: { created_at: new Date(Date.now() + 60_000).toISOString() }, members: ["created_at"] },
    { given: "a member the object lacks", object: {}, members: ["created_at"] },
  ];
  for (const { given, object, members } of noWait) {
    it(`does not wait for ${given}`, async () => {
      const start = Date.now();
      await pastStamps(object, members);
      expect(Date.now() - start).toBeLessThan(50);
    });
  }
});
