import { XMLParser } from "fast-xml-parser";
import { GatewayError } from "../../errors.ts";
import type { DataSource, SearchRecord, SourceContext } from "../source.ts";

const keyParam = () => process.env.NCBI_API_KEY?.trim() || undefined;
const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@_", textNodeName: "#text" });
const text = (v: unknown): string =>
  v === undefined || v === null
    ? ""
    : typeof v === "object"
      ? text(
          (v as Record<string, unknown>)["#text"] ??
            Object.values(v as object)
              .map(text)
              .join(" "),
        )
      : String(v);
const list = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

type Summary = {
  uid: string;
  title: string;
  pubdate?: string;
  source?: string;
  authors?: Array<{ name: string }>;
  elocationid?: string;
};

/** E-utilities: esearch for ids, then esummary for their records (JSON). */
async function searchPubmed(ctx: SourceContext, query: string, limit: number): Promise<SearchRecord[]> {
  const ids = await ctx.client.get<{ esearchresult?: { idlist?: string[] } }>({
    path: "/entrez/eutils/esearch.fcgi",
    query: { db: "pubmed", term: query, retmax: limit, retmode: "json", api_key: keyParam() },
  });
  const idList = ids.esearchresult?.idlist ?? [];
  if (idList.length === 0) return [];
  const summaries = await ctx.client.get<{ result?: Record<string, Summary | string[]> }>({
    path: "/entrez/eutils/esummary.fcgi",
    query: { db: "pubmed", id: idList.join(","), retmode: "json", api_key: keyParam() },
  });
  return idList.flatMap((id) => {
    const s = summaries.result?.[id] as Summary | undefined;
    if (!s) return [];
    return [
      {
        id,
        title: s.title,
        url: `https://pubmed.ncbi.nlm.nih.gov/${id}/`,
        summary: null,
        authors: (s.authors ?? []).map((a) => a.name),
        published: s.pubdate ?? null,
        source: "pubmed",
        extra: { journal: s.source ?? null, doi: s.elocationid?.replace(/^doi:\s*/, "") ?? null },
      },
    ];
  });
}

/** efetch (XML): title, abstract, authors, journal, date, DOI and MeSH terms of one article. */
export async function pubmedArticle(ctx: SourceContext, pmid: string) {
  if (!/^\d{1,9}$/.test(pmid)) throw new GatewayError(400, "pmid must be a PubMed id (digits)");
  const body = await ctx.client.get<string>({
    path: "/entrez/eutils/efetch.fcgi",
    query: { db: "pubmed", id: pmid, retmode: "xml", api_key: keyParam() },
    responseType: "text",
  });
  let doc: Record<string, unknown>;
  try {
    doc = xml.parse(body);
  } catch {
    throw new GatewayError(502, "pubmed answered with XML that could not be read");
  }
  const article = (doc.PubmedArticleSet as Record<string, unknown> | undefined)?.PubmedArticle as
    Record<string, unknown> | undefined;
  if (!article) throw new GatewayError(404, `pubmed has no article ${pmid}`);
  const citation = article.MedlineCitation as Record<string, unknown>;
  const art = citation.Article as Record<string, unknown>;
  const journal = art.Journal as Record<string, unknown> | undefined;
  const authors = list(
    (art.AuthorList as Record<string, unknown> | undefined)?.Author as Array<Record<string, unknown>> | undefined,
  ).map((a) => [text(a.ForeName), text(a.LastName)].filter(Boolean).join(" ") || text(a.CollectiveName));
  const abstract = list((art.Abstract as Record<string, unknown> | undefined)?.AbstractText as unknown[] | undefined)
    .map((p) => {
      const label = typeof p === "object" && p ? (p as Record<string, string>)["@_Label"] : undefined;
      return label ? `${label}: ${text(p)}` : text(p);
    })
    .join("\n\n");
  const ids = list(
    ((article.PubmedData as Record<string, unknown> | undefined)?.ArticleIdList as Record<string, unknown> | undefined)
      ?.ArticleId as Array<Record<string, string>> | undefined,
  );
  const pubDate = ((journal?.JournalIssue as Record<string, unknown> | undefined)?.PubDate ?? {}) as Record<
    string,
    unknown
  >;
  return {
    pmid,
    title: text(art.ArticleTitle),
    abstract,
    authors,
    journal: text(journal?.Title) || null,
    year: Number(text(pubDate.Year)) || null,
    doi: ids.find((i) => i["@_IdType"] === "doi")?.["#text"] ?? null,
    mesh_terms: list(
      (citation.MeshHeadingList as Record<string, unknown> | undefined)?.MeshHeading as
        Array<Record<string, unknown>> | undefined,
    ).map((m) => text(m.DescriptorName)),
    url: `https://pubmed.ncbi.nlm.nih.gov/${pmid}/`,
  };
}

export const pubmed: DataSource = {
  name: "pubmed",
  description: "PubMed biomedical literature (NCBI E-utilities; NCBI_API_KEY raises the rate limit)",
  upstream: { name: "pubmed", origin: "https://eutils.ncbi.nlm.nih.gov", cacheTtlMs: 60 * 60_000 },
  search: searchPubmed,
  get: (ctx, id) => pubmedArticle(ctx, id),
};
