import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import type { Database, SqlSession } from "./database.ts";
import { PrismaClient } from "./generated/client.ts";

function sessionOf(client: pg.PoolClient): SqlSession {
  return {
    query: async (sql, params) => (await client.query(sql, params)).rows,
    exec: async (sql) => void (await client.query(sql)),
  };
}

export async function openPostgres(url: string, onConnectionError?: (err: Error) => void): Promise<Database> {
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
        return await fn(sessionOf(client));
      } finally {
        client.release();
      }
    },
    async transaction(fn) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query("BEGIN");
        const result = await fn(sessionOf(client));
        await client.query("COMMIT");
        return result;
      } catch (err) {
        // A connection that cannot even roll back is not given back to the pool.
        await client.query("ROLLBACK").catch((e: Error) => (broken = e));
        throw err;
      } finally {
        client.release(broken);
      }
    },
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
