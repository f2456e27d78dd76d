import { describe, expect, it } from "vitest";
import { carriedOver, decide, decideLevels, decideTokens } from "./decision.ts";

const limits = { minute: 5, day: 10, concurrency: 2 };
const noon = Date.UTC(2026, 0, 1, 12, 0, 0);
const none = { minute: 0, previousMinute: 0, day: 0, inUse: 0 };

describe("decide", () => {
  it("admits under every limit and reports the windows with the request counted", () => {
    const d = decide({ minute: 2, previousMinute: 0, day: 4, inUse: 1 }, limits, noon);
    expect(d.refusedBy).toBeNull();
    expect(d.minute).toEqual({ success: true, limit: 5, remaining: 2, reset: noon + 60_000 });
    expect(d.day).toEqual({ success: true, limit: 10, remaining: 5, reset: Date.UTC(2026, 0, 2) });
    expect(d.concurrency).toEqual({ limit: 2, inUse: 2 });
  });

  it("names the first window refusing, minute before day before concurrency", () => {
    expect(decide({ ...none, minute: 5, day: 10, inUse: 2 }, limits, noon).refusedBy).toBe("minute");
    expect(decide({ ...none, day: 10, inUse: 2 }, limits, noon).refusedBy).toBe("day");
    expect(decide({ ...none, inUse: 2 }, limits, noon).refusedBy).toBe("concurrency");
  });

  it("counts a refused request in no window", () => {
    const byDay = decide({ ...none, minute: 1, day: 10 }, limits, noon);
    expect(byDay.minute).toMatchObject({ success: true, remaining: 4 });
    expect(byDay.day).toMatchObject({ success: false, remaining: 0 });
    const bySlots = decide({ ...none, minute: 1, day: 3, inUse: 2 }, limits, noon);
    expect(bySlots.minute.remaining).toBe(4);
    expect(bySlots.day.remaining).toBe(7);
    expect(bySlots.concurrency.inUse).toBe(2);
  });

  it("slides: the previous minute counts for the share of it the window still covers", () => {
    expect(carriedOver(4, noon + 30_000)).toBe(2);
    expect(carriedOver(5, noon + 45_000)).toBe(1);
    expect(carriedOver(5, noon)).toBe(5);
    expect(decide({ ...none, minute: 3, previousMinute: 4 }, limits, noon + 30_000).refusedBy).toBe("minute");
    expect(decide({ ...none, minute: 2, previousMinute: 4 }, limits, noon + 30_000).refusedBy).toBeNull();
  });
});

describe("decideLevels", () => {
  const levels = [
    { id: "team:t", limits: { minute: 3 } },
    { id: "org:o", limits: { day: 4 } },
  ];
  const fresh = { minute: 0, previousMinute: 0, day: 0 };

  it("admits when every level has room, each level's windows counted with the request", () => {
    const d = decideLevels(
      none,
      limits,
      levels,
      [
        { ...fresh, minute: 1 },
        { ...fresh, day: 2 },
      ],
      noon,
    );
    expect(d.refusedBy).toBeNull();
    expect(d.levels).toEqual([
      { minute: { success: true, limit: 3, remaining: 1, reset: noon + 60_000 } },
      { day: { success: true, limit: 4, remaining: 1, reset: Date.UTC(2026, 0, 2) } },
    ]);
    expect(d.minute.remaining).toBe(4);
  });

  it("names the first level refusing, the key before any, and then counts the request nowhere", () => {
    const full = [
      { ...fresh, minute: 3 },
      { ...fresh, day: 4 },
    ];
    const byTeam = decideLevels(none, limits, levels, full, noon);
    expect(byTeam).toMatchObject({
      refusedBy: "minute",
      refusedAt: 0,
      minute: { remaining: 5 },
      day: { remaining: 10 },
    });
    expect(byTeam.levels[1]!.day).toMatchObject({ success: true, remaining: 0 });
    const byOrg = decideLevels(none, limits, levels, [fresh, { ...fresh, day: 4 }], noon);
    expect(byOrg).toMatchObject({ refusedBy: "day", refusedAt: 1 });
    const byKey = decideLevels({ ...none, inUse: 2 }, limits, levels, full, noon);
    expect(byKey).toMatchObject({ refusedBy: "concurrency", refusedAt: -1 });
  });
});

describe("decideTokens", () => {
  it("fits a reservation only if every subject's windows hold it, naming the first that does not", () => {
    const subjects = [{ limits: { day: 1_000 } }, { limits: { minute: 500 } }];
    const counts = [
      { minute: 0, previousMinute: 0, day: 900 },
      { minute: 100, previousMinute: 0, day: 0 },
    ];
    expect(decideTokens(counts, subjects, 100, noon)).toMatchObject({
      refusedBy: null,
      states: [{ day: { remaining: 0 } }, { minute: { remaining: 300 } }],
    });
    expect(decideTokens(counts, subjects, 101, noon)).toMatchObject({ refusedBy: "day", refusedAt: 0 });
    expect(decideTokens([counts[1]!, counts[1]!], [subjects[1]!, subjects[1]!], 401, noon)).toMatchObject({
      refusedBy: "minute",
      refusedAt: 0,
    });
  });
});
