import { Hono } from "hono";
import { startFakeServer, type FakeSource } from "./server.ts";

/** YouTube Data API v3: search, videos.list and channels.list, keyed by `key` (the tests use "yt"). */
export function fakeYoutubeApp(): Hono {
  const app = new Hono();
  app.get("/youtube/v3/search", (c) =>
    c.req.query("key") !== "yt"
      ? c.json({ error: { code: 400, message: "API key not valid." } }, 400)
      : c.json({
          items: [
            {
              id: { kind: "youtube#video", videoId: "dQw4w9WgXcQ" },
              snippet: {
                title: "A talk on gateways",
                description: "Gateways explained",
                channelTitle: "Tech Talks",
                publishedAt: "2026-01-01T00:00:00Z",
              },
            },
          ],
        }),
  );
  // videos.list: a videoListResponse; an unknown id is an empty items list, not a 404.
  app.get("/youtube/v3/videos", (c) =>
    c.req.query("key") !== "yt"
      ? c.json({ error: { code: 400, message: "API key not valid." } }, 400)
      : c.json({
          kind: "youtube#videoListResponse",
          items:
            c.req.query("id") === "dQw4w9WgXcQ"
              ? [
                  {
                    kind: "youtube#video",
                    id: "dQw4w9WgXcQ",
                    snippet: {
                      publishedAt: "2026-01-01T00:00:00Z",
                      channelId: "UC_x5XG1OV2P6uZZ5FSM9Ttw",
                      title: "A talk on gateways",
                      description: "Gateways explained",
                      channelTitle: "Tech Talks",
                    },
                    statistics: { viewCount: "12345", likeCount: "678", favoriteCount: "0", commentCount: "90" },
                  },
                ]
              : [],
          pageInfo: { totalResults: c.req.query("id") === "dQw4w9WgXcQ" ? 1 : 0, resultsPerPage: 1 },
        }),
  );
  app.get("/youtube/v3/channels", (c) =>
    c.req.query("id") === "UC_x5XG1OV2P6uZZ5FSM9Ttw"
      ? c.json({
          items: [
            {
              id: "UC_x5XG1OV2P6uZZ5FSM9Ttw",
              snippet: {
                title: "Google for Developers",
                description: "Dev channel",
                customUrl: "@googledevelopers",
                publishedAt: "2007-08-23T00:34:43Z",
              },
              statistics: { subscriberCount: "2400000", videoCount: "6000", viewCount: "300000000" },
            },
          ],
        })
      : c.json({ items: [] }),
  );
  return app;
}

export const startFakeYoutube = (): Promise<FakeSource> => startFakeServer(fakeYoutubeApp());
