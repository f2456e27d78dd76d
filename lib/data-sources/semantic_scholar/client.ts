import type { UpstreamOptions } from "../../upstream/client.ts";
import type { SourceContext } from "../source.ts";

export const upstream: UpstreamOptions = {
  name: "semantic_scholar",
  origin: "https://api.semanticscholar.org",
  cacheTtlMs: 60 * 60_000,
};

const FIELDS = "title,url,abstract,authors,year,venue,citationCount,externalIds,openAccessPdf";
const headers = (): Record<string, string> => {
  const key = process.env.SEMANTIC_SCHOLAR_API_KEY?.trim();
  return key ? { "x-api-key": key } : {};
};

/** A paper of the Graph API, with the fields asked for. */
export type Paper = {
  paperId: string;
  title: string;
  url?: string;
  abstract?: string | null;
  authors?: Array<{ name: string }>;
  year?: number | null;
  venue?: string;
  citationCount?: number;
  externalIds?: Record<string, string>;
  openAccessPdf?: { url?: string } | null;
};

export const searchPapers = (ctx: SourceContext, query: string, limit: number) =>
  ctx.client.get<{ data?: Paper[] }>({
    path: "/graph/v1/paper/search",
    query: { query, limit: Math.min(limit, 100), fields: FIELDS },
    headers: headers(),
  });

export const paper = (ctx: SourceContext, paperId: string) =>
  ctx.client.get<Paper>({
    path: `/graph/v1/paper/${encodeURIComponent(paperId)}`,
    query: { fields: FIELDS },
    headers: headers(),
  });
