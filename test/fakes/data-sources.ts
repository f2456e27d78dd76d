import { serve, type ServerType } from "@hono/node-server";
import { Hono } from "hono";

export type FakeSource = { url: string; hits: string[]; setDelay(ms: number): void; setStatus(status: number | undefined): void; close(): Promise<void> };

async function start(app: Hono, hits: string[], state: { delay: number; status?: number }): Promise<FakeSource> {
  const outer = new Hono();
  outer.use(async (c, next) => {
    hits.push(`${c.req.path}${new URL(c.req.url).search}`);
    if (state.delay) await new Promise((r) => setTimeout(r, state.delay));
    if (state.status) return c.text("failure requested by test", state.status as 500);
    await next();
  });
  outer.route("/", app);
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: outer.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(s));
  });
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`,
    hits,
    setDelay: (ms) => (state.delay = ms),
    setStatus: (status) => (state.status = status),
    close: () =>
      new Promise((r) => {
        (server as import("node:http").Server).closeAllConnections?.();
        server.close(() => r());
      }),
  };
}

/** MediaWiki's action API search and the REST page summary. */
export function startFakeWikipedia(): Promise<FakeSource> {
  const app = new Hono();
  app.get("/w/api.php", (c) =>
    c.json({
      batchcomplete: "",
      query: {
        searchinfo: { totalhits: 2 },
        search: [
          { ns: 0, title: "Ada Lovelace", pageid: 974, snippet: 'English <span class="searchmatch">mathematician</span> &amp; writer', timestamp: "2026-11-01T00:00:00Z" },
          { ns: 0, title: "Analytical Engine", pageid: 1271, snippet: "A proposed mechanical computer", timestamp: "2026-10-01T00:00:00Z" },
        ].slice(0, Number(c.req.query("srlimit") ?? 10)),
      },
    }),
  );
  app.get("/api/rest_v1/page/summary/:title", (c) => {
    const title = decodeURIComponent(c.req.param("title")).replace(/_/g, " ");
    if (title !== "Ada Lovelace") return c.json({ type: "https://mediawiki.org/wiki/HyperSwitch/errors/not_found", title: "Not found." }, 404);
    return c.json({ type: "standard", title, description: "English mathematician (1815–1852)", extract: "Augusta Ada King, Countess of Lovelace, was an English mathematician.", thumbnail: { source: "https://upload.example/ada.jpg", width: 320, height: 400 }, content_urls: { desktop: { page: "https://en.wikipedia.org/wiki/Ada_Lovelace" } } });
  });
  return start(app, [], { delay: 0 });
}

const atomEntry = (id: string, title: string) => `
  <entry>
    <id>http://arxiv.org/abs/${id}v1</id>
    <updated>2023-01-05T10:00:00Z</updated>
    <published>2023-01-04T18:00:00Z</published>
    <title>${title}
      (extended)</title>
    <summary>  We study attention.
    It works.  </summary>
    <author><name>Ada Lovelace</name></author>
    <author><name>Alan Turing</name></author>
    <link href="http://arxiv.org/abs/${id}v1" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/${id}v1" rel="related" type="application/pdf"/>
    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="cs.LG" scheme="http://arxiv.org/schemas/atom"/>
  </entry>`;

/** arXiv's /api/query, answering Atom 1.0 as its API manual describes. */
export function startFakeArxiv(): Promise<FakeSource> {
  const app = new Hono();
  app.get("/api/query", (c) => {
    const ids = c.req.query("id_list");
    const entries = ids ? (ids === "2301.00001" ? atomEntry("2301.00001", "Attention Again") : "") : [atomEntry("2301.00001", "Attention Again"), atomEntry("2302.00002", "Engines of Thought")].join("");
    return c.body(
      `<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"><title>ArXiv Query</title><opensearch:totalResults>2</opensearch:totalResults>${entries}</feed>`,
      200,
      { "content-type": "application/atom+xml; charset=utf-8" },
    );
  });
  return start(app, [], { delay: 0 });
}

/** Open Library's search.json, /isbn/{isbn}.json (an edition) and /authors/{id}.json. */
export function startFakeOpenLibrary(): Promise<FakeSource> {
  const app = new Hono();
  app.get("/search.json", (c) =>
    c.json({ numFound: 1, docs: [{ key: "/works/OL45883W", title: "The Lord of the Rings", author_name: ["J.R.R. Tolkien"], first_publish_year: 1954, isbn: ["9780261102385"], edition_count: 120, cover_i: 9255566 }] }),
  );
  app.get("/isbn/:file", (c) => {
    if (c.req.param("file") !== "9780261102385.json") return c.json({ error: "notfound", key: "/isbn" }, 404);
    return c.json({ title: "The Lord of the Rings", authors: [{ key: "/authors/OL26320A" }], publish_date: "July 1991", publishers: ["HarperCollins"], number_of_pages: 1137, works: [{ key: "/works/OL45883W" }] });
  });
  app.get("/authors/:file", (c) => c.json({ name: "J.R.R. Tolkien", key: "/authors/OL26320A" }));
  app.get("/works/:file", (c) => c.json({ title: "The Lord of the Rings", key: "/works/OL45883W" }));
  return start(app, [], { delay: 0 });
}
