import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import type { Database } from "./database.ts";
import { PrismaClient } from "./generated/client.ts";

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
