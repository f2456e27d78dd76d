import type { UpstreamOptions } from "../../upstream/client.ts";
import type { SourceContext } from "../source.ts";

export const upstream: UpstreamOptions = {
  name: "wikipedia",
  origin: "https://en.wikipedia.org",
  cacheTtlMs: 10 * 60_000,
};

/** The action API's list=search answer. */
export type SearchResponse = {
  query?: { search?: Array<{ title: string; pageid: number; snippet?: string; timestamp?: string }> };
};
/** The REST API's page summary. */
export type Summary = {
  title: string;
  extract?: string;
  description?: string;
  thumbnail?: { source: string; width?: number; height?: number };
  content_urls?: { desktop?: { page?: string } };
};

export const searchPages = (ctx: SourceContext, srsearch: string, limit: number) =>
  ctx.client.get<SearchResponse>({
    path: "/w/api.php",
    query: { action: "query", list: "search", srsearch, srlimit: limit, format: "json", utf8: 1 },
  });

export const pageSummary = (ctx: SourceContext, title: string) =>
  ctx.client.get<Summary>({ path: `/api/rest_v1/page/summary/${encodeURIComponent(title.replace(/ /g, "_"))}` });
