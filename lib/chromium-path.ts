import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { BrowserType } from "playwright-core";

export const NO_CHROMIUM =
  "no Chromium or Chrome found: install one (apt-get install chromium, or npx playwright install chromium) or set CHROMIUM_PATH to one";

/** Where findChromium looks when CHROMIUM_PATH is unset; the tests give their own. */
export type ChromiumSearch = {
  path: string | undefined;
  places: readonly string[];
  playwright: () => string | undefined;
};

/**
 * Finds the Chromium that screenshots and the browser tests launch: the one CHROMIUM_PATH names, else a
 * system Chromium or Chrome (on PATH, then where installers put them), else the one Playwright downloads
 * (`npx playwright install chromium`). None found: an error of one line saying what to install.
 */
export function findChromium(
  configured: string | undefined,
  search: ChromiumSearch = {
    path: process.env.PATH,
    places: PLACES[process.platform] ?? [],
    playwright: playwrightChromium,
  },
): string {
  if (configured) {
    if (isExecutable(configured)) return configured;
    throw new Error(
      `Chromium not found at CHROMIUM_PATH=${configured}: point it at a Chromium or Chrome executable, or unset it to look in the usual places`,
    );
  }
  const suffix = process.platform === "win32" ? ".exe" : "";
  const onPath = (search.path ?? "")
    .split(path.delimiter)
    .filter(Boolean)
    .flatMap((dir) => COMMANDS.map((command) => path.join(dir, command + suffix)));
  const found = [...onPath, ...search.places].find(isExecutable) ?? search.playwright();
  if (!found) throw new Error(NO_CHROMIUM);
  return found;
}

/** findChromium's answer, or undefined where there is none (a test that skips without a browser). */
export function chromiumIfAny(configured: string | undefined): string | undefined {
  try {
    return findChromium(configured);
  } catch {
    return undefined;
  }
}

/** Names a Chromium or Chrome is started by, as packages put them on PATH. */
const COMMANDS = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"];

/** Where the usual packages install them when they are not on PATH. */
const PLACES: Partial<Record<NodeJS.Platform, string[]>> = {
  linux: [
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
    "/usr/bin/google-chrome-stable",
    "/snap/bin/chromium",
    "/opt/google/chrome/chrome",
  ],
  darwin: [
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  ],
  win32: [
    "C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe",
    "C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe",
  ],
};

/** The Chromium of the installed playwright-core, where `npx playwright install chromium` has put it. */
function playwrightChromium(): string | undefined {
  try {
    // Loaded only when no system browser is found: playwright-core is large.
    const { chromium } = createRequire(import.meta.url)("playwright-core") as { chromium: BrowserType };
    const executable = chromium.executablePath();
    return executable && isExecutable(executable) ? executable : undefined;
  } catch {
    return undefined;
  }
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
