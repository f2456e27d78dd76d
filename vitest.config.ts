import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // The browser tests in e2e/ are Playwright's (playwright.config.ts); `npm test` runs both.
    include: ["lib/**/*.test.ts", "components/**/*.test.ts", "test/**/*.test.ts", "bench/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    setupFiles: ["test/support/fresh-env.ts", "test/support/yield-between-tests.ts"],
    // Files in a worker share its module cache: importing the gateway afresh for each of 345 files was
    // 730 s of a 1,870 s run on two cores. What a file changes of the process is undone before the next
    // one (fresh-env.ts), and nothing mocks modules (vi.mock would leak across files here).
    isolate: false,
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
