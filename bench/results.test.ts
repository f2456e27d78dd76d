import { describe, expect, it } from "vitest";
import { median, meets } from "./results.ts";

describe("benchmark targets", () => {
  it("reads <= and >= targets", () => {
    expect(meets(10, "<= 10")).toBe(true);
    expect(meets(10.01, "<= 10")).toBe(false);
    expect(meets(0.5, ">= 0.5")).toBe(true);
    expect(meets(0.49, ">=0.5")).toBe(false);
    expect(() => meets(1, "about 1")).toThrow(/unreadable target/);
  });

  it("takes the median of rounds", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
  });
});
