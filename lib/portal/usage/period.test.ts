import { describe, expect, it } from "vitest";
import { daysOf, periodDays, periodOf, periodQuery, presetPeriod } from "./period.ts";

const now = new Date("2026-03-05T18:30:00Z");
const ask = (query: Record<string, string>) => periodOf(periodQuery.parse(query), now);

describe("usage periods", () => {
  it("reads each preset as whole UTC days ending today, but last month", () => {
    expect(presetPeriod("7d", now)).toMatchObject({ from: "2026-02-27", to: "2026-03-05", label: "Last 7 days" });
    expect(presetPeriod("30d", now)).toMatchObject({ from: "2026-02-04", to: "2026-03-05" });
    expect(periodDays(presetPeriod("90d", now))).toBe(90);
    expect(presetPeriod("month", now)).toMatchObject({ from: "2026-03-01", to: "2026-03-05" });
    expect(presetPeriod("last-month", now)).toMatchObject({ from: "2026-02-01", to: "2026-02-28" });
    expect(presetPeriod("last-month", new Date("2026-01-10T00:00:00Z"))).toMatchObject({
      from: "2025-12-01",
      to: "2025-12-31",
    });
  });

  it("defaults to the last 30 days, blank fields included, as the form sends them", () => {
    expect(ask({})).toEqual({ period: presetPeriod("30d", now) });
    expect(ask({ range: "", from: " ", to: "" })).toEqual({ period: presetPeriod("30d", now) });
  });

  it("takes a custom period from two days, or from one day to today", () => {
    expect(ask({ range: "custom", from: "2026-01-01", to: "2026-01-31" })).toEqual({
      period: { range: "custom", from: "2026-01-01", to: "2026-01-31", label: "2026-01-01 to 2026-01-31" },
    });
    expect(ask({ from: "2026-03-01" })).toMatchObject({ period: { from: "2026-03-01", to: "2026-03-05" } });
  });

  it("says in words what is wrong with a custom period", () => {
    expect(ask({ range: "custom" })).toEqual({ problem: "a custom period needs its first day (from)" });
    expect(ask({ from: "2026-03-04", to: "2026-03-06" })).toEqual({
      problem: "the period cannot end after today (2026-03-05, UTC)",
    });
    expect(ask({ from: "2026-03-06" })).toEqual({ problem: "the period cannot start after today (2026-03-05, UTC)" });
    expect(ask({ from: "2026-03-04", to: "2026-03-01" })).toEqual({
      problem: "the period's first day (from) must not be after its last (to)",
    });
    expect(ask({ from: "2024-03-04", to: "2026-03-01" })).toEqual({ problem: "a period can span at most 366 days" });
    expect(periodQuery.safeParse({ from: "2026-02-30" }).error?.issues[0]?.message).toBe(
      "from must be a day, YYYY-MM-DD (UTC)",
    );
    expect(periodQuery.safeParse({ range: "forever" }).success).toBe(false);
  });

  it("lists every day of a period in order, across a month's end", () => {
    expect(daysOf({ from: "2026-02-27", to: "2026-03-02" })).toEqual([
      "2026-02-27",
      "2026-02-28",
      "2026-03-01",
      "2026-03-02",
    ]);
  });
});
