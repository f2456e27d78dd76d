import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { limitBackends } from "../../../../test/support/backends.ts";
import { connectRedis } from "../redis.ts";
import { MemoryLimitStore } from "./memory-store.ts";
import { RedisLimitStore } from "./redis-store.ts";
import { ioredisScripts } from "./script-runners.ts";
import type { LimitStore, Limits, StoreDecision } from "./windows.ts";

const MIN = 60_000;
const noon = Date.UTC(2026, 0, 1, 12, 0, 0);

type Clock = { now: () => number; advance(ms: number): void };
function clock(start: number): Clock {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

const clients: Redis[] = [];
afterAll(async () => {
  for (const client of clients) {
    const keys = await client.keys("gw:rl:test-*");
    if (keys.length) await client.del(...keys);
    await client.quit();
  }
});

/** Each test gets its own store and, on Redis, its own key prefix. */
const stores: Record<string, (c: Clock) => LimitStore> = {
  memory: (c) => new MemoryLimitStore(c.now),
  redis: (c) => {
    const client = connectRedis(process.env.REDIS_URL!, "limits-test");
    clients.push(client);
    return new RedisLimitStore(
      ioredisScripts(client),
      `gw:rl:test-${randomBytes(4).toString("hex")}`,
      undefined,
      c.now,
    );
  },
};

async function held(store: LimitStore, limits: Limits, n: number): Promise<StoreDecision[]> {
  const out: StoreDecision[] = [];
  for (let i = 0; i < n; i++) out.push(await store.admit("k", limits));
  return out;
}

describe.each(limitBackends)("the %s limit store counts a request in all windows or none", (backend) => {
  const make = stores[backend]!;

  it("admits and counts in every window", async () => {
    const c = clock(noon);
    const store = make(c);
    const limits = { minute: 5, day: 10, concurrency: 3 };
    const d = await store.admit("k", limits);
    expect(d.refusedBy).toBeNull();
    expect(d.minute.remaining).toBe(4);
    expect(d.day.remaining).toBe(9);
    expect(d.concurrency.inUse).toBe(1);
    expect((await store.peek("k", "minute", 5)).remaining).toBe(4);
    expect((await store.peek("k", "day", 10)).remaining).toBe(9);
  });

  it("a request refused by the day leaves the minute count and the slots unchanged", async () => {
    const c = clock(noon);
    const store = make(c);
    const limits = { minute: 100, day: 3, concurrency: 100 };
    await held(store, limits, 3);
    c.advance(2 * MIN);
    for (let i = 0; i < 4; i++) {
      const d = await store.admit("k", limits);
      expect(d.refusedBy).toBe("day");
      expect(d.concurrency.inUse).toBe(3);
    }
    expect((await store.peek("k", "minute", 100)).remaining).toBe(100);
    expect((await store.peek("k", "day", 3)).remaining).toBe(0);
  });

  it("a request refused by the minute leaves the day count unchanged", async () => {
    const c = clock(noon);
    const store = make(c);
    const limits = { minute: 2, day: 10, concurrency: 100 };
    await held(store, limits, 2);
    for (let i = 0; i < 5; i++) expect((await store.admit("k", limits)).refusedBy).toBe("minute");
    expect((await store.peek("k", "day", 10)).remaining).toBe(8);
  });

  it("a request refused for concurrency uses nothing of the minute or the day", async () => {
    const c = clock(noon);
    const store = make(c);
    const limits = { minute: 10, day: 10, concurrency: 2 };
    const [first] = await held(store, limits, 2);
    for (let i = 0; i < 3; i++) {
      const d = await store.admit("k", limits);
      expect(d.refusedBy).toBe("concurrency");
      expect(d.minute.remaining).toBe(8);
      expect(d.day.remaining).toBe(8);
    }
    expect((await store.peek("k", "minute", 10)).remaining).toBe(8);
    expect((await store.peek("k", "day", 10)).remaining).toBe(8);
    if (first!.refusedBy !== null) throw new Error("expected an admission");
    await first!.release();
    expect((await store.admit("k", limits)).concurrency.inUse).toBe(2);
  });

  it("a slot given back twice frees one slot, not two", async () => {
    const store = make(clock(noon));
    const limits = { minute: 10, day: 10, concurrency: 2 };
    const [a] = await held(store, limits, 2);
    if (a!.refusedBy !== null) throw new Error("expected an admission");
    await a!.release();
    await a!.release();
    expect((await store.admit("k", limits)).refusedBy).toBeNull();
    expect((await store.admit("k", limits)).refusedBy).toBe("concurrency");
  });

  it("slides the minute and resets the day at midnight UTC", async () => {
    const c = clock(Date.UTC(2026, 0, 1, 23, 59, 0));
    const store = make(c);
    const limits = { minute: 5, day: 6, concurrency: 100 };
    await held(store, limits, 4);
    c.advance(MIN + MIN / 2); // 00:00:30 on a new UTC day: floor(0.5 * 4) = 2 still count this minute.
    const admitted = await held(store, limits, 4);
    expect(admitted.map((d) => d.refusedBy)).toEqual([null, null, null, "minute"]);
    expect((await store.peek("k", "day", 6)).remaining).toBe(3);
  });

  it("reserves tokens in both windows or neither, and settles a reservation with what was used, once", async () => {
    const c = clock(noon);
    const store = make(c);
    const k = [{ id: "k", limits: { minute: 100, day: 200 } }];
    const first = await store.reserveTokens(k, 60);
    expect(first).toMatchObject({ refusedBy: null, states: [{ minute: { remaining: 40 }, day: { remaining: 140 } }] });
    // 60 + 60 is over the minute's 100: refused, and nothing counted in the day either.
    expect((await store.reserveTokens(k, 60)).refusedBy).toBe("minute");
    if (first.refusedBy !== null) throw new Error("expected a reservation");
    await first.settle(25);
    await first.settle(0);
    const second = await store.reserveTokens(k, 60);
    expect(second).toMatchObject({ refusedBy: null, states: [{ minute: { remaining: 15 }, day: { remaining: 115 } }] });
    // Minutes later the day still holds 25 + 60 + 60: one more 60 fits the minute but not the day.
    c.advance(2 * MIN);
    expect((await store.reserveTokens(k, 60)).states[0]!.day?.remaining).toBe(55);
    c.advance(2 * MIN);
    expect((await store.reserveTokens(k, 60)).refusedBy).toBe("day");
  });

  it("limits only the token windows a key has, and never by another key's tokens", async () => {
    const store = make(clock(noon));
    const d = await store.reserveTokens([{ id: "k", limits: { day: 1_000 } }], 900);
    expect(d.refusedBy).toBeNull();
    expect(d.states[0]!.minute).toBeUndefined();
    expect((await store.reserveTokens([{ id: "k", limits: { day: 1_000 } }], 101)).refusedBy).toBe("day");
    expect((await store.reserveTokens([{ id: "other", limits: { day: 1_000 } }], 1_000)).refusedBy).toBeNull();
  });

  it("reserves in every level's token windows or none, names the level that refused, and settles each", async () => {
    const store = make(clock(noon));
    const team = { id: "team:t1", limits: { minute: 1_000 } };
    const a = [{ id: "ka", limits: { day: 10_000 } }, team];
    const b = [{ id: "kb", limits: {} }, team];
    const first = await store.reserveTokens(a, 700);
    expect(first.refusedBy).toBeNull();
    // The team's minute holds 700: another key of the team is refused by the team (index 1), not its own.
    const over = await store.reserveTokens(b, 400);
    expect(over).toMatchObject({ refusedBy: "minute", refusedAt: 1 });
    if (first.refusedBy !== null) throw new Error("expected a reservation");
    await first.settle(100);
    expect(await store.reserveTokens(b, 400)).toMatchObject({
      refusedBy: null,
      states: [{}, { minute: { remaining: 500 } }],
    });
    // The refused reservation counted in no window: key a's day holds its settled 100 only.
    expect((await store.reserveTokens(a, 1)).states[0]!.day?.remaining).toBe(9_899);
  });

  it("counts a request in the levels above the key in the same step, and refuses it there by name", async () => {
    const c = clock(noon);
    const store = make(c);
    const limits = { minute: 100, day: 100, concurrency: 10 };
    const team = { id: "team:t2", limits: { minute: 2, day: 3 } };
    const org = { id: "org:o1", limits: { day: 100 } };
    const a1 = await store.admit("ka", limits, [team, org]);
    expect(a1).toMatchObject({ refusedBy: null, levels: [{ minute: { remaining: 1 }, day: { remaining: 2 } }, {}] });
    await store.admit("kb", limits, [team, org]);
    const third = await store.admit("kc", limits, [team, org]);
    expect(third).toMatchObject({ refusedBy: "minute", refusedAt: 0, minute: { remaining: 100 } });
    // Refused by the team: nothing counted for key c, or in the organisation's day.
    expect((await store.peek("kc", "day", 100)).remaining).toBe(100);
    expect((await store.admit("kd", limits, [org])).levels).toEqual([
      { day: expect.objectContaining({ remaining: 97 }) },
    ]);
    c.advance(2 * MIN);
    await store.admit("ka", limits, [team]);
    expect(await store.admit("ka", limits, [team, org])).toMatchObject({ refusedBy: "day", refusedAt: 0 });
    // A key whose own window refuses is named as the key (-1).
    expect(await store.admit("ke", { ...limits, concurrency: 0 }, [team])).toMatchObject({
      refusedBy: "concurrency",
      refusedAt: -1,
    });
  });

  it("takes a forgiven request back out of every level's minute", async () => {
    const store = make(clock(noon));
    const limits = { minute: 100, day: 100, concurrency: 10 };
    const team = { id: "team:t3", limits: { minute: 1 } };
    const first = await store.admit("ka", limits, [team]);
    if (first.refusedBy !== null) throw new Error("expected admission");
    expect((await store.admit("kb", limits, [team])).refusedBy).toBe("minute");
    await first.forgiveMinute();
    expect((await store.admit("kb", limits, [team])).refusedBy).toBeNull();
  });
});
