import { GatewayError } from "../../errors.ts";
import type { DataSource, SourceContext } from "../source.ts";
import { current, daily, searchPlaces, upstream, type Place } from "./client.ts";
import { currentView, forecastView, placeRecord } from "./normalise.ts";

/** The place a name means (Open-Meteo geocoding, best match first); 404 when it means nothing. */
export async function geocode(ctx: SourceContext, location: string): Promise<Place> {
  if (!location.trim()) throw new GatewayError(400, "location is required");
  const [place] = (await searchPlaces(ctx, location, 1)).results ?? [];
  if (!place) throw new GatewayError(404, `no place called '${location}'`);
  return place;
}

export async function currentWeather(ctx: SourceContext, location: string) {
  const place = await geocode(ctx, location);
  return currentView(place, await current(ctx, place));
}

export async function weatherForecast(ctx: SourceContext, location: string, days: number) {
  const place = await geocode(ctx, location);
  return forecastView(place, await daily(ctx, place, days));
}

export const weather: DataSource = {
  name: "weather",
  description: "Weather by place name (Open-Meteo): current conditions and daily forecasts",
  upstream,
  search: async (ctx, query, limit) => ((await searchPlaces(ctx, query, limit)).results ?? []).map(placeRecord),
  get: (ctx, id) => currentWeather(ctx, id),
};
