import { describe, expect, it } from "vitest";
import { currentView, describeWeatherCode, forecastView, placeRecord } from "./normalise.ts";

const london = {
  id: 2643743,
  name: "London",
  latitude: 51.50853,
  longitude: -0.12574,
  country: "United Kingdom",
  admin1: "England",
  timezone: "Europe/London",
};

describe("weather", () => {
  it("describes WMO codes as Open-Meteo documents them, and says so for an unknown one", () => {
    expect(describeWeatherCode(3)).toBe("Overcast");
    expect(describeWeatherCode(42)).toBe("Weather code 42");
    expect(describeWeatherCode(undefined)).toBe("Unknown");
  });

  it("names a place by name, region and country", () => {
    expect(placeRecord(london)).toEqual({
      id: "London, England, United Kingdom",
      title: "London, England, United Kingdom",
      url: null,
      summary: "51.50853, -0.12574 (Europe/London)",
      source: "weather",
      extra: { latitude: 51.50853, longitude: -0.12574 },
    });
  });

  it("reads current conditions by our names", () => {
    const body = {
      current_units: { temperature_2m: "°C" },
      current: {
        time: "2026-12-01T12:00",
        temperature_2m: 8.4,
        apparent_temperature: 6.1,
        relative_humidity_2m: 81,
        precipitation: 0.2,
        weather_code: 61,
        wind_speed_10m: 14.3,
        wind_direction_10m: 230,
      },
    };
    expect(currentView(london, body)).toEqual({
      location: "London, England, United Kingdom",
      latitude: 51.50853,
      longitude: -0.12574,
      time: "2026-12-01T12:00",
      temperature: 8.4,
      feels_like: 6.1,
      humidity: 81,
      precipitation: 0.2,
      wind_speed: 14.3,
      wind_direction: 230,
      description: "Slight rain",
      units: { temperature_2m: "°C" },
    });
  });

  it("turns the daily columns into one row per day", () => {
    const body = {
      daily: {
        time: ["2026-12-01", "2026-12-02"],
        weather_code: [0, 95],
        temperature_2m_max: [10, 12],
        temperature_2m_min: [2, 5],
        precipitation_sum: [0, 7.5],
      },
    };
    expect(forecastView(london, body).forecast).toEqual([
      { date: "2026-12-01", description: "Clear sky", high: 10, low: 2, precipitation: 0 },
      { date: "2026-12-02", description: "Thunderstorm", high: 12, low: 5, precipitation: 7.5 },
    ]);
  });
});
