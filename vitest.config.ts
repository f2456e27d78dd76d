import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // The browser tests in e2e/ are Playwright's (playwright.config.ts); `npm test` runs both.
    include: ["lib/**/*.test.ts", "components/**/*.test.ts", "test/**/*.test.ts", "bench/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    setupFiles: ["test/support/yield-between-tests.ts"],
    // Many tests start a gateway of their own; beside another file on a slow 2-core machine that alone has
    // taken past 30 s (then on a fresh PGlite directory: since, they start from a migrated template).
    testTimeout: 90_000,
    hookTimeout: 180_000,
    // Two cores: files run two at a time so server processes and PGlite do not starve each other.
    maxWorkers: 2,
    // In CI a JSON report as well, read with Playwright's by scripts/test-summary.mjs for the closing line.
    ...(process.env.CI ? { reporters: ["default", "json"], outputFile: { json: ".vitest-results.json" } } : {}),
  },
});
