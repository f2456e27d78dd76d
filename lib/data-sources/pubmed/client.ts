import type { UpstreamOptions } from "../../upstream/client.ts";
import type { SourceContext } from "../source.ts";

export const upstream: UpstreamOptions = {
  name: "pubmed",
  origin: "https://eutils.ncbi.nlm.nih.gov",
  cacheTtlMs: 60 * 60_000,
};

const keyParam = () => process.env.NCBI_API_KEY?.trim() || undefined;

/** One record of esummary's JSON. */
export type Summary = {
  uid: string;
  title: string;
  pubdate?: string;
  source?: string;
  authors?: Array<{ name: string }>;
  elocationid?: string;
};

export const esearch = (ctx: SourceContext, term: string, limit: number) =>
  ctx.client.get<{ esearchresult?: { idlist?: string[] } }>({
    path: "/entrez/eutils/esearch.fcgi",
    query: { db: "pubmed", term, retmax: limit, retmode: "json", api_key: keyParam() },
  });

export const esummary = (ctx: SourceContext, ids: string[]) =>
  ctx.client.get<{ result?: Record<string, Summary | string[]> }>({
    path: "/entrez/eutils/esummary.fcgi",
    query: { db: "pubmed", id: ids.join(","), retmode: "json", api_key: keyParam() },
  });

/** One article as PubMed XML (text). */
export const efetch = (ctx: SourceContext, pmid: string) =>
  ctx.client.get<string>({
    path: "/entrez/eutils/efetch.fcgi",
    query: { db: "pubmed", id: pmid, retmode: "xml", api_key: keyParam() },
    responseType: "text",
  });
