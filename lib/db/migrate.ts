import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Database } from "./client.ts";

// Relative to the project root (where every entry point runs), which also keeps Next's file tracing to this folder.
const MIGRATIONS_DIR = path.join(process.cwd(), "prisma", "migrations");
// The same lock id Prisma Migrate takes, so our migrator and `prisma migrate deploy` never run together.
const ADVISORY_LOCK_ID = 72707369;

export type Migration = { name: string; sql: string; checksum: string };

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(/*turbopackIgnore: true*/ dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

/**
 * Applies pending migrations under an advisory lock and records them in `_prisma_migrations`
 * exactly as Prisma Migrate does. Returns the names applied by this call.
 */
export async function applyMigrations(db: Database, migrations = readMigrations()): Promise<string[]> {
  return db.withSession(async (s) => {
    await s.query("SELECT pg_advisory_lock($1)", [ADVISORY_LOCK_ID]);
    try {
      await s.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
        "id" VARCHAR(36) PRIMARY KEY NOT NULL,
        "checksum" VARCHAR(64) NOT NULL,
        "finished_at" TIMESTAMPTZ,
        "migration_name" VARCHAR(255) NOT NULL,
        "logs" TEXT,
        "rolled_back_at" TIMESTAMPTZ,
        "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
        "applied_steps_count" INTEGER NOT NULL DEFAULT 0
      )`);
      const done = await s.query<{ migration_name: string; checksum: string }>(
        `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
      );
      const applied = new Map(done.map((r) => [r.migration_name, r.checksum]));
      const ran: string[] = [];
      for (const m of migrations) {
        const previous = applied.get(m.name);
        if (previous !== undefined) {
          if (previous !== m.checksum) throw new Error(`migration ${m.name} was edited after it was applied`);
          continue;
        }
        const id = randomUUID();
        await s.exec("BEGIN");
        try {
          await s.exec(m.sql);
          await s.query(
            `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, finished_at, applied_steps_count) VALUES ($1, $2, $3, now(), 1)`,
            [id, m.checksum, m.name],
          );
          await s.exec("COMMIT");
        } catch (err) {
          await s.exec("ROLLBACK");
          throw new Error(`migration ${m.name} failed: ${(err as Error).message}`, { cause: err });
        }
        ran.push(m.name);
      }
      return ran;
    } finally {
      await s.query("SELECT pg_advisory_unlock($1)", [ADVISORY_LOCK_ID]);
    }
  });
}
