import { Hono } from "hono";
import { startFakeServer, type FakeSource } from "./server.ts";

/** Semantic Scholar's Graph API: /graph/v1/paper/search and /graph/v1/paper/{id}. */
export function fakeSemanticScholarApp(): Hono {
  const app = new Hono();
  const paper = {
    paperId: "649def34f8be52c8b66281af98ae884c09aef38b",
    title: "Construction of the Literature Graph in Semantic Scholar",
    url: "https://www.semanticscholar.org/paper/649def34",
    abstract: "We describe a deployed scalable system.",
    authors: [{ authorId: "1741101", name: "Waleed Ammar" }],
    year: 2018,
    venue: "NAACL",
    citationCount: 400,
    externalIds: { DOI: "10.18653/v1/N18-3011" },
    openAccessPdf: null,
  };
  app.get("/graph/v1/paper/search", (c) => c.json({ total: 1, offset: 0, data: [paper] }));
  app.get("/graph/v1/paper/:id", (c) =>
    ["DOI:10.18653/v1/N18-3011", paper.paperId].includes(decodeURIComponent(c.req.param("id")))
      ? c.json(paper)
      : c.json({ error: "Paper not found" }, 404),
  );
  return app;
}

export const startFakeSemanticScholar = (): Promise<FakeSource> => startFakeServer(fakeSemanticScholarApp());
