import { Hono } from "hono";
import { startFakeServer, type FakeSource } from "./server.ts";

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

/** A search's entries: two known papers, then numbered ones, `max_results` in all (arXiv's default 10) as the real API sends. */
const atomSearchEntries = (maxResults: number) =>
  [atomEntry("2301.00001", "Attention Again"), atomEntry("2302.00002", "Engines of Thought")]
    .concat(Array.from({ length: 28 }, (_, i) => atomEntry(`2303.${String(i + 1).padStart(5, "0")}`, `Paper ${i + 3}`)))
    .slice(0, maxResults)
    .join("");

/** arXiv's /api/query, answering Atom 1.0 as its API manual describes. */
export function fakeArxivApp(): Hono {
  const app = new Hono();
  app.get("/api/query", (c) => {
    const ids = c.req.query("id_list");
    const entries = ids
      ? ids === "2301.00001"
        ? atomEntry("2301.00001", "Attention Again")
        : ""
      : atomSearchEntries(Number(c.req.query("max_results") ?? 10));
    return c.body(
      `<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"><title>ArXiv Query</title><opensearch:totalResults>2</opensearch:totalResults>${entries}</feed>`,
      200,
      { "content-type": "application/atom+xml; charset=utf-8" },
    );
  });
  return app;
}

export const startFakeArxiv = (): Promise<FakeSource> => startFakeServer(fakeArxivApp());
