import { Hono } from "hono";
import { startFakeServer, type FakeSource } from "./server.ts";

/** MyAnimeList API v2: anime search, keyed by X-MAL-CLIENT-ID (the tests use "mal"). */
export function fakeMalApp(): Hono {
  const app = new Hono();
  app.get("/v2/anime", (c) =>
    c.req.header("x-mal-client-id") !== "mal"
      ? c.json({ error: "invalid_client" }, 401)
      : c.json({
          data: [
            {
              node: {
                id: 5114,
                title: "Fullmetal Alchemist: Brotherhood",
                synopsis: "Two brothers…",
                mean: 9.1,
                start_date: "2009-04-05",
                media_type: "tv",
                num_episodes: 64,
              },
            },
          ],
        }),
  );
  return app;
}

export const startFakeMal = (): Promise<FakeSource> => startFakeServer(fakeMalApp());
