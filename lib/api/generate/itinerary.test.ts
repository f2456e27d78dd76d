import { describe, expect, it } from "vitest";
import { fixItinerary, itineraryMaxTokens, itineraryRules, type TripAnswer } from "./itinerary.ts";

const day = (n: number, activities = 1) => ({
  day: n,
  theme: "t",
  activities: Array.from({ length: activities }, () => ({
    time: "9",
    activity: "a",
    duration: "1h",
    cost_estimate: "0",
  })),
  meals: { breakfast: "b", lunch: "l", dinner: "d" },
});
const trip = (days: TripAnswer["daily_itinerary"]): TripAnswer => ({
  destination: "Rome",
  overview: "o",
  daily_itinerary: days,
  practical_info: {
    best_time_to_visit: "",
    transportation: "",
    accommodation_areas: [],
    estimated_daily_budget: "",
    essential_apps: [],
    etiquette_tips: [],
  },
  must_try: { foods: [], experiences: [], neighborhoods: [] },
});

describe("itineraryRules", () => {
  it("accepts exactly the days asked, numbered 1..N", () => {
    expect(itineraryRules(trip([day(1), day(2), day(3)]), { days: 3 })).toEqual([]);
  });

  it("names a wrong day count", () => {
    expect(itineraryRules(trip([day(1), day(2)]), { days: 3 })).toEqual([
      "daily_itinerary has 2 days; it must have exactly 3",
    ]);
  });

  it("names days without activities", () => {
    expect(itineraryRules(trip([day(1), day(2, 0)]), { days: 2 })).toEqual(["day 2 has no activities"]);
  });
});

describe("fixItinerary", () => {
  const themes = (plan: TripAnswer) => plan.daily_itinerary.map((d) => [d.day, d.theme]);
  const themed = (n: number) => ({ ...day(n), theme: `was ${n}` });

  it("orders the days by the model's numbers, numbers them 1..N and drops days beyond N", () => {
    const fixed = fixItinerary(trip([themed(3), themed(1), themed(2), themed(9)]), { days: 3, destination: "Rome" });
    expect(themes(fixed)).toEqual([
      [1, "was 1"],
      [2, "was 2"],
      [3, "was 3"],
    ]);
  });

  it("numbers days that all carry the same number in the order written, and copies the destination", () => {
    const same = trip([themed(-9007199254740991), themed(-9007199254740991)]);
    same.destination = "Roma, Italia";
    const fixed = fixItinerary(same, { days: 2, destination: "Rome" });
    expect(themes(fixed)).toEqual([
      [1, "was -9007199254740991"],
      [2, "was -9007199254740991"],
    ]);
    expect(fixed.destination).toBe("Rome");
  });

  it("gives a longer trip more output tokens", () => {
    expect(itineraryMaxTokens(30)).toBeGreaterThan(itineraryMaxTokens(1));
  });
});
