import { GatewayError } from "../../errors.ts";
import type { DataSource, SearchRecord, SourceContext } from "../source.ts";
import { efetch, esearch, esummary, upstream } from "./client.ts";
import { articleView, summaryRecords } from "./normalise.ts";

/** E-utilities: esearch for ids, then esummary for their records. */
async function searchPubmed(ctx: SourceContext, query: string, limit: number): Promise<SearchRecord[]> {
  const idList = (await esearch(ctx, query, limit)).esearchresult?.idlist ?? [];
  if (idList.length === 0) return [];
  return summaryRecords(idList, (await esummary(ctx, idList)).result);
}

/** One article by its PubMed id. */
export async function pubmedArticle(ctx: SourceContext, pmid: string) {
  if (!/^\d{1,9}$/.test(pmid)) throw new GatewayError(400, "pmid must be a PubMed id (digits)");
  const article = articleView(pmid, await efetch(ctx, pmid));
  if (!article) throw new GatewayError(404, `pubmed has no article ${pmid}`);
  return article;
}

export const pubmed: DataSource = {
  name: "pubmed",
  description: "PubMed biomedical literature (NCBI E-utilities; NCBI_API_KEY raises the rate limit)",
  upstream,
  search: searchPubmed,
  get: (ctx, id) => pubmedArticle(ctx, id),
};
