import type { SearchRecord } from "../source.ts";
import type { Current, Daily, Place } from "./client.ts";

// WMO weather interpretation codes, as Open-Meteo documents them.
const WMO: Record<number, string> = {
  0: "Clear sky",
  1: "Mainly clear",
  2: "Partly cloudy",
  3: "Overcast",
  45: "Fog",
  48: "Depositing rime fog",
  51: "Light drizzle",
  53: "Moderate drizzle",
  55: "Dense drizzle",
  56: "Light freezing drizzle",
  57: "Dense freezing drizzle",
  61: "Slight rain",
  63: "Moderate rain",
  65: "Heavy rain",
  66: "Light freezing rain",
  67: "Heavy freezing rain",
  71: "Slight snow",
  73: "Moderate snow",
  75: "Heavy snow",
  77: "Snow grains",
  80: "Slight rain showers",
  81: "Moderate rain showers",
  82: "Violent rain showers",
  85: "Slight snow showers",
  86: "Heavy snow showers",
  95: "Thunderstorm",
  96: "Thunderstorm with slight hail",
  99: "Thunderstorm with heavy hail",
};
export const describeWeatherCode = (code: number | undefined) =>
  code === undefined ? "Unknown" : (WMO[code] ?? `Weather code ${code}`);

/** A place as people write it: name, region, country. */
export const placeName = (p: Place) => [p.name, p.admin1, p.country].filter(Boolean).join(", ");

/** A place as a search record. */
export const placeRecord = (p: Place): SearchRecord => ({
  id: placeName(p),
  title: placeName(p),
  url: null,
  summary: `${p.latitude}, ${p.longitude}${p.timezone ? ` (${p.timezone})` : ""}`,
  source: "weather",
  extra: { latitude: p.latitude, longitude: p.longitude },
});

/** Conditions now at a place, in our names, the weather code described. */
export function currentView(place: Place, body: Current) {
  const c = body.current ?? {};
  return {
    location: placeName(place),
    latitude: place.latitude,
    longitude: place.longitude,
    time: c.time ?? null,
    temperature: c.temperature_2m ?? null,
    feels_like: c.apparent_temperature ?? null,
    humidity: c.relative_humidity_2m ?? null,
    precipitation: c.precipitation ?? null,
    wind_speed: c.wind_speed_10m ?? null,
    wind_direction: c.wind_direction_10m ?? null,
    description: describeWeatherCode(c.weather_code as number | undefined),
    units: body.current_units ?? {},
  };
}

/** The daily columns as one row per day. */
export function forecastView(place: Place, body: Daily) {
  const d = body.daily ?? {};
  return {
    location: placeName(place),
    forecast: (d.time ?? []).map((date, i) => ({
      date,
      description: describeWeatherCode(d.weather_code?.[i]),
      high: d.temperature_2m_max?.[i] ?? null,
      low: d.temperature_2m_min?.[i] ?? null,
      precipitation: d.precipitation_sum?.[i] ?? null,
    })),
  };
}
