import { GatewayError } from "../../errors.ts";
import type { DataSource, SearchRecord, SourceContext } from "../source.ts";

const GEOCODING = "https://geocoding-api.open-meteo.com";

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

type Place = {
  name: string;
  latitude: number;
  longitude: number;
  country?: string;
  admin1?: string;
  timezone?: string;
  id?: number;
};

async function places(ctx: SourceContext, name: string, count: number): Promise<Place[]> {
  const body = await ctx.client.get<{ results?: Place[] }>({
    origin: GEOCODING,
    path: "/v1/search",
    query: { name, count, language: "en", format: "json" },
  });
  return body.results ?? [];
}

/** The place a name means (Open-Meteo geocoding, best match first); 404 when it means nothing. */
export async function geocode(ctx: SourceContext, location: string): Promise<Place> {
  if (!location.trim()) throw new GatewayError(400, "location is required");
  const [place] = await places(ctx, location, 1);
  if (!place) throw new GatewayError(404, `no place called '${location}'`);
  return place;
}

const placeName = (p: Place) => [p.name, p.admin1, p.country].filter(Boolean).join(", ");

export async function currentWeather(ctx: SourceContext, location: string) {
  const place = await geocode(ctx, location);
  const body = await ctx.client.get<{
    current?: Record<string, number | string>;
    current_units?: Record<string, string>;
  }>({
    path: "/v1/forecast",
    query: {
      latitude: place.latitude,
      longitude: place.longitude,
      current:
        "temperature_2m,apparent_temperature,relative_humidity_2m,precipitation,weather_code,wind_speed_10m,wind_direction_10m",
      timezone: "auto",
    },
  });
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

export async function weatherForecast(ctx: SourceContext, location: string, days: number) {
  const place = await geocode(ctx, location);
  const body = await ctx.client.get<{
    daily?: {
      time?: string[];
      weather_code?: number[];
      temperature_2m_max?: number[];
      temperature_2m_min?: number[];
      precipitation_sum?: number[];
    };
  }>({
    path: "/v1/forecast",
    query: {
      latitude: place.latitude,
      longitude: place.longitude,
      daily: "weather_code,temperature_2m_max,temperature_2m_min,precipitation_sum",
      forecast_days: days,
      timezone: "auto",
    },
  });
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

export const weather: DataSource = {
  name: "weather",
  description: "Weather by place name (Open-Meteo): current conditions and daily forecasts",
  upstream: { name: "weather", origin: "https://api.open-meteo.com", cacheTtlMs: 10 * 60_000 },
  async search(ctx, query, limit) {
    return (await places(ctx, query, limit)).map((p): SearchRecord => ({
      id: placeName(p),
      title: placeName(p),
      url: null,
      summary: `${p.latitude}, ${p.longitude}${p.timezone ? ` (${p.timezone})` : ""}`,
      source: "weather",
      extra: { latitude: p.latitude, longitude: p.longitude },
    }));
  },
  get: (ctx, id) => currentWeather(ctx, id),
};
