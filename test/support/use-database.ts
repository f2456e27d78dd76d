import { afterAll, beforeAll } from "vitest";
import { loadConfig } from "../../lib/config.ts";
import { openDatabase, type Database } from "../../lib/db/client.ts";
import { applyMigrations } from "../../lib/db/migrate.ts";
import { backendEnv, type DatabaseBackend } from "./backends.ts";

/**
 * The setup of suites that talk to the database alone: in beforeAll open a migrated database of the
 * suite's own on `backend` (a fresh data directory, and a fresh PostgreSQL database on postgres); in
 * afterAll close it and drop both. `db` is set once beforeAll has run.
 */
export function useDatabase(backend: DatabaseBackend): { db: Database } {
  const t = {} as { db: Database };
  let cleanup: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const env = await backendEnv(backend);
    cleanup = env.cleanup;
    t.db = await openDatabase(loadConfig(env.env));
    await applyMigrations(t.db);
  });
  afterAll(async () => {
    await t.db?.close();
    await cleanup?.();
  });
  return t;
}
