import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { seedPglite } from "./pglite-template.ts";

export type DatabaseBackend = "pglite" | "postgres";
export type LimitBackend = "memory" | "redis";

/** The embedded defaults always; PostgreSQL and Redis as well when their URLs are set (CI sets both). */
export const databaseBackends: DatabaseBackend[] = [
  "pglite",
  ...(process.env.DATABASE_URL ? (["postgres"] as const) : []),
];
export const limitBackends: LimitBackend[] = ["memory", ...(process.env.REDIS_URL ? (["redis"] as const) : [])];

export function tempDir(label = "gw"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `${label}-`));
}

/** A fresh, empty PostgreSQL database for one test, dropped by the returned function. */
export async function freshPostgres(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error("DATABASE_URL is not set");
  const name = `gw_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * Environment for a gateway on the given backends, in its own data directory and database. On PGlite the
 * database starts migrated (a copy of the run's template, pglite-template.ts) unless `empty` asks for a
 * directory as a first start finds it, for tests of initdb and the migrations themselves.
 */
export async function backendEnv(db: DatabaseBackend, limits: LimitBackend = "memory", { empty = false } = {}) {
  const dataDir = tempDir();
  if (db === "pglite" && !empty) seedPglite(dataDir);
  const env: Record<string, string> = { DATA_DIR: dataDir, LOG_LEVEL: "silent" };
  let drop = async () => {};
  if (db === "postgres") {
    const fresh = await freshPostgres();
    env.DATABASE_URL = fresh.url;
    drop = fresh.drop;
  }
  if (limits === "redis") {
    env.REDIS_URL = process.env.REDIS_URL!;
    // Tests on Redis check shared counting; on a loaded CI machine a 150 ms answer would count in memory.
    env.LIMIT_REDIS_TIMEOUT_MS = "5000";
  }
  return {
    env,
    dataDir,
    cleanup: async () => {
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
