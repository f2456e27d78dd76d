import { z, type RouteHandler } from "@hono/zod-openapi";
import type { AreaApp } from "../../../../gateway/http/area.ts";
import type { GatewayEnv } from "../../../../gateway/http/context.ts";
import { gatewayRoute } from "../../../../gateway/http/route.ts";
import { jsonResponse, keyedErrors } from "../../../../gateway/http/schemas.ts";
import { sourceContext, tags, upstreamErrors } from "../../schemas.ts";
import { currentWeather, weather, weatherForecast } from "./index.ts";

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

const handleWeatherCurrent: RouteHandler<typeof weatherCurrent, GatewayEnv> = async (c) =>
  c.json(await currentWeather(sourceContext(c, weather), c.req.valid("query").location), 200);

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

const handleWeatherForecast: RouteHandler<typeof weatherForecastRoute, GatewayEnv> = async (c) => {
  const q = c.req.valid("query");
  return c.json(await weatherForecast(sourceContext(c, weather), q.location, q.days), 200);
};

export function registerWeatherRoutes(app: AreaApp): void {
  app.openapi(weatherCurrent, handleWeatherCurrent);
  app.openapi(weatherForecastRoute, handleWeatherForecast);
}
