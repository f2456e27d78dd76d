import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { backendEnv, databaseBackends, tempDir } from "../../test/support/backends.ts";
import { loadConfig } from "../config.ts";
import { openDatabase, type Database } from "./client.ts";
import { applyMigrations, readMigrations } from "./migrate.ts";

describe.each(databaseBackends)("applyMigrations on %s", (backend) => {
  const open: Array<{ db: Database; cleanup: () => Promise<void> }> = [];
  afterEach(async () => {
    for (const { db, cleanup } of open.splice(0)) {
      await db.close();
      await cleanup();
    }
  });
  async function fresh() {
    const env = await backendEnv(backend, "memory", { empty: true });
    const db = await openDatabase(loadConfig(env.env));
    open.push({ db, cleanup: env.cleanup });
    return { db, env: env.env };
  }

  it("applies every migration once and records it the way Prisma Migrate does", async () => {
    const { db } = await fresh();
    const names = readMigrations().map((m) => m.name);
    expect(await applyMigrations(db)).toEqual(names);
    expect(await applyMigrations(db)).toEqual([]);
    const rows = await db.withSession((s) =>
      s.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
        `SELECT * FROM "_prisma_migrations"`,
      ),
    );
    expect(rows.map((r) => r.migration_name)).toEqual(names);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.checksum) && r.finished_at)).toBe(true);
    expect(await db.prisma.apiKey.count()).toBe(0);
  });

  it("refuses to run when an applied migration was edited", async () => {
    const { db } = await fresh();
    await applyMigrations(db);
    const edited = readMigrations().map((m, i) => (i === 0 ? { ...m, checksum: "0".repeat(64) } : m));
    await expect(applyMigrations(db, edited)).rejects.toThrow(/edited after it was applied/);
  });

  it("rolls back a failing migration and records nothing for it", async () => {
    const { db } = await fresh();
    await applyMigrations(db);
    const dir = tempDir("migrations");
    fs.mkdirSync(path.join(dir, "9999_broken"));
    fs.writeFileSync(
      path.join(dir, "9999_broken", "migration.sql"),
      `CREATE TABLE half_done (id int); SELECT * FROM no_such_table;`,
    );
    const broken = [...readMigrations(), ...readMigrations(dir)];
    await expect(applyMigrations(db, broken)).rejects.toThrow(/9999_broken failed/);
    const tables = await db.withSession((s) =>
      s.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'half_done'`),
    );
    expect(tables).toHaveLength(0);
  });

  it("moves the runner hosts a rotated key registered to its lineage, keeping the oldest of a URL", async () => {
    const { db } = await fresh();
    const before = readMigrations().filter((m) => m.name < "0011_ollama_hosts_lineage");
    await applyMigrations(db, before);
    // In SQL: the client's create returns every column of today's schema, some not yet made at 0010.
    const key = (id: string, lineageId: string) =>
      db.prisma.$executeRawUnsafe(
        "INSERT INTO api_keys (id, name, prefix, hash, lineage_id) VALUES ($1, $1, $1, $1, $2)",
        id,
        lineageId,
      );
    await key("first", "first");
    await key("second", "first");
    await key("third", "first");
    await key("other", "other");
    const host = (id: string, ownerKeyId: string, url: string, at: number) =>
      db.prisma.ollamaHost.create({ data: { id, ownerKeyId, url, createdAt: new Date(at) } });
    await host("h1", "first", "http://a", 1);
    await host("h2", "second", "http://a", 2);
    await host("h3", "third", "http://b", 3);
    await host("h4", "second", "http://b", 4);
    await host("h5", "third", "http://c", 5);
    await host("h6", "other", "http://a", 6);
    await applyMigrations(db);
    const rows = await db.prisma.ollamaHost.findMany({ orderBy: { id: "asc" } });
    expect(rows.map((r) => [r.id, r.ownerKeyId, r.url])).toEqual([
      ["h1", "first", "http://a"],
      ["h3", "first", "http://b"],
      ["h5", "first", "http://c"],
      ["h6", "other", "http://a"],
    ]);
  });

  it.runIf(backend === "postgres")(
    "lets two processes start at once: the lock makes one apply and the other wait",
    async () => {
      const { db, env } = await fresh();
      const second = await openDatabase(loadConfig(env));
      try {
        const [x, y] = await Promise.all([applyMigrations(db), applyMigrations(second)]);
        expect([...x, ...y]).toEqual(readMigrations().map((m) => m.name));
      } finally {
        await second.close();
      }
    },
  );
});
