import { Hono } from "hono";
import { startFakeServer, type FakeSource } from "./server.ts";

/** archive.org's /wayback/available and web.archive.org's /web/{ts}id_/{url} and /cdx/search/cdx on one origin. */
export function fakeArchiveApp(): Hono {
  const app = new Hono();
  app.get("/wayback/available", (c) => {
    const url = c.req.query("url") ?? "";
    if (!url.includes("example.com")) return c.json({ url, archived_snapshots: {} });
    return c.json({
      url,
      archived_snapshots: {
        closest: {
          status: "200",
          available: true,
          url: `http://web.archive.org/web/20200101000000/${url}`,
          timestamp: c.req.query("timestamp")?.startsWith("2015") ? "20150315120000" : "20200101000000",
        },
      },
    });
  });
  app.get("/web/*", (c) => c.html("<html><body><h1>Example Domain</h1></body></html>"));
  // GET /save/{url}: answers once the capture exists, naming it in Content-Location.
  app.get("/save/*", (c) => {
    const target = c.req.path.slice("/save/".length);
    if (target.includes("refuse")) return c.text("Sorry, this URL cannot be archived.", 403);
    return c.html("<html>saved</html>", 200, { "content-location": `/web/20261126000000/${target}` });
  });
  app.get("/cdx/search/cdx", (c) =>
    c.json([
      ["timestamp", "original", "mimetype", "statuscode", "length"],
      ["19981201000000", "http://example.com/", "text/html", "200", "1000"],
      ["20200101000000", "https://example.com/", "text/html", "200", "1256"],
    ]),
  );
  return app;
}

export const startFakeArchive = (): Promise<FakeSource> => startFakeServer(fakeArchiveApp());
