import { Hono } from "hono";
import { startFakeServer, type FakeSource } from "./server.ts";

/** NCBI E-utilities: esearch and esummary (JSON), efetch (PubMed XML). */
export function fakePubmedApp(): Hono {
  const app = new Hono();
  app.get("/entrez/eutils/esearch.fcgi", (c) =>
    c.json({ header: { type: "esearch" }, esearchresult: { count: "1", idlist: ["31452104"] } }),
  );
  app.get("/entrez/eutils/esummary.fcgi", (c) =>
    c.json({
      result: {
        uids: ["31452104"],
        "31452104": {
          uid: "31452104",
          title: "Aphasia therapy outcomes.",
          pubdate: "2019 Aug",
          source: "Brain",
          authors: [{ name: "Smith J" }],
          elocationid: "doi: 10.1000/xyz",
        },
      },
    }),
  );
  app.get("/entrez/eutils/efetch.fcgi", (c) => {
    if (c.req.query("id") !== "31452104")
      return c.body('<?xml version="1.0"?><PubmedArticleSet></PubmedArticleSet>', 200, { "content-type": "text/xml" });
    return c.body(
      `<?xml version="1.0"?><PubmedArticleSet><PubmedArticle><MedlineCitation Status="MEDLINE"><PMID Version="1">31452104</PMID><Article><Journal><JournalIssue><PubDate><Year>2019</Year><Month>Aug</Month></PubDate></JournalIssue><Title>Brain</Title></Journal><ArticleTitle>Aphasia therapy outcomes.</ArticleTitle><Abstract><AbstractText Label="BACKGROUND">Aphasia affects speech.</AbstractText><AbstractText Label="RESULTS">Therapy helped.</AbstractText></Abstract><AuthorList><Author><LastName>Smith</LastName><ForeName>Jane</ForeName></Author><Author><LastName>Doe</LastName><ForeName>John</ForeName></Author></AuthorList></Article><MeshHeadingList><MeshHeading><DescriptorName UI="D001037">Aphasia</DescriptorName></MeshHeading></MeshHeadingList></MedlineCitation><PubmedData><ArticleIdList><ArticleId IdType="pubmed">31452104</ArticleId><ArticleId IdType="doi">10.1000/xyz</ArticleId></ArticleIdList></PubmedData></PubmedArticle></PubmedArticleSet>`,
      200,
      { "content-type": "text/xml" },
    );
  });
  return app;
}

export const startFakePubmed = (): Promise<FakeSource> => startFakeServer(fakePubmedApp());
