import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "packages/*/test/**/*.test.ts"],
    // Generated-code compile tests spawn tsc; give them room on a 2-core machine.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
  },
});
