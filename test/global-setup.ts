import { databaseBackends, limitBackends } from "./support/backends.ts";
import { ensureNextBuild } from "./support/next-build.ts";
import { preparePgliteTemplate } from "./support/pglite-template.ts";

/**
 * Says which backends this run covers, so a green run on PGlite alone is never mistaken for more,
 * builds the portal once (before any test file runs) when there is no build yet, and makes the
 * migrated PGlite database each test's data directory starts as a copy of.
 */
export default function setup(): void {
  console.log(`\nbackends under test: database=${databaseBackends.join("+")} limits=${limitBackends.join("+")}\n`);
  ensureNextBuild();
  preparePgliteTemplate();
}
