import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectRedis } from "../../gateway/runtime/redis.ts";
import { limitBackends } from "../../../test/support/backends.ts";
import { MemoryAnswerStore, RedisAnswerStore, type AnswerStore } from "./store.ts";

/** What both stores promise: entries by scope and key, cleared by scope without touching another's. */
function behavesAsAStore(make: () => AnswerStore) {
  it("keeps an entry under its scope and key only", async () => {
    const store = make();
    const [a, b] = [`a-${randomUUID()}`, `b-${randomUUID()}`];
    await store.set(a, "q1", "answer one", 60_000);
    expect((await store.get(a, "q1"))?.text).toBe("answer one");
    expect(await store.get(b, "q1")).toBeUndefined();
    expect(await store.get(a, "q2")).toBeUndefined();
  });

  it("clears one scope's entries and leaves another's", async () => {
    const store = make();
    // A scope with a glob's characters in it matches only itself.
    const [a, b] = [`a*[${randomUUID()}]`, `a-${randomUUID()}`];
    await store.set(a, "q1", "1", 60_000);
    await store.set(a, "q2", "2", 60_000);
    await store.set(b, "q1", "kept", 60_000);
    expect(await store.clear(a)).toBe(2);
    expect(await store.get(a, "q1")).toBeUndefined();
    expect((await store.get(b, "q1"))?.text).toBe("kept");
  });

  it("lets an entry go when its time is up", async () => {
    const store = make();
    const scope = `t-${randomUUID()}`;
    await store.set(scope, "q", "brief", 1);
    await new Promise((r) => setTimeout(r, 20));
    expect(await store.get(scope, "q")).toBeUndefined();
  });
}

describe("MemoryAnswerStore", () => {
  behavesAsAStore(() => new MemoryAnswerStore(1024 * 1024));

  it("holds no more than its bound in bytes, letting the least recently used go", async () => {
    const store = new MemoryAnswerStore(10_000);
    for (let i = 0; i < 20; i++) await store.set("s", `q${i}`, "x".repeat(1_000), 60_000);
    expect(await store.get("s", "q0")).toBeUndefined();
    expect((await store.get("s", "q19"))?.text).toBe("x".repeat(1_000));
  });
});

describe.runIf(limitBackends.includes("redis"))("RedisAnswerStore on a real Redis", () => {
  let redis: Redis;
  const errors: unknown[] = [];
  beforeAll(() => {
    redis = connectRedis(process.env.REDIS_URL!, "answer-store-test");
  });
  afterAll(async () => void (await redis.quit()));

  behavesAsAStore(() => new RedisAnswerStore(redis, (err) => errors.push(err)));

  it("is shared by two connections, as two instances share it", async () => {
    const other = connectRedis(process.env.REDIS_URL!, "answer-store-test-2");
    try {
      const scope = `shared-${randomUUID()}`;
      await new RedisAnswerStore(redis, () => {}).set(scope, "q", "from one", 60_000);
      expect((await new RedisAnswerStore(other, () => {}).get(scope, "q"))?.text).toBe("from one");
    } finally {
      await other.quit();
    }
    expect(errors).toEqual([]);
  });
});
