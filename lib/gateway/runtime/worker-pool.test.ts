import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { JobClock } from "./worker-pool.ts";

describe("JobClock", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("stops a job that has not begun when the wait runs out", () => {
    const clock = new JobClock(1_000, 100);
    vi.advanceTimersByTime(999);
    expect(clock.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(clock.signal.aborted).toBe(true);
    expect(clock.running).toBe(false);
  });

  it("times the job from when it begins, however long it waited (queue, thread start, module import)", () => {
    const clock = new JobClock(60_000, 500);
    vi.advanceTimersByTime(59_999);
    clock.begin();
    vi.advanceTimersByTime(499);
    expect(clock.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(clock.signal.aborted).toBe(true);
    expect(clock.running).toBe(true);
  });

  it("keeps the first begin, ignores one after the wait ran out, and stops nothing once cleared", () => {
    const twice = new JobClock(1_000, 500);
    twice.begin();
    vi.advanceTimersByTime(400);
    twice.begin();
    vi.advanceTimersByTime(100);
    expect(twice.signal.aborted).toBe(true);

    const late = new JobClock(1_000, 500);
    vi.advanceTimersByTime(1_000);
    late.begin();
    expect(late.running).toBe(false);

    const done = new JobClock(1_000, 500);
    done.begin();
    done.clear();
    vi.advanceTimersByTime(10_000);
    expect(done.signal.aborted).toBe(false);
  });
});
