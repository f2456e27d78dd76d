import { requireCredential } from "../../upstream/credentials.ts";
import type { UpstreamOptions } from "../../upstream/client.ts";
import type { SourceContext } from "../source.ts";

/** CoinGecko is the source's own origin; Frankfurter and Alpha Vantage are asked by their origins. */
export const upstream: UpstreamOptions = { name: "finance", origin: "https://api.coingecko.com", cacheTtlMs: 60_000 };

const FRANKFURTER = "https://api.frankfurter.app";
const ALPHAVANTAGE = "https://www.alphavantage.co";

export type SimplePrice = Record<string, { usd?: number; usd_24h_change?: number }>;
export type CoinSearch = { coins?: Array<{ id: string; name: string; symbol: string; market_cap_rank?: number }> };
export type Rates = { base: string; date: string; rates: Record<string, number> };

/** CoinGecko's USD prices and 24 h change for coin ids. */
export const simplePrice = (ctx: SourceContext, ids: string[]) =>
  ctx.client.get<SimplePrice>({
    path: "/api/v3/simple/price",
    query: { ids: ids.join(","), vs_currencies: "usd", include_24hr_change: "true" },
  });

export const searchCoins = (ctx: SourceContext, query: string) =>
  ctx.client.get<CoinSearch>({ path: "/api/v3/search", query: { query } });

/** Frankfurter's latest ECB reference rates from one currency, to some or all others. */
export const latestRates = (ctx: SourceContext, from: string, to?: string) =>
  ctx.client.get<Rates>({ origin: FRANKFURTER, path: "/latest", query: { from, to } });

/** Alpha Vantage's TIME_SERIES_DAILY: the series, or a note saying why there is none. */
export const timeSeriesDaily = (ctx: SourceContext, symbol: string) =>
  ctx.client.get<Record<string, unknown>>({
    origin: ALPHAVANTAGE,
    path: "/query",
    query: { function: "TIME_SERIES_DAILY", symbol, apikey: requireCredential("daily prices", "ALPHAVANTAGE_API_KEY") },
  });
