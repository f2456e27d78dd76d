import { Counter, Registry } from "prom-client";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "../../../../test/support/next-build.ts";
import { connectRedis } from "../redis.ts";
import { FallbackLimitStore, type FallbackReason } from "./fallback-store.ts";
import { Limiter } from "./limiter.ts";
import { MemoryLimitStore } from "./memory-store.ts";
import { RedisLimitStore } from "./redis-store.ts";
import { ioredisScripts } from "./script-runners.ts";
import type { LimitStore, StoreDecision } from "./windows.ts";

const limits = { minute: 100, day: 1000, concurrency: 10 };

/** A shared store that answers, fails or hangs as the test says. */
function scripted() {
  let mode: "answer" | "fail" | "hang" = "answer";
  let pending: Array<(d: StoreDecision) => void> = [];
  const answering = new MemoryLimitStore();
  const store: LimitStore = {
    admit: (keyId, l) =>
      mode === "answer"
        ? answering.admit(keyId, l)
        : mode === "fail"
          ? Promise.reject(new Error("ECONNREFUSED"))
          : new Promise((resolve) => pending.push(resolve)),
    reserveTokens: (subjects, tokens) => answering.reserveTokens(subjects, tokens),
    peek: (keyId, kind, limit) => answering.peek(keyId, kind, limit),
    close: async () => {},
  };
  return {
    store,
    answering,
    set: (m: typeof mode) => void (mode = m),
    /** Lets the hung calls finish, as a Redis that answers late would. */
    finishLate: async () => {
      for (const resolve of pending) resolve(await answering.admit("k", limits));
      pending = [];
    },
  };
}

function fallbackOn(shared: LimitStore, now: () => number) {
  const reasons: FallbackReason[] = [];
  let recovered = 0;
  const local = new MemoryLimitStore();
  const store = new FallbackLimitStore(shared, local, {
    timeoutMs: 20,
    retryMs: 1000,
    onFallback: (reason) => reasons.push(reason),
    onRecover: () => void (recovered += 1),
    now,
  });
  return { store, local, reasons, recovered: () => recovered };
}

describe("FallbackLimitStore", () => {
  it("counts in memory while the shared store errs, skips it for retryMs, then goes back to it", async () => {
    let t = 0;
    const shared = scripted();
    const { store, local, reasons, recovered } = fallbackOn(shared.store, () => t);
    expect((await store.admit("k", limits)).refusedBy).toBeNull();
    shared.set("fail");
    expect((await store.admit("k", limits)).refusedBy).toBeNull();
    expect((await store.admit("k", limits)).refusedBy).toBeNull();
    expect(reasons).toEqual(["error", "unavailable"]);
    expect((await local.peek("k", "minute", 100)).remaining).toBe(98);
    shared.set("answer");
    t = 999;
    await store.admit("k", limits);
    expect(reasons).toHaveLength(3);
    t = 1000;
    await store.admit("k", limits);
    expect(reasons).toHaveLength(3);
    expect(recovered()).toBe(1);
    expect((await shared.answering.peek("k", "minute", 100)).remaining).toBe(98);
  });

  it("answers from memory when the shared store is slow, and gives back a slot it took late", async () => {
    const shared = scripted();
    const { store, reasons } = fallbackOn(shared.store, Date.now);
    shared.set("hang");
    const d = await store.admit("k", limits);
    expect(d.refusedBy).toBeNull();
    expect(reasons).toEqual(["timeout"]);
    await shared.finishLate();
    await new Promise((r) => setImmediate(r));
    const slots = await shared.answering.admit("k", { ...limits, concurrency: 1 });
    expect(slots.refusedBy).toBeNull();
  });

  it("releases a slot on the store that granted it", async () => {
    let t = 0;
    const shared = scripted();
    const { store } = fallbackOn(shared.store, () => t);
    const one = { ...limits, concurrency: 1 };
    const onShared = await store.admit("k", one);
    shared.set("fail");
    const inMemory = await store.admit("k", one);
    expect([onShared.refusedBy, inMemory.refusedBy]).toEqual([null, null]);
    if (inMemory.refusedBy === null) await inMemory.release();
    expect((await store.admit("k", one)).refusedBy).toBeNull();
    t = 2000;
    shared.set("answer");
    expect((await store.admit("k", one)).refusedBy).toBe("concurrency");
  });
});

describe("limits with Redis down", () => {
  const closers: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
  });

  it("answers every request, counting it on this instance, and counts the fallbacks", async () => {
    const client = connectRedis(`redis://127.0.0.1:${await freePort()}`, "limits-down-test");
    client.on("error", () => {});
    closers.push(async () => client.disconnect());
    const registry = new Registry();
    const fallbacks = new Counter({ name: "fallbacks", help: "-", labelNames: ["reason"], registers: [registry] });
    const limiter = new Limiter(
      new FallbackLimitStore(new RedisLimitStore(ioredisScripts(client)), new MemoryLimitStore(), {
        timeoutMs: 150,
        retryMs: 1000,
        onFallback: (reason) => fallbacks.inc({ reason }),
        onRecover: () => {},
      }),
    );
    const started = Date.now();
    const tight = { minute: 3, day: 100, concurrency: 10 };
    const outcomes = [];
    for (let i = 0; i < 5; i++)
      outcomes.push(
        await limiter.admit("k", tight).then(
          () => "ok",
          (e: Error) => e.name,
        ),
      );
    // Still limited (per instance), never failed: the fourth and fifth are over the minute.
    expect(outcomes).toEqual(["ok", "ok", "ok", "RateLimitError", "RateLimitError"]);
    expect(Date.now() - started).toBeLessThan(1000);
    const values = (await fallbacks.get()).values;
    expect(values.reduce((sum, v) => sum + v.value, 0)).toBe(5);
    expect((await limiter.remaining("k", tight)).minute.remaining).toBe(0);
  });
});
