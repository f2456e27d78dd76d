import { requireCredential } from "../../upstream/credentials.ts";
import type { UpstreamOptions } from "../../upstream/client.ts";
import type { SourceContext } from "../source.ts";

export const upstream: UpstreamOptions = { name: "news", origin: "https://newsapi.org", cacheTtlMs: 5 * 60_000 };

const headers = () => ({ "x-api-key": requireCredential("news", "NEWS_API_KEY") });

/** An article as NewsAPI sends one. */
export type Article = {
  source?: { id?: string | null; name?: string };
  author?: string | null;
  title: string;
  description?: string | null;
  url: string;
  urlToImage?: string | null;
  publishedAt?: string;
};
export type Articles = { totalResults?: number; articles?: Article[] };

export const everything = (
  ctx: SourceContext,
  query: { q: string; from?: string; to?: string; sortBy: string; pageSize: number },
) => ctx.client.get<Articles>({ path: "/v2/everything", query: { ...query, language: "en" }, headers: headers() });

export const topHeadlines = (
  ctx: SourceContext,
  query: { country: string; category?: string; q?: string; pageSize: number },
) => ctx.client.get<Articles>({ path: "/v2/top-headlines", query, headers: headers() });
