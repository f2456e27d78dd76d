import { Hono } from "hono";
import { startFakeServer, type FakeSource } from "./data-sources/server.ts";

/** Serper's POST /search (Google results as JSON). */
export function startFakeSerper(): Promise<FakeSource> {
  const app = new Hono();
  app.post("/search", async (c) => {
    if (c.req.header("x-api-key") !== "serper") return c.json({ message: "Unauthorized." }, 403);
    const body = await c.req.json();
    return c.json({
      searchParameters: body,
      organic: Array.from({ length: Math.min(body.num ?? 10, 3) }, (_, i) => ({
        title: `Result ${i + 1} for ${body.q}`,
        link: `https://site${i}.example/`,
        snippet: `Snippet ${i + 1}`,
        position: i + 1,
      })),
    });
  });
  return startFakeServer(app);
}
