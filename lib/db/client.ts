import path from "node:path";
import { makePrivateDir } from "../private-dir.ts";
import type { PrismaClient } from "./generated/client.ts";

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

/**
 * Opens PostgreSQL when a URL is given, otherwise the embedded PGlite database in dataDir/pglite. Each
 * backend's modules load only when it is chosen: a server on PostgreSQL never loads PGlite, and back.
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl)
    return (await import("./postgres.ts")).openPostgres(options.databaseUrl, options.onConnectionError);
  makePrivateDir(options.dataDir);
  return (await import("./pglite.ts")).openPglite(path.join(options.dataDir, "pglite"));
}
