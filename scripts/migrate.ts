import { loadConfig } from "../lib/config.ts";
import { openDatabase } from "../lib/db/client.ts";
import { applyMigrations } from "../lib/db/migrate.ts";

/**
 * `npm run migrate` (compiled: `node dist/migrate.mjs`): applies pending migrations to the configured
 * database and exits, for a deploy's migration step (deploy/: the compose `migrate` service, the
 * Kubernetes Job) that runs before new web processes start. Every process also migrates when it starts,
 * under the same advisory lock, so this step is where a failing migration stops a rollout once, plainly.
 */
try {
  const db = await openDatabase(loadConfig());
  try {
    const applied = await applyMigrations(db);
    process.stdout.write(`${JSON.stringify({ database: db.kind, applied })}\n`);
  } finally {
    await db.close();
  }
} catch (err) {
  process.stderr.write(`migrate: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
