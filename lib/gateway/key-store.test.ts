import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backendEnv, databaseBackends } from "../../test/support/backends.ts";
import { loadConfig } from "../config.ts";
import { openDatabase, type Database } from "../db/client.ts";
import { applyMigrations } from "../db/migrate.ts";
import { createKey, revokeKey } from "./key-admin.ts";
import { KeyStore } from "./key-store.ts";

describe.each(databaseBackends)("KeyStore on %s", (backend) => {
  let db: Database;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const env = await backendEnv(backend);
    cleanup = env.cleanup;
    db = await openDatabase(loadConfig(env.env));
    await applyMigrations(db);
  });
  afterAll(async () => {
    await db?.close();
    await cleanup?.();
  });

  it("reads a key from the database once and then answers from memory", async () => {
    const { key, id } = await createKey(db, { name: "cached" }, "test");
    const store = new KeyStore(db, { refreshMs: 1000 });
    expect((await store.resolve(key))?.id).toBe(id);
    // Deleting the row shows the second answer came from memory, not the database.
    await db.prisma.apiKey.delete({ where: { id } });
    expect((await store.resolve(key))?.id).toBe(id);
  });

  it("coalesces concurrent lookups of one key into one read", async () => {
    const { key } = await createKey(db, { name: "coalesced" }, "test");
    const store = new KeyStore(db, { refreshMs: 1000 });
    const results = await Promise.all(Array.from({ length: 20 }, () => store.resolve(key)));
    expect(new Set(results.map((r) => r?.id)).size).toBe(1);
  });

  it("answers unknown and malformed keys with null", async () => {
    const store = new KeyStore(db, { refreshMs: 1000 });
    expect(await store.resolve("not-a-key")).toBeNull();
    expect(await store.resolve(`sk_${"Z".repeat(43)}`)).toBeNull();
  });

  it("sees a revocation written by another process within one refresh interval", async () => {
    const { key, id } = await createKey(db, { name: "revoked elsewhere" }, "test");
    const store = new KeyStore(db, { refreshMs: 100 });
    store.start();
    try {
      expect((await store.resolve(key))?.status).toBe("active");
      await revokeKey(db, id, "test");
      await new Promise((r) => setTimeout(r, 400));
      expect((await store.resolve(key))?.status).toBe("revoked");
    } finally {
      await store.stop();
    }
  });

  it("learns of a key created after it was looked up as unknown", async () => {
    const store = new KeyStore(db, { refreshMs: 100 });
    const { generateKey } = await import("./keys.ts");
    const fresh = generateKey();
    expect(await store.resolve(fresh.key)).toBeNull();
    await db.prisma.apiKey.create({ data: { id: "key_late", name: "late", prefix: fresh.prefix, hash: fresh.hash } });
    await store.refresh();
    expect((await store.resolve(fresh.key))?.id).toBe("key_late");
  });
});
