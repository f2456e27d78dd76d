import { XMLParser } from "fast-xml-parser";
import { GatewayError } from "../../errors.ts";
import type { SearchRecord } from "../source.ts";
import type { Summary } from "./client.ts";

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

/** esummary's records for the ids esearch found, in esearch's order (an id without a record is left out). */
export const summaryRecords = (
  idList: string[],
  result: Record<string, Summary | string[]> | undefined,
): SearchRecord[] =>
  idList.flatMap((id) => {
    const s = result?.[id] as Summary | undefined;
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

/** efetch's PubMed XML as title, abstract, authors, journal, date, DOI and MeSH terms; null when it holds no article. */
export function articleView(pmid: string, body: string) {
  let doc: Record<string, unknown>;
  try {
    doc = xml.parse(body);
  } catch {
    throw new GatewayError(502, "pubmed answered with XML that could not be read");
  }
  const article = (doc.PubmedArticleSet as Record<string, unknown> | undefined)?.PubmedArticle as
    Record<string, unknown> | undefined;
  if (!article) return null;
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
