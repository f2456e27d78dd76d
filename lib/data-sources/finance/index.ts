import { GatewayError } from "../../errors.ts";
import type { DataSource, SourceContext } from "../source.ts";
import { latestRates, searchCoins, simplePrice, timeSeriesDaily, upstream } from "./client.ts";
import { coinId, coinRecords, dailyView, pricesBySymbol } from "./normalise.ts";

export async function cryptoPrices(
  ctx: SourceContext,
  symbols: string[],
): Promise<Record<string, { price: number | null; change_24h: number | null }>> {
  const wanted = symbols.map((s) => s.trim()).filter(Boolean);
  if (wanted.length === 0) throw new GatewayError(400, "symbol is required, e.g. symbol=BTC,ETH");
  const ids = wanted.map(coinId);
  return pricesBySymbol(wanted, ids, await simplePrice(ctx, ids));
}

/** A three-letter currency code (ISO 4217), either case. */
export const CURRENCY = /^[A-Za-z]{3}$/;

export async function fxRates(ctx: SourceContext, base: string, symbols?: string[]) {
  if (!CURRENCY.test(base)) throw new GatewayError(400, "base must be a three-letter currency code");
  const to = symbols?.length ? symbols.map((s) => s.toUpperCase()).join(",") : undefined;
  const body = await latestRates(ctx, base.toUpperCase(), to);
  return { base: body.base, date: body.date, rates: body.rates };
}

export async function dailyPrices(ctx: SourceContext, symbol: string) {
  return dailyView(symbol, await timeSeriesDaily(ctx, symbol));
}

export const finance: DataSource = {
  name: "finance",
  description: "Crypto prices (CoinGecko), currency rates (Frankfurter, ECB) and daily stock prices (Alpha Vantage)",
  upstream,
  // CoinGecko's search takes no count: its list is cut to the limit.
  search: async (ctx, query, limit) => coinRecords(await searchCoins(ctx, query)).slice(0, limit),
  get: async (ctx, id) => (await cryptoPrices(ctx, [id]))[id.toUpperCase()],
};
