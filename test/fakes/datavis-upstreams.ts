import { Hono } from "hono";
import { startFakeServer, type FakeSource } from "./data-sources.ts";

/** The data-sources fakes' server: hits (path and query of every request), setStatus (undefined: answer normally), close. */
export type FakeUpstream = FakeSource;

/** USGS earthquake summary feed (GeoJSON FeatureCollection), past day. */
export function startFakeUsgs(): Promise<FakeUpstream> {
  const app = new Hono();
  app.get("/earthquakes/feed/v1.0/summary/all_day.geojson", (c) =>
    c.json({
      type: "FeatureCollection",
      metadata: {
        generated: 1764072000000,
        url: "https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/all_day.geojson",
        title: "USGS All Earthquakes, Past Day",
        status: 200,
        api: "1.14.1",
        count: 2,
      },
      features: [
        {
          type: "Feature",
          properties: {
            mag: 4.6,
            place: "112 km SSW of Tokyo, Japan",
            time: 1764070000000,
            updated: 1764071000000,
            tz: null,
            url: "https://earthquake.usgs.gov/earthquakes/eventpage/us7000live1",
            felt: 12,
            cdi: 3.1,
            mmi: null,
            alert: null,
            status: "reviewed",
            tsunami: 0,
            sig: 332,
            net: "us",
            code: "7000live1",
            magType: "mb",
            type: "earthquake",
            title: "M 4.6 - 112 km SSW of Tokyo, Japan",
          },
          geometry: { type: "Point", coordinates: [139.2, 34.7, 35.4] },
          id: "us7000live1",
        },
        {
          type: "Feature",
          properties: {
            mag: 1.2,
            place: "8 km NW of The Geysers, CA",
            time: 1764060000000,
            updated: 1764061000000,
            tz: null,
            url: "https://earthquake.usgs.gov/earthquakes/eventpage/nc75live2",
            felt: null,
            cdi: null,
            mmi: null,
            alert: null,
            status: "automatic",
            tsunami: 0,
            sig: 22,
            net: "nc",
            code: "75live2",
            magType: "md",
            type: "earthquake",
            title: "M 1.2 - 8 km NW of The Geysers, CA",
          },
          geometry: { type: "Point", coordinates: [-122.8, 38.8, 2.1] },
          id: "nc75live2",
        },
      ],
      bbox: [-122.8, 34.7, 2.1, 139.2, 38.8, 35.4],
    }),
  );
  return startFakeServer(app);
}

/** CoinGecko /api/v3/coins/markets. */
export function startFakeCoinGecko(): Promise<FakeUpstream> {
  const app = new Hono();
  app.get("/api/v3/coins/markets", (c) => {
    if (c.req.query("vs_currency") !== "usd") return c.json({ error: "invalid vs_currency" }, 400);
    return c.json([
      {
        id: "bitcoin",
        symbol: "btc",
        name: "Bitcoin",
        image: "https://coin-images.coingecko.com/coins/images/1/large/bitcoin.png",
        current_price: 91234.5,
        market_cap: 1820000000000,
        market_cap_rank: 1,
        total_volume: 41000000000,
        price_change_percentage_24h: 1.7,
        last_updated: "2025-11-26T02:00:00.000Z",
      },
      {
        id: "ethereum",
        symbol: "eth",
        name: "Ethereum",
        image: "https://coin-images.coingecko.com/coins/images/279/large/ethereum.png",
        current_price: 3012.25,
        market_cap: 363000000000,
        market_cap_rank: 2,
        total_volume: 19000000000,
        price_change_percentage_24h: -0.4,
        last_updated: "2025-11-26T02:00:00.000Z",
      },
    ]);
  });
  return startFakeServer(app);
}

/** WAQI /map/bounds/: status "error" for a missing or wrong token, as the real service does. */
export function startFakeWaqi(validToken = "test-waqi-token"): Promise<FakeUpstream> {
  const app = new Hono();
  app.get("/map/bounds/", (c) => {
    if (c.req.query("token") !== validToken) return c.json({ status: "error", data: "Invalid key" });
    return c.json({
      status: "ok",
      data: [
        {
          lat: 51.5,
          lon: -0.12,
          uid: 5724,
          aqi: "27",
          station: { name: "London, United Kingdom", time: "2025-11-26T02:00:00+00:00" },
        },
      ],
    });
  });
  return startFakeServer(app);
}
