import path from "node:path";
import { makePrivateDir } from "../private-dir.ts";
import type { Database, DatabaseOptions } from "./database.ts";

export type { Database, DatabaseOptions, SqlSession } from "./database.ts";

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
