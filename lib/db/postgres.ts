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
  /**
   * A client taken from the pool for `fn`. While it is out, the pool no longer listens for its failure, and
   * pg emits a lost connection (a server restart, a killed backend) on the client itself: unheard, that
   * 'error' event ended the process (seen in CI: PostgreSQL stopped during a usage-meter flush). It is
   * reported here, the query in flight or the next one fails with it, and the client is not given back.
   */
  async function checkedOut<T>(fn: (client: pg.PoolClient, unusable: (err: Error) => void) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    let broken: Error | undefined;
    const onError = (err: Error) => {
      broken ??= err;
      onConnectionError?.(err);
    };
    client.on("error", onError);
    try {
      return await fn(client, (err) => (broken ??= err));
    } finally {
      client.off("error", onError);
      client.release(broken);
    }
  }
  return {
    kind: "postgres",
    prisma,
    withSession: (fn) => checkedOut((client) => fn(sessionOf(client))),
    transaction: (fn) =>
      checkedOut(async (client, unusable) => {
        try {
          await client.query("BEGIN");
          const result = await fn(sessionOf(client));
          await client.query("COMMIT");
          return result;
        } catch (err) {
          // A connection that cannot even roll back is not given back to the pool.
          await client.query("ROLLBACK").catch(unusable);
          throw err;
        }
      }),
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
