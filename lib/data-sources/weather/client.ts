import type { UpstreamOptions } from "../../upstream/client.ts";
import type { SourceContext } from "../source.ts";

export const upstream: UpstreamOptions = {
  name: "weather",
  origin: "https://api.open-meteo.com",
  cacheTtlMs: 10 * 60_000,
};

const GEOCODING = "https://geocoding-api.open-meteo.com";

/** A place of Open-Meteo's geocoding API. */
export type Place = {
  name: string;
  latitude: number;
  longitude: number;
  country?: string;
  admin1?: string;
  timezone?: string;
  id?: number;
};

/** Forecast API answers, for the variables asked for. */
export type Current = { current?: Record<string, number | string>; current_units?: Record<string, string> };
export type Daily = {
  daily?: {
    time?: string[];
    weather_code?: number[];
    temperature_2m_max?: number[];
    temperature_2m_min?: number[];
    precipitation_sum?: number[];
  };
};

/** Places a name may mean, best match first. */
export const searchPlaces = (ctx: SourceContext, name: string, count: number) =>
  ctx.client.get<{ results?: Place[] }>({
    origin: GEOCODING,
    path: "/v1/search",
    query: { name, count, language: "en", format: "json" },
  });

export const current = (ctx: SourceContext, place: Place) =>
  ctx.client.get<Current>({
    path: "/v1/forecast",
    query: {
      latitude: place.latitude,
      longitude: place.longitude,
      current:
        "temperature_2m,apparent_temperature,relative_humidity_2m,precipitation,weather_code,wind_speed_10m,wind_direction_10m",
      timezone: "auto",
    },
  });

export const daily = (ctx: SourceContext, place: Place, days: number) =>
  ctx.client.get<Daily>({
    path: "/v1/forecast",
    query: {
      latitude: place.latitude,
      longitude: place.longitude,
      daily: "weather_code,temperature_2m_max,temperature_2m_min,precipitation_sum",
      forecast_days: days,
      timezone: "auto",
    },
  });
