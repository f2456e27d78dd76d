import { describe, expect, it } from "vitest";
import { MemoryBreakerBoard } from "./breaker.ts";

function board() {
  const clock = { now: 1_000_000 };
  const breakers = new MemoryBreakerBoard({
    threshold: 3,
    windowMs: 10_000,
    cooldownMs: 5_000,
    probeTimeoutMs: 20_000,
    now: () => clock.now,
  });
  return { clock, breakers };
}

const fail = (breakers: MemoryBreakerBoard, name: string, times: number) => {
  for (let i = 0; i < times; i++) breakers.record(name, "failure");
};

describe("MemoryBreakerBoard", () => {
  it("opens after the threshold of failures within the window, for that deployment alone", () => {
    const { breakers } = board();
    fail(breakers, "a", 2);
    expect(breakers.allows("a")).toBe(true);
    fail(breakers, "a", 1);
    expect(breakers.state("a")).toBe("open");
    expect(breakers.allows("a")).toBe(false);
    expect(breakers.allows("b")).toBe(true);
  });

  it("forgets failures older than the window", () => {
    const { clock, breakers } = board();
    fail(breakers, "a", 2);
    clock.now += 10_001;
    fail(breakers, "a", 2);
    expect(breakers.state("a")).toBe("closed");
    fail(breakers, "a", 1);
    expect(breakers.state("a")).toBe("open");
  });

  it("never opens on our own excess or on successes", () => {
    const { breakers } = board();
    for (let i = 0; i < 10; i++) breakers.record("a", "not-counted");
    for (let i = 0; i < 10; i++) breakers.record("a", "success");
    expect(breakers.allows("a")).toBe(true);
  });

  it("after the cooldown lets one probe through, and closes when it succeeds", () => {
    const { clock, breakers } = board();
    fail(breakers, "a", 3);
    clock.now += 4_999;
    expect(breakers.allows("a")).toBe(false);
    clock.now += 1;
    expect(breakers.state("a")).toBe("half-open");
    expect(breakers.allows("a")).toBe(true);
    expect(breakers.allows("a")).toBe(false);
    breakers.record("a", "success");
    expect(breakers.state("a")).toBe("closed");
    expect(breakers.allows("a")).toBe(true);
    // Closed again from scratch: it takes the whole threshold to open it.
    fail(breakers, "a", 2);
    expect(breakers.allows("a")).toBe(true);
  });

  it("opens again for another cooldown when the probe fails", () => {
    const { clock, breakers } = board();
    fail(breakers, "a", 3);
    clock.now += 5_000;
    expect(breakers.allows("a")).toBe(true);
    breakers.record("a", "failure");
    expect(breakers.state("a")).toBe("open");
    clock.now += 4_999;
    expect(breakers.allows("a")).toBe(false);
    clock.now += 1;
    expect(breakers.allows("a")).toBe(true);
  });

  it("ignores answers of requests sent before it opened, while it cools down", () => {
    const { breakers } = board();
    fail(breakers, "a", 3);
    breakers.record("a", "success");
    expect(breakers.state("a")).toBe("open");
  });

  it("gives the probe's turn to another request when the probe was not counted, or never reported", () => {
    const { clock, breakers } = board();
    fail(breakers, "a", 3);
    clock.now += 5_000;
    expect(breakers.allows("a")).toBe(true);
    breakers.record("a", "not-counted");
    expect(breakers.allows("a")).toBe(true);
    expect(breakers.allows("a")).toBe(false);
    clock.now += 20_000;
    expect(breakers.allows("a")).toBe(true);
  });
});
