import { ensureNextBuild } from "../test/support/next-build.ts";
import { preparePgliteTemplate } from "../test/support/pglite-template.ts";
import { assertChromium } from "./browser.ts";

/**
 * Before any spec starts a server: the system Chromium is there, the portal is built (once, when no build
 * exists), and the migrated PGlite database each server's data directory starts as a copy of is made.
 */
export default function globalSetup(): void {
  assertChromium();
  ensureNextBuild();
  preparePgliteTemplate();
}
