import { describe, expect, it } from "vitest";
import { databaseBackends } from "../../../test/support/backends.ts";
import { useDatabase } from "../../../test/support/use-database.ts";
import { createKey, revokeKey } from "./key-changes.ts";
import { redisKeyEvents } from "./events.ts";
import { toKeyRecord, type KeyRecord } from "./record.ts";
import { KeyStore } from "./store.ts";
import { generateKey } from "./secrets.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(databaseBackends)("KeyStore on %s", (backend) => {
  const t = useDatabase(backend);

  it("reads a key from the database once and then answers from memory", async () => {
    const { key, id } = await createKey(t.db, { name: "cached" }, "test");
    const store = new KeyStore(t.db, { refreshMs: 1000 });
    expect((await store.resolve(key))?.id).toBe(id);
    // Deleting the row shows the second answer came from memory, not the database.
    await t.db.prisma.apiKey.delete({ where: { id } });
    expect((await store.resolve(key))?.id).toBe(id);
  });

  it("coalesces concurrent lookups of one key into one read", async () => {
    const { key } = await createKey(t.db, { name: "coalesced" }, "test");
    const store = new KeyStore(t.db, { refreshMs: 1000 });
    const results = await Promise.all(Array.from({ length: 20 }, () => store.resolve(key)));
    expect(new Set(results.map((r) => r?.id)).size).toBe(1);
  });

  it("answers unknown and malformed keys with null", async () => {
    const store = new KeyStore(t.db, { refreshMs: 1000 });
    expect(await store.resolve("not-a-key")).toBeNull();
    expect(await store.resolve(`sk_${"Z".repeat(43)}`)).toBeNull();
  });

  it("sees a revocation written by another process at a refresh", async () => {
    const { key, id } = await createKey(t.db, { name: "revoked elsewhere" }, "test");
    const store = new KeyStore(t.db, { refreshMs: 100 });
    store.start();
    try {
      expect((await store.resolve(key))?.status).toBe("active");
      await revokeKey(t.db, id, "test");
      // Within a refresh or a few: on a busy machine a refresh's query can take longer than its interval.
      await expect.poll(async () => (await store.resolve(key))?.status, { timeout: 10_000 }).toBe("revoked");
    } finally {
      await store.stop();
    }
  });

  it("answers an unknown key from memory for a short while, so random keys cost no query each", async () => {
    const ttlMs = 2_000;
    const store = new KeyStore(t.db, { refreshMs: 60_000, unknownTtlMs: ttlMs });
    const fresh = generateKey();
    const remembered = performance.now();
    expect(await store.resolve(fresh.key)).toBeNull();
    // The row appears with no notice: only the unknown entry's expiry lets the store see it.
    await t.db.prisma.apiKey.create({
      data: { id: `key_ttl_${Date.now()}`, name: "ttl", prefix: fresh.prefix, hash: fresh.hash },
    });
    const stillUnknown = await store.resolve(fresh.key);
    // Only while the entry lives: on a busy machine the insert alone can outlast a short time to live.
    if (performance.now() - remembered < ttlMs) expect(stillUnknown).toBeNull();
    await sleep(ttlMs + 100);
    expect((await store.resolve(fresh.key))?.name).toBe("ttl");
  });

  it("keeps unknown keys in their own bounded cache, so a flood of random keys cannot evict real ones", async () => {
    const { key, id } = await createKey(t.db, { name: "flooded" }, "test");
    const store = new KeyStore(t.db, { refreshMs: 60_000, unknownMax: 5 });
    expect((await store.resolve(key))?.id).toBe(id);
    for (let i = 0; i < 50; i++) expect(await store.resolve(generateKey().key)).toBeNull();
    await t.db.prisma.apiKey.delete({ where: { id } });
    expect((await store.resolve(key))?.id).toBe(id);
  });

  it("works at once for a key created in this process after it was looked up as unknown", async () => {
    const store = new KeyStore(t.db, { refreshMs: 60_000 });
    const fresh = generateKey();
    expect(await store.resolve(fresh.key)).toBeNull();
    const row = await t.db.prisma.apiKey.create({
      data: { id: `key_here_${Date.now()}`, name: "here", prefix: fresh.prefix, hash: fresh.hash },
    });
    store.remember(toKeyRecord(row));
    expect((await store.resolve(fresh.key))?.name).toBe("here");
  });

  it("lets a key remembered while its lookup was in flight win over that lookup's 'unknown'", async () => {
    const store = new KeyStore(t.db, { refreshMs: 60_000 });
    const fresh = generateKey();
    const lookup = store.resolve(fresh.key);
    const record: KeyRecord = {
      id: "key_race",
      hash: fresh.hash,
      prefix: fresh.prefix,
      name: "race",
      userId: null,
      kind: "client",
      scopes: [],
      overrides: { day: null, minute: null, concurrency: null },
      limitKey: "key_race",
      replaced: false,
      status: "active",
      expiresAt: null,
      createdAt: Date.now(),
    };
    store.remember(record);
    expect((await lookup)?.id).toBe("key_race");
    expect((await store.resolve(fresh.key))?.id).toBe("key_race");
  });

  describe.runIf(process.env.REDIS_URL)("with the Redis key channel", () => {
    it("clears another instance's unknown entry when a key is created, without waiting for its poll", async () => {
      const here = new KeyStore(t.db, { refreshMs: 60_000 });
      const there = new KeyStore(t.db, { refreshMs: 60_000 });
      const url = process.env.REDIS_URL!;
      const events = await Promise.all([redisKeyEvents(url, here, () => {}), redisKeyEvents(url, there, () => {})]);
      try {
        const fresh = generateKey();
        expect(await there.resolve(fresh.key)).toBeNull();
        const row = await t.db.prisma.apiKey.create({
          data: { id: `key_chan_${Date.now()}`, name: "announced", prefix: fresh.prefix, hash: fresh.hash },
        });
        here.remember(toKeyRecord(row));
        await events[0]!.publish(row.hash);
        let seen = null;
        for (let i = 0; i < 20 && !seen; i++)
          seen = await there.resolve(fresh.key).then((r) => r ?? sleep(50).then(() => null));
        expect(seen?.name).toBe("announced");
      } finally {
        await Promise.all(events.map((e) => e.close()));
      }
    });
  });

  it("learns of a key created after it was looked up as unknown", async () => {
    const store = new KeyStore(t.db, { refreshMs: 100 });
    const { generateKey } = await import("./secrets.ts");
    const fresh = generateKey();
    expect(await store.resolve(fresh.key)).toBeNull();
    await t.db.prisma.apiKey.create({ data: { id: "key_late", name: "late", prefix: fresh.prefix, hash: fresh.hash } });
    await store.refresh();
    expect((await store.resolve(fresh.key))?.id).toBe("key_late");
  });
});
