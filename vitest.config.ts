import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "packages/*/test/**/*.test.ts"],
    // Generated-code compile tests spawn tsc; give them room on a 2-core machine.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    // The generated conformance suites test the workspace's mock server when no CONTRACT_BASE_URL is
    // set: each suite starts its own in-process mock through this module (the runtime knows none).
    // Each suite's mock is fresh and its own, so the stated rate limits can be driven to their end.
    env: { CONTRACT_TARGET: "@devplatform/mock-server/target", CONTRACT_RATE_LIMITS: "1" },
  },
});
