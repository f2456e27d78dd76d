import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../../../gateway/http/route.ts";
import { jsonResponse, keyedErrors } from "../../../../gateway/http/schemas.ts";
import { route, type Handler, type RouteDef } from "../../../../gateway/pipeline/route.ts";
import { sourceContext, tags } from "../../schemas.ts";
import { upstreamErrors } from "../../../../data-sources/error-responses.ts";
import { currentWeather, weather, weatherForecast } from "../../../../data-sources/weather/index.ts";

const Location = z.object({ location: z.string().min(1).max(200) });
const weatherCurrent = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/weather/current",
  summary: "Current weather for a place name",
  tags,
  request: { query: Location },
  responses: {
    200: jsonResponse(z.record(z.string(), z.unknown()), "Conditions now"),
    ...keyedErrors,
    ...upstreamErrors,
  },
});

const handleWeatherCurrent: Handler<typeof weatherCurrent> = (c, { query }) =>
  currentWeather(sourceContext(c, weather), query.location);

const weatherForecastRoute = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/weather/forecast",
  summary: "Daily forecast for a place name",
  tags,
  request: { query: Location.extend({ days: z.coerce.number().int().min(1).max(16).default(3) }) },
  responses: {
    200: jsonResponse(
      z.object({
        location: z.string(),
        forecast: z.array(
          z.object({
            date: z.string(),
            description: z.string(),
            high: z.number().nullable(),
            low: z.number().nullable(),
            precipitation: z.number().nullable(),
          }),
        ),
      }),
      "Forecast",
    ),
    ...keyedErrors,
    ...upstreamErrors,
  },
});

const handleWeatherForecast: Handler<typeof weatherForecastRoute> = (c, { query }) =>
  weatherForecast(sourceContext(c, weather), query.location, query.days);

export const weatherRoutes: RouteDef[] = [
  route(weatherCurrent, handleWeatherCurrent),
  route(weatherForecastRoute, handleWeatherForecast),
];
