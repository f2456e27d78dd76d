import { describe, expect, it } from "vitest";
import pg from "pg";
import { freshPostgres, tempDir } from "../../test/support/backends.ts";
import { openDatabase } from "./client.ts";

describe.runIf(process.env.DATABASE_URL)("the PostgreSQL pool", () => {
  it("survives its idle connections being killed (a server restart) and reconnects on the next query", async () => {
    const pgDb = await freshPostgres();
    const failures: Error[] = [];
    const db = await openDatabase({
      databaseUrl: pgDb.url,
      dataDir: tempDir(),
      onConnectionError: (e) => failures.push(e),
    });
    try {
      await db.withSession((s) => s.query("SELECT 1"));
      const name = new URL(pgDb.url).pathname.slice(1);
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [name]);
      await admin.end();
      await expect.poll(() => failures.length).toBeGreaterThan(0);
      expect(await db.withSession((s) => s.query<{ one: number }>("SELECT 1 AS one"))).toEqual([{ one: 1 }]);
    } finally {
      await db.close();
      await pgDb.drop();
    }
  });
});
