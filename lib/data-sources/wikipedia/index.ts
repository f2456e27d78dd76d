import { GatewayError } from "../../errors.ts";
import { htmlToPlain } from "../../text/html-to-plain.ts";
import type { DataSource, SearchRecord, SourceContext } from "../source.ts";

type SearchResponse = {
  query?: { search?: Array<{ title: string; pageid: number; snippet?: string; timestamp?: string }> };
};
type Summary = {
  title: string;
  extract?: string;
  description?: string;
  thumbnail?: { source: string; width?: number; height?: number };
  content_urls?: { desktop?: { page?: string } };
};

const pageUrl = (title: string) => `https://en.wikipedia.org/wiki/${encodeURIComponent(title.replace(/ /g, "_"))}`;

/** A page's REST summary: `{title, extract, thumbnail}` as the spec shows, plus description and url. */
export async function wikipediaSummary(ctx: SourceContext, title: string) {
  if (!title.trim()) throw new GatewayError(400, "title is required");
  const s = await ctx.client.get<Summary>({
    path: `/api/rest_v1/page/summary/${encodeURIComponent(title.replace(/ /g, "_"))}`,
  });
  return {
    title: s.title,
    extract: s.extract ?? "",
    thumbnail: s.thumbnail?.source ?? null,
    description: s.description ?? null,
    url: s.content_urls?.desktop?.page ?? pageUrl(s.title),
  };
}

export const wikipedia: DataSource = {
  name: "wikipedia",
  description: "Wikipedia (English): full-text article search and page summaries",
  upstream: { name: "wikipedia", origin: "https://en.wikipedia.org", cacheTtlMs: 10 * 60_000 },
  async search(ctx, query, limit) {
    const body = await ctx.client.get<SearchResponse>({
      path: "/w/api.php",
      query: { action: "query", list: "search", srsearch: query, srlimit: limit, format: "json", utf8: 1 },
    });
    return (body.query?.search ?? []).map((hit): SearchRecord => ({
      id: hit.title,
      title: hit.title,
      url: pageUrl(hit.title),
      summary: hit.snippet ? htmlToPlain(hit.snippet) : null,
      published: hit.timestamp ?? null,
      source: "wikipedia",
      extra: { pageid: hit.pageid },
    }));
  },
  get: (ctx, id) => wikipediaSummary(ctx, id),
};
