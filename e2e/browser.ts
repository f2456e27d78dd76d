import fs from "node:fs";
import type { LaunchOptions } from "@playwright/test";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * The system Chromium, headless, with the flags this closed network needs (DESIGN.md "Known facts"):
 * Playwright cannot download a browser of its own here. playwright.config.ts gives these to every test.
 */
export const chromiumLaunchOptions: LaunchOptions = {
  executablePath: CHROMIUM_PATH,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
};

/** Fails the run at once, with the fix, when the system Chromium is missing. */
export function assertChromium(): void {
  if (!fs.existsSync(CHROMIUM_PATH))
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: apt-get install -y chromium`);
}
