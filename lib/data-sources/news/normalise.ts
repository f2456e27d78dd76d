import type { SearchRecord } from "../source.ts";
import type { Article, Articles } from "./client.ts";

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

/** A page of articles: NewsAPI's total, and each article as a record keyed by its URL. */
export const articleList = (body: Articles) => ({
  total: body.totalResults ?? 0,
  articles: (body.articles ?? []).map(record),
});
