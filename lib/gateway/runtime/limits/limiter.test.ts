import { describe, expect, it } from "vitest";
import { RateLimitError } from "../../../errors.ts";
import { Limiter } from "./limiter.ts";
import { MemoryLimitStore } from "./memory-store.ts";
import { nearestExhaustion } from "./windows.ts";

const limits = { day: 1000, minute: 5, concurrency: 2 };
const MIN = 60_000;

function clock(start: number) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

async function admitted(limiter: Limiter, l = limits) {
  try {
    const a = await limiter.admit("k", l);
    a.release();
    return true;
  } catch (err) {
    if (err instanceof RateLimitError) return false;
    throw err;
  }
}

describe("Limiter on the memory store", () => {
  it("allows the per-minute limit and refuses the next with a Form B error and Retry-After", async () => {
    const c = clock(Date.UTC(2026, 0, 1, 12, 0, 0));
    const limiter = new Limiter(new MemoryLimitStore(c.now));
    for (let i = 0; i < 5; i++) expect(await admitted(limiter)).toBe(true);
    const err = await limiter.admit("k", limits, undefined, c.now()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    const e = err as RateLimitError;
    expect(e.status).toBe(429);
    expect(e.message).toMatch(/per minute/);
    expect(e.retryAfter).toBeGreaterThanOrEqual(1);
    expect(e.headers["Retry-After"]).toBe(String(e.retryAfter));
    expect(e.headers["X-RateLimit-Remaining"]).toBe("0");
  });

  it("slides: half of the previous minute still counts halfway through the next", async () => {
    const c = clock(Date.UTC(2026, 0, 1, 12, 0, 0));
    const limiter = new Limiter(new MemoryLimitStore(c.now));
    for (let i = 0; i < 4; i++) expect(await admitted(limiter)).toBe(true);
    c.advance(MIN + MIN / 2);
    // floor(0.5 * 4) = 2 carried over, so 3 more fit under 5.
    expect(await admitted(limiter)).toBe(true);
    expect(await admitted(limiter)).toBe(true);
    expect(await admitted(limiter)).toBe(true);
    expect(await admitted(limiter)).toBe(false);
    c.advance(MIN * 2);
    expect(await admitted(limiter)).toBe(true);
  });

  it("refuses past the daily limit until midnight UTC and says so", async () => {
    const c = clock(Date.UTC(2026, 0, 1, 23, 50, 0));
    const limiter = new Limiter(new MemoryLimitStore(c.now));
    const daily = { day: 3, minute: 100, concurrency: 5 };
    for (let i = 0; i < 3; i++) expect(await admitted(limiter, daily)).toBe(true);
    const err = (await limiter.admit("k", daily, undefined, c.now()).catch((e: unknown) => e)) as RateLimitError;
    expect(err.message).toMatch(/resets at midnight UTC/);
    expect(err.retryAfter).toBe(600);
    expect(err.headers["X-RateLimit-Reset"]).toBe(String(Date.UTC(2026, 0, 2) / 1000));
    c.advance(10 * MIN);
    expect(await admitted(limiter, daily)).toBe(true);
  });

  it("holds at most the concurrency limit in flight and frees slots on release", async () => {
    const limiter = new Limiter(new MemoryLimitStore());
    const a = await limiter.admit("k", limits);
    const b = await limiter.admit("k", limits);
    await expect(limiter.admit("k", limits)).rejects.toThrow(/concurrent requests/);
    a.release();
    a.release();
    await new Promise((r) => setImmediate(r));
    const c = await limiter.admit("k", limits);
    expect(c.concurrency.inUse).toBe(2);
    b.release();
    c.release();
  });

  it("keeps keys apart", async () => {
    const limiter = new Limiter(new MemoryLimitStore());
    const tight = { day: 10, minute: 1, concurrency: 1 };
    (await limiter.admit("a", tight)).release();
    (await limiter.admit("b", tight)).release();
    await expect(limiter.admit("a", tight)).rejects.toThrow(RateLimitError);
  });
});

describe("nearestExhaustion", () => {
  it("reports the window with fewer requests left", () => {
    const minute = { success: true, limit: 100, remaining: 99, reset: 60_000 };
    const day = { success: true, limit: 10_000, remaining: 50, reset: 86_400_000 };
    expect(nearestExhaustion(minute, day)).toBe(day);
    expect(nearestExhaustion(minute, { ...day, remaining: 9_999 })).toBe(minute);
  });
});

describe("Limiter.remaining", () => {
  it("reports what is left in each window without using any of it", async () => {
    const c = clock(Date.UTC(2026, 0, 1, 12, 0, 0));
    const limiter = new Limiter(new MemoryLimitStore(c.now));
    expect((await limiter.remaining("k", limits)).day).toMatchObject({ limit: 1000, remaining: 1000 });
    for (let i = 0; i < 3; i++) expect(await admitted(limiter)).toBe(true);
    const first = await limiter.remaining("k", limits);
    const second = await limiter.remaining("k", limits);
    expect(second).toEqual(first);
    expect(first.minute).toMatchObject({ limit: 5, remaining: 2 });
    expect(first.day).toMatchObject({ limit: 1000, remaining: 997, reset: Date.UTC(2026, 0, 2) });
    c.advance(MIN + MIN / 2);
    // Half of the previous minute's 3 still counts (floor 1.5 = 1), as when admitting.
    expect((await limiter.remaining("k", limits)).minute.remaining).toBe(4);
  });
});
