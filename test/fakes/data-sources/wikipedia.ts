import { Hono } from "hono";
import { startFakeServer, type FakeSource } from "./server.ts";

/** MediaWiki's action API search and the REST page summary. */
export function fakeWikipediaApp(): Hono {
  const app = new Hono();
  app.get("/w/api.php", (c) =>
    c.json({
      batchcomplete: "",
      query: {
        searchinfo: { totalhits: 2 },
        search: [
          {
            ns: 0,
            title: "Ada Lovelace",
            pageid: 974,
            snippet: 'English <span class="searchmatch">mathematician</span> &amp; writer',
            timestamp: "2026-11-01T00:00:00Z",
          },
          {
            ns: 0,
            title: "Analytical Engine",
            pageid: 1271,
            snippet: "A proposed mechanical computer",
            timestamp: "2026-10-01T00:00:00Z",
          },
        ].slice(0, Number(c.req.query("srlimit") ?? 10)),
      },
    }),
  );
  app.get("/api/rest_v1/page/summary/:title", (c) => {
    const title = decodeURIComponent(c.req.param("title")).replace(/_/g, " ");
    if (title !== "Ada Lovelace")
      return c.json({ type: "https://mediawiki.org/wiki/HyperSwitch/errors/not_found", title: "Not found." }, 404);
    return c.json({
      type: "standard",
      title,
      description: "English mathematician (1815–1852)",
      extract: "Augusta Ada King, Countess of Lovelace, was an English mathematician.",
      thumbnail: { source: "https://upload.example/ada.jpg", width: 320, height: 400 },
      content_urls: { desktop: { page: "https://en.wikipedia.org/wiki/Ada_Lovelace" } },
    });
  });
  return app;
}

export const startFakeWikipedia = (): Promise<FakeSource> => startFakeServer(fakeWikipediaApp());
