import { describe, expect, it } from "vitest";
import { itineraryMaxTokens, itineraryRules, type TripAnswer } from "./itinerary.ts";

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

  it("names days out of order or misnumbered, and days without activities", () => {
    expect(itineraryRules(trip([day(2), day(1, 0)]), { days: 2 })).toEqual([
      "daily_itinerary days are numbered 2, 1; number them 1 to 2 in order",
      "day 1 has no activities",
    ]);
  });

  it("gives a longer trip more output tokens", () => {
    expect(itineraryMaxTokens(30)).toBeGreaterThan(itineraryMaxTokens(1));
  });
});
