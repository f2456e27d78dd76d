import fs from "node:fs";
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** The system Chromium, headless, with the flags this closed network needs (DESIGN.md "Known facts"). */
export async function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH))
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: apt-get install -y chromium`);
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}
