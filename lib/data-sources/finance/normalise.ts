import { GatewayError } from "../../errors.ts";
import type { SearchRecord } from "../source.ts";
import type { CoinSearch, SimplePrice } from "./client.ts";

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

/** The CoinGecko id a ticker or id means. */
export const coinId = (symbol: string) => COINS[symbol.toLowerCase()] ?? symbol.toLowerCase();

/** Each symbol asked for, upper-cased, with its price and 24 h change (null where CoinGecko has none). */
export const pricesBySymbol = (symbols: string[], ids: string[], body: SimplePrice) =>
  Object.fromEntries(
    symbols.map((s, i) => [
      s.toUpperCase(),
      { price: body[ids[i]!]?.usd ?? null, change_24h: body[ids[i]!]?.usd_24h_change ?? null },
    ]),
  );

/** A coin of a search as a record. */
export const coinRecords = (body: CoinSearch): SearchRecord[] =>
  (body.coins ?? []).map((c) => ({
    id: c.id,
    title: `${c.name} (${c.symbol.toUpperCase()})`,
    url: `https://www.coingecko.com/en/coins/${c.id}`,
    summary: null,
    source: "finance",
    extra: { symbol: c.symbol, market_cap_rank: c.market_cap_rank ?? null },
  }));

/**
 * Alpha Vantage's daily series as rows, newest first as it sends them; without a series its note
 * decides the error: a rate limit is a 503, anything else (an unknown symbol) a 400.
 */
export function dailyView(symbol: string, body: Record<string, unknown>) {
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
