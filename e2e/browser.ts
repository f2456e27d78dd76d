import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import type { LaunchOptions } from "@playwright/test";
import { chromiumIfAny, findChromium, NO_CHROMIUM } from "../lib/chromium-path.ts";

/**
 * The Chromium the tests drive (lib/chromium-path.ts): CHROMIUM_PATH, else a system Chromium or Chrome, else
 * the one `npx playwright install chromium` downloads; undefined when there is none (assertChromium says so).
 */
export const CHROMIUM_PATH = chromiumIfAny(process.env.CHROMIUM_PATH);

/**
 * That Chromium, headless, with the flags this closed network needs (DESIGN.md "Known facts"): where
 * none is installed Playwright's own is used. playwright.config.ts gives these to every test.
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

/** How long a download of Playwright's Chromium may take before the run gives up on it. */
const INSTALL_TIMEOUT_MS = 180_000;

/**
 * Before any spec: with no Chromium anywhere (and CHROMIUM_PATH unset) it tries Playwright's download once,
 * outside CI (which installs the system one); still none, the run fails at once with one line saying what
 * to install, instead of each spec failing on its own.
 */
export function assertChromium(): void {
  const configured = process.env.CHROMIUM_PATH;
  if (!configured && !CHROMIUM_PATH && !process.env.CI) {
    console.log(`${NO_CHROMIUM}; trying npx playwright install chromium`);
    const cli = path.join(
      path.dirname(createRequire(import.meta.url).resolve("@playwright/test/package.json")),
      "cli.js",
    );
    spawnSync(process.execPath, [cli, "install", "chromium"], { stdio: "inherit", timeout: INSTALL_TIMEOUT_MS });
  }
  try {
    findChromium(configured);
  } catch (err) {
    // The message is the whole story: no stack under it.
    (err as Error).stack = `Error: ${(err as Error).message}`;
    throw err;
  }
}
