import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RateLimitError } from "../../../errors.ts";
import { limitBackends } from "../../../../test/support/backends.ts";
import { connectRedis } from "../redis.ts";
import { Limiter } from "./limiter.ts";
import { RedisLimitStore } from "./redis-store.ts";
import { ioredisScripts } from "./script-runners.ts";

/** Two gateway instances' limiters, each with its own Redis connection, on one Redis. */
describe.runIf(limitBackends.includes("redis"))("RedisLimitStore on a real Redis", () => {
  let a: Redis;
  let b: Redis;
  let prefix: string;
  const limiterOn = (client: Redis) => new Limiter(new RedisLimitStore(ioredisScripts(client), prefix));

  beforeAll(() => {
    a = connectRedis(process.env.REDIS_URL!, "limits-test-a");
    b = connectRedis(process.env.REDIS_URL!, "limits-test-b");
  });
  afterEach(async () => {
    const keys = await a.keys(`${prefix}:*`);
    if (keys.length) await a.del(...keys);
  });
  afterAll(async () => {
    await Promise.all([a.quit(), b.quit()]);
  });
  const fresh = () => (prefix = `gw:rl:test-${randomBytes(4).toString("hex")}`);

  async function race(limits: { minute: number; day: number; concurrency: number }, n: number) {
    fresh();
    const limiters = [limiterOn(a), limiterOn(b)];
    const outcomes = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        limiters[i % 2]!.admit("k", limits).then(
          () => "ok",
          (err: unknown) => (err instanceof RateLimitError ? err.window : Promise.reject(err)),
        ),
      ),
    );
    return { outcomes, limiters };
  }

  it("lets exactly the minute limit through when two instances race", async () => {
    const { outcomes, limiters } = await race({ minute: 25, day: 1000, concurrency: 1000 }, 80);
    expect(outcomes.filter((o) => o === "ok")).toHaveLength(25);
    expect(outcomes.filter((o) => o === "minute")).toHaveLength(55);
    // None of the refused requests was counted against the day.
    expect((await limiters[0]!.remaining("k", { minute: 25, day: 1000, concurrency: 1000 })).day.remaining).toBe(975);
  });

  it("lets exactly the day limit through when two instances race, and counts no refused request in the minute", async () => {
    const { outcomes, limiters } = await race({ minute: 1000, day: 7, concurrency: 1000 }, 40);
    expect(outcomes.filter((o) => o === "ok")).toHaveLength(7);
    expect(outcomes.filter((o) => o === "day")).toHaveLength(33);
    expect((await limiters[1]!.remaining("k", { minute: 1000, day: 7, concurrency: 1000 })).minute.remaining).toBe(993);
  });

  it("holds exactly the concurrency limit across two instances", async () => {
    const { outcomes } = await race({ minute: 1000, day: 1000, concurrency: 6 }, 30);
    expect(outcomes.filter((o) => o === "ok")).toHaveLength(6);
    expect(outcomes.filter((o) => o === "concurrency")).toHaveLength(24);
  });

  it("gives every key it writes a TTL", async () => {
    fresh();
    const limiter = limiterOn(a);
    const admission = await limiter.admit("k", { minute: 10, day: 10, concurrency: 10 });
    const keys = await a.keys(`${prefix}:*`);
    expect(keys.map((k) => k.slice(prefix.length + 1).replace(/:\d+$/, ":<bucket>")).sort()).toEqual([
      "concurrency:k",
      "day:k:<bucket>",
      "minute:k:<bucket>",
    ]);
    for (const key of keys) expect(await a.pttl(key)).toBeGreaterThan(0);
    expect(await a.pttl(`${prefix}:day:k:${Math.floor(Date.now() / 86_400_000)}`)).toBeLessThanOrEqual(
      86_400_000 + 60_000,
    );
    admission.release();
    await expect.poll(() => a.exists(`${prefix}:concurrency:k`)).toBe(0);
  });

  it("never takes the slot count below zero, even when a slot's key expired before its release", async () => {
    fresh();
    const store = new RedisLimitStore(ioredisScripts(a), prefix);
    const limits = { minute: 10, day: 10, concurrency: 1 };
    const held = await store.admit("k", limits);
    if (held.refusedBy !== null) throw new Error("expected an admission");
    await a.del(`${prefix}:concurrency:k`);
    await held.release();
    expect(await a.get(`${prefix}:concurrency:k`)).toBeNull();
    expect((await store.admit("k", limits)).refusedBy).toBeNull();
    expect((await store.admit("k", limits)).refusedBy).toBe("concurrency");
  });

  it("sends the script again when Redis has forgotten it (NOSCRIPT)", async () => {
    fresh();
    const limiter = limiterOn(a);
    const limits = { minute: 10, day: 10, concurrency: 10 };
    (await limiter.admit("k", limits)).release();
    await a.script("FLUSH");
    (await limiter.admit("k", limits)).release();
    expect((await limiter.remaining("k", limits)).minute.remaining).toBe(8);
  });
});
