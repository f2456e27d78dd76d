import { z, type RouteHandler } from "@hono/zod-openapi";
import type { AreaApp } from "../../../../gateway/http/area.ts";
import type { GatewayEnv } from "../../../../gateway/http/context.ts";
import { gatewayRoute } from "../../../../gateway/http/route.ts";
import { jsonResponse, keyedErrors } from "../../../../gateway/http/schemas.ts";
import { sourceContext, tags, upstreamErrors } from "../../schemas.ts";
import { cryptoPrices, dailyPrices, finance, fxRates } from "./index.ts";

const crypto = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/finance/crypto",
  summary: "Crypto prices in USD with 24 h change",
  tags,
  request: { query: z.object({ symbol: z.string().min(1).max(300) }) },
  responses: {
    200: jsonResponse(
      z.record(z.string(), z.object({ price: z.number().nullable(), change_24h: z.number().nullable() })),
      "Prices by symbol",
    ),
    ...keyedErrors,
    ...upstreamErrors,
  },
});

const handleCrypto: RouteHandler<typeof crypto, GatewayEnv> = async (c) =>
  c.json(await cryptoPrices(sourceContext(c, finance), c.req.valid("query").symbol.split(",")), 200);

const fx = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/finance/fx",
  summary: "Currency exchange rates (ECB reference rates)",
  tags,
  request: { query: z.object({ base: z.string().default("USD"), symbols: z.string().max(300).optional() }) },
  responses: {
    200: jsonResponse(
      z.object({ base: z.string(), date: z.string(), rates: z.record(z.string(), z.number()) }),
      "Rates",
    ),
    ...keyedErrors,
    ...upstreamErrors,
  },
});

const handleFx: RouteHandler<typeof fx, GatewayEnv> = async (c) => {
  const q = c.req.valid("query");
  return c.json(await fxRates(sourceContext(c, finance), q.base, q.symbols?.split(",").filter(Boolean)), 200);
};

const daily = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/finance/daily",
  summary: "Daily OHLCV prices for a stock symbol",
  tags,
  request: { query: z.object({ symbol: z.string().min(1).max(20) }) },
  responses: {
    200: jsonResponse(
      z.object({ symbol: z.string(), days: z.array(z.record(z.string(), z.unknown())) }),
      "Daily prices, newest first",
    ),
    ...keyedErrors,
    ...upstreamErrors,
  },
});

const handleDaily: RouteHandler<typeof daily, GatewayEnv> = async (c) =>
  c.json(await dailyPrices(sourceContext(c, finance), c.req.valid("query").symbol), 200);

export function registerFinanceRoutes(app: AreaApp): void {
  app.openapi(crypto, handleCrypto);
  app.openapi(fx, handleFx);
  app.openapi(daily, handleDaily);
}
