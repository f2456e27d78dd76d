import { databaseBackends, limitBackends } from "./support/backends.ts";
import { ensureNextBuild } from "./support/next-build.ts";

/**
 * Says which backends this run covers, so a green run on PGlite alone is never mistaken for more,
 * and builds the portal once (before any test file runs) when there is no build yet.
 */
export default function setup(): void {
  console.log(`\nbackends under test: database=${databaseBackends.join("+")} limits=${limitBackends.join("+")}\n`);
  ensureNextBuild();
}
