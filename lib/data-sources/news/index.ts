import type { DataSource, SourceContext } from "../source.ts";
import { everything, topHeadlines, upstream } from "./client.ts";
import { articleList } from "./normalise.ts";

export async function newsSearch(
  ctx: SourceContext,
  q: string,
  options: { from?: string; to?: string; sortBy?: string; pageSize?: number } = {},
) {
  return articleList(
    await everything(ctx, {
      q,
      from: options.from,
      to: options.to,
      sortBy: options.sortBy ?? "publishedAt",
      pageSize: options.pageSize ?? 20,
    }),
  );
}

export async function headlines(
  ctx: SourceContext,
  options: { country?: string; category?: string; q?: string; pageSize?: number },
) {
  return articleList(
    await topHeadlines(ctx, {
      country: options.country ?? "us",
      category: options.category,
      q: options.q,
      pageSize: options.pageSize ?? 20,
    }),
  );
}

export const news: DataSource = {
  name: "news",
  description: "News articles from NewsAPI (NEWS_API_KEY)",
  upstream,
  search: async (ctx, query, limit) => (await newsSearch(ctx, query, { pageSize: limit })).articles,
  get: async (ctx, id) => (await newsSearch(ctx, id, { pageSize: 1 })).articles[0] ?? null,
};
