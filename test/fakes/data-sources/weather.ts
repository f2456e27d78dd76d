import { Hono } from "hono";
import { startFakeServer, type FakeSource } from "./server.ts";

/** Open-Meteo's geocoding (/v1/search) and forecast (/v1/forecast) APIs on one origin, as the override sends them. */
export function fakeOpenMeteoApp(): Hono {
  const app = new Hono();
  app.get("/v1/search", (c) => {
    if (c.req.query("name")?.toLowerCase() !== "paris") return c.json({ generationtime_ms: 0.1 });
    return c.json({
      results: [
        {
          id: 2988507,
          name: "Paris",
          latitude: 48.85341,
          longitude: 2.3488,
          country: "France",
          admin1: "Île-de-France",
          timezone: "Europe/Paris",
        },
      ],
    });
  });
  app.get("/v1/forecast", (c) => {
    if (c.req.query("current")) {
      return c.json({
        latitude: 48.86,
        longitude: 2.35,
        current_units: { temperature_2m: "°C", wind_speed_10m: "km/h" },
        current: {
          time: "2026-11-26T10:00",
          interval: 900,
          temperature_2m: 8.4,
          apparent_temperature: 6.1,
          relative_humidity_2m: 81,
          precipitation: 0,
          weather_code: 3,
          wind_speed_10m: 12.5,
          wind_direction_10m: 240,
        },
      });
    }
    const days = Number(c.req.query("forecast_days") ?? 7);
    const dates = Array.from({ length: days }, (_, i) => `2026-11-${String(26 + i).padStart(2, "0")}`);
    return c.json({
      daily_units: { temperature_2m_max: "°C" },
      daily: {
        time: dates,
        weather_code: dates.map((_, i) => [61, 0, 3][i % 3]),
        temperature_2m_max: dates.map((_, i) => 10 + i),
        temperature_2m_min: dates.map((_, i) => 3 + i),
        precipitation_sum: dates.map(() => 0.4),
      },
    });
  });
  return app;
}

export const startFakeOpenMeteo = (): Promise<FakeSource> => startFakeServer(fakeOpenMeteoApp());
