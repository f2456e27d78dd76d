import { describe, expect, it } from "vitest";
import { DeploymentStats, orderCandidates, type Candidate, type Strategy } from "./balance.ts";

const candidates: Candidate[] = [
  { name: "a", weight: 1 },
  { name: "b", weight: 3 },
  { name: "c", weight: 0 },
];

function setup() {
  const stats = new DeploymentStats(0.5);
  const names = (strategy: Strategy, random?: () => number) =>
    orderCandidates(candidates, strategy, { stats, random }).map((c) => c.name);
  return { stats, names };
}

describe("orderCandidates", () => {
  it("fallback keeps the listed order, and leaves the input alone", () => {
    const { names } = setup();
    expect(names("fallback")).toEqual(["a", "b", "c"]);
    expect(candidates.map((c) => c.name)).toEqual(["a", "b", "c"]);
  });

  it("weighted draws the first by weight, never one weighted 0, the rest as listed", () => {
    const { names } = setup();
    expect(names("weighted", () => 0)).toEqual(["a", "b", "c"]);
    expect(names("weighted", () => 0.24)).toEqual(["a", "b", "c"]);
    expect(names("weighted", () => 0.25)).toEqual(["b", "a", "c"]);
    expect(names("weighted", () => 0.999)).toEqual(["b", "a", "c"]);
    let seed = 1;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const firsts = { a: 0, b: 0, c: 0 } as Record<string, number>;
    for (let i = 0; i < 4000; i++) firsts[names("weighted", random)[0]!]!++;
    expect(firsts.c).toBe(0);
    expect(firsts.b! / firsts.a!).toBeGreaterThan(2.5);
    expect(firsts.b! / firsts.a!).toBeLessThan(3.5);
  });

  it("least-in-flight puts the least busy first, ties as listed", () => {
    const { stats, names } = setup();
    stats.start("a");
    stats.start("a");
    const doneB = stats.start("b");
    expect(names("least-in-flight")).toEqual(["c", "b", "a"]);
    doneB(10, true);
    expect(names("least-in-flight")).toEqual(["b", "c", "a"]);
  });

  it("lowest-latency tries unseen deployments first, then the lowest average", () => {
    const { stats, names } = setup();
    stats.start("a")(100, true);
    stats.start("b")(300, true);
    expect(names("lowest-latency")).toEqual(["c", "a", "b"]);
    stats.start("c")(250, true);
    expect(names("lowest-latency")).toEqual(["a", "c", "b"]);
    // The average moves halfway (alpha 0.5) to each new latency: a at 100 → 400 → 550.
    stats.start("a")(700, true);
    stats.start("a")(700, true);
    expect(stats.latencyMs("a")).toBe(550);
    expect(names("lowest-latency")).toEqual(["c", "b", "a"]);
  });

  it("a failure's latency leaves the average alone, and ending twice counts once", () => {
    const { stats } = setup();
    stats.start("a")(100, true);
    const done = stats.start("a");
    done(5, false);
    done(5, false);
    expect(stats.latencyMs("a")).toBe(100);
    expect(stats.inFlight("a")).toBe(0);
  });
});
