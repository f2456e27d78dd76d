import { ensureNextBuild } from "../test/support/next-build.ts";
import { assertChromium } from "./browser.ts";

/** Before any spec starts a server: the system Chromium is there, and the portal is built (once, when no build exists). */
export default function globalSetup(): void {
  assertChromium();
  ensureNextBuild();
}
