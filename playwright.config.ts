import { defineConfig } from "@playwright/test";
import { chromiumLaunchOptions } from "./e2e/browser.ts";

/**
 * The browser tests: each spec starts the real server (test/support/server-process.ts) with fakes
 * from test/fakes and drives the system Chromium. `npm test` runs them beside Vitest.
 */
export default defineConfig({
  testDir: "e2e",
  testMatch: "*.spec.ts",
  globalSetup: "./e2e/global-setup.ts",
  // Two cores, and every spec starts a server process: one spec at a time.
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // A loaded 2-core machine needs minutes for a server start plus a journey step; beforeAll/afterAll get as much.
  timeout: 120_000,
  // An assertion waits up to 10 s (Playwright's default is 5): a server action or a page's data answering
  // on a loaded 2-core machine has taken longer than 5.
  expect: { timeout: 10_000 },
  outputDir: "test-results",
  reporter: [
    ["list"],
    ["html", { open: "never", outputFolder: "playwright-report" }],
    // Read with the Vitest report by scripts/test-summary.mjs for CI's closing line.
    ["json", { outputFile: ".playwright-results.json" }],
  ],
  use: {
    browserName: "chromium",
    headless: true,
    launchOptions: chromiumLaunchOptions,
    // What playwright-core's own defaults were when these tests ran under Vitest: a stuck step fails in 30 s.
    actionTimeout: 30_000,
    navigationTimeout: 30_000,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
});
