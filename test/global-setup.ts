import { databaseBackends, limitBackends } from "./support/backends.ts";

/** Says which backends this run covers, so a green run on PGlite alone is never mistaken for more. */
export default function setup(): void {
  console.log(`\nbackends under test: database=${databaseBackends.join("+")} limits=${limitBackends.join("+")}\n`);
}
