import { describe, expect, it } from "vitest";
import { coinId, coinRecords, dailyView, pricesBySymbol } from "./normalise.ts";

describe("finance", () => {
  it("takes common tickers as CoinGecko ids and anything else as an id already", () => {
    expect(["BTC", "eth", "avax", "monero"].map(coinId)).toEqual(["bitcoin", "ethereum", "avalanche-2", "monero"]);
  });

  it("prices each symbol asked for, null where CoinGecko has no price", () => {
    const body = { bitcoin: { usd: 97000.5, usd_24h_change: -1.25 } };
    expect(pricesBySymbol(["btc", "nope"], ["bitcoin", "nope"], body)).toEqual({
      BTC: { price: 97000.5, change_24h: -1.25 },
      NOPE: { price: null, change_24h: null },
    });
  });

  it("makes a coin search's coins records", () => {
    expect(coinRecords({ coins: [{ id: "bitcoin", name: "Bitcoin", symbol: "btc", market_cap_rank: 1 }] })).toEqual([
      {
        id: "bitcoin",
        title: "Bitcoin (BTC)",
        url: "https://www.coingecko.com/en/coins/bitcoin",
        summary: null,
        source: "finance",
        extra: { symbol: "btc", market_cap_rank: 1 },
      },
    ]);
  });

  it("reads Alpha Vantage's daily series as numbers, and its notes as 503 (rate limit) or 400", () => {
    const body = {
      "Meta Data": { "2. Symbol": "IBM" },
      "Time Series (Daily)": {
        "2026-11-28": {
          "1. open": "220.1",
          "2. high": "222.5",
          "3. low": "219.0",
          "4. close": "221.7",
          "5. volume": "3200000",
        },
      },
    };
    expect(dailyView("ibm", body)).toEqual({
      symbol: "IBM",
      days: [{ date: "2026-11-28", open: 220.1, high: 222.5, low: 219, close: 221.7, volume: 3200000 }],
    });
    const limited = {
      Note: "Thank you for using Alpha Vantage! Our standard API call frequency is 5 calls per minute.",
    };
    expect(() => dailyView("IBM", limited)).toThrow(expect.objectContaining({ status: 503 }));
    expect(() => dailyView("XXXX", { "Error Message": "Invalid API call." })).toThrow(
      expect.objectContaining({ status: 400, message: "finance: Invalid API call." }),
    );
  });
});
