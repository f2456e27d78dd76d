import { requireCredential } from "../../upstream/credentials.ts";
import type { DataSource, SearchRecord, SourceContext } from "../source.ts";

type Article = {
  source?: { id?: string | null; name?: string };
  author?: string | null;
  title: string;
  description?: string | null;
  url: string;
  urlToImage?: string | null;
  publishedAt?: string;
};
const headers = () => ({ "x-api-key": requireCredential("news", "NEWS_API_KEY") });

const record = (a: Article): SearchRecord => ({
  id: a.url,
  title: a.title,
  url: a.url,
  summary: a.description ?? null,
  authors: a.author ? [a.author] : [],
  published: a.publishedAt ?? null,
  source: "news",
  extra: { outlet: a.source?.name ?? null, image: a.urlToImage ?? null },
});

export async function newsSearch(
  ctx: SourceContext,
  q: string,
  options: { from?: string; to?: string; sortBy?: string; pageSize?: number } = {},
) {
  const body = await ctx.client.get<{ totalResults?: number; articles?: Article[] }>({
    path: "/v2/everything",
    query: {
      q,
      from: options.from,
      to: options.to,
      sortBy: options.sortBy ?? "publishedAt",
      pageSize: options.pageSize ?? 20,
      language: "en",
    },
    headers: headers(),
  });
  return { total: body.totalResults ?? 0, articles: (body.articles ?? []).map(record) };
}

export async function headlines(
  ctx: SourceContext,
  options: { country?: string; category?: string; q?: string; pageSize?: number },
) {
  const body = await ctx.client.get<{ totalResults?: number; articles?: Article[] }>({
    path: "/v2/top-headlines",
    query: {
      country: options.country ?? "us",
      category: options.category,
      q: options.q,
      pageSize: options.pageSize ?? 20,
    },
    headers: headers(),
  });
  return { total: body.totalResults ?? 0, articles: (body.articles ?? []).map(record) };
}

export const news: DataSource = {
  name: "news",
  description: "News articles from NewsAPI (NEWS_API_KEY)",
  upstream: { name: "news", origin: "https://newsapi.org", cacheTtlMs: 5 * 60_000 },
  search: async (ctx, query, limit) => (await newsSearch(ctx, query, { pageSize: limit })).articles,
  get: async (ctx, id) => (await newsSearch(ctx, id, { pageSize: 1 })).articles[0] ?? null,
};
