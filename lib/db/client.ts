import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { makePrivateDir } from "../private-dir.ts";
import { lockDirectory } from "./directory-lock.ts";
import { PrismaClient } from "./generated/client.ts";

export type SqlSession = {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs a script of several statements (no parameters). */
  exec(sql: string): Promise<void>;
};

export type Database = {
  kind: "pglite" | "postgres";
  prisma: PrismaClient;
  /** Runs fn on one connection, so session state such as advisory locks holds throughout. */
  withSession<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

export type DatabaseOptions = {
  databaseUrl?: string;
  dataDir: string;
  /** An idle PostgreSQL connection failed (server restart, failover); the pool replaces it. */
  onConnectionError?: (err: Error) => void;
};

/** Opens PostgreSQL when a URL is given, otherwise the embedded PGlite database in dataDir/pglite. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.onConnectionError);
  makePrivateDir(options.dataDir);
  return openPglite(path.join(options.dataDir, "pglite"));
}

async function openPostgres(url: string, onConnectionError?: (err: Error) => void): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // pg emits an idle client's failure on the pool; unheard, that event would end the process. The pool
  // drops the client and the next query opens a fresh connection, so reporting it is all there is to do.
  pool.on("error", (err) => onConnectionError?.(err));
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    kind: "postgres",
    prisma,
    async withSession(fn) {
      const client = await pool.connect();
      try {
        return await fn({
          query: async (sql, params) => (await client.query(sql, params)).rows,
          exec: async (sql) => void (await client.query(sql)),
        });
      } finally {
        client.release();
      }
    },
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

export const PGLITE_LOCKED_HINT =
  "PGlite admits one process: reach the running gateway instead (`npm run keys` goes through its operator endpoint), " +
  "or stop it first, or give this process another DATA_DIR.";

async function openPglite(dir: string): Promise<Database> {
  makePrivateDir(dir);
  // Two processes on one PGlite directory corrupt it; the second must fail at once, before opening it.
  const lock = lockDirectory(dir, PGLITE_LOCKED_HINT);
  const lite = new PGlite(dir);
  try {
    await lite.waitReady;
  } catch (err) {
    lock.release();
    throw err;
  }
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(lite) });
  const session: SqlSession = {
    query: async <T>(sql: string, params?: unknown[]) => (await lite.query<T>(sql, params)).rows,
    exec: async (sql) => void (await lite.exec(sql)),
  };
  return {
    kind: "pglite",
    prisma,
    // PGlite is one connection, so every call is already the same session.
    withSession: (fn) => fn(session),
    async close() {
      await prisma.$disconnect();
      await lite.close();
      lock.release();
    },
  };
}
