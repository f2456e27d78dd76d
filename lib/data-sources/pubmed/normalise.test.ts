import { describe, expect, it } from "vitest";
import { articleView, summaryRecords } from "./normalise.ts";

const efetch = `<?xml version="1.0"?><PubmedArticleSet><PubmedArticle><MedlineCitation Status="MEDLINE"><PMID Version="1">31452104</PMID><Article><Journal><JournalIssue><PubDate><Year>2019</Year><Month>Aug</Month></PubDate></JournalIssue><Title>Brain</Title></Journal><ArticleTitle>Aphasia therapy outcomes.</ArticleTitle><Abstract><AbstractText Label="BACKGROUND">Aphasia affects speech.</AbstractText><AbstractText Label="RESULTS">Therapy helped.</AbstractText></Abstract><AuthorList><Author><LastName>Smith</LastName><ForeName>Jane</ForeName></Author><Author><CollectiveName>Aphasia Group</CollectiveName></Author></AuthorList></Article><MeshHeadingList><MeshHeading><DescriptorName UI="D001037">Aphasia</DescriptorName></MeshHeading></MeshHeadingList></MedlineCitation><PubmedData><ArticleIdList><ArticleId IdType="pubmed">31452104</ArticleId><ArticleId IdType="doi">10.1000/xyz</ArticleId></ArticleIdList></PubmedData></PubmedArticle></PubmedArticleSet>`;

describe("pubmed", () => {
  it("makes esummary's records search records in esearch's order, the DOI without its prefix", () => {
    const result = {
      uids: ["2", "1"],
      "1": {
        uid: "1",
        title: "One.",
        pubdate: "2019 Aug",
        source: "Brain",
        authors: [{ name: "Smith J" }],
        elocationid: "doi: 10.1000/xyz",
      },
      "2": { uid: "2", title: "Two." },
    };
    expect(summaryRecords(["2", "1", "3"], result)).toEqual([
      {
        id: "2",
        title: "Two.",
        url: "https://pubmed.ncbi.nlm.nih.gov/2/",
        summary: null,
        authors: [],
        published: null,
        source: "pubmed",
        extra: { journal: null, doi: null },
      },
      {
        id: "1",
        title: "One.",
        url: "https://pubmed.ncbi.nlm.nih.gov/1/",
        summary: null,
        authors: ["Smith J"],
        published: "2019 Aug",
        source: "pubmed",
        extra: { journal: "Brain", doi: "10.1000/xyz" },
      },
    ]);
  });

  it("reads an efetch article: labelled abstract sections, collective authors, DOI and MeSH terms", () => {
    expect(articleView("31452104", efetch)).toEqual({
      pmid: "31452104",
      title: "Aphasia therapy outcomes.",
      abstract: "BACKGROUND: Aphasia affects speech.\n\nRESULTS: Therapy helped.",
      authors: ["Jane Smith", "Aphasia Group"],
      journal: "Brain",
      year: 2019,
      doi: "10.1000/xyz",
      mesh_terms: ["Aphasia"],
      url: "https://pubmed.ncbi.nlm.nih.gov/31452104/",
    });
  });

  it("reads an empty article set as no article", () => {
    expect(articleView("1", '<?xml version="1.0"?><PubmedArticleSet></PubmedArticleSet>')).toBeNull();
  });
});
