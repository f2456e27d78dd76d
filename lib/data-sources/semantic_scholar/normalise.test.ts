import { describe, expect, it } from "vitest";
import { paperRecord } from "./normalise.ts";

describe("semantic_scholar records", () => {
  it("carry venue, citations, DOI and PDF, and link the paper's page when the API sends no URL", () => {
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
    expect(paperRecord(paper)).toEqual({
      id: "649def34f8be52c8b66281af98ae884c09aef38b",
      title: "Construction of the Literature Graph in Semantic Scholar",
      url: "https://www.semanticscholar.org/paper/649def34",
      summary: "We describe a deployed scalable system.",
      authors: ["Waleed Ammar"],
      published: "2018",
      source: "semantic_scholar",
      extra: { venue: "NAACL", citations: 400, doi: "10.18653/v1/N18-3011", pdf: null },
    });
    expect(paperRecord({ paperId: "abc", title: "T", year: null })).toMatchObject({
      url: "https://www.semanticscholar.org/paper/abc",
      summary: null,
      authors: [],
      published: null,
    });
  });
});
