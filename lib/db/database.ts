import type { PrismaClient } from "./generated/client.ts";

/** What every backend gives the rest of the gateway (lib/db/postgres.ts, lib/db/pglite.ts). */
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
