import { describe, expect, it } from "vitest";
import { resolveTarget } from "../src/conformance/target.js";

describe("the server a conformance suite checks", () => {
  it("is CONTRACT_BASE_URL with CONTRACT_AUTH, and changes no data unless CONTRACT_DESTRUCTIVE=1", async () => {
    const t = await resolveTarget({ CONTRACT_BASE_URL: "http://127.0.0.1:9", CONTRACT_AUTH: '{"bearer":"b"}' });
    expect(t).toEqual({ baseUrl: "http://127.0.0.1:9", auth: { bearer: "b" }, destructive: false });
    expect((await resolveTarget({ CONTRACT_BASE_URL: "http://x", CONTRACT_DESTRUCTIVE: "1" })).destructive).toBe(true);
  });

  it("prefers CONTRACT_BASE_URL over a CONTRACT_TARGET module", async () => {
    const t = await resolveTarget({ CONTRACT_BASE_URL: "http://x", CONTRACT_TARGET: "no-such-module" });
    expect(t.baseUrl).toBe("http://x");
  });

  it("says what to set when neither is given", async () => {
    await expect(resolveTarget({})).rejects.toThrow(/CONTRACT_BASE_URL .*CONTRACT_TARGET/);
  });

  it("says CONTRACT_AUTH is not JSON instead of failing inside every case", async () => {
    await expect(resolveTarget({ CONTRACT_BASE_URL: "http://x", CONTRACT_AUTH: "bearer abc" })).rejects.toThrow(/CONTRACT_AUTH is not JSON/);
  });

  it("starts the server a CONTRACT_TARGET module names, and refuses one without startTarget()", async () => {
    await expect(resolveTarget({ CONTRACT_TARGET: "node:path" })).rejects.toThrow(/exports no startTarget/);
    const t = await resolveTarget({ CONTRACT_TARGET: "@devplatform/mock-server/target" });
    try {
      expect(t.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(t.destructive).toBe(true);
      expect(t.auth.bearer).toBe("mock-bearer-token");
      expect((await fetch(`${t.baseUrl}/2/posts?ids=20`, { headers: { authorization: "Bearer nope" } })).status).toBe(401);
    } finally {
      await t.close?.();
    }
  });
});
