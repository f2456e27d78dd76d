import { describe, expect, it } from "vitest";
import { startFakeFinance, startFakeOpenMeteo } from "./fakes/data-sources.ts";
import { useGateway } from "./support/use-gateway.ts";

describe("/v1/data weather and finance", () => {
  const t = useGateway({
    fakes: () => Promise.all([startFakeOpenMeteo(), startFakeFinance()]),
    env: ([meteo, money]) => ({
      UPSTREAM_WEATHER_URL: meteo.url,
      UPSTREAM_FINANCE_URL: money.url,
      ALPHAVANTAGE_API_KEY: undefined,
    }),
    key: { minute: 1000 },
  });
  const { get } = t;

  it("geocodes a place name and reports current weather with a description", async () => {
    const body = await (await get("/v1/data/weather/current?location=Paris")).json();
    expect(body).toMatchObject({
      location: "Paris, Île-de-France, France",
      temperature: 8.4,
      description: "Overcast",
      humidity: 81,
      units: { temperature_2m: "°C" },
    });
    expect((await get("/v1/data/weather/current?location=Atlantis")).status).toBe(404);
    expect((await get("/v1/data/weather/current")).status).toBe(400);
  });

  it("forecasts N days (default 3) as {location, forecast: [{date, description, high, low}]}", async () => {
    const three = await (await get("/v1/data/weather/forecast?location=Paris")).json();
    expect(three.forecast).toHaveLength(3);
    expect(three.forecast[0]).toEqual({
      date: "2026-11-26",
      description: "Slight rain",
      high: 10,
      low: 3,
      precipitation: 0.4,
    });
    expect((await (await get("/v1/data/weather/forecast?location=Paris&days=7")).json()).forecast).toHaveLength(7);
    expect((await get("/v1/data/weather/forecast?location=Paris&days=40")).status).toBe(400);
    const alias = await (await get("/v1/data/noaa/get/Paris")).json();
    expect(alias).toMatchObject({ source: "weather", result: { description: "Overcast" } });
  });

  it("prices crypto by ticker and reads FX rates", async () => {
    expect(await (await get("/v1/data/finance/crypto?symbol=BTC,eth,NOPE")).json()).toEqual({
      BTC: { price: 97000.5, change_24h: -1.25 },
      ETH: { price: 3400.1, change_24h: 2.5 },
      NOPE: { price: null, change_24h: null },
    });
    expect(await (await get("/v1/data/finance/fx?base=usd&symbols=EUR,GBP")).json()).toEqual({
      base: "USD",
      date: "2026-11-25",
      rates: { EUR: 0.92, GBP: 0.79 },
    });
    expect((await get("/v1/data/finance/fx?base=dollars")).status).toBe(400);
  });

  it("answers daily prices once Alpha Vantage is configured, and 503 naming the variable before", async () => {
    const before = await get("/v1/data/finance/daily?symbol=AAPL");
    expect(before.status).toBe(503);
    expect((await before.json()).error).toMatch(/ALPHAVANTAGE_API_KEY/);
    process.env.ALPHAVANTAGE_API_KEY = "av-key";
    const after = await (await get("/v1/data/finance/daily?symbol=AAPL")).json();
    expect(after).toEqual({
      symbol: "AAPL",
      days: [{ date: "2026-11-25", open: 230.1, high: 233, low: 229.5, close: 232.4, volume: 41234567 }],
    });
  });
});
