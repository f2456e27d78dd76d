import { GatewayError } from "../../errors.ts";
import { requireCredential } from "../../upstream/credentials.ts";
import type { DataSource, SearchRecord, SourceContext } from "../source.ts";

const FRANKFURTER = "https://api.frankfurter.app";
const ALPHAVANTAGE = "https://www.alphavantage.co";

// Common tickers to CoinGecko ids; anything else is taken as an id already.
const COINS: Record<string, string> = {
  btc: "bitcoin",
  eth: "ethereum",
  sol: "solana",
  ada: "cardano",
  xrp: "ripple",
  doge: "dogecoin",
  dot: "polkadot",
  ltc: "litecoin",
  bnb: "binancecoin",
  usdt: "tether",
  usdc: "usd-coin",
  avax: "avalanche-2",
  link: "chainlink",
  matic: "matic-network",
  trx: "tron",
};

export async function cryptoPrices(
  ctx: SourceContext,
  symbols: string[],
): Promise<Record<string, { price: number | null; change_24h: number | null }>> {
  const wanted = symbols.map((s) => s.trim()).filter(Boolean);
  if (wanted.length === 0) throw new GatewayError(400, "symbol is required, e.g. symbol=BTC,ETH");
  const ids = wanted.map((s) => COINS[s.toLowerCase()] ?? s.toLowerCase());
  const body = await ctx.client.get<Record<string, { usd?: number; usd_24h_change?: number }>>({
    path: "/api/v3/simple/price",
    query: { ids: ids.join(","), vs_currencies: "usd", include_24hr_change: "true" },
  });
  return Object.fromEntries(
    wanted.map((s, i) => [
      s.toUpperCase(),
      { price: body[ids[i]!]?.usd ?? null, change_24h: body[ids[i]!]?.usd_24h_change ?? null },
    ]),
  );
}

/** A three-letter currency code (ISO 4217), either case. */
export const CURRENCY = /^[A-Za-z]{3}$/;

export async function fxRates(ctx: SourceContext, base: string, symbols?: string[]) {
  if (!CURRENCY.test(base)) throw new GatewayError(400, "base must be a three-letter currency code");
  const body = await ctx.client.get<{ base: string; date: string; rates: Record<string, number> }>({
    origin: FRANKFURTER,
    path: "/latest",
    query: {
      from: base.toUpperCase(),
      to: symbols?.length ? symbols.map((s) => s.toUpperCase()).join(",") : undefined,
    },
  });
  return { base: body.base, date: body.date, rates: body.rates };
}

export async function dailyPrices(ctx: SourceContext, symbol: string) {
  const key = requireCredential("daily prices", "ALPHAVANTAGE_API_KEY");
  const body = await ctx.client.get<Record<string, unknown>>({
    origin: ALPHAVANTAGE,
    path: "/query",
    query: { function: "TIME_SERIES_DAILY", symbol, apikey: key },
  });
  const series = body["Time Series (Daily)"] as Record<string, Record<string, string>> | undefined;
  if (!series) {
    const note = (body["Error Message"] ?? body.Note ?? body.Information) as string | undefined;
    throw new GatewayError(
      note && /call frequency|rate limit/i.test(note) ? 503 : 400,
      `finance: ${note ?? `no daily prices for '${symbol}'`}`,
    );
  }
  return {
    symbol: symbol.toUpperCase(),
    days: Object.entries(series).map(([date, v]) => ({
      date,
      open: Number(v["1. open"]),
      high: Number(v["2. high"]),
      low: Number(v["3. low"]),
      close: Number(v["4. close"]),
      volume: Number(v["5. volume"]),
    })),
  };
}

export const finance: DataSource = {
  name: "finance",
  description: "Crypto prices (CoinGecko), currency rates (Frankfurter, ECB) and daily stock prices (Alpha Vantage)",
  upstream: { name: "finance", origin: "https://api.coingecko.com", cacheTtlMs: 60_000 },
  async search(ctx, query, limit) {
    const body = await ctx.client.get<{
      coins?: Array<{ id: string; name: string; symbol: string; market_cap_rank?: number }>;
    }>({ path: "/api/v3/search", query: { query } });
    return (body.coins ?? []).slice(0, limit).map((c): SearchRecord => ({
      id: c.id,
      title: `${c.name} (${c.symbol.toUpperCase()})`,
      url: `https://www.coingecko.com/en/coins/${c.id}`,
      summary: null,
      source: "finance",
      extra: { symbol: c.symbol, market_cap_rank: c.market_cap_rank ?? null },
    }));
  },
  get: async (ctx, id) => (await cryptoPrices(ctx, [id]))[id.toUpperCase()],
};
