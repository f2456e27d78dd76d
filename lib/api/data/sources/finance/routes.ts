import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../../../gateway/http/route.ts";
import { jsonResponse, keyedErrors } from "../../../../gateway/http/schemas.ts";
import { route, type Handler, type RouteDef } from "../../../../gateway/pipeline/route.ts";
import { sourceContext, tags } from "../../schemas.ts";
import { upstreamErrors } from "../../../../data-sources/error-responses.ts";
import { cryptoPrices, dailyPrices, finance, fxRates } from "../../../../data-sources/finance/index.ts";

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

const handleCrypto: Handler<typeof crypto> = (c, { query }) =>
  cryptoPrices(sourceContext(c, finance), query.symbol.split(","));

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

const handleFx: Handler<typeof fx> = (c, { query }) =>
  fxRates(sourceContext(c, finance), query.base, query.symbols?.split(",").filter(Boolean));

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

const handleDaily: Handler<typeof daily> = (c, { query }) => dailyPrices(sourceContext(c, finance), query.symbol);

export const financeRoutes: RouteDef[] = [route(crypto, handleCrypto), route(fx, handleFx), route(daily, handleDaily)];
