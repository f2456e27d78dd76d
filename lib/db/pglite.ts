import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { makePrivateDir } from "../private-dir.ts";
import type { Database, SqlSession } from "./database.ts";
import { lockDirectory } from "./directory-lock.ts";
import { PrismaClient } from "./generated/client.ts";
import { initialiseInChild, PGLITE_MEMORY_PARAMS } from "./pglite-init.ts";

export const PGLITE_LOCKED_HINT =
  "PGlite admits one process: reach the running gateway instead (`npm run keys` goes through its operator endpoint), " +
  "or stop it first, or give this process another DATA_DIR.";

export async function openPglite(dir: string): Promise<Database> {
  makePrivateDir(dir);
  // Two processes on one PGlite directory corrupt it; the second must fail at once, before opening it.
  const lock = lockDirectory(dir, PGLITE_LOCKED_HINT);
  let lite: PGlite;
  try {
    await initialiseInChild(dir);
    lite = new PGlite(dir, { startParams: [...PGlite.defaultStartParams, ...PGLITE_MEMORY_PARAMS] });
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
    transaction: (fn) =>
      lite.transaction((tx) =>
        fn({
          query: async <T>(sql: string, params?: unknown[]) => (await tx.query<T>(sql, params)).rows,
          exec: async (sql) => void (await tx.exec(sql)),
        }),
      ),
    async close() {
      await prisma.$disconnect();
      await lite.close();
      lock.release();
    },
  };
}
