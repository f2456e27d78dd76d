import { describe, expect, it } from "vitest";
import { expiryFromDay, lastDay, todayUtc } from "./expiry-day.ts";

const NOW = new Date("2026-03-10T15:00:00Z");

describe("expiryFromDay", () => {
  it("makes a key work through its last day, UTC, and stop at the next midnight", () => {
    expect(expiryFromDay("2026-12-31", NOW)).toEqual({ expiresAt: new Date("2027-01-01T00:00:00Z") });
    // Today is allowed: the key works until tonight's midnight UTC.
    expect(expiryFromDay("2026-03-10", NOW)).toEqual({ expiresAt: new Date("2026-03-11T00:00:00Z") });
  });

  it("reads an empty field as no expiry", () => {
    expect(expiryFromDay("", NOW)).toEqual({ expiresAt: undefined });
    expect(expiryFromDay("  ", NOW)).toEqual({ expiresAt: undefined });
  });

  it("refuses days that are past or not days at all", () => {
    expect(expiryFromDay("2026-03-09", NOW)).toEqual({
      error: "the last day cannot be before today (2026-03-10, UTC)",
    });
    for (const day of ["2026-02-30", "2026-13-01", "31/12/2026", "tomorrow", "2026-1-5"])
      expect(expiryFromDay(day, NOW), day).toEqual({ error: "the last day must be a date like 2026-12-31" });
  });
});

describe("lastDay and todayUtc", () => {
  it("turn a stop time back into the day the form was given, in UTC", () => {
    const { expiresAt } = expiryFromDay("2026-12-31", NOW) as { expiresAt: Date };
    expect(lastDay(expiresAt)).toBe("2026-12-31");
    expect(todayUtc(new Date("2026-03-10T23:59:59Z"))).toBe("2026-03-10");
  });
});
