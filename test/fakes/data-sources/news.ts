import { Hono } from "hono";
import { startFakeServer, type FakeSource } from "./server.ts";

/** NewsAPI: /v2/everything (keyed by X-Api-Key, the tests use "na") and /v2/top-headlines. */
export function fakeNewsApp(): Hono {
  const app = new Hono();
  app.get("/v2/everything", (c) =>
    c.req.header("x-api-key") !== "na"
      ? c.json({ status: "error", code: "apiKeyInvalid", message: "Your API key is invalid." }, 401)
      : c.json({
          status: "ok",
          totalResults: 1,
          articles: [
            {
              source: { id: null, name: "Example Times" },
              author: "R. Porter",
              title: "Gateways go mainstream",
              description: "A look at API gateways.",
              url: "https://news.example/gateways",
              urlToImage: null,
              publishedAt: "2026-11-20T08:00:00Z",
            },
          ],
        }),
  );
  app.get("/v2/top-headlines", (c) =>
    c.json({
      status: "ok",
      totalResults: 1,
      articles: [
        {
          source: { name: "Wire" },
          title: `Top ${c.req.query("category") ?? "general"} story in ${c.req.query("country")}`,
          url: "https://news.example/top",
          publishedAt: "2026-11-25T08:00:00Z",
        },
      ],
    }),
  );
  return app;
}

export const startFakeNews = (): Promise<FakeSource> => startFakeServer(fakeNewsApp());
