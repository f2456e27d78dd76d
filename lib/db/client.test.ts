import { describe, expect, it } from "vitest";
import pg from "pg";
import { freshPostgres, tempDir } from "../../test/support/backends.ts";
import { openDatabase } from "./client.ts";

describe.runIf(process.env.DATABASE_URL)("the PostgreSQL pool", () => {
  /** A pool on a fresh database, with the connection failures it reports. */
  async function openWatched() {
    const pgDb = await freshPostgres();
    const failures: Error[] = [];
    const db = await openDatabase({
      databaseUrl: pgDb.url,
      dataDir: tempDir(),
      onConnectionError: (e) => failures.push(e),
    });
    return { pgDb, db, failures };
  }

  it("survives its idle connections being killed (a server restart) and reconnects on the next query", async () => {
    const { pgDb, db, failures } = await openWatched();
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

  it("survives a connection killed while a transaction or session holds it (the usage meter's flush)", async () => {
    const { pgDb, db, failures } = await openWatched();
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    // Killed between two statements: pg reports the lost connection on the checked-out client, where
    // the pool no longer listens; unheard, that 'error' event ended the process.
    const killedBetween = (s: Parameters<Parameters<typeof db.transaction>[0]>[0]) =>
      s.query<{ pid: number }>("SELECT pg_backend_pid() AS pid").then(async ([row]) => {
        await admin.query("SELECT pg_terminate_backend($1)", [row!.pid]);
        await new Promise((resolve) => setTimeout(resolve, 200));
        return s.query("SELECT 1");
      });
    try {
      await expect(db.transaction(killedBetween)).rejects.toThrow();
      await expect(db.withSession(killedBetween)).rejects.toThrow();
      expect(failures.length).toBeGreaterThanOrEqual(2);
      expect(await db.transaction((s) => s.query<{ one: number }>("SELECT 1 AS one"))).toEqual([{ one: 1 }]);
    } finally {
      await admin.end();
      await db.close();
      await pgDb.drop();
    }
  });
});
