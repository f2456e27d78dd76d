import { Hono } from "hono";
import { startFakeServer, type FakeSource } from "./server.ts";

/** CoinGecko (/api/v3/simple/price, /api/v3/search), Frankfurter (/latest) and Alpha Vantage (/query) on one origin. */
export function fakeFinanceApp(): Hono {
  const app = new Hono();
  app.get("/api/v3/simple/price", (c) => {
    const prices: Record<string, { usd: number; usd_24h_change: number }> = {
      bitcoin: { usd: 97000.5, usd_24h_change: -1.25 },
      ethereum: { usd: 3400.1, usd_24h_change: 2.5 },
    };
    return c.json(
      Object.fromEntries(
        (c.req.query("ids") ?? "")
          .split(",")
          .filter((id) => prices[id])
          .map((id) => [id, prices[id]]),
      ),
    );
  });
  app.get("/api/v3/search", (c) =>
    c.json({ coins: [{ id: "bitcoin", name: "Bitcoin", symbol: "btc", market_cap_rank: 1 }] }),
  );
  app.get("/latest", (c) => {
    const all: Record<string, number> = { EUR: 0.92, GBP: 0.79, JPY: 151.3 };
    const to = c.req.query("to")?.split(",");
    return c.json({
      amount: 1,
      base: c.req.query("from") ?? "EUR",
      date: "2026-11-25",
      rates: to ? Object.fromEntries(to.map((k) => [k, all[k]])) : all,
    });
  });
  app.get("/query", (c) => {
    if (c.req.query("apikey") !== "av-key") return c.json({ "Error Message": "Invalid API call." });
    return c.json({
      "Meta Data": { "2. Symbol": c.req.query("symbol") },
      "Time Series (Daily)": {
        "2026-11-25": {
          "1. open": "230.1",
          "2. high": "233.0",
          "3. low": "229.5",
          "4. close": "232.4",
          "5. volume": "41234567",
        },
      },
    });
  });
  return app;
}

export const startFakeFinance = (): Promise<FakeSource> => startFakeServer(fakeFinanceApp());
