import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["lib/**/*.test.ts", "test/**/*.test.ts", "e2e/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 180_000,
    // Two cores: files run two at a time so server processes and PGlite do not starve each other.
    maxWorkers: 2,
  },
});
